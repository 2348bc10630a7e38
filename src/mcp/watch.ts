import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WAIVERS } from '../core/layout.ts';

export interface WatchOptions {
  /** Quiet time after the last event before the batch is reported. */
  settleMs?: number;
  /** A batch is reported at the latest this long after its first event, even while events keep coming. */
  maxDelayMs?: number;
  /** Told about watcher trouble (on stderr: stdout is the protocol). */
  notice?: (message: string) => void;
  /** The policy sources' cache (`<git common dir>/agents/extends`), when the store is in git. */
  cache?: string;
  /** How a folder is watched: fs.watch, or a stand-in that refuses as the system does at its limit (the tests). */
  watch?: typeof watch;
}

/**
 * The path a batch holds when the policy sources' cache changed (`agents extends fetch`): no store file changed,
 * but every inherited set may have (a pinned commit not fetched before reads now).
 */
export const EXTENDS_CACHE = ':extends-cache';

/**
 * The folders whose entries decide an effective set: the store root, the
 * scope folders, each project's and plan's folder, and its `waivers/` (each
 * entry of a set lists the waivers of it), not a plan's record folders
 * (`violations/` and the like), nor action templates.
 */
function wanted(root: string): string[] {
  const dirs = (rel: string): string[] => {
    try {
      return readdirSync(rel === '' ? root : `${root}/${rel}`, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
        .map((d) => (rel === '' ? d.name : `${rel}/${d.name}`));
    } catch {
      return [];
    }
  };
  const top = existsSync(root) ? [''] : [];
  const scopes = top.length ? dirs('').filter((d) => d === 'global' || d === 'projects' || d === 'plans') : [];
  const targets = [...(scopes.includes('projects') ? dirs('projects') : []), ...(scopes.includes('plans') ? dirs('plans') : [])];
  const waivers = targets.map((d) => `${d}/${WAIVERS}`).filter((d) => existsSync(`${root}/${d}`));
  return [...top, ...scopes, ...targets, ...waivers];
}

/**
 * Watches a store folder and reports changed store-relative paths in batches
 * (docs/mcp.md). One plain `fs.watch` (inotify on Linux, FSEvents on macOS,
 * ReadDirectoryChangesW on Windows) per folder that matters, not Node's
 * `recursive` option: on Linux, Node 20 implements that by polling the
 * status of every file, which on a store of 100,000 invariants held the
 * event loop for tens of seconds. The folders are listed again after each
 * batch, so folders that come (a new project, a plan, a checkout) are
 * watched and folders that go are let go. A `git checkout` that swaps
 * hundreds of files is a burst of events: they are gathered until the tree
 * has been quiet for `settleMs`, so the burst becomes one batch.
 */
export class StoreWatcher {
  /** Each watched folder with the inode it had: a folder removed and made again is a new folder to watch. */
  private readonly watchers = new Map<string, { w: FSWatcher; ino: number }>();
  private pending = new Set<string>();
  private settle: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** The folder holding the store: a store folder moved away and replaced (`mv`, a sync tool) is seen there. */
  private parent: FSWatcher | undefined;
  /** The cache's folders (and those on the way to it, until they exist), each with the entries that tell of a fetch. */
  private readonly cacheWatchers = new Map<string, FSWatcher>();
  private readonly settleMs: number;
  private readonly watchFolder: typeof watch;
  private readonly maxDelayMs: number;
  /** Folders the system refused to watch at the last listing, for its limit of watches (told once, when it starts). */
  private refused = 0;

  constructor(
    private readonly root: string,
    private readonly onBatch: (paths: ReadonlySet<string>) => void,
    private readonly options: WatchOptions = {},
  ) {
    this.settleMs = options.settleMs ?? 150;
    this.watchFolder = options.watch ?? watch;
    this.maxDelayMs = options.maxDelayMs ?? 1000;
  }

  /** Starts watching; the folders are taken in slices so that requests are answered meanwhile. */
  start(): void {
    this.watchParent();
    void this.sync();
  }

  /**
   * A watch follows its folder's inode: when the store folder is renamed away and another takes its name, the
   * watches stay on the old one. The folder above tells of the name; the listing after the batch then sees the new
   * inode and watches the new folder (and everything counts as changed).
   */
  private watchParent(): void {
    const name = basename(this.root);
    try {
      this.parent = this.watchFolder(dirname(this.root), { persistent: false }, (_event, entry) => {
        if (entry !== null && String(entry) === name && inode(this.root) !== this.watchers.get('')?.ino) this.event('', '');
      });
      this.parent.on('error', () => {
        this.parent?.close();
        this.parent = undefined;
      });
    } catch {
      // The folder above cannot be watched (gone, or not ours to read): renames of the store go unseen, as before.
    }
  }

  /** How many folders are watched (for tests and benchmarks). */
  get size(): number {
    return this.watchers.size;
  }

  /**
   * Watches the policy sources' cache: a fetch makes a source's folder there, or renews the `shallow` file of
   * one it already has. The folders on the way (`agents/` of git's folder) are watched until the cache exists.
   */
  private syncCache(): void {
    const cache = this.options.cache;
    if (cache === undefined || this.closed) return;
    const agents = dirname(cache);
    const want = new Map<string, (entry: string) => boolean>([
      [dirname(agents), (e) => e === basename(agents)],
      [agents, (e) => e === basename(cache)],
      [cache, () => true],
    ]);
    try {
      for (const d of readdirSync(cache, { withFileTypes: true }))
        if (d.isDirectory()) want.set(join(cache, d.name), (e) => e === 'shallow');
    } catch {
      // No cache yet: the folders above it tell when it comes.
    }
    for (const [dir, w] of this.cacheWatchers) {
      if (!want.has(dir) || !existsSync(dir)) {
        w.close();
        this.cacheWatchers.delete(dir);
      }
    }
    for (const [dir, tells] of want) {
      if (this.cacheWatchers.has(dir) || !existsSync(dir)) continue;
      try {
        const w = this.watchFolder(dir, { persistent: false }, (_event, entry) => {
          if (entry === null || tells(String(entry))) this.changed(EXTENDS_CACHE);
        });
        w.on('error', () => {
          w.close();
          this.cacheWatchers.delete(dir);
        });
        this.cacheWatchers.set(dir, w);
      } catch {
        // Not ours to read: a fetch goes unseen, as before.
      }
    }
  }

  private async sync(): Promise<void> {
    if (this.closed) return;
    this.syncCache();
    const want = wanted(this.root);
    const keep = new Set(want);
    for (const [rel, { w }] of this.watchers) {
      if (!keep.has(rel)) {
        w.close();
        this.watchers.delete(rel);
      }
    }
    let done = 0;
    let refused = 0;
    let limit = '';
    for (const rel of want) {
      if (this.closed) return;
      const had = this.watchers.get(rel);
      const ino = inode(this.path(rel));
      if (had && had.ino === ino) continue;
      had?.w.close();
      this.watchers.delete(rel);
      const code = ino === undefined ? undefined : this.add(rel, ino);
      if (code !== undefined) {
        refused++;
        limit = code;
      }
      if (++done % 500 === 0) await new Promise((r) => setImmediate(r));
    }
    if (refused > 0 && this.refused === 0)
      this.options.notice?.(
        `${refused} of the store's ${want.length} folders could not be watched (${limit}: the system's limit of watches, ` +
          'fs.inotify.max_user_watches on Linux): changes in them send no notification; they are tried again after each change',
      );
    this.refused = refused;
    if (!this.watchers.has('') && !this.retry && !this.closed) {
      // The store folder itself is gone (a checkout of a branch without it): look again later. One that is there but
      // could not be watched has not changed: it is only tried again.
      const gone = !existsSync(this.root);
      this.retry = setTimeout(
        () => {
          this.retry = undefined;
          if (gone && existsSync(this.root)) this.event('', '');
          void this.sync();
        },
        gone ? 500 : 5000,
      );
    }
  }

  private path(rel: string): string {
    return rel === '' ? this.root : `${this.root}/${rel}`;
  }

  /** Watches one folder; the error code when the system refused it for its limit of watches. */
  private add(rel: string, ino: number): string | undefined {
    try {
      const w = this.watchFolder(this.path(rel), { persistent: false }, (_event, name) =>
        this.event(rel, name === null ? '' : String(name)),
      );
      w.on('error', (error) => {
        if (rel === '') this.options.notice?.(`watching ${this.root} stopped (${error.message}); watching again once it exists`);
        w.close();
        if (this.watchers.get(rel)?.w === w) this.watchers.delete(rel);
        this.event(rel, '');
      });
      this.watchers.set(rel, { w, ino });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EMFILE') return code;
      // Gone between the listing and now: the next listing settles it.
    }
    return undefined;
  }

  private event(dir: string, name: string): void {
    if (this.closed) return;
    const rel = name === '' ? dir : dir === '' ? name : `${dir}/${name}`;
    // Temporary files of atomic writes, lock files and dot-folders are not store files.
    if (rel.split('/').some((part) => part.startsWith('.'))) return;
    this.changed(rel);
  }

  /** Adds a path to the batch being gathered. */
  private changed(rel: string): void {
    if (this.closed) return;
    this.pending.add(rel);
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => this.flush(), this.settleMs);
    this.deadline ??= setTimeout(() => this.flush(), this.maxDelayMs);
  }

  private flush(): void {
    if (this.settle) clearTimeout(this.settle);
    if (this.deadline) clearTimeout(this.deadline);
    this.settle = undefined;
    this.deadline = undefined;
    if (this.pending.size === 0 || this.closed) return;
    const batch = this.pending;
    this.pending = new Set();
    void this.sync().then(() => this.onBatch(batch));
  }

  close(): void {
    this.closed = true;
    for (const t of [this.settle, this.deadline, this.retry]) if (t) clearTimeout(t);
    for (const { w } of this.watchers.values()) w.close();
    this.watchers.clear();
    for (const w of this.cacheWatchers.values()) w.close();
    this.cacheWatchers.clear();
    this.parent?.close();
  }
}

/**
 * `report` for one batch at a time, in order. The batches that come while one is reported wait as one, their paths
 * merged: a client that leaves its notifications unread (the server's writes wait for it) holds one batch of them
 * however long the store keeps changing, not one per change, and reads one notification for them, not each.
 */
export function oneBatchAtATime(
  report: (paths: ReadonlySet<string>) => Promise<void>,
  failed: (error: unknown) => void,
): (paths: ReadonlySet<string>) => void {
  let waiting: Set<string> | undefined;
  let reporting = Promise.resolve();
  return (paths) => {
    if (waiting !== undefined) {
      for (const p of paths) waiting.add(p);
      return;
    }
    const batch = new Set(paths);
    waiting = batch;
    reporting = reporting
      .then(() => {
        waiting = undefined;
        return report(batch);
      })
      .catch(failed);
  };
}

function inode(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}
