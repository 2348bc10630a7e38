import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';

/**
 * Runs `work` in this process with no file descriptor left (EMFILE): the soft limit on open files lowered to those
 * it holds, then every lower number taken. prlimit sets it, as Node.js cannot; placeholders, closed first, let the
 * prlimit that restores it start. Undefined when prlimit is not there, for the caller to skip.
 */
export async function withNoFileDescriptorLeft<T>(work: () => T | Promise<T>): Promise<{ result: T } | undefined> {
  const limits = spawnSync('prlimit', ['--pid', String(process.pid), '--nofile', '--raw', '--noheadings', '--output=SOFT,HARD'], {
    encoding: 'utf8',
  });
  if (limits.status !== 0) return undefined;
  const [soft, hard] = limits.stdout.trim().split(/\s+/);
  const placeholders = Array.from({ length: 16 }, () => openSync('/dev/null', 'r'));
  const highest = Math.max(...readdirSync('/proc/self/fd').map(Number));
  if (spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${highest + 1}:${hard}`]).status !== 0) {
    for (const fd of placeholders) closeSync(fd);
    return undefined;
  }
  try {
    for (;;) placeholders.push(openSync('/dev/null', 'r'));
  } catch {
    // Every number below the limit is taken.
  }
  try {
    return { result: await work() };
  } finally {
    for (const fd of placeholders) closeSync(fd);
    spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${soft}:${hard}`]);
  }
}
