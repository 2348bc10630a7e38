import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { flowItem } from '../core/schema-diagnostics.ts';
import { parseActorAnswer, type ActorOutcome, type ActorRequest } from '../core/records.ts';
import { readUtf8 } from '../core/utf8.ts';
import { missingActorScript } from './actor-files.ts';
import { watchGroup } from './actor-watchdog.ts';
import { executableFile, programOnPath } from '../store/program-path.ts';
import { fileHead } from '../store/read-file.ts';

/** The most an actor may print on standard output; more is a failure (and the actor is stopped). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** How long a stopped actor gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 1000;
const STDERR_TAIL = 2000;

export interface CommandActorOptions {
  /** argv: program and arguments, run without a shell. */
  command: readonly string[];
  /** Working directory: the store folder, so a store moves with its actor scripts. */
  cwd: string;
  timeoutMs: number;
  env?: Record<string, string | undefined>;
  /** Aborting stops the actor (its whole process group) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface CommandActorOutcome {
  outcome: ActorOutcome;
  /** The end of what the actor wrote on standard error, for the user. */
  stderr: string;
  durationMs: number;
}

export interface ProgramOptions extends CommandActorOptions {
  /** What is written to standard input, which is then closed. */
  input: string;
  /** How messages name the program, e.g. "the actor `node a.mjs`". */
  label: string;
  /** Where the program is set up, for a program that cannot be started: `reconciliation.command` by default. */
  setting?: string;
}

/**
 * A program's run: what it printed when it exited 0, or why it failed; a program that exited with
 * another status keeps its status and what it printed, where a caller may find its own account of
 * the failure (an agent CLI's JSON error).
 */
export type ProgramOutcome = { ok: true; stdout: string } | { ok: false; reason: string; exitCode?: number; stdout?: string };

/** Whether a program named by its path (with a slash: not looked up on PATH) is a folder, which no chmod makes runnable. */
function isFolder(program: string, cwd: string): boolean {
  if (!program.includes('/')) return false;
  try {
    return statSync(resolvePath(cwd, program)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where the program is to run: a file at its path (with a slash), or an executable file on the run's PATH (a bare
 * name); undefined when it is not there. One that ENOENT stops all the same is missing its #! line's interpreter, not itself.
 */
function programThere(program: string, cwd: string, env: Record<string, string | undefined> | undefined): string | undefined {
  if (!program.includes('/')) return programOnPath(program, (env ?? process.env).PATH);
  const path = resolvePath(cwd, program);
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The #! line of the program at `path`, without its line feed, if it has one. */
function shebangLine(path: string): string | undefined {
  const head = fileHead(path, 256);
  if (head === undefined || head.toString('latin1', 0, 2) !== '#!') return undefined;
  return head.toString('utf8', 2).split('\n', 1)[0]!;
}

/** The file a hint tells to edit: the program as written, or, found on PATH, where it was found. */
function fileToEdit(program: string, path: string): string {
  return program.includes('/') ? program : path;
}

/** The interpreter the #! line of the program at `path` names, as the system reads it (to the first blank), if it has one. */
function shebangInterpreter(path: string): string | undefined {
  return shebangLine(path)?.trimStart().split(/[ \t]/, 1)[0] || undefined;
}

/**
 * A #! line ending in a carriage return (a script saved with Windows line ends): its last word reaches the system,
 * or `env`, with the carriage return, `/bin/sh\r` or `node\r`, a program no system has. The file, not the system, is
 * wrong; found before the start, since through `env` it would start and fail as a run.
 */
function crlfShebang(shown: string, program: string, path: string): { why: string; interpreter: string; hint: string } | undefined {
  const line = shebangLine(path);
  if (line === undefined || !line.endsWith('\r')) return undefined;
  const interpreter = `${line.trim().split(/[ \t]/).at(-1)!}\r`;
  const file = fileToEdit(program, path);
  return {
    why: `${shown} could not be started: ${program} names an interpreter on its #! line that was not found (ENOENT): ${JSON.stringify(interpreter)}, the line ending in a carriage return (the file has CRLF line ends)`,
    interpreter,
    hint: `Nothing was written: no actor ran. Save ${file} with LF line ends (dos2unix ${file}), and have git check it out so: \`text eol=lf\` for it in .gitattributes.`,
  };
}

/** Why a program that is there was not started (ENOENT): its #! interpreter, named, and a CRLF line end said as such. */
function interpreterMissing(shown: string, program: string, path: string): { why: string; interpreter?: string; hint?: string } {
  const crlf = crlfShebang(shown, program, path);
  if (crlf !== undefined) return crlf;
  const interpreter = shebangInterpreter(path);
  const why = `${shown} could not be started: ${program} names an interpreter on its #! line that was not found (ENOENT)`;
  if (interpreter === undefined) return { why };
  const file = fileToEdit(program, path);
  return {
    why: `${why}: ${interpreter}`,
    interpreter,
    hint: `Nothing was written: no actor ran. Install ${interpreter}, or correct the #! line of ${file}.`,
  };
}

/**
 * A program not found, with what its name shows went wrong: the command is run without a shell, so words a shell
 * would split (`node actors/a.mjs` as one item) or expand (`~/bin/actor`, `$HOME/bin/actor`) name no program.
 */
function notFound(program: string): string {
  const said = `${program} was not found (ENOENT)`;
  const words = program.trim().split(/\s+/);
  if (words.length > 1)
    return `${said}: no shell splits it into words; write the program and each argument as an item of its own, [${words.map(flowItem).join(', ')}]`;
  const expanded = program.startsWith('~') ? '~' : /\$\{?[A-Za-z_]/.test(program) ? 'a $VARIABLE' : undefined;
  if (expanded !== undefined)
    return `${said}: no shell runs it, so ${expanded} in it is not expanded; give the path itself (absolute, or from the store folder)`;
  return said;
}

/**
 * Why the program of `options` could not be started, given the system's `errno` (and `message`, for any other): a
 * program or `#!` interpreter not found, a folder, a file that may not be run.
 */
function startRefusal(options: StartOptions, errno: string | undefined, message: string): UsageError {
  const [program = ''] = options.command;
  const shown = options.label;
  const there = errno === 'ENOENT' ? programThere(program, options.cwd, options.env) : undefined;
  if (there !== undefined) {
    const missing = interpreterMissing(shown, program, there);
    return notStarted(options, missing.why, errno, missing);
  }
  const why =
    errno === 'ENOENT'
      ? `${shown} could not be started: ${notFound(program)}`
      : errno === 'EACCES' && isFolder(program, options.cwd)
        ? `${shown} could not be started: ${program} is a folder, not a program (EACCES); name the program in it, e.g. [node, ${program.replace(/\/+$/, '')}/my-actor.mjs]`
        : errno === 'EACCES'
          ? `${shown} could not be started: ${program} may not be run (EACCES); make it executable (chmod +x), or name its interpreter first in the command (e.g. [sh, ${program}])`
          : `${shown} could not be started: ${message}`;
  return notStarted(options, why, errno);
}

/**
 * A program that cannot be started is a configuration error (exit 2, nothing written), as an actor not
 * configured is: no actor ran, so there is no run to record (ADR 0703).
 */
function notStarted(
  options: Pick<ProgramOptions, 'command' | 'setting'>,
  why: string,
  errno: string | undefined,
  extra: { interpreter?: string; missing?: string; hint?: string } = {},
): UsageError {
  const setting = options.setting ?? 'reconciliation.command';
  return new UsageError(
    why,
    extra.hint ??
      `Nothing was written: no actor ran. Install the program, or correct ${setting} in config.yaml (a program on PATH, or a path from the store folder).`,
    {
      command: [...options.command],
      setting,
      errno: errno ?? null,
      ...(extra.interpreter !== undefined ? { interpreter: extra.interpreter } : {}),
      ...(extra.missing !== undefined ? { missing: extra.missing } : {}),
    },
    'actor-not-started',
  );
}

function describeCommand(command: readonly string[]): string {
  return command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/**
 * Runs a command actor once (docs/plans.md): the request as JSON on standard input,
 * the answer as JSON on standard output. The actor leads its own process
 * group, so a timeout stops it and every process it started. Never rejects for
 * an actor failure: crashes, exit statuses, timeouts and bad answers come back
 * as `{ ok: false, reason }`; a program that cannot be started rejects (see runProgram).
 */
export async function runCommandActor(request: ActorRequest, options: CommandActorOptions): Promise<CommandActorOutcome> {
  if (options.command.length === 0) return { outcome: { ok: false, reason: 'no actor command configured' }, stderr: '', durationMs: 0 };
  const label = commandActorLabel(options.command);
  const refusal = beforeStartRefusal({ ...options, label });
  if (refusal !== undefined) throw refusal;
  const r = await runProgram({ ...options, input: `${JSON.stringify(request)}\n`, label });
  if (!r.outcome.ok) return { outcome: r.outcome, stderr: r.stderr, durationMs: r.durationMs };
  // An actor that exited 0 with no usable answer often said why on standard error alone (a missing key, a stack).
  const answer = parseActorAnswer(r.outcome.stdout);
  const outcome = answer.ok ? answer : { ok: false as const, reason: withStderrTail(answer.reason, r.stderr) };
  return { outcome, stderr: r.stderr, durationMs: r.durationMs };
}

/** How messages name a command actor: "the actor `node actors/a.mjs`". */
function commandActorLabel(command: readonly string[]): string {
  return `the actor \`${describeCommand(command)}\``;
}

type StartOptions = Pick<ProgramOptions, 'command' | 'cwd' | 'env' | 'setting' | 'label'>;

/**
 * What a run refuses before it starts the program (actor-not-started): a script of `actors/` that is not there, or a
 * program whose #! line ends in a carriage return, which `env` would start and fail on (recorded as a failed run).
 */
function beforeStartRefusal(options: StartOptions): UsageError | undefined {
  const missing = missingScriptRefusal(options);
  if (missing !== undefined) return missing;
  const [program = ''] = options.command;
  const there = programThere(program, options.cwd, options.env);
  const crlf = there === undefined ? undefined : crlfShebang(options.label, program, there);
  return crlf === undefined ? undefined : notStarted(options, crlf.why, 'ENOENT', crlf);
}

/** A script of the store's `actors/` the command runs that is not there: the interpreter would start, fail on it, and be recorded as a run, though no actor ran (ADR 0703). */
function missingScriptRefusal(options: StartOptions): UsageError | undefined {
  const missing = missingActorScript(options.cwd, options.command);
  if (missing === undefined) return undefined;
  return notStarted(
    options,
    `${options.label} could not be started: ${describeCommand([missing])}, the script it runs, is not in the store folder (ENOENT)`,
    'ENOENT',
    {
      missing,
      hint: `Nothing was written: no actor ran. Add ${describeCommand([missing])} to the store (committed, for every checkout), or correct reconciliation.command in config.yaml.`,
    },
  );
}

/**
 * The refusal a run of the command actor `command` would make before it starts (actor-not-started), found without
 * starting it, for `plan strategize --show-prompt` to warn of: a script of `actors/` that is not there, a program
 * not found, a folder, a file without the execute bit, or a `#!` interpreter (named by its path) that is not there.
 * Said in the words a run says it in (startRefusal); undefined when the program would be started.
 */
export function commandActorStartProblem(options: Pick<ProgramOptions, 'command' | 'cwd' | 'env'>): UsageError | undefined {
  const start = { ...options, label: commandActorLabel(options.command) };
  const before = beforeStartRefusal(start);
  if (before !== undefined) return before;
  const [program = ''] = options.command;
  if (isFolder(program, options.cwd)) return startRefusal(start, 'EACCES', '');
  const there = programThere(program, options.cwd, options.env);
  if (there === undefined) return startRefusal(start, 'ENOENT', '');
  if (!executableFile(there)) return startRefusal(start, 'EACCES', '');
  const interpreter = shebangInterpreter(there);
  if (interpreter !== undefined && isAbsolute(interpreter) && !existsSync(interpreter)) return startRefusal(start, 'ENOENT', '');
  return undefined;
}

/** A program's failure with the end of its standard error after it, where the program's own account of it is. */
export function withStderrTail(why: string, stderr: string): string {
  const tail = stderr.trim();
  return tail ? `${why}; its standard error ends: ${tail.slice(-500)}` : why;
}

/**
 * Runs a program the way every actor runs (docs/plans.md, "The actor protocol"): without a
 * shell, `input` on standard input, as the leader of its own process group, so a timeout or
 * a cancel stops it and every process it started. Never rejects for the program's failure
 * (crash, exit status, timeout, output over the limit); rejects with the signal's reason
 * when cancelled, and with a UsageError (`actor-not-started`) when the program cannot be
 * started: no actor ran, so there is nothing to record (ADR 0703).
 */
export function runProgram(options: ProgramOptions): Promise<{ outcome: ProgramOutcome; stderr: string; durationMs: number }> {
  const started = Date.now();
  const [program = '', ...args] = options.command;
  const shown = options.label;
  return new Promise((resolve, reject) => {
    // A cancel that came before the start (while the store was read) stops the run as one during it does: an
    // abort listener added now would never hear it, and the program would run and its answer be recorded.
    if (options.signal?.aborted) {
      reject(options.signal.reason ?? new Error('cancelled'));
      return;
    }
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, args, {
        cwd: options.cwd,
        env: options.env as NodeJS.ProcessEnv | undefined,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      reject(notStarted(options, `${shown} could not be started: ${(error as Error).message}`, (error as NodeJS.ErrnoException).code));
      return;
    }
    // A program that could not be started has no pid, and no group to watch.
    const releaseWatchdog = child.pid === undefined ? () => {} : watchGroup(child.pid);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: string | undefined;
    let aborted = false;
    let done = false;
    let exited = false;
    let spawned = false;
    let startFailure: UsageError | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        try {
          child.kill(signal);
        } catch {
          // Already gone.
        }
      }
    };
    const stop = (why: string) => {
      failure ??= why;
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      // A process that left the group may still hold our pipes open: stop waiting for it.
      drainTimer ??= setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        if (exited) finish(null, 'SIGKILL');
      }, KILL_GRACE_MS * 2);
    };
    const timer = setTimeout(
      () => stop(`${shown} did not answer within ${options.timeoutMs} ms (timeout_ms) and was stopped`),
      options.timeoutMs,
    );
    const onAbort = () => {
      aborted = true;
      stop('cancelled');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      if (drainTimer) clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      // Leave no helper processes behind.
      killGroup('SIGKILL');
      releaseWatchdog();
      const tail = stderr.trim();
      const durationMs = Date.now() - started;
      if (aborted) {
        reject(options.signal?.reason ?? new Error('cancelled'));
        return;
      }
      if (startFailure !== undefined) {
        reject(startFailure);
        return;
      }
      let outcome: ProgramOutcome;
      const withStderr = (why: string) => withStderrTail(why, tail);
      if (failure !== undefined) outcome = { ok: false, reason: failure };
      else if (signal !== null) outcome = { ok: false, reason: withStderr(`${shown} crashed (killed by ${signal})`) };
      else if (code !== 0)
        outcome = {
          ok: false,
          reason: withStderr(`${shown} exited with status ${code}`),
          exitCode: code ?? -1,
          stdout: Buffer.concat(chunks).toString('utf8'),
        };
      else {
        // Read leniently, a byte that is not UTF-8 would reach the record as U+FFFD: a response the actor never gave.
        const read = readUtf8(Buffer.concat(chunks));
        outcome = read.ok
          ? { ok: true, stdout: read.text }
          : {
              ok: false,
              reason: withStderr(`the answer of ${shown} is not UTF-8 text (line ${read.line}, column ${read.col} of its output)`),
            };
      }
      resolve({ outcome, stderr: tail, durationMs });
    };

    child.on('spawn', () => {
      spawned = true;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      // An error once the program runs (a kill that failed) is no failure to start it: the run failed.
      if (spawned) {
        failure ??= `${shown} failed: ${error.message}`;
        finish(null, null);
        return;
      }
      startFailure = startRefusal(options, error.code, error.message);
      finish(null, null);
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        stop(`the answer of ${shown} is larger than ${MAX_ANSWER_BYTES} bytes; it was stopped`);
        return;
      }
      chunks.push(chunk);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    child.on('exit', (code, signal) => {
      exited = true;
      // A helper that outlives the actor may hold its pipes open; the answer is complete once the actor exits.
      drainTimer ??= setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, KILL_GRACE_MS);
    });
    child.on('close', (code, signal) => finish(code, signal));
    // An actor that exits without reading its input closes the pipe: that is its business, not an error.
    child.stdin!.on('error', () => {});
    child.stdin!.end(options.input);
  });
}
