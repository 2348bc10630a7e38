import { spawn } from 'node:child_process';
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
