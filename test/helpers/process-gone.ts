import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether a process is still running. A zombie is not: it has exited and waits
 * only for its parent to collect it, and an orphan's new parent (the container's
 * first process) may take seconds to do so on a loaded machine.
 */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    // No /proc (not Linux) or the process just ended: trust the signal test.
    return process.platform !== 'linux';
  }
}

/** Waits up to `withinMs` for the process to stop running; true when it has. */
export async function gone(pid: number, withinMs = 10_000): Promise<boolean> {
  for (let waited = 0; waited < withinMs && running(pid); waited += 50) await sleep(50);
  return !running(pid);
}
