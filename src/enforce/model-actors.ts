import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { actorNeeds, actorNeedsExample } from '../core/actor-choice.ts';
import { type AgentsError, UsageError } from '../core/errors.ts';
import type { StoreConfig } from '../core/model.ts';
import type { ActorRequest } from '../core/records.ts';
import { PROMPT_VERSION } from '../core/reconcile-prompt.ts';
import type { Actor } from './actors.ts';
import { AGENTS, agentActor, agentArgs, findAgent } from './agent-actor.ts';
import { DEFAULT_BASE_URL, endpointOf, type LlmActorConfig, llmActor, requestBody } from './llm-actor.ts';
import { MODEL_ACTOR_DEFAULTS, promptsFor } from './model-actor.ts';
import { docsRef } from '../core/docs-link.ts';

/**
 * The `agent` and `llm` actors made from config.yaml (docs/actors.md). Loaded only by
 * `plan strategize` when one of them is configured, so no other command pays for it.
 */

export interface ModelActorContext {
  /** The store folder (config.yaml's); the agent runs in the folder holding it. */
  root: string;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

type Reconciliation = StoreConfig['reconciliation'];

const NOTHING = 'Nothing was written.';

/** The llm actor's settings from config.yaml, the key read from its variable; bad settings are exit 2. */
export function llmSettings(r: Reconciliation, env: Record<string, string | undefined>, withKey: boolean): LlmActorConfig {
  if (r.provider === undefined || r.model === undefined) throw notSetUp('llm', r);
  // A URL is shown in messages and kept in records: credentials in it would be too.
  const base = r.base_url === undefined ? undefined : URL.canParse(r.base_url) ? new URL(r.base_url) : undefined;
  if (base && (base.username !== '' || base.password !== '')) {
    throw new UsageError(
      'reconciliation.base_url holds credentials (user:password@)',
      `${NOTHING} Remove them from the URL: it is shown in messages and records; put the key in the variable api_key_env names.`,
    );
  }
  let apiKey: string | undefined;
  if (r.api_key_env !== undefined && withKey) {
    // Spaces around the key are not sent (a header's value is trimmed): it is kept as sent, so that an echo of it is found.
    apiKey = env[r.api_key_env]?.replace(/^[ \t]+|[ \t]+$/g, '');
    if (apiKey === undefined || apiKey === '') {
      throw new UsageError(
        `the environment variable ${r.api_key_env} (reconciliation.api_key_env) is not set`,
        `${NOTHING} Export the API key in ${r.api_key_env}; config.yaml names the variable, never the key.`,
      );
    }
    // fetch refuses such a header on every attempt, which would be retried as a network failure; the error names no part of the key.
    // A line break at either end (a file saved with CRLF) would be trimmed from the header, and the echo of the key not found.
    if (/[\r\n]/.test(apiKey) || !headerCarries(apiKey)) {
      throw new UsageError(
        `the environment variable ${r.api_key_env} (reconciliation.api_key_env) holds a line break or a character an HTTP header cannot carry`,
        `${NOTHING} Export the key alone in ${r.api_key_env}, as the provider gave it (a copy may have taken a line break or a quotation mark).`,
      );
    }
  }
  const baseUrl = (r.base_url ?? DEFAULT_BASE_URL[r.provider]).replace(/\/+$/, '');
  return {
    provider: r.provider,
    model: r.model,
    baseUrl,
    apiKey,
    timeoutMs: r.timeout_ms,
    batchSize: r.batch_size ?? MODEL_ACTOR_DEFAULTS.batch_size,
    maxRequestChars: r.max_request_chars ?? MODEL_ACTOR_DEFAULTS.max_request_chars,
    maxOutputTokens: r.max_output_tokens ?? MODEL_ACTOR_DEFAULTS.max_output_tokens,
    maxRetries: r.max_retries ?? MODEL_ACTOR_DEFAULTS.max_retries,
    ...proxyOf(env, baseUrl),
  };
}

/**
 * `--actor` naming an actor config.yaml does not set up: a usage error, as config.yaml is valid (its own actor
 * lacking a key is config.yaml's error, at its line, before any actor is made).
 */
function notSetUp(actor: 'agent' | 'llm', r: Reconciliation): UsageError {
  const missing = actorNeeds(r, actor);
  return new UsageError(
    `the ${actor} actor needs ${missing.map((key) => `reconciliation.${key}`).join(' and ')} in config.yaml`,
    `${NOTHING} Add ${actorNeedsExample(missing)} under reconciliation (${docsRef('actors.md')}).`,
  );
}

/** Whether fetch takes `value` as a header's value. */
function headerCarries(value: string): boolean {
  try {
    new Headers({ 'x-api-key': value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The proxy of the environment for the endpoint, as curl reads it: HTTPS_PROXY for an https:// base_url,
 * HTTP_PROXY for an http:// one (the lower-case names first), never one for the other; NO_PROXY the hosts
 * reached without it. undici alone would send https through HTTP_PROXY when HTTPS_PROXY is unset.
 */
function proxyOf(env: Record<string, string | undefined>, baseUrl: string): Pick<LlmActorConfig, 'proxy'> {
  const name = baseUrl.startsWith('https:') ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const variable = env[name.toLowerCase()] ? name.toLowerCase() : name;
  const url = proxyUrl(variable, env);
  if (url === undefined) return {};
  return { proxy: { url, variable, noProxy: env.no_proxy || env.NO_PROXY || '' } };
}

/**
 * A proxy variable's URL. Without a scheme (proxy.corp:3128) it is an HTTP proxy, as curl reads it;
 * undici would take it for no URL at every attempt, each retried as a network failure. A value no
 * request can go through is exit 2 naming the variable, never its value (it may hold a password).
 */
function proxyUrl(variable: string, env: Record<string, string | undefined>): string | undefined {
  const value = env[variable]?.trim() || undefined;
  if (value === undefined) return undefined;
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === 'http:' || parsed?.protocol === 'https:') return url;
  throw new UsageError(
    parsed
      ? `the proxy in the environment variable ${variable} is a ${parsed.protocol.slice(0, -1)} proxy; the llm actor goes through http:// and https:// proxies only`
      : `the environment variable ${variable} holds no proxy URL a request can go through`,
    `${NOTHING} Set ${variable} to the proxy as http://HOST:PORT (or https://), or unset it to reach the endpoint without a proxy.`,
  );
}

function agentProgram(r: Reconciliation, ctx: ModelActorContext): { agent: keyof typeof AGENTS; program: string } {
  if (r.agent === undefined) throw notSetUp('agent', r);
  const found = findProgram(r.agent, r, ctx);
  if ('error' in found) throw found.error;
  return { agent: r.agent, program: found.program };
}

/** The agent CLI's program, or the error (`agent-not-found`) that stops a run without it: a run throws it, a preview says it. */
function findProgram(agent: keyof typeof AGENTS, r: Reconciliation, ctx: ModelActorContext): { program: string } | { error: UsageError } {
  const a = AGENTS[agent];
  const program = findAgent(agent, r.agent_path, ctx.root, ctx.env);
  if (program !== undefined) return { program };
  if (r.agent_path !== undefined) return { error: agentPathUnusable(r.agent_path, ctx.root, a) };
  return {
    error: new UsageError(
      `the agent CLI \`${a.program}\` (${a.product}) was not found on PATH`,
      `${NOTHING} Install it (${a.install}) and sign in as you do to use it, or set reconciliation.agent_path to where it is.`,
      undefined,
      'agent-not-found',
    ),
  };
}

/**
 * Why `agent_path` names no program to run, said with the path it was taken as (a relative one is the store
 * folder's, not the shell's): a file without the execute bit is to be made runnable, not installed again.
 */
function agentPathUnusable(given: string, root: string, a: (typeof AGENTS)[keyof typeof AGENTS]): UsageError {
  const path = resolve(root, given);
  const where =
    path === given ? `${path} (reconciliation.agent_path)` : `${path} (reconciliation.agent_path: ${given}, from the store folder)`;
  const kind = statKind(path);
  const problem = kind === 'file' ? 'not-executable' : kind === 'other' ? 'not-a-file' : kind;
  const [what, todo] =
    kind === 'file'
      ? ['is not executable', `Make it executable (chmod +x ${path}), or set reconciliation.agent_path to the CLI itself.`]
      : kind === 'folder'
        ? ['is a folder', `Set reconciliation.agent_path to the CLI's program in it (relative paths are the store folder's).`]
        : [
            kind === 'missing' ? 'does not exist' : 'is not a file',
            `Install it (${a.install}) and set reconciliation.agent_path to where it is (relative paths are the store folder's), or remove agent_path to find \`${a.program}\` on PATH.`,
          ];
  return new UsageError(`the agent CLI ${where} ${what}`, `${NOTHING} ${todo}`, { agent_path: given, path, problem }, 'agent-not-found');
}

/** What is at `path`, following links. */
function statKind(path: string): 'file' | 'folder' | 'missing' | 'other' {
  try {
    const st = statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'missing';
  }
}

/** The configured `agent` or `llm` actor. */
export function modelActorFromConfig(kind: 'agent' | 'llm', r: Reconciliation, ctx: ModelActorContext): Actor {
  const signal = ctx.signal ? { signal: ctx.signal } : {};
  if (kind === 'llm') return llmActor({ ...llmSettings(r, ctx.env, true), ...signal });
  const { agent, program } = agentProgram(r, ctx);
  return agentActor({
    agent,
    program,
    ...(r.model !== undefined ? { model: r.model } : {}),
    cwd: dirname(ctx.root),
    env: ctx.env,
    timeoutMs: r.timeout_ms,
    maxRequestChars: r.max_request_chars ?? MODEL_ACTOR_DEFAULTS.max_request_chars,
    ...signal,
  });
}

/** One request `--show-prompt` shows: where it would go and what it would hold. */
export interface PromptPreview {
  ids: string[];
  system: string;
  user: string;
  /** llm: the URL and body (the key is in a header, never shown). */
  endpoint?: string;
  body?: Record<string, unknown>;
  /** agent: the command line (the prompt goes on standard input). */
  command?: string[];
}

/** Why the run would stop before anything is sent, which a preview shows rather than stops on (an agent CLI not found). */
export interface PreviewProblem {
  code: string;
  message: string;
  hint: string | null;
  detail: Record<string, unknown> | null;
}

/** The refusal a run would make, as `--show-prompt` says it (a warning, and `problem` in its JSON). */
export function previewProblem(error: AgentsError): PreviewProblem {
  return { code: error.code, message: error.message, hint: error.hint ?? null, detail: error.detail ?? null };
}

/**
 * What the `agent` or `llm` actor would send for `request`, sending nothing (pure but for
 * finding the agent CLI). The key is not read: a preview needs none.
 */
export function previewModelActor(
  kind: 'agent' | 'llm',
  r: Reconciliation,
  request: ActorRequest,
  ctx: ModelActorContext,
): { prompt_version: string; model: string; requests: PromptPreview[]; problem: PreviewProblem | null } {
  const llm = kind === 'llm' ? llmSettings(r, ctx.env, false) : undefined;
  const batchSize = llm ? llm.batchSize : Number.MAX_SAFE_INTEGER;
  const batches = promptsFor(request, batchSize, r.max_request_chars ?? MODEL_ACTOR_DEFAULTS.max_request_chars);
  if (llm) {
    return {
      prompt_version: PROMPT_VERSION,
      model: `${llm.provider}/${llm.model}`,
      requests: batches.prompts.map((p) => ({ ...p, endpoint: endpointOf(llm), body: requestBody(llm, p) })),
      problem: null,
    };
  }
  // The command line as it would run, found or not, and why a run would stop when not (a preview is also how to
  // check the setup: an agent_path that names no program is said, not shown as if it would run).
  const agent = r.agent;
  if (agent === undefined) agentProgram(r, ctx);
  const name = agent!;
  const found = findProgram(name, r, ctx);
  const program = 'program' in found ? found.program : (r.agent_path ?? AGENTS[name].program);
  const problem = 'error' in found ? previewProblem(found.error) : null;
  const files = { schema: '<answer schema file>', last: '<last message file>', policy: '<read-only policy file>' };
  // Codex's run also turns off each MCP server `codex mcp list --json` names, which only the run itself asks.
  const mcpOff = name === 'codex' ? ['-c', '<mcp_servers.NAME.enabled=false for each server `codex mcp list --json` names>'] : [];
  return {
    prompt_version: PROMPT_VERSION,
    model: r.model ? `${name}/${r.model}` : name,
    requests: batches.prompts.map((p) => ({ ...p, command: [program, ...agentArgs(name, files, r.model, mcpOff)] })),
    problem,
  };
}
