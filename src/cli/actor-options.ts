import { createInterface } from 'node:readline/promises';
import {
  AGENT_NAMES,
  type ActorChoice,
  type AgentName,
  baseUrlProblem,
  DEFAULT_KEY_ENV,
  DEFAULT_MODEL,
  looksLikeKey,
  PROVIDERS,
  type Provider,
} from '../core/actor-choice.ts';
import { CancelledError, missingOption, missingValue, UsageError } from '../core/errors.ts';
import { hideCredentials } from '../core/plain-text.ts';
import type { CliIo } from './io.ts';
import { optionWithValue } from './option-value.ts';
import { docsRef } from '../core/docs-link.ts';

/** `agents init`'s flags that choose the reconciliation actor (docs/actors.md). */
export interface ActorFlags {
  actor?: 'agent' | 'llm' | 'command' | 'interactive' | 'none';
  agent?: AgentName;
  provider?: Provider;
  model?: string;
  'base-url'?: string;
  'api-key-env'?: string;
}

/** The actors each actor flag configures: a flag given without one of them is exit 2, naming them. */
const FLAG_ACTORS: Record<Exclude<keyof ActorFlags, 'actor'>, readonly ('agent' | 'llm')[]> = {
  agent: ['agent'],
  provider: ['llm'],
  model: ['agent', 'llm'],
  'base-url': ['llm'],
  'api-key-env': ['llm'],
};

/** The choice the flags make; `undefined` for none (or `--actor none`). Flags that do not fit it are exit 2. */
export function choiceFromFlags(f: ActorFlags): ActorChoice | undefined {
  const stray = (flags: Exclude<keyof ActorFlags, 'actor'>[]) => {
    const given = flags.find((k) => f[k] !== undefined);
    if (given !== undefined) {
      const actors = FLAG_ACTORS[given];
      throw new UsageError(
        `--${given} goes with ${actors.map((a) => `--actor ${a}`).join(' or ')}`,
        (agents) => `Nothing was created. See \`${agents} init --help\` and ${docsRef('actors.md')}.`,
        { option: given, actors: [...actors] },
      );
    }
  };
  // An empty value (an unset shell variable, `--model "$MODEL"`) is the flag's missing value, as every other empty
  // option is, not the schema's words for the config.yaml field it would have made.
  const empty = (['model', 'base-url', 'api-key-env'] as const).find((k) => f[k] !== undefined && f[k].trim() === '');
  const refuseEmpty = () => {
    if (empty !== undefined)
      throw missingValue(`--${empty} is empty`, `Nothing was created. Give ${optionWithValue(empty)}, or leave it out.`, empty);
  };
  switch (f.actor) {
    case undefined:
    case 'none':
      stray(['agent', 'provider', 'model', 'base-url', 'api-key-env']);
      return undefined;
    case 'command':
    case 'interactive':
      stray(['agent', 'provider', 'model', 'base-url', 'api-key-env']);
      return { actor: f.actor };
    case 'agent':
      stray(['provider', 'base-url', 'api-key-env']);
      refuseEmpty();
      if (f.agent === undefined)
        throw missingOption(`--actor agent needs --agent ${AGENT_NAMES.join('|')}`, 'Nothing was created.', 'init', ['agent'], {
          agent: AGENT_NAMES,
        });
      return { actor: 'agent', agent: f.agent, ...(f.model !== undefined ? { model: f.model } : {}) };
    case 'llm': {
      stray(['agent']);
      refuseEmpty();
      if (f.provider === undefined)
        throw missingOption(`--actor llm needs --provider ${PROVIDERS.join('|')}`, 'Nothing was created.', 'init', ['provider'], {
          provider: PROVIDERS,
        });
      if (f['base-url'] !== undefined && !/^https?:\/\/\S+$/.test(f['base-url'])) {
        throw new UsageError(`--base-url ${JSON.stringify(f['base-url'])} is not an http(s) URL`, 'Nothing was created.');
      }
      // What config.yaml would refuse once written: every command after init would stop on it.
      const badUrl = baseUrlProblem(f['base-url']);
      if (badUrl)
        throw new UsageError(
          `--base-url ${JSON.stringify(hideCredentials(f['base-url']!))} ${badUrl.message}`,
          `Nothing was created. ${badUrl.hint}`,
        );
      if (f['api-key-env'] !== undefined && (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(f['api-key-env']) || looksLikeKey(f['api-key-env']))) {
        throw new UsageError(
          `--api-key-env takes the NAME of an environment variable, e.g. OPENAI_API_KEY, not ${f['api-key-env'].length > 12 ? 'a key' : JSON.stringify(f['api-key-env'])}`,
          'Nothing was created. The key stays in the environment, never in the store.',
        );
      }
      return {
        actor: 'llm',
        provider: f.provider,
        model: f.model ?? DEFAULT_MODEL[f.provider],
        ...(f['base-url'] !== undefined ? { base_url: f['base-url'] } : {}),
        // The variable config.yaml names, the provider's when none is given: init's JSON says the actor as written.
        api_key_env: f['api-key-env'] ?? DEFAULT_KEY_ENV[f.provider],
      };
    }
  }
}

const MENU: { label: string; choice: ActorChoice | undefined }[] = [
  { label: 'Claude Code (claude), run headless and read-only', choice: { actor: 'agent', agent: 'claude' } },
  { label: 'Codex CLI (codex), run headless and read-only', choice: { actor: 'agent', agent: 'codex' } },
  { label: 'Gemini CLI (gemini), run headless and read-only', choice: { actor: 'agent', agent: 'gemini' } },
  {
    label: `an OpenAI-compatible endpoint (key in OPENAI_API_KEY, model ${DEFAULT_MODEL.openai})`,
    choice: { actor: 'llm', provider: 'openai', model: DEFAULT_MODEL.openai, api_key_env: DEFAULT_KEY_ENV.openai },
  },
  {
    label: `Anthropic's API (key in ANTHROPIC_API_KEY, model ${DEFAULT_MODEL.anthropic})`,
    choice: { actor: 'llm', provider: 'anthropic', model: DEFAULT_MODEL.anthropic, api_key_env: DEFAULT_KEY_ENV.anthropic },
  },
  { label: 'the example actor: fixed rules, no model (to try the tool)', choice: { actor: 'command' } },
  { label: 'a person, answering at the terminal', choice: { actor: 'interactive' } },
  { label: 'decide later (config.yaml says how)', choice: undefined },
];

/** Asks at the terminal which actor judges plans; Enter takes the last entry, "decide later". */
export async function askActor(io: CliIo): Promise<ActorChoice | undefined> {
  // Lines read in the terminal's own (cooked) mode: it echoes and edits; Ctrl-C stops the process, and
  // the input closing cancels: either way nothing is created. The iterator keeps lines typed ahead.
  const rl = createInterface({ input: io.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  try {
    io.stdout.write(`Who judges plans at \`agents plan strategize\`? (${docsRef('actors.md')})\n`);
    for (const [i, m] of MENU.entries()) io.stdout.write(`  ${i + 1}) ${m.label}\n`);
    for (;;) {
      io.stdout.write(`Choose 1-${MENU.length} [${MENU.length}]: `);
      const next = await lines.next();
      if (next.done) throw new CancelledError('Cancelled: no store was created.');
      const answer = next.value.trim();
      const n = answer === '' ? MENU.length : Number(answer);
      if (Number.isInteger(n) && n >= 1 && n <= MENU.length) return MENU[n - 1]!.choice;
      io.stdout.write(`  ${JSON.stringify(answer)} is not one of 1-${MENU.length}\n`);
    }
  } finally {
    rl.close();
  }
}
