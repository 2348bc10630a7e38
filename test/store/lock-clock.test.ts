import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFolderLock } from '../../src/store/lock.ts';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

/** Rewrites the time a lock names as `shift` ms earlier: what a wall clock set forward by `shift` since makes of it. */
function clockSetForward(lockPath: string, shift: number): void {
  const [pid, host, time, ...rest] = readFileSync(lockPath, 'utf8').trim().split(' ');
  writeFileSync(lockPath, `${[pid, host, new Date(Date.parse(time!) - shift).toISOString(), ...rest].join(' ')}\n`);
}

// A wall clock set forward (NTP stepping it, a machine resumed) moves the boot time /proc gives, so a live writer looks
// started after the time its lock names, as a later process given its number would.
describe('a lock when the wall clock jumps', () => {
  it('a live writer keeps its lock after the clock is set forward: another writer waits and stops with locked, validate --fix keeps it', async () => {
    const store = testStore();
    const lock = join(store, 'global/.lock');
    const cleared: string[] = [];
    let second: unknown;
    let fixed: { stdout: string } = { stdout: '' };
    await withFolderLock(store, 'global', async () => {
      clockSetForward(lock, 3_600_000);
      second = await withFolderLock(store, 'global', () => 'taken', { timeoutMs: 200, notice: (m) => cleared.push(m) }).catch(
        (error: { code?: string }) => error.code,
      );
      fixed = await runAgents(['--store', store, 'validate', '--fix', '--format', 'json']);
      expect(existsSync(lock)).toBe(true);
    });
    expect(cleared).toEqual([]);
    expect(second).toBe('locked');
    expect(JSON.parse(fixed.stdout).diagnostics ?? []).not.toContainEqual(expect.objectContaining({ code: 'stale-lock' }));
  });

  it('a lock naming another start than its number has now is stale: the number was given to a later process', async () => {
    const store = testStore();
    const lock = join(store, 'global/.lock');
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()} start:1\n`);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'Never push to main'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '300' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`cleared a stale lock ${join(store, 'global/.lock')}`);
    expect(existsSync(lock)).toBe(false);
  });
});
