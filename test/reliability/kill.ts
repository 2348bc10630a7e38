import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, REPO } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/git.ts';

export interface KillOutcome {
  /** The process was killed before it finished. */
  killed: boolean;
  /** Exit code when it finished on its own. */
  code: number | null;
  /** Wall time from spawn to exit, in ms. */
  ms: number;
}

/**
 * Spawns the real CLI and sends it SIGKILL after `afterMs` (if it is still
 * running): a crash at a point in its run the test does not choose. The
 * product carries no hook for this.
 */
export function runAndKill(args: string[], afterMs: number): Promise<KillOutcome> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' };
    delete env.AGENTS_STORE;
    const start = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', code, ms: Date.now() - start });
    });
  });
}

/**
 * Spawns the real CLI, which sends itself `signal` as it is about to remove the file `path` (absolute), or to put a
 * file in place at `{ placed }` or directly in the folder `{ placedIn }` (a rename or link onto it), or to remove a folder
 * directly in `{ rmdirIn }`, or, with `path` 'stdout', once its output waits for a
 * reader that does not read (this one reads it only once it has ended):
 * a crash (or a stop signal) at that point exactly, through a module loaded ahead of it (kill-at-unlink.cjs).
 * `killed`: it ended by that signal.
 */
export function runKilledAtUnlink(
  args: string[],
  path: string | { placed: string } | { placedIn: string } | { rmdirIn: string },
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<KillOutcome & { stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const at =
      typeof path === 'object'
        ? 'placed' in path
          ? { KILL_AT_PLACE: path.placed }
          : 'rmdirIn' in path
            ? { KILL_AT_RMDIR_IN: path.rmdirIn }
            : { KILL_AT_PLACE_IN: path.placedIn }
        : path === 'stdout'
          ? { KILL_AT_FULL_STDOUT: '1' }
          : { KILL_AT_UNLINK: path };
    const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', ...at, KILL_SIGNAL: signal };
    delete env.AGENTS_STORE;
    const start = Date.now();
    const preload = join(REPO, 'test/reliability/kill-at-unlink.cjs');
    const child = spawn(process.execPath, ['--require', preload, BIN, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    // Not read until the process has ended: a reader slower than its output.
    child.stdout.pause();
    child.on('error', reject);
    let stdout = '';
    let ended: { code: number | null; killed: boolean; ms: number } | undefined;
    child.on('exit', (code, by) => {
      ended = { code, killed: by === signal, ms: Date.now() - start };
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.stdout.resume();
    });
    child.on('close', () => resolve({ ...ended!, stdout, stderr }));
  });
}

/** A run of the real CLI paused at a point (SIGSTOP): `stopped` once it is there, `resume` to go on, `exit` how it ended. */
export interface StoppedRun {
  stopped: Promise<void>;
  resume: () => void;
  exit: Promise<{ code: number | null; stderr: string }>;
}

/**
 * Spawns the real CLI, which stops itself (SIGSTOP) as it is about to remove a folder directly in `dir` (absolute),
 * through kill-at-unlink.cjs: `stopped` resolves once it is stopped there (rejects if it ends first, or after 10 s),
 * `resume` lets it go on, `exit` gives how it ended.
 */
export function runStoppedAtRmdirIn(args: string[], dir: string): StoppedRun {
  return runStopped(args, { KILL_AT_RMDIR_IN: dir }, `removed a folder in ${dir}`);
}

/** As {@link runStoppedAtRmdirIn}, stopped as it is about to remove the file `path` (absolute). */
export function runStoppedAtUnlink(args: string[], path: string): StoppedRun {
  return runStopped(args, { KILL_AT_UNLINK: path }, `removed ${path}`);
}

/** As runStoppedAtRmdirIn, stopped as it is about to put a file or folder directly in `dir` (a rename or link into it). */
export function runStoppedAtPlaceIn(args: string[], dir: string): StoppedRun {
  return runStopped(args, { KILL_AT_PLACE_IN: dir }, `put a file in ${dir}`);
}

function runStopped(args: string[], at: Record<string, string>, what: string): StoppedRun {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', ...at, KILL_SIGNAL: 'SIGSTOP' };
  delete env.AGENTS_STORE;
  const preload = join(REPO, 'test/reliability/kill-at-unlink.cjs');
  const child = spawn(process.execPath, ['--require', preload, BIN, ...args], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  let ended = false;
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      ended = true;
      resolve({ code, stderr });
    });
  });
  const stopped = (async () => {
    const until = Date.now() + 10_000;
    for (;;) {
      if (ended) throw new Error(`it ended before it ${what}: ${stderr}`);
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'T') return;
      if (Date.now() > until) {
        child.kill('SIGKILL');
        throw new Error(`it never stopped before it ${what}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { stopped, resume: () => child.kill('SIGCONT'), exit };
}

/**
 * Spawns the real CLI, which stops itself (SIGSTOP) each time it is about to put a file directly in `dir`, and sends it
 * `signal` at the first such stop where `holding` exists (its lock taken: the placement of a file it writes under the
 * lock, never the lock's own), resuming it at every stop until it ends: a stop signal that lands while the writer
 * holds its lock, however fast or slow the machine.
 */
export function runSignalledWhileHolding(
  args: string[],
  dir: string,
  holding: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signalled: boolean; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', KILL_AT_PLACE_IN: dir, KILL_SIGNAL: 'SIGSTOP' };
  delete env.AGENTS_STORE;
  const preload = join(REPO, 'test/reliability/kill-at-unlink.cjs');
  const child = spawn(process.execPath, ['--require', preload, BIN, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  let ended = false;
  let signalled = false;
  const exit = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      ended = true;
      resolve(code);
    });
  });
  const until = Date.now() + 50_000;
  const drive = (async () => {
    while (!ended) {
      let state = '';
      try {
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
        state = stat.slice(stat.lastIndexOf(')') + 2)[0] ?? '';
      } catch {
        // Ended between the check and the read.
      }
      if (state === 'T') {
        if (!signalled && existsSync(holding)) {
          child.kill(signal);
          signalled = true;
        }
        child.kill('SIGCONT');
      }
      if (Date.now() > until) {
        child.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return Promise.all([exit, drive]).then(([code]) => ({ code, signalled, stdout, stderr }));
}

/** A small deterministic generator (mulberry32): the same delays on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * When to kill the next run, learnt as a campaign goes: aimed around the
 * moment a run's effect reaches the disk (where the lock is held and files
 * are written), and every third kill anywhere in the run. Seeded: the same
 * delays on every run of the test.
 */
export class KillAim {
  readonly #random: () => number;
  #target: number;
  #trial = -1;

  /** `calibrationMs`: how long one whole run took here. */
  constructor(seed: number, calibrationMs: number) {
    this.#random = seeded(seed);
    this.#target = Math.max(50, calibrationMs * 0.8);
  }

  /** The delay before the next trial's kill. */
  next(): number {
    this.#trial++;
    const u = this.#random();
    return Math.round(this.#trial % 3 === 0 ? u * this.#target * 1.2 : this.#target * (0.85 + 0.3 * u));
  }

  /** What the trial `next` was asked for showed: whether its effect was on disk, and how it ended. */
  learn(reached: boolean, outcome: KillOutcome): void {
    if (this.#trial % 3 !== 0) this.#target = reached ? this.#target * 0.93 : this.#target * 1.07;
    // A run that finished before its kill shows how long a run takes now (the first, calibrating run is often slower).
    if (!outcome.killed) this.#target = Math.min(this.#target, Math.max(50, outcome.ms * 0.8));
  }
}

export interface KillCampaign {
  trials: number;
  killed: number;
  /** Killed runs whose effect (`written()` grew) was already on disk. */
  killedAfterWrite: number;
  finished: number;
}

/**
 * Runs `args(i)` and kills it at seeded random points until `kills` runs were
 * killed (or `maxTrials`). Kill times are learnt as the campaign goes: aimed
 * around the moment `written()` grows, where the lock is held and files are
 * written; every third kill falls anywhere in the run.
 */
export async function killCampaign(options: {
  args: (i: number) => string[];
  written: () => number;
  kills: number;
  maxTrials: number;
  seed: number;
  /** Checks a run that finished on its own. */
  onFinished?: (code: number | null) => void;
}): Promise<KillCampaign> {
  const calibration = await runAndKill(options.args(-1), 60_000);
  options.onFinished?.(calibration.code);
  const aim = new KillAim(options.seed, calibration.ms);
  const out: KillCampaign = { trials: 0, killed: 0, killedAfterWrite: 0, finished: 0 };
  for (let i = 0; out.killed < options.kills && i < options.maxTrials; i++) {
    out.trials++;
    const after = aim.next();
    const before = options.written();
    const outcome = await runAndKill(options.args(i), after);
    const wrote = options.written() > before;
    if (outcome.killed) {
      out.killed++;
      if (wrote) out.killedAfterWrite++;
    } else {
      options.onFinished?.(outcome.code);
      out.finished++;
    }
    aim.learn(wrote, outcome);
  }
  return out;
}
