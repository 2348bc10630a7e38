import { existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteTmpRoot } from '../helpers/tmp-root.ts';

const onTmpfs = (() => {
  try {
    return statfsSync('/dev/shm').type === 0x01021994;
  } catch {
    return false;
  }
})();

/** A pid no process holds: the largest the kernel may give, if it is free. */
function deadPid(): number | undefined {
  const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) - 1;
  try {
    process.kill(max, 0);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? max : undefined;
  }
}

describe("the suite's temporary folders", () => {
  it('keep a TMPDIR the caller set', () => {
    expect(suiteTmpRoot({ TMPDIR: '/var/tmp' })).toBeUndefined();
  });

  it.skipIf(!onTmpfs)("go to a run's own folder on /dev/shm, and a killed run's folder is removed", () => {
    const dead = deadPid();
    const stale = dead === undefined ? undefined : join('/dev/shm', `agents-tests-${dead}-stale`);
    if (stale) mkdirSync(join(stale, 'left'), { recursive: true });
    const root = suiteTmpRoot({});
    try {
      expect(root).toBeDefined();
      expect(dirname(root!)).toBe('/dev/shm');
      expect(basename(root!)).toMatch(new RegExp(`^agents-tests-${process.pid}-`));
      expect(statSync(root!).mode & 0o7777).toBe(0o1777);
      if (stale) expect(existsSync(stale)).toBe(false);
      // This run's own folder, if the suite has one, belongs to a live process and stays.
      if (process.env.AGENTS_TEST_TMP_ROOT) expect(existsSync(process.env.AGENTS_TEST_TMP_ROOT)).toBe(true);
    } finally {
      if (root) rmSync(root, { recursive: true, force: true });
      if (stale) rmSync(stale, { recursive: true, force: true });
    }
  });
});
