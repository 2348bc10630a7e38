import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { CancelledError } from '../../src/core/errors.ts';
import { withFolderLock, withFolderLocks } from '../../src/store/lock.ts';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

// A scope folder exists as soon as it is made (an action template, a project): the lock makes the folder it locks,
// so a change refused under the lock must take that folder away again, and only that one.
describe('withFolderLock: the folders it makes', () => {
  it('a refused change removes the folders the lock made, parents included, and the error goes through', async () => {
    const root = testStore();
    const refused = withFolderLock(root, 'actions/fresh/template', () => {
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(existsSync(join(root, 'actions/fresh'))).toBe(false);
    expect(existsSync(join(root, 'actions'))).toBe(true);
  });

  it('a caller whose signal is already aborted runs nothing and makes no folder, though the lock is free', async () => {
    const root = testStore();
    let ran = false;
    const stop = new AbortController();
    stop.abort();
    const given = withFolderLock(root, 'plans/p/violations', () => (ran = true), { signal: stop.signal });
    await expect(given).rejects.toBeInstanceOf(CancelledError);
    expect(ran).toBe(false);
    expect(existsSync(join(root, 'plans/p'))).toBe(false);
  });

  it('a change that wrote a file keeps its folder; one that wrote nothing leaves none', async () => {
    const root = testStore();
    await withFolderLock(root, 'projects/web', () => writeFileSync(join(root, 'projects/web/.gitkeep'), ''));
    expect(readdirSync(join(root, 'projects/web'))).toEqual(['.gitkeep']);
    await withFolderLock(root, 'projects/empty', () => undefined);
    expect(existsSync(join(root, 'projects/empty'))).toBe(false);
  });

  it('a folder that was there before stays, empty or not, and so do folders other writers put files in', async () => {
    const root = testStore();
    mkdirSync(join(root, 'projects/old'));
    await expect(
      withFolderLock(root, 'projects/old', () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(existsSync(join(root, 'projects/old'))).toBe(true);
    // Made by this call, but a file arrived in the parent meanwhile: the parent stays, the empty child goes.
    await expect(
      withFolderLock(root, 'actions/ns/one', () => {
        writeFileSync(join(root, 'actions/ns/other.txt'), '');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(readdirSync(join(root, 'actions/ns'))).toEqual(['other.txt']);
  });

  it('nested locks on new folders: each goes when the change under them is refused', async () => {
    const root = testStore();
    await expect(
      withFolderLocks(root, ['projects/a', 'projects/b'], () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(readdirSync(join(root, 'projects'))).toEqual([]);
  });
});

describe('the folders a writer killed under its lock made', () => {
  /**
   * The lock `fn`'s writer held on `folder` (a folder it had to make), left as a writer killed under it leaves it:
   * the lock written by the real route, naming a process number no system gives, so that its process is gone.
   */
  async function killedUnder(root: string, folder: string): Promise<void> {
    let text = '';
    await withFolderLock(root, folder, () => {
      text = readFileSync(join(root, folder, '.lock'), 'utf8');
    });
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, '.lock'), text.replace(/^\d+/, '4000000000'));
  }

  it('the writer that clears the stale lock takes them back when they hold nothing: no new project or action template is left', async () => {
    const root = testStore();
    await killedUnder(root, 'actions/fresh/template');
    const cleared: string[] = [];
    const refused = withFolderLock(
      root,
      'actions/fresh/template',
      () => {
        throw new Error('refused');
      },
      { notice: (m) => cleared.push(m) },
    );
    await expect(refused).rejects.toThrow('refused');
    expect(cleared).toHaveLength(1);
    expect(existsSync(join(root, 'actions/fresh'))).toBe(false);
    expect(existsSync(join(root, 'actions'))).toBe(true);
  });

  it('validate --fix takes them back with the lock; a folder with a file in it stays', async () => {
    const root = testStore({ 'projects/kept/x.txt': '' });
    await killedUnder(root, 'projects/newp');
    await killedUnder(root, 'projects/kept/sub');
    writeFileSync(join(root, 'projects/kept/sub/y.txt'), '');
    const r = await runAgents(['--store', root, 'validate', '--fix']);
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'projects/newp'))).toBe(false);
    expect(readdirSync(join(root, 'projects/kept/sub'))).toEqual(['y.txt']);
  });
});

describe('withFolderLocks: many folders', () => {
  it('holds the locks of thousands of folders at once (a validate --fix of a store with a plan each), then releases every one', async () => {
    const root = testStore();
    const folders = Array.from({ length: 3000 }, (_, k) => `projects/p${k}`);
    for (const f of folders) mkdirSync(join(root, f));
    let held = 0;
    await withFolderLocks(root, folders, () => {
      held = folders.filter((f) => existsSync(join(root, f, '.lock'))).length;
    });
    expect(held).toBe(3000);
    expect(folders.filter((f) => readdirSync(join(root, f)).length > 0)).toEqual([]);
  });
});

describe('withFolderLock: its release', () => {
  it("removes its own lock only: a folder taken away under the lock, made again and locked by the next writer, keeps that writer's lock", async () => {
    const root = testStore({ 'projects/web/.gitkeep': '' });
    const next = '4000000 elsewhere 2026-01-01T00:00:00.000Z\n';
    await withFolderLock(root, 'projects/web', () => {
      // As project remove takes an emptied folder away (takeFolderAway), then a writer that waited makes it again.
      renameSync(join(root, 'projects/web'), join(root, 'projects/.web.away'));
      mkdirSync(join(root, 'projects/web'));
      writeFileSync(join(root, 'projects/web/.lock'), next);
    });
    expect(readFileSync(join(root, 'projects/web/.lock'), 'utf8')).toBe(next);
    expect(readdirSync(join(root, 'projects/.web.away')).sort()).toEqual(['.gitkeep', '.lock']);
  });
});

describe('withFolderLock: a wait that lasts', () => {
  it('is said once, after a second, naming the lock, its holder and when the wait ends; a shorter turn says nothing', async () => {
    const root = testStore();
    let letGo!: () => void;
    const held = withFolderLock(root, 'global', () => new Promise<void>((resolve) => (letGo = resolve)));
    await vi.waitFor(() => expect(existsSync(join(root, 'global/.lock'))).toBe(true));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const told: string[] = [];
      const waiter = withFolderLock(root, 'global', () => 'taken', { timeoutMs: 15_000, notice: (m) => told.push(m) });
      await vi.advanceTimersByTimeAsync(800);
      expect(told).toEqual([]);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(told).toEqual([
        `waiting for ${join(root, 'global/.lock')}, held by process ${process.pid} on ${hostname()}; gives up after 15000 ms (AGENTS_LOCK_TIMEOUT_MS)`,
      ]);
      letGo();
      await held;
      await vi.advanceTimersByTimeAsync(100);
      expect(await waiter).toBe('taken');
      expect(told).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
