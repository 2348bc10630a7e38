import type { ReadResult, TreeEntry, TreeSource } from '../../src/store/tree-source.ts';

/** What a path of a MemorySource holds: text, a folder (null), a link, a special file, or a read that fails. */
export type Spec = string | null | { link: true } | { other: true } | { fail: Exclude<ReadResult, { ok: true }> };

/** A store in memory: files (text), folders (null), links and special files; every folder of a path is listed. */
export class MemorySource implements TreeSource {
  readonly description = 'memory';
  /** The paths of each read, in order. */
  readonly reads: string[][] = [];
  readonly blobIds?: () => Promise<ReadonlyMap<string, { sha: string; mode: string }>>;

  constructor(
    private readonly spec: Record<string, Spec>,
    blobs?: Record<string, string>,
  ) {
    if (blobs) this.blobIds = async () => new Map(Object.entries(blobs).map(([p, sha]) => [p, { sha, mode: '100644' }]));
  }

  /** Every entry, whatever is asked (the whole store, recursively). */
  async list(_dir?: string, _options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    const types = new Map<string, TreeEntry['type']>();
    for (const [key, s] of Object.entries(this.spec)) {
      const path = key.replace(/\/$/, '');
      const parts = path.split('/');
      for (let n = 1; n < parts.length; n++) types.set(parts.slice(0, n).join('/'), 'dir');
      types.set(
        path,
        s === null ? 'dir' : typeof s === 'object' && 'link' in s ? 'symlink' : typeof s === 'object' && 'other' in s ? 'other' : 'file',
      );
    }
    const order = (p: string) => p.split('/');
    return [...types.entries()]
      .sort(([a], [b]) => {
        const x = order(a);
        const y = order(b);
        for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
        return x.length - y.length;
      })
      .map(([path, type]) => ({ path, type }));
  }

  async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    this.reads.push([...paths]);
    const out = new Map<string, ReadResult>();
    for (const p of paths) {
      const s = this.spec[p] ?? this.spec[`${p}/`];
      if (typeof s === 'string') out.set(p, { ok: true, bytes: new TextEncoder().encode(s) });
      else if (s && typeof s === 'object' && 'fail' in s) out.set(p, s.fail);
      else if (s && typeof s === 'object' && 'link' in s)
        out.set(p, { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' });
      else if (s && typeof s === 'object') out.set(p, { ok: false, code: 'not-a-file', message: 'is not a regular file' });
      else out.set(p, { ok: false, code: 'missing', message: 'does not exist' });
    }
    return out;
  }
}
