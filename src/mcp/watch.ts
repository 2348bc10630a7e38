import { existsSync, watch, type FSWatcher } from 'node:fs';

export interface WatchOptions {
  /** Quiet time after the last event before the batch is reported. */
  settleMs?: number;
  /** A batch is reported at the latest this long after its first event, even while events keep coming. */
  maxDelayMs?: number;
  /** Told about watcher trouble (on stderr: stdout is the protocol). */
  notice?: (message: string) => void;
}

/**
 * Watches a store folder and reports changed store-relative paths in batches
 * (docs/mcp.md): one `fs.watch` with `recursive` (inotify on Linux, FSEvents
 * on macOS, ReadDirectoryChangesW on Windows; Node 20 watches folders created
 * later too). A `git checkout` that swaps hundreds of files is a burst of
 * events: they are gathered until the tree has been quiet for `settleMs`, so
 * the burst becomes one batch. `undefined` in a batch means "something
 * changed, the watcher could not say what". If the watcher fails (the store
 * folder was removed and made again, as a checkout of a branch without it
 * does), it is opened again once the folder exists, and that counts as a
 * change of everything.
 */
export class StoreWatcher {
  private watcher: FSWatcher | undefined;
  private pending = new Set<string | undefined>();
  private settle: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly settleMs: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly root: string,
    private readonly onBatch: (paths: ReadonlySet<string | undefined>) => void,
    private readonly options: WatchOptions = {},
  ) {
    this.settleMs = options.settleMs ?? 150;
    this.maxDelayMs = options.maxDelayMs ?? 1000;
  }

  start(): void {
    if (this.closed) return;
    try {
      const w = watch(this.root, { recursive: true, persistent: false }, (_event, name) => this.event(name ?? undefined));
      w.on('error', (error) => this.fail(error));
      this.watcher = w;
    } catch (error) {
      this.fail(error);
    }
  }

  private event(name: string | Buffer | undefined): void {
    const rel = name === undefined ? undefined : String(name).replace(/\\/g, '/');
    // Temporary files of atomic writes, lock files and dot-folders are not store files.
    if (rel !== undefined && rel.split('/').some((part) => part.startsWith('.'))) return;
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
    this.onBatch(batch);
  }

  private fail(error: unknown): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.closed) return;
    this.options.notice?.(`watching ${this.root} stopped (${(error as Error)?.message ?? String(error)}); retrying`);
    const again = () => {
      this.retry = undefined;
      if (this.closed) return;
      if (!existsSync(this.root)) {
        this.retry = setTimeout(again, 500);
        return;
      }
      this.start();
      this.event(undefined);
    };
    this.retry = setTimeout(again, 200);
  }

  close(): void {
    this.closed = true;
    for (const t of [this.settle, this.deadline, this.retry]) if (t) clearTimeout(t);
    this.watcher?.close();
    this.watcher = undefined;
  }
}
