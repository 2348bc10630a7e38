// The store watcher of `agents mcp` (src/mcp/watch.ts) when the system refuses a watch for its limit
// (ENOSPC: fs.inotify.max_user_watches on Linux): fs.watch is made to refuse the folders a test names.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/tmp.ts';

/** The folders whose watch the system refuses, by a test of the file. */
const refused = vi.hoisted(() => ({ match: (_path: string): boolean => false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const watch = ((path: string, ...rest: unknown[]) => {
    if (refused.match(String(path)))
      throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`), { code: 'ENOSPC' });
    return (fs.watch as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.watch;
  return { ...fs, default: { ...fs, watch }, watch };
});

const { StoreWatcher } = await import('../../src/mcp/watch.ts');

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
    const w = new StoreWatcher(root, (paths) => batches.push([...paths]), { settleMs: 10, notice: (m) => notices.push(m) });
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
    const w = new StoreWatcher(root, (paths) => batches.push([...paths]), { settleMs: 10, notice: (m) => notices.push(m) });
    try {
      w.start();
      await vi.waitFor(() => expect(notices).toHaveLength(1), { timeout: 10_000 });
      await sleep(1200);
      expect(batches).toEqual([]);
    } finally {
      w.close();
    }
  });
});
