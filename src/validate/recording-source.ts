import type { ReadResult, TreeEntry, TreeSource } from '../store/tree-source.ts';

/**
 * A TreeSource that keeps the bytes of every file read through it, so that
 * later checks (positions of a duplicate's text, modelines, `--fix`) reuse
 * them instead of reading the tree a second time.
 */
export class RecordingSource implements TreeSource {
  readonly bytes = new Map<string, Uint8Array>();

  constructor(private readonly inner: TreeSource) {}

  get description(): string {
    return this.inner.description;
  }

  list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    return this.inner.list(dir, options);
  }

  /** Keeps bytes read around this source (a copy the caller owns). */
  remember(path: string, bytes: Uint8Array): void {
    this.bytes.set(path, bytes);
  }

  async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    const wanted = this.bytes.size === 0 ? paths : paths.filter((p) => !this.bytes.has(p));
    const out = wanted.length > 0 ? await this.inner.read(wanted) : new Map<string, ReadResult>();
    for (const [p, r] of out) if (r.ok) this.bytes.set(p, r.bytes);
    // Nothing asked for was recorded before: `out` already answers every path.
    if (wanted.length === paths.length) return out;
    for (const p of paths) {
      const b = this.bytes.get(p);
      if (b && !out.has(p)) out.set(p, { ok: true, bytes: b });
    }
    return out;
  }
}
