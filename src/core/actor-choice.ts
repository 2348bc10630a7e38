/**
 * The reconciliation actor `agents init` sets up (docs/actors.md): its lines of
 * config.yaml. Pure: the init command asks or reads flags, this says what is written.
 */

export type AgentName = 'claude' | 'codex' | 'gemini';
export type Provider = 'openai' | 'anthropic';

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
 */
export function looksLikeKey(value: string): boolean {
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
    '  # Who judges plans (docs/actors.md): agent (claude, codex or gemini,',
    '  # run headless and read-only), llm (a model endpoint), command (a',
    '  # program), interactive (a person).',
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
