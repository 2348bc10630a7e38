import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { envSwitchOn } from '../core/env-switch.ts';
import { EXIT_CODES } from '../core/errors.ts';
import { ENV, refuseArgs, typeName, type Shape } from '../core/input-shape.ts';
import { isObject } from '../core/parsed-shape.ts';
import { currentFolder } from '../store/current-folder.ts';

/** A CliIo a program hands `main`: its fields as CliIo types them (the optional ones are read only when there). */
const GIVEN_IO: Shape = (io) => {
  const given = io as Record<string, unknown>;
  for (const stream of ['stdout', 'stderr'] as const) {
    const s = given[stream];
    if (!isObject(s) || typeof s.write !== 'function')
      return { at: `.${stream}`, says: `must be an object with write(chunk), not ${typeName(s)}` };
  }
  if (!isObject(given.stdin)) return { at: '.stdin', says: `must be a readable stream, not ${typeName(given.stdin)}` };
  const env = ENV(given.env);
  if (env) return { ...env, at: `.env${env.at}` };
  if (typeof given.cwd !== 'string') return { at: '.cwd', says: `must be a string, not ${typeName(given.cwd)}` };
  return undefined;
};

/**
 * What a program running the command line in its own process hands `main` (agents-invariants/cli), refused as the
 * library refuses its input: words given as one string were read as commands of one letter each, and an io without
 * its streams or environment failed as a TypeError, or as exit 70 with nothing said.
 */
export function refuseMainInput(args: unknown, io: unknown): void {
  refuseArgs('main', ['args: strings', 'io: object?'], [args, io], { io: GIVEN_IO });
}

/** The outside world of one CLI run. `main` takes it whole, so tests need no process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * All of standard input, read at once, when it can be (a pipe or a file):
   * at most `max` + 1 bytes, so a caller sees that it is longer. Undefined:
   * read `stdin` as a stream instead. Throws {@link StdinTimeout} when the
   * input has not ended by `deadline` (a `Date.now()` instant).
   */
  readStdin?(max: number, deadline: number): Buffer | undefined;
  /**
   * Ends the process with `code` once what was written has gone out, whatever work is still pending. Absent where
   * the run is not the process's own (a test, a library caller): the run then just returns.
   */
  exit?(code: number): void;
}

export function processIo(): CliIo {
  return {
    // Each made on first use: Node creates a stream (and loads its modules) when it is first read, and most
    // runs never read stdin, nor write when all is well (the guard hook, validate --staged).
    get stdout() {
      return standardOutput();
    },
    get stderr() {
      return standardError();
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    // Read when first needed, inside the run's error handling: a folder removed under the shell is said, not a crash.
    get cwd() {
      return currentFolder();
    },
    readStdin: readStandardInput,
    exit(code) {
      process.exitCode = code;
      // A pipe's write may finish later (it does on macOS): exit once an empty write after the answer has gone through.
      standardOutput().write('', () => process.stderr.write('', () => process.exit(code)));
    },
  };
}

/** The output format `--format` asks for, read from the words before any parser runs (an error must answer in it too). */
export function formatOf(args: readonly string[]): OutputFormat {
  let format: OutputFormat = 'text';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const value = a === '--format' ? args[i + 1] : a.startsWith('--format=') ? a.slice('--format='.length) : undefined;
    if (value === 'json' || value === 'yaml' || value === 'text') format = value;
  }
  return format;
}

/** Whether `--no-color` (or `--color=false`) was given, read before yargs parses, as the format is. */
export function noColorOf(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--no-color' || a === '--color=false');
}

/** The `--store` of `args` before the parse reads them (the last one, none after `--`), or undefined; an empty one is none. */
export function storeOf(args: readonly string[]): string | undefined {
  let store: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const value = a === '--store' ? args[i + 1] : a.startsWith('--store=') ? a.slice('--store='.length) : undefined;
    if (value !== undefined && value !== '') store = value;
  }
  return store;
}

let outputWatched = false;

/**
 * process.stdout, ending the run as SIGPIPE would when a reader that stops early (`agents … | head`) closes the pipe,
 * and with exit 2 and one line on stderr when the output cannot be written (`> report.sarif` on a full disk).
 */
function standardOutput(): NodeJS.WriteStream {
  if (!outputWatched) {
    outputWatched = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(141);
      // The output is lost, so no document can say so on stdout: stderr alone tells it, as a store not writable is told.
      process.stderr.write(
        `error: cannot write the output: ${error.message}\nhint: Make room where the output goes (a full disk, a closed descriptor), then run the command again.\n`,
      );
      process.exit(EXIT_CODES.usage);
    });
  }
  return process.stdout;
}

let errorsWatched = false;

/**
 * process.stderr, ending the run as SIGPIPE would when its reader has gone (`agents … 2>&1 | head`), as stdout does:
 * unwatched, the failed write was an uncaught exception, exit 1, which reads as a failed check.
 */
function standardError(): NodeJS.WriteStream {
  if (!errorsWatched) {
    errorsWatched = true;
    process.stderr.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(141);
      // Nowhere is left to say any other failure: the command goes on, and its exit code says how it went.
    });
  }
  return process.stderr;
}

/** Standard input did not end by the deadline the caller gave `readStdin`. */
export class StdinTimeout extends Error {}

/**
 * A descriptor of standard input that a read never blocks on: the input itself when it is a regular file, else, on
 * Linux, the pipe or terminal opened again without blocking. A blocking read holds the event loop, so no timer could
 * end a wait on a client that keeps its end open, nor can the process exit while a thread waits in one. Undefined
 * where neither is possible (a socket, which Node's clients give, or another system): the stream reads it then.
 */
function unblockedStdin(): { fd: number; own: boolean } | undefined {
  try {
    if (fstatSync(0).isFile()) return { fd: 0, own: false };
    if (process.platform !== 'linux') return undefined;
    return { fd: openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK), own: true };
  } catch {
    return undefined;
  }
}

/** Standard input read through its descriptor, as `CliIo.readStdin`; undefined when it cannot be read so. */
function readStandardInput(max: number, deadline: number): Buffer | undefined {
  const input = unblockedStdin();
  if (input === undefined) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    while (size <= max) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 16, max + 1 - size));
      let n: number;
      try {
        n = readSync(input.fd, chunk, 0, chunk.length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EOF') break;
        // Nothing to read yet: wait for the writer, as a stream would, until the deadline.
        if (code === 'EAGAIN') {
          if (Date.now() >= deadline) throw new StdinTimeout('standard input did not end in time');
          Atomics.wait(PAUSE, 0, 0, 1);
          continue;
        }
        // Nothing read yet (a closed or odd descriptor): the stream may still read it; a read cut short is no input.
        if (size === 0) return undefined;
        throw error;
      }
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      size += n;
      if (Date.now() >= deadline) throw new StdinTimeout('standard input did not end in time');
    }
  } finally {
    if (input.own) closeSync(input.fd);
  }
  return Buffer.concat(chunks, size);
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

export type OutputFormat = 'text' | 'json' | 'yaml';

export function canPrompt(io: CliIo, noInput: boolean): boolean {
  if (noInput) return false;
  if (envSwitchOn(io.env, 'CI')) return false;
  // A terminal that says it cannot move the cursor (an editor's shell buffer) would print the screens' escapes as text.
  if (io.env.TERM === 'dumb') return false;
  // stdout first: asking stdin makes its stream, which a run whose output is piped never needs.
  return Boolean(io.stdout.isTTY && io.stdin.isTTY);
}

/** Whether to colour what goes to `stream` (stdout unless said): an error on stderr is coloured by stderr's terminal. */
export function useColor(io: CliIo, noColor: boolean, stream: { isTTY?: boolean } = io.stdout): boolean {
  if (noColor) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  // `false` turns forcing off as `0` does, as Node.js and the colour libraries read it, never forcing colours on.
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force !== 'false') return true;
  return Boolean(stream.isTTY);
}
