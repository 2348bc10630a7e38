import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { executableFile, programOnPath } from '../store/program-path.ts';
import { ANSWER_SCHEMA, promptText, type ReconcilePrompt } from '../core/reconcile-prompt.ts';
import type { Actor } from './actors.ts';
import { type ProgramOutcome, runProgram, withStderrTail } from './command-actor.ts';
import { credentialCleaner } from './credentials.ts';
import { modelActor, type ModelTransport, type SendOutcome } from './model-actor.ts';

import type { AgentName } from '../core/actor-choice.ts';

export type { AgentName };

/** Each agent CLI: its program name and the npm package that installs it, for the message when it is missing. */
export const AGENTS: Record<AgentName, { program: string; product: string; install: string }> = {
  claude: { program: 'claude', product: 'Claude Code', install: 'npm install -g @anthropic-ai/claude-code' },
  codex: { program: 'codex', product: 'Codex CLI', install: 'npm install -g @openai/codex' },
  gemini: { program: 'gemini', product: 'Gemini CLI', install: 'npm install -g @google/gemini-cli' },
};

export interface AgentActorConfig {
  agent: AgentName;
  /** The CLI's path (found with `findAgent`). */
  program: string;
  /** The model the CLI is told to use; absent: the CLI's own default. */
  model?: string;
  /** Where the agent runs: the repository the store belongs to, which it may read but not change. */
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  maxRequestChars: number;
  signal?: AbortSignal;
}

/**
 * Gemini CLI's policy for the run: no tool that writes or runs commands, whatever the user's settings
 * allow. `exit_plan_mode` too: it switches a headless run to YOLO mode, which offers (and approves)
 * the tools of the user's MCP servers, and those may write; no MCP server's tool either.
 */
const GEMINI_POLICY = `[[rule]]
toolName = ["write_file", "replace", "run_shell_command", "save_memory", "exit_plan_mode"]
decision = "deny"
priority = 999
`;

/** The line given to `gemini -p`, which appends it to the prompt read from standard input. */
const GEMINI_TAIL = 'Answer as the instructions above ask: with the JSON object only.';

/**
 * The CLI's arguments for one headless, read-only run that reads the prompt on standard
 * input (docs/actors.md). No argument ever holds a secret: the CLI finds its own
 * credentials, as it does when the team runs it.
 */
export function agentArgs(
  agent: AgentName,
  files: { schema: string; last: string; policy: string },
  model?: string,
  mcpOff: readonly string[] = [],
): string[] {
  const m = model ? ['--model', model] : [];
  if (agent === 'claude') {
    // Read, Grep and Glob only; no MCP servers of the user's (they may write); the answer's schema enforced.
    return [
      '-p',
      '--output-format',
      'json',
      '--json-schema',
      JSON.stringify(ANSWER_SCHEMA),
      '--tools',
      'Read,Grep,Glob',
      '--strict-mcp-config',
      '--no-session-persistence',
      ...m,
    ];
  }
  if (agent === 'codex') {
    // `-c` keys, not --disable: an unknown feature name in -c is ignored by other Codex versions, not refused.
    const off = ['shell_tool', 'multi_agent', 'goals', 'view_image', 'image_generation'].flatMap((f) => ['-c', `features.${f}=false`]);
    return [
      'exec',
      '--sandbox',
      'read-only',
      '--skip-git-repo-check',
      '--ephemeral',
      '--color',
      'never',
      ...off,
      '-c',
      'web_search="disabled"',
      ...mcpOff,
      '--output-schema',
      files.schema,
      '--output-last-message',
      files.last,
      ...m,
      '-',
    ];
  }
  return ['-p', GEMINI_TAIL, '--output-format', 'json', '--approval-mode', 'plan', '--policy', files.policy, ...m];
}

/**
 * The arguments that turn off each MCP server Codex would start for this run (`-c
 * mcp_servers.NAME.enabled=false`), as `codex mcp list --json` names them: the user's
 * (~/.codex/config.toml), a profile's, a trusted project's. Their tools may write, and neither the
 * read-only sandbox (shell commands only) nor the features turned off reach them; Codex has no
 * switch for all of them, and `-c mcp_servers={}` is merged into the user's table, not put in its place.
 */
export function codexMcpOff(listJson: string): { ok: true; args: string[] } | { ok: false; reason: string } {
  let list: unknown;
  try {
    list = JSON.parse(listJson);
  } catch {
    return { ok: false, reason: `\`codex mcp list --json\` printed no JSON; it begins ${JSON.stringify(listJson.trim().slice(0, 80))}` };
  }
  if (!Array.isArray(list)) return { ok: false, reason: '`codex mcp list --json` printed no list' };
  const args: string[] = [];
  for (const server of list) {
    const name = (server as { name?: unknown } | null)?.name;
    // Codex takes only these names; another could not be named safely in a -c key.
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]+$/.test(name))
      return {
        ok: false,
        reason: `\`codex mcp list --json\` names an MCP server ${JSON.stringify(name)} that cannot be turned off by name`,
      };
    args.push('-c', `mcp_servers.${name}.enabled=false`);
  }
  return { ok: true, args };
}

/**
 * The agent CLI's path: `agent_path` when configured (relative to the store folder),
 * else its usual name found on PATH; `undefined` when there is none.
 */
export function findAgent(
  agent: AgentName,
  configured: string | undefined,
  storeRoot: string,
  env: Record<string, string | undefined>,
): string | undefined {
  if (configured !== undefined) {
    const path = isAbsolute(configured) ? configured : resolve(storeRoot, configured);
    return executableFile(path) ? path : undefined;
  }
  return programOnPath(AGENTS[agent].program, env.PATH, { pathext: env.PATHEXT });
}

/**
 * The `agent` actor: the team's agent CLI, run headless and read-only once per batch,
 * with the prompt on standard input; its answer is read from the CLI's JSON output
 * (structured output for Claude Code and Codex, a fenced JSON block for Gemini CLI).
 */
export function agentActor(config: AgentActorConfig): Actor {
  const name = AGENTS[config.agent].program;
  const description = `the agent actor (${name})`;
  const clean = credentialCleaner(config.agent, config.env);
  const transport: ModelTransport = {
    model: config.model ? `${config.agent}/${config.model}` : config.agent,
    clean,
    async send(prompt, signal, timeLeftMs) {
      const sent = await run(prompt, signal, timeLeftMs);
      return sent.ok ? sent : { ok: false, reason: clean(sent.reason) };
    },
  };
  /** One run of the CLI for one prompt: its answer, or why there is none (the CLI's own words at times). */
  async function run(prompt: ReconcilePrompt, signal: AbortSignal, timeLeftMs: number): Promise<SendOutcome> {
    const dir = mkdtempSync(join(tmpdir(), 'agents-actor-'));
    try {
      const files = { schema: join(dir, 'answer.schema.json'), last: join(dir, 'last-message.txt'), policy: join(dir, 'read-only.toml') };
      writeFileSync(files.schema, JSON.stringify(ANSWER_SCHEMA));
      writeFileSync(files.policy, GEMINI_POLICY);
      let mcpOff: string[] = [];
      const started = Date.now();
      if (config.agent === 'codex') {
        const listed = await runProgram({
          command: [config.program, 'mcp', 'list', '--json'],
          cwd: config.cwd,
          env: config.env,
          timeoutMs: timeLeftMs,
          signal,
          input: '',
          label: `the agent CLI \`${name} mcp list --json\``,
          setting: 'reconciliation.agent_path',
        }).catch(stoppedUnlessNotStarted);
        if (!listed.outcome.ok) return listed.outcome;
        const off = codexMcpOff(listed.outcome.stdout);
        // A server left on could write: no run rather than one that is not read-only.
        if (!off.ok) return { ok: false, reason: `${off.reason}; the run was not started, as it could not be made read-only` };
        mcpOff = off.args;
      }
      const r = await runProgram({
        command: [config.program, ...agentArgs(config.agent, files, config.model, mcpOff)],
        cwd: config.cwd,
        env: config.env,
        timeoutMs: Math.max(1, timeLeftMs - (Date.now() - started)),
        signal,
        input: promptText(prompt),
        label: `the agent CLI \`${name}\``,
        setting: 'reconciliation.agent_path',
      }).catch(stoppedUnlessNotStarted);
      if (!r.outcome.ok) {
        // The CLI's own account of what failed (an API error), instead of the bare status or a stack's tail; the
        // credentials taken out before it is cut short, where a key echoed across the cut would no longer be found whole.
        const own =
          r.outcome.exitCode !== undefined ? reportedError(config.agent, clean(r.outcome.stdout ?? ''), clean(r.stderr)) : undefined;
        return own ? { ok: false, reason: `the agent CLI \`${name}\` exited with status ${r.outcome.exitCode}: ${own}` } : r.outcome;
      }
      // A CLI that exited 0 with no answer to read (a sign-in it lacks, said on standard error alone) says why there.
      const read = readAgentOutput(config.agent, r.outcome.stdout, files.last);
      return read.ok ? read : { ok: false, reason: withStderrTail(read.reason, clean(r.stderr)) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return modelActor({
    kind: 'agent',
    description,
    transport,
    timeoutMs: config.timeoutMs,
    // One prompt holds the whole set when it fits: an agent run is slow to start, and sees every constraint at once.
    batchSize: Number.MAX_SAFE_INTEGER,
    maxRequestChars: config.maxRequestChars,
    ...(config.signal ? { signal: config.signal } : {}),
  });
}

/**
 * A run the signal stopped (the model loop says why), or, thrown on, a CLI that could not be started: a configuration
 * error that stops the run with nothing written, as the command actor's does (ADR 0703).
 */
function stoppedUnlessNotStarted(error: unknown): { outcome: ProgramOutcome; stderr: string } {
  if (error instanceof UsageError) throw error;
  return { outcome: { ok: false, reason: 'stopped' }, stderr: '' };
}

/** The last JSON object of a text that ends with one (Gemini CLI prints its error object after its log lines). */
function lastJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trimEnd();
  for (let at = trimmed.lastIndexOf('{'); at >= 0; at = trimmed.lastIndexOf('{', at - 1)) {
    if (at > 0 && trimmed[at - 1] !== '\n') continue;
    try {
      const value = JSON.parse(trimmed.slice(at)) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Not the start of the object: an inner line.
    }
  }
  return undefined;
}

/**
 * The error a failed CLI reported in its JSON output: Claude Code's `result` when `is_error` (on
 * standard output), Gemini CLI's `error.message` (on standard error, after its stack), its API
 * error's own message drawn out of the JSON it quotes. Undefined when there is none.
 */
export function reportedError(agent: AgentName, stdout: string, stderr: string): string | undefined {
  if (agent === 'claude') {
    const out = lastJsonObject(stdout);
    if (out?.is_error !== true) return undefined;
    return `Claude Code reported an error: ${String(out.result ?? out.subtype).slice(0, 300)}`;
  }
  if (agent !== 'gemini') return undefined;
  const error = (lastJsonObject(stdout) ?? lastJsonObject(stderr))?.error as { message?: unknown; code?: unknown } | undefined;
  if (!error || typeof error.message !== 'string') return undefined;
  let message = error.message;
  try {
    const api = (JSON.parse(message) as { error?: { message?: unknown } }).error;
    if (typeof api?.message === 'string') message = api.message;
  } catch {
    // A plain message.
  }
  const code = typeof error.code === 'number' || typeof error.code === 'string' ? `${error.code} ` : '';
  return `Gemini CLI reported an error: ${code}${message}`.slice(0, 330);
}

/** The answer in a CLI's output: Claude Code's and Gemini CLI's JSON result, Codex's last message. */
function readAgentOutput(agent: AgentName, stdout: string, lastFile: string): SendOutcome {
  if (agent === 'codex') {
    try {
      return { ok: true, answer: readFileSync(lastFile, 'utf8') };
    } catch {
      return { ok: true, answer: stdout };
    }
  }
  let out: unknown;
  try {
    out = JSON.parse(stdout);
  } catch {
    out = undefined;
  }
  // The CLIs print one result object; anything else (no JSON, a null or a list) holds no answer to read.
  if (out === null || typeof out !== 'object' || Array.isArray(out)) {
    const what = out === undefined ? 'is not JSON' : 'is no JSON object';
    return { ok: false, reason: `the agent CLI's output ${what}; it begins ${JSON.stringify(stdout.trim().slice(0, 80))}` };
  }
  return readAgentResult(agent, out as Record<string, unknown>);
}

/** The answer in Claude Code's or Gemini CLI's result object, or the error it reports. */
function readAgentResult(agent: AgentName, out: Record<string, unknown>): SendOutcome {
  if (agent === 'claude') {
    if (out.is_error === true)
      return { ok: false, reason: `Claude Code reported an error: ${String(out.result ?? out.subtype).slice(0, 300)}` };
    return { ok: true, answer: out.structured_output ?? out.result ?? '' };
  }
  const error = out.error as { message?: unknown } | undefined;
  if (error) return { ok: false, reason: `Gemini CLI reported an error: ${String(error.message).slice(0, 300)}` };
  return { ok: true, answer: typeof out.response === 'string' ? out.response : '' };
}
