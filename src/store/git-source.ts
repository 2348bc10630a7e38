import { relative, sep } from 'node:path';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import { type GitEntry, lsIndex, lsTree } from '../git/file-listing.ts';
import { GitError, resolveCommit, topLevel } from '../git/repo.ts';
import { catFileBatch } from '../git/object-reader.ts';
import type { ParseCache, ParseKeeping } from './parse-cache.ts';
import type { UsageError } from '../core/errors.ts';
import { type ReadResult, storeNotAFolder, type TreeEntry, type TreeSource } from './tree-source.ts';
import { unmergedRead } from './unmerged-read.ts';

type Where = { kind: 'index' } | { kind: 'revision'; rev: string };

/**
 * The store as git holds it: in the index (`--staged`) or at a revision.
 * One `ls-files`/`ls-tree` lists it, one `cat-file --batch` reads it.
 */
export class GitTreeSource implements TreeSource {
  readonly description: string;
  private listing: Promise<{ entries: Map<string, GitEntry>; dirs: Set<string>; notFolder: string | undefined }> | undefined;
  private prefix = '';
  private top = '';

  /** Parses kept by blob id (atCommit's `keep`). */
  readonly parses: ParseKeeping | undefined;

  private constructor(
    readonly root: string,
    private readonly where: Where,
    private readonly commit?: string,
    keep?: { cache: ParseCache; prefix: string },
  ) {
    this.description = where.kind === 'index' ? 'index' : `revision ${where.rev}`;
    this.parses = keep && {
      ...keep,
      stamps: async (paths) => {
        const { entries } = await this.load();
        return paths.map((p) => {
          const e = entries.get(p);
          return e?.mode.startsWith('100') ? `blob:${e.sha}` : undefined;
        });
      },
      // A commit's folder is read whole: what it did not ask for is not in it.
      exists: () => false,
    };
  }

  /** The index: listed from the store folder itself (no need to find the repository's top first). */
  static async index(storeRoot: string): Promise<GitTreeSource> {
    const source = new GitTreeSource(storeRoot, { kind: 'index' });
    source.top = storeRoot;
    // Listed now, so that a folder outside any repository is refused here.
    await source.load();
    return source;
  }

  static async revision(storeRoot: string, rev: string): Promise<GitTreeSource> {
    const top = await topLevel(storeRoot);
    const commit = await resolveCommit(top, rev);
    return new GitTreeSource(storeRoot, { kind: 'revision', rev }, commit).init(top);
  }

  /**
   * A commit already resolved (and its repository's top folder already
   * known): no git process until read. With `keep`, its files' parses are
   * kept by blob id, under groups named after `keep.prefix`: content-addressed,
   * so valid for as long as the blob is.
   */
  static async atCommit(
    storeRoot: string,
    top: string,
    commit: string,
    label: string,
    keep?: { cache: ParseCache; prefix: string },
  ): Promise<GitTreeSource> {
    return new GitTreeSource(storeRoot, { kind: 'revision', rev: label }, commit, keep).init(top);
  }

  private async init(top?: string): Promise<this> {
    this.top = top ?? (await topLevel(this.root));
    this.prefix = relative(this.top, this.root).split(sep).join('/');
    return this;
  }

  /** Whether this source is the index (what the next commit records), not a revision. */
  get isIndex(): boolean {
    return this.where.kind === 'index';
  }

  /** The commit this source reads, for revisions. */
  get commitId(): string | undefined {
    return this.commit;
  }

  private load() {
    this.listing ??= (async () => {
      const raw = this.where.kind === 'index' ? await lsIndex(this.root) : await lsTree(this.top, this.commit!, this.prefix);
      const entries = new Map<string, GitEntry>();
      const dirs = new Set<string>();
      let notFolder: string | undefined;
      const cut = this.prefix === '' ? 0 : this.prefix.length + 1;
      // Listings are sorted: the files of one folder come together, so its folders are added once.
      let parent = '';
      for (const e of raw) {
        // The store's own path as a link or a file: no entry of the store (its readers say so, see storeNotAFolder).
        if (cut > 0 && e.path === this.prefix) {
          notFolder = e.mode;
          continue;
        }
        const rel = cut === 0 ? e.path : e.path.slice(cut);
        entries.set(rel, e);
        const slash = rel.lastIndexOf('/');
        if (slash < 0 || (slash === parent.length && rel.startsWith(parent))) continue;
        parent = rel.slice(0, slash);
        for (let i = rel.indexOf('/'); i >= 0 && i <= slash; i = rel.indexOf('/', i + 1)) dirs.add(rel.slice(0, i));
      }
      return { entries, dirs, notFolder };
    })();
    return this.listing;
  }

  /** The refusal to read a revision whose store path is a link, a file or a submodule, not a folder; undefined when it is a folder or absent. */
  async notAFolder(storeOption?: string): Promise<UsageError | undefined> {
    const { notFolder } = await this.load();
    return notFolder === undefined ? undefined : storeNotAFolder(this.prefix, this.description, notFolder, storeOption);
  }

  /** Every entry under the store with its blob id and mode (store-relative paths), from the one listing. */
  async blobIds(): Promise<
    ReadonlyMap<string, { readonly sha: string; readonly mode: string; readonly unmerged?: true; readonly stages?: string }>
  > {
    return (await this.load()).entries;
  }

  async list(dir: string, options: { recursive?: boolean } = {}): Promise<TreeEntry[]> {
    const { entries, dirs } = await this.load();
    const recursive = options.recursive ?? true;
    const base = dir === '' ? '' : `${dir}/`;
    const out: TreeEntry[] = [];
    const within = (p: string) => p.startsWith(base) && (recursive || !p.slice(base.length).includes('/'));
    for (const d of dirs) if (within(d)) out.push({ path: d, type: 'dir' });
    for (const [p, e] of entries) {
      if (!within(p)) continue;
      const entry: TreeEntry = { path: p, type: e.mode === '120000' ? 'symlink' : e.mode.startsWith('100') ? 'file' : 'other' };
      if (e.stages === '1') entry.deleted = true;
      out.push(entry);
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    const { entries } = await this.load();
    const out = new Map<string, ReadResult>();
    const wanted: string[] = [];
    for (const p of paths) {
      const e = entries.get(p);
      if (!e) out.set(p, { ok: false, code: 'missing', message: `is not in the ${this.description}` });
      else if (e.unmerged) out.set(p, unmergedRead(e.stages));
      else if (e.mode === '120000')
        out.set(p, { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' });
      else if (!e.mode.startsWith('100')) out.set(p, { ok: false, code: 'not-a-file', message: 'is not a regular file' });
      else wanted.push(p);
    }
    const onDisk = this.where.kind === 'index' ? await sameOnDisk(this.root, wanted, entries) : new Map<string, Buffer>();
    const rest = wanted.filter((p) => !onDisk.has(p));
    let blobs = new Map<string, Buffer | null | number>();
    // An object git finds but cannot read whole (cut short on disk) stops cat-file: the files it did not give are
    // unreadable, as a missing one is, instead of the reader failing.
    let damaged = false;
    try {
      if (rest.length > 0)
        blobs = await catFileBatch(
          this.top,
          rest.map((p) => entries.get(p)!.sha),
          MAX_FILE_BYTES,
        );
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      damaged = true;
    }
    for (const p of wanted) {
      // A blob over the limit comes back as its size alone, never read into memory.
      const bytes = onDisk.get(p) ?? blobs.get(entries.get(p)!.sha);
      if (bytes === undefined || bytes === null)
        out.set(p, {
          ok: false,
          code: 'file-unreadable',
          message: damaged ? 'its object cannot be read from the repository (damaged)' : 'its object is missing from the repository',
        });
      else if (typeof bytes === 'number')
        out.set(p, { ok: false, code: 'file-too-large', message: `is ${bytes} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB)` });
      else out.set(p, { ok: true, bytes });
    }
    return out;
  }
}

/**
 * The staged files whose working-tree bytes are exactly the staged blob (the
 * usual case in a pre-commit hook right after `git add`): read from disk and
 * checked by their blob id, so that no `cat-file` process is started for
 * them (docs/performance.md). Content-addressed: bytes that hash to the
 * index's id are the staged content wherever they were read from; any other
 * file (changed since staged, missing, a link, too large) is read from git.
 */
async function sameOnDisk(root: string, paths: readonly string[], entries: Map<string, GitEntry>): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (paths.length === 0 || paths.length > 64) return out;
  const [{ lstat, readFile }, { gitBlobId }] = await Promise.all([import('node:fs/promises'), import('./blob-id.ts')]);
  await Promise.all(
    paths.map(async (p) => {
      const sha = entries.get(p)!.sha;
      try {
        const st = await lstat(`${root}/${p}`);
        if (!st.isFile() || st.size > MAX_FILE_BYTES) return;
        const bytes = await readFile(`${root}/${p}`);
        if (gitBlobId(bytes, sha.length) === sha) out.set(p, bytes);
      } catch {
        // Not readable on disk: git has it.
      }
    }),
  );
  return out;
}
