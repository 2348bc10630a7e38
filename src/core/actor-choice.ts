/**
 * The reconciliation actor `agents init` sets up (docs/actors.md): its lines of
 * config.yaml, and the checks of its keys that init's flags and config.yaml share.
 * Pure: the init command asks or reads flags, this says what is written.
 */

import { docsRef } from './docs-link.ts';

/** The agent CLIs `--actor agent` runs (`init --agent`'s choices). */
export const AGENT_NAMES = ['claude', 'codex', 'gemini'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];
/** The model endpoints' APIs `--actor llm` speaks (`init --provider`'s choices). */
export const PROVIDERS = ['openai', 'anthropic'] as const;
export type Provider = (typeof PROVIDERS)[number];

export type ActorChoice =
  /** The example actor, written into the store's actors/ folder. */
  | { actor: 'command' }
  | { actor: 'interactive' }
  | { actor: 'agent'; agent: AgentName; model?: string }
  | { actor: 'llm'; provider: Provider; model: string; base_url?: string; api_key_env?: string };

/** The variable each provider's own tools read the key from: the default of `api_key_env`. */
export const DEFAULT_KEY_ENV: Record<Provider, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/**
 * Whether a value given as api_key_env is the key rather than a variable's name, though it spells one
 * (a Groq key, gsk_…, a Mistral or Together key): long, with digits in three places or more, and in
 * mixed case or all hex, as generated keys are and names (OPENAI_API_KEY, MyTeamKey2024) are not.
 * A Hugging Face token is one too, though it has no digits (hf_ and 30 or more letters): it would
 * otherwise pass for a name, and be printed as one.
 */
export function looksLikeKey(value: string): boolean {
  if (/^hf_[A-Za-z]{30,}$/.test(value)) return true;
  if (value.length < 24 || (value.match(/[0-9]+/g)?.length ?? 0) < 3) return false;
  return (/[a-z]/.test(value) && /[A-Z]/.test(value)) || /^[0-9a-f]+$/i.test(value);
}

/** A model to start with for each provider, when none is given (a small, cheap one). */
export const DEFAULT_MODEL: Record<Provider, string> = { openai: 'gpt-4.1-mini', anthropic: 'claude-haiku-4-5' };

/** `reconciliation:` and its keys, for config.yaml; with no choice, the command actor left to configure. */
export function reconciliationLines(
  choice: ActorChoice | undefined,
  /** How a value given by the user is written after `prefix` (its line up to it): quoted where YAML needs it. */
  value: (text: string, prefix: string) => string,
): string[] {
  const head = [
    'reconciliation:',
    // Lines of at most 80 characters: yamllint's default, which many repositories run.
    '  # Who judges plans: agent (claude, codex or gemini,',
    '  # run headless and read-only), llm (a model endpoint), command (a',
    '  # program), interactive (a person). See',
    `  # ${docsRef('actors.md')}`,
  ];
  if (choice === undefined) {
    return [
      ...head,
      '  # command: the actor program, argv without a shell, run in this folder.',
      '  # command: [node, actors/my-actor.mjs]',
      '  actor: command',
      '  timeout_ms: 60000',
    ];
  }
  switch (choice.actor) {
    case 'command':
      return [
        ...head,
        '  # An EXAMPLE actor (fixed rules, no network): replace it with yours.',
        '  actor: command',
        '  command: [node, actors/example-actor.mjs]',
        '  timeout_ms: 60000',
      ];
    case 'interactive':
      return [...head, '  actor: interactive', '  timeout_ms: 60000'];
    case 'agent':
      return [
        ...head,
        '  actor: agent',
        `  agent: ${choice.agent}`,
        ...(choice.model !== undefined ? [`  model: ${value(choice.model, '  model: ')}`] : ['  # model: the CLI uses its own default']),
        '  # agent_path: /path/to/the/cli   # when it is not on PATH',
        '  timeout_ms: 300000',
      ];
    case 'llm':
      return [
        ...head,
        '  actor: llm',
        `  provider: ${choice.provider}`,
        `  model: ${value(choice.model, '  model: ')}`,
        ...(choice.base_url !== undefined
          ? [`  base_url: ${value(choice.base_url, '  base_url: ')}`]
          : ['  # base_url: http://localhost:11434/v1  # OpenAI-compatible']),
        '  # The NAME of the variable holding the key; never the key itself.',
        `  api_key_env: ${choice.api_key_env ?? DEFAULT_KEY_ENV[choice.provider]}`,
        '  timeout_ms: 300000',
        '  # batch_size: 50   # invariants per request',
      ];
  }
}

/**
 * The keys of `reconciliation` that `actor` cannot run without (docs/actors.md), in the order to add them:
 * none for command and interactive, whose program or person is looked for when the run starts.
 */
export function actorNeeds(r: { agent?: unknown; provider?: unknown; model?: unknown }, actor: string): string[] {
  if (actor === 'agent') return r.agent === undefined ? ['agent'] : [];
  if (actor === 'llm') return (['provider', 'model'] as const).filter((key) => r[key] === undefined);
  return [];
}

/** What to add for the keys `actorNeeds` named, e.g. `provider: openai (or anthropic)`: one example per key. */
export function actorNeedsExample(missing: readonly string[]): string {
  const example: Record<string, string> = {
    agent: 'agent: claude (or codex, gemini)',
    provider: 'provider: openai (or anthropic)',
    model: `model: ${DEFAULT_MODEL.openai} (the name the endpoint knows)`,
  };
  return missing.map((key) => example[key] ?? `${key}: …`).join(' and ');
}

/** The ports fetch refuses to connect to (https://fetch.spec.whatwg.org/#bad-port), undici's `badPorts`. */
const FETCH_BLOCKED_PORTS: readonly string[] = Object.freeze(
  (
    '1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110 111 113 115 117 119 123 135 ' +
    '137 139 143 161 179 389 427 465 512 513 514 515 526 530 531 532 540 548 554 556 563 587 601 636 989 990 993 995 1719 ' +
    '1720 1723 2049 3659 4045 4190 5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080'
  ).split(' '),
);

/**
 * What the schema's pattern lets through in `reconciliation.base_url` but no request can use: no URL
 * at all (a port past 65535, an unclosed [), a port fetch blocks, credentials, the endpoint's own path, or a query or
 * fragment, after which the endpoint's path would be appended. The message leaves out its subject: the key, or `agents init`'s flag.
 */
export function baseUrlProblem(url: string | undefined): { message: string; hint: string } | undefined {
  if (url === undefined) return undefined;
  if (!URL.canParse(url)) {
    return {
      message: 'is not a URL a request can be sent to',
      hint: 'Correct it, e.g. http://localhost:11434/v1: a port up to 65535, brackets only around an IPv6 address.',
    };
  }
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') {
    // Never the URL itself in the message: it holds the secret, and the file is committed.
    return {
      message: 'holds credentials (user:password@), which a committed config.yaml would publish',
      hint: 'Remove them from the URL, and put the key in the variable api_key_env names; if the file was committed, change the password.',
    };
  }
  // fetch never connects to these, whatever listens there: every request would fail as "bad port", retried as a network
  // failure, after the prompt was made.
  if (FETCH_BLOCKED_PORTS.includes(parsed.port)) {
    return {
      message: `names port ${parsed.port}, which fetch never connects to (a port the Fetch standard blocks)`,
      hint: "Run the server on another port and give that one, e.g. Ollama's http://localhost:11434/v1.",
    };
  }
  // The endpoint pasted whole: its path would be appended once more (…/chat/completions/chat/completions), a 404 after the prompt went out.
  const endpoint = /\/(chat\/completions|v1\/messages)\/*$/.exec(parsed.pathname)?.[1];
  if (endpoint !== undefined) {
    return {
      message: `ends in an endpoint's path (/${endpoint}): base_url is the part before it, and each request appends its endpoint's path`,
      hint: `Give the base URL without /${endpoint}, e.g. ${endpoint === 'v1/messages' ? 'https://api.anthropic.com' : 'http://localhost:11434/v1'}.`,
    };
  }
  const mark = /[?#]/.exec(url)?.[0];
  if (mark === undefined) return undefined;
  return {
    message: `holds a ${mark === '?' ? 'query (?…)' : 'fragment (#…)'}: the endpoint's path (/chat/completions, /v1/messages) is appended to base_url`,
    hint: 'Give the base URL alone, e.g. http://localhost:11434/v1; a key goes in the variable api_key_env names.',
  };
}
