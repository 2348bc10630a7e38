import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { inputObject, optionalFunction, optionalStrings, requiredInteger, requiredString } from '../core/input-shape.ts';
import type { ActorKind, ActorOutcome, ActorRequest } from '../core/records.ts';
import { runEnv } from '../git/run-environment.ts';
import { assertOwnStore } from '../store/ownership.ts';
import { actorFiles } from './actor-files.ts';
import { runCommandActor } from './command-actor.ts';
import { anyCredentialCleaner } from './credentials.ts';

/**
 * A reconciliation actor: evaluates a request, never throws for its own failures; a program that cannot be
 * started is no failure of an actor that ran but a configuration error (a UsageError), and nothing is recorded.
 */
export interface Actor {
  kind: ActorKind;
  /** For messages: the command line, or "a person at this terminal". */
  description: string;
  /** The model that judges (agent and llm actors), kept in the run's records. */
  model?: string;
  /** The version of the prompt sent (agent and llm actors), kept in the run's records. */
  promptVersion?: string;
  evaluate(request: ActorRequest): Promise<ActorOutcome>;
}

export interface CommandActorConfig {
  command: readonly string[];
  timeoutMs: number;
  /** The store folder: the actor's working directory. */
  cwd: string;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Told the actor's standard error when it wrote any. */
  onStderr?: (text: string) => void;
}

/** The most `timeoutMs` takes: `timeout_ms`'s maximum in config.schema.json. */
const MAX_TIMEOUT_MS = 3_600_000;

/** The `command` actor (any program speaking the JSON protocol). */
export function commandActor(given: CommandActorConfig): Actor {
  const config = inputObject(
    given,
    'commandActor',
    {
      command: true,
      timeoutMs: true,
      cwd: true,
      env: true,
      signal: true,
      onStderr: true,
    },
    'config',
  ) as CommandActorConfig;
  // A command line written as one string ('node actor.mjs') would be one program name: a list, with its program first.
  if ((optionalStrings(config.command, 'command') ?? []).length === 0)
    throw new UsageError('command must name the program to run, as a list: ["node", "actor.mjs"]', undefined, { field: 'command' });
  requiredString(config.cwd, 'cwd');
  // The bounds of timeout_ms in config.yaml: past a timer's range Node warns on standard error and stops the actor at once.
  requiredInteger(config.timeoutMs, 'timeoutMs', 1, MAX_TIMEOUT_MS);
  optionalFunction(config.onStderr, 'onStderr');
  return {
    kind: 'command',
    description: config.command.join(' '),
    async evaluate(request) {
      // The command comes from the store's config.yaml, and may run a script the store holds: never one another user wrote (docs/store-format.md).
      const also = [join(config.cwd, 'config.yaml'), ...actorFiles(config.cwd, config.command)];
      assertOwnStore(config.cwd, 'run the actor of the store', also, config.env ?? runEnv());
      const r = await runCommandActor(request, {
        command: config.command,
        cwd: config.cwd,
        timeoutMs: config.timeoutMs,
        ...(config.env ? { env: config.env } : {}),
        ...(config.signal ? { signal: config.signal } : {}),
      });
      // A wrapper around a model client may pass on an error that says its key back: the reason is recorded in the store.
      const clean = anyCredentialCleaner(config.env ?? runEnv());
      if (r.stderr && r.outcome.ok) config.onStderr?.(clean(r.stderr));
      return r.outcome.ok ? r.outcome : { ok: false, reason: clean(r.outcome.reason) };
    },
  };
}
