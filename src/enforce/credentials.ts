import type { AgentName } from '../core/actor-choice.ts';

/** The shortest value taken for a key: a shorter one (a local server's dummy key, `ollama`) is no secret, and is a word. */
const SHORTEST_KEY = 8;

/**
 * Takes each key out of a text shown or recorded, as `[key]`. A value shorter than a key is left alone: taken
 * out of a host name or a message, it would leave an error that no longer says what failed.
 */
export function keyCleaner(keys: readonly (string | undefined)[]): (text: string) => string {
  const secrets = keys.filter((key): key is string => key !== undefined && key.length >= SHORTEST_KEY);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[key]'), text);
}

/** The variables each agent CLI reads its credentials from (docs/actors.md, "Secrets"). */
const CREDENTIAL_VARIABLES: Record<AgentName, readonly string[]> = {
  claude: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
  codex: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};

/**
 * Takes the CLI's credentials, as its environment holds them, out of a text: an endpoint that echoes a key
 * back has it in the error the CLI reports, which the run records and prints.
 */
export function credentialCleaner(agent: AgentName, env: Record<string, string | undefined>): (text: string) => string {
  return keyCleaner(CREDENTIAL_VARIABLES[agent].map((name) => env[name]?.trim()));
}

/**
 * Takes every agent CLI's credentials out of a command actor's failure: a wrapper around a model client (docs/plans.md,
 * "Wiring an LLM as the actor") runs with the same keys, and the error it passes on is recorded in the store.
 */
export function anyCredentialCleaner(env: Record<string, string | undefined>): (text: string) => string {
  return keyCleaner(Object.values(CREDENTIAL_VARIABLES).flatMap((names) => names.map((name) => env[name]?.trim())));
}
