// The store watcher of `agents mcp` (src/mcp/watch.ts) when the system refuses a watch for its limit
// (ENOSPC: fs.inotify.max_user_watches on Linux): the watcher is given an fs.watch that refuses the folders a test names.
import { watch as fsWatch, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { oneBatchAtATime, StoreWatcher } from '../../src/mcp/watch.ts';
import { tempDir } from '../helpers/tmp.ts';

/** The folders whose watch the system refuses, by a test of the file. */
const refused = { match: (_path: string): boolean => false };

/** fs.watch, refusing as the system does at its limit the folders `refused` names. */
const watch = ((path: string, ...rest: unknown[]) => {
  if (refused.match(String(path)))
    throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`), { code: 'ENOSPC' });
  return (fsWatch as (...a: unknown[]) => unknown)(path, ...rest);
}) as typeof fsWatch;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A store with global/, two projects and three plans. */
function store(): string {
  const root = join(tempDir(), '.agents');
  for (const dir of ['global', 'projects/a', 'projects/b', ...['1', '2', '3'].map((n) => `plans/01M9E00000000000000000000${n}`)])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'config.yaml'), 'version: 1\n');
  return root;
}

afterEach(() => {
  refused.match = () => false;
});

describe('StoreWatcher at the system limit of watches', () => {
  it('says once on stderr how many folders it could not watch, and watches the others', async () => {
    const root = store();
    refused.match = (path) => path.includes('/plans/');
    const notices: string[] = [];
    const batches: string[][] = [];
    const w = new StoreWatcher(root, (paths) => batches.push([...paths]), { settleMs: 10, notice: (m) => notices.push(m), watch });
    try {
      w.start();
      await vi.waitFor(() => expect(notices).toHaveLength(1), { timeout: 10_000 });
      // The store folder, global/, projects/, plans/ and the two projects.
      expect(w.size).toBe(6);
      expect(notices[0]).toContain('3');
      expect(notices[0]).toContain('ENOSPC');
      // A change is still reported, and the folders are tried again then, without a second notice.
      writeFileSync(join(root, 'global', 'x.yaml'), 'id: x\n');
      await vi.waitFor(() => expect(batches.flat()).toContain('global/x.yaml'), { timeout: 10_000 });
      await sleep(100);
      expect(notices).toHaveLength(1);
    } finally {
      w.close();
    }
  });

  it('a store folder it could not watch is no change: no batch is reported while nothing changes', async () => {
    const root = store();
    refused.match = (path) => path === root;
    const notices: string[] = [];
    const batches: string[][] = [];
    const w = new StoreWatcher(root, (paths) => batches.push([...paths]), { settleMs: 10, notice: (m) => notices.push(m), watch });
    try {
      w.start();
      await vi.waitFor(() => expect(notices).toHaveLength(1), { timeout: 10_000 });
      // Longer than the 500 ms after which a store folder refused so was taken for a gone one come back, reported
      // changed (a batch 10 ms later), and refused again: the timers fire in order, so that batch would come first.
      await sleep(700);
      expect(batches).toEqual([]);
    } finally {
      w.close();
    }
  });
});

describe('oneBatchAtATime', () => {
  it('reports one batch at a time, in order; the batches that come meanwhile wait as one, their paths merged', async () => {
    const reported: string[][] = [];
    const done: (() => void)[] = [];
    const failures: unknown[] = [];
    const report = oneBatchAtATime(
      (paths) =>
        new Promise<void>((resolve) => {
          reported.push([...paths].sort());
          done.push(resolve);
        }),
      (error) => failures.push(error),
    );
    report(new Set(['global']));
    await sleep(0);
    // The client reads no notification: the first batch is not reported yet when the next ones come.
    for (const p of ['projects/a', 'plans/x', 'projects/a', 'config.yaml']) report(new Set([p]));
    await sleep(0);
    expect(reported).toEqual([['global']]);
    done.shift()!();
    await sleep(0);
    expect(reported).toEqual([['global'], ['config.yaml', 'plans/x', 'projects/a']]);
    // A batch that comes while the merged one is reported waits behind it.
    report(new Set(['projects/b']));
    await sleep(0);
    expect(reported).toHaveLength(2);
    done.shift()!();
    await sleep(0);
    expect(reported.at(-1)).toEqual(['projects/b']);
    done.shift()!();
    expect(failures).toEqual([]);
  });

  it('a failed report is told, and the next batch is reported still', async () => {
    const failures: unknown[] = [];
    const reported: string[] = [];
    const report = oneBatchAtATime(
      async (paths) => {
        if (paths.has('bad')) throw new Error('the store changed');
        reported.push(...paths);
      },
      (error) => failures.push((error as Error).message),
    );
    report(new Set(['bad']));
    await sleep(0);
    report(new Set(['global']));
    await sleep(0);
    expect(failures).toEqual(['the store changed']);
    expect(reported).toEqual(['global']);
  });
});
