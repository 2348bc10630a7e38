import type { Diagnostic } from './diagnostics.ts';

/** The one table of exit codes (docs/commands.md). */
export const EXIT_CODES = Object.freeze({
  ok: 0,
  /** A check failed: validation errors, a duplicate on add, error violations. */
  checkFailed: 1,
  /** Usage or bad input: flag, name, regex, unknown or ambiguous id, no store, confirmation needed. */
  usage: 2,
  /** The store holds invalid files the command needed. */
  invalidStore: 3,
  /** A bug. */
  internal: 70,
  /** Cancelled by the user. */
  cancelled: 130,
} as const);

/**
 * The exit of a run a stop signal ended, 128 and the signal's number as a shell reports a process it killed: what a
 * writer stopped while it waited for another's lock ends with, once it has said so (exit 130 for Ctrl-C). SIGQUIT
 * closes a screen of the terminal UI only.
 */
export const SIGNAL_EXIT_CODES = Object.freeze({ SIGHUP: 129, SIGINT: 130, SIGQUIT: 131, SIGTERM: 143 } as const);

/** The exit code of a run `signal` ended (130 for one the table lacks, as a cancel's). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return SIGNAL_EXIT_CODES[signal as keyof typeof SIGNAL_EXIT_CODES] ?? EXIT_CODES.cancelled;
}

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES] | (typeof SIGNAL_EXIT_CODES)[keyof typeof SIGNAL_EXIT_CODES];

/** Marks an AgentsError made by any copy of this module (see `AgentsError[Symbol.hasInstance]`). */
const BRAND = Symbol.for('agents-invariants.AgentsError');

/**
 * A hint that names a command to run, made from the start of that command: `agents`, or the command line's with the
 * run's --store (CliContext.agentsCommand), given where the error is reported, since the code that refuses below the
 * command line does not know how the run named its store. Pasted where the run ran, the command reaches the same store.
 */
export type CommandHint = (agents: string) => string;

/** An error meant for the user: a message, what to do next, and an exit code. Never printed with a stack. */
export class AgentsError extends Error {
  /**
   * An error made by another copy of this module is an AgentsError too: the
   * CLI's bundle and the terminal UI's ES module build each hold a copy
   * (docs/adr/0302-cli-bundle-with-code-cache.md). Subclasses, which inherit
   * this, keep the ordinary check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const branded = typeof value === 'object' && value !== null && BRAND in value;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, a subclass included.
    return Function.prototype[Symbol.hasInstance].call(this, value) || (branded && this === AgentsError);
  }

  readonly [BRAND] = true;
  readonly exitCode: ExitCode;
  /** The hint, a command it names starting with a bare `agents` (`hintFor` starts it with the run's). */
  readonly hint: string | undefined;
  readonly #hint: string | CommandHint | undefined;
  /**
   * The hint names no command-line option, command or library method, so any surface says it: a form of the terminal
   * UI too, where a hint naming `--tag` would mean nothing and is left out (errorSummary).
   */
  readonly hintAnySurface: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** Machine-readable detail for `--format json` (e.g. the existing id on a duplicate). */
  readonly detail: Record<string, unknown> | undefined;
  /**
   * A stable machine-readable name of the failure (`unknown-project`,
   * `value-too-long`, `duplicate`, …) for `--format json` (docs/json-output.md);
   * by default the name of the exit code's class (`usage`, `check-failed`, …).
   */
  readonly code: string;

  constructor(
    message: string,
    exitCode: ExitCode,
    options: {
      hint?: string | CommandHint;
      hintAnySurface?: boolean;
      diagnostics?: readonly Diagnostic[];
      detail?: Record<string, unknown>;
      code?: string;
      /** The error this one says (a file system's), for a caller that words the same failure for its own place. */
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentsError';
    this.exitCode = exitCode;
    this.#hint = options.hint;
    this.hint = typeof options.hint === 'function' ? options.hint('agents') : options.hint;
    this.hintAnySurface = options.hintAnySurface === true && options.hint !== undefined;
    this.diagnostics = options.diagnostics ?? [];
    this.detail = options.detail;
    this.code = options.code ?? defaultErrorCode(exitCode);
  }

  /** The hint, a command it names starting with `agents`: the run's, with its --store (CliContext.agentsCommand). */
  hintFor(agents: string): string | undefined {
    return typeof this.#hint === 'function' ? this.#hint(agents) : this.#hint;
  }
}

/** The `code` of an error that names none: its exit code's class. */
export function defaultErrorCode(exitCode: ExitCode): string {
  switch (exitCode) {
    case EXIT_CODES.checkFailed:
      return 'check-failed';
    case EXIT_CODES.usage:
      return 'usage';
    case EXIT_CODES.invalidStore:
      return 'invalid-store';
    case EXIT_CODES.cancelled:
      return 'cancelled';
    default:
      return 'internal';
  }
}

export class UsageError extends AgentsError {
  constructor(message: string, hint?: string | CommandHint, detail?: Record<string, unknown>, code?: string) {
    super(message, EXIT_CODES.usage, { hint, detail, code });
    this.name = 'UsageError';
  }
}

/**
 * A command without an option it needs (exit 2, code `missing-option`, docs/json-output.md): one yargs requires, or
 * one of a group the command checks itself (`guard try` needs --path, --command or --tool). `command`: its words
 * after `agents`; `options`: the names without dashes; `choices`: the values each of them that has choices takes,
 * by its name, so that a script (and the hint) can name a value without the command's help.
 */
export function missingOption(
  message: string,
  hint: string | CommandHint | undefined,
  command: string,
  options: readonly string[],
  choices?: Readonly<Record<string, readonly string[]>>,
): UsageError {
  const detail: Record<string, unknown> = { command, options: [...options] };
  if (choices && Object.keys(choices).length > 0)
    detail.choices = Object.fromEntries(Object.entries(choices).map(([option, values]) => [option, [...values]]));
  return new UsageError(message, hint, detail, 'missing-option');
}

/**
 * An option without its value, or with an empty one where it names something (exit 2, code `missing-value`,
 * docs/json-output.md). `option`: its name without dashes; `choices`: the values it takes, when it has choices.
 */
export function missingValue(
  message: string,
  hint: string | CommandHint | undefined,
  option: string,
  choices?: readonly string[],
): UsageError {
  return new UsageError(message, hint, choices ? { option, choices: [...choices] } : { option }, 'missing-value');
}

/** A command without its argument (exit 2, code `missing-argument`): `invariant show` with no id. */
export function missingArgument(message: string, hint: string | CommandHint | undefined, command: string, argument: string): UsageError {
  return new UsageError(message, hint, { command, argument }, 'missing-argument');
}

/**
 * Options that cannot go together (exit 2, code `conflicting-options`, docs/json-output.md), whichever check finds
 * them: yargs' own, or a command's or the library's. `options`: their names without dashes.
 */
export function conflictingOptions(message: string, hint: string | CommandHint | undefined, options: readonly string[]): UsageError {
  return new UsageError(message, hint, { options: [...options] }, 'conflicting-options');
}

/**
 * A store, or a file a command writes, changed under the command between its read and its write (exit 2, code
 * `store-changed`, docs/json-output.md): nothing written, and a script reruns the command rather than fixing its
 * arguments. `detail` names what changed.
 */
export function storeChanged(message: string, hint: string, detail: Record<string, unknown>): UsageError {
  return new UsageError(message, hint, detail, 'store-changed');
}

/**
 * A value over its schema's length limit (exit 2, code `value-too-long`,
 * docs/json-output.md): every writer's refusal of a value too long, whether its
 * own check or the schema gate finds it first. Nothing is written.
 */
export function valueTooLong(what: {
  file: string;
  field: string;
  length: number;
  limit: number;
  schema: string;
  /** " (from …)" when the user did not type the value as a flag. */
  where?: string;
  /** What to do, without the trailing "Nothing was written." */
  fix: string;
}): UsageError {
  const { file, field, length, limit, schema } = what;
  return new UsageError(
    `${field} is ${length} characters long${what.where ?? ''}; the limit is ${limit} (${schema})`,
    `${what.fix} Nothing was written.`,
    { file, field, limit, length, schema },
    'value-too-long',
  );
}

/** A check failed (exit 1). */
export class CheckFailedError extends AgentsError {
  constructor(message: string, hint?: string | CommandHint, detail?: Record<string, unknown>, code?: string) {
    super(message, EXIT_CODES.checkFailed, { hint, detail, code });
    this.name = 'CheckFailedError';
  }
}

/** The store holds invalid files the command needed (exit 3). */
export class InvalidStoreError extends AgentsError {
  constructor(
    message: string,
    diagnostics: readonly Diagnostic[],
    hint: string | CommandHint = (agents) => `Fix the file, then run \`${agents} validate\` to check the store.`,
  ) {
    super(message, EXIT_CODES.invalidStore, { hint, diagnostics });
    this.name = 'InvalidStoreError';
  }
}

export class CancelledError extends AgentsError {
  /** `signal`: the stop signal that ended the run, whose exit code it keeps (SIGNAL_EXIT_CODES); 130 without one. */
  constructor(
    message = 'Cancelled.',
    readonly signal?: keyof typeof SIGNAL_EXIT_CODES,
  ) {
    super(message, signal ? SIGNAL_EXIT_CODES[signal] : EXIT_CODES.cancelled, { code: 'cancelled' });
    this.name = 'CancelledError';
  }
}

/**
 * The system's error code when `error` says no file descriptor was left to open a file or start a process:
 * `EMFILE`, this process's limit (`ulimit -n`), or `ENFILE`, the whole system's. Undefined for any other error.
 */
export function fileDescriptorShortage(error: unknown): 'EMFILE' | 'ENFILE' | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE' ? code : undefined;
}

/**
 * `what` could not be done for want of a file descriptor (exit 2, code `too-many-open-files`): a limit of the
 * system, not a bug nor a mistake in the command, so it is said as that limit and how to raise it.
 */
export function tooManyOpenFiles(what: string, errno: 'EMFILE' | 'ENFILE' = 'EMFILE'): AgentsError {
  return errno === 'EMFILE'
    ? new AgentsError(
        `${what}: this process holds as many open files as its limit allows (ulimit -n), and has no file descriptor left`,
        EXIT_CODES.usage,
        {
          hint: 'Raise the limit on the files a process may hold open (`ulimit -n 1024` in the shell that runs it), then run the command again.',
          hintAnySurface: true,
          code: 'too-many-open-files',
        },
      )
    : new AgentsError(`${what}: the system has no file descriptor left (too many files open on it)`, EXIT_CODES.usage, {
        hint: "Close some programs, or raise the system's limit on open files (fs.file-max), then run the command again.",
        hintAnySurface: true,
        code: 'too-many-open-files',
      });
}

/** Signals that end a run: Ctrl-C, CI's cancel (SIGTERM) and a closed terminal (SIGHUP). */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Stops a run once its caller's `signal` has aborted, always with a CancelledError: the signal's reason when it is
 * one (the command line's, which keeps the stop signal's exit code), else one saying `outcome`. A plain `abort()`'s
 * reason is a DOMException, which a caller catching the library's CancelledError would not know for a stop.
 */
export function throwIfCancelled(signal: AbortSignal | undefined, outcome: string): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  throw reason instanceof AgentsError && reason.code === 'cancelled' ? reason : new CancelledError(`Cancelled: ${outcome}`);
}

/** The stop signal an abort's reason names (cancelledBy's), for a wait it ends to end with that signal's code too. */
export function stopSignalOf(reason: unknown): keyof typeof SIGNAL_EXIT_CODES | undefined {
  return reason instanceof AgentsError && reason.code === 'cancelled' ? (reason as CancelledError).signal : undefined;
}

/**
 * The error a run stopped by `signal` ends with, saying what was left undone, and with the signal's own exit code
 * (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), as every command a stop ends exits (docs/guarantees.md): a
 * script tells CI's cancel from a person's Ctrl-C whichever command it stopped.
 */
export function cancelledBy(signal: NodeJS.Signals, outcome: string): CancelledError {
  return new CancelledError(
    `Cancelled${signal === 'SIGINT' ? '' : ` by ${signal}`}: ${outcome}`,
    signal in SIGNAL_EXIT_CODES ? (signal as keyof typeof SIGNAL_EXIT_CODES) : undefined,
  );
}
