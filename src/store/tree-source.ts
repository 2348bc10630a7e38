import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { fileDescriptorShortage, InvalidStoreError, tooManyOpenFiles, UsageError } from '../core/errors.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import { isLinkedFolder, linkedFolder } from './no-links.ts';
import { generationFile, readGeneration } from './generation.ts';
import { fileExists, type ParseCache, type ParseKeeping } from './parse-cache.ts';
import { describeType, OPEN_READ, throwIfNoFileDescriptor } from './read-file.ts';

export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

export interface TreeEntry {
  /** Store-relative, forward slashes. */
  path: string;
  type: EntryType;
  /** A folder that could not be listed (its files unknown): why, as the system said it (`EACCES`). */
  unreadable?: string;
  /**
   * In the index: a path a merge left unresolved that both sides deleted (git holds only its base). Listed, so that
   * its conflict is reported, but no file of the merge's result: it uses no id.
   */
  deleted?: true;
}

export type ReadResult =
  | { ok: true; bytes: Uint8Array }
  | {
      ok: false;
      code: 'file-too-large' | 'file-unreadable' | 'not-a-file' | 'symlink' | 'missing' | 'merge-conflict';
      message: string;
      /** What to do, where it depends on more than the code (which stages of a conflict git holds). */
      hint?: string;
    };

/** A listed entry's blob id as a cache may key on it: none for a path a merge left unresolved (no stage of it is staged). */
export function cacheableBlob(entry: { readonly sha: string; readonly unmerged?: true } | undefined): string | undefined {
  return entry?.unmerged ? undefined : entry?.sha;
}

/**
 * A tree of store files: the working directory, the git index or a revision
 * (docs/review.md). Validation, resolution and diff read through this one seam.
 * Symlinks are reported as such and never followed.
 */
export interface TreeSource {
  /** For messages: "working tree", "index", "revision abc1234". */
  readonly description: string;
  /**
   * Entries below `dir` ("" for the store root), sorted by path; a missing
   * folder gives []. When `dir` or a folder above it is a symbolic link, the
   * one entry given is that link (type "symlink"): it is never listed through.
   */
  list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]>;
  /** The contents of files, read as one batch. */
  read(paths: readonly string[]): Promise<Map<string, ReadResult>>;
  /**
   * At most this many files to a `read` when a whole store is read and
   * parsed, so that its bytes are never all held beside its parses; absent:
   * one batch (a git source reads through one `cat-file` process a call).
   */
  readonly readPiece?: number;
  /** Sources that know each file's git blob id without reading it (the index, revisions): every entry's id and mode. */
  blobIds?(): Promise<
    ReadonlyMap<string, { readonly sha: string; readonly mode: string; readonly unmerged?: true; readonly stages?: string }>
  >;
  /** Sources whose files' parses are kept between runs (parse-cache.ts); absent: every file is read and parsed. @internal */
  readonly parses?: ParseKeeping | undefined;
  /**
   * Sources writers change while they are read (the working tree): the store's write generation now (generation.ts),
   * which a writer replaces before it takes a file away. Absent for a tree no one writes (the index, a revision).
   */
  generation?(): string;
}

function entryType(d: Dirent): EntryType {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  return 'other';
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The folder-link checks of one batch of reads (the same answers as
 * linkedFolder): each folder is checked once, with one `lstat` of its own
 * (its parent's answer is known by then), and the files of one folder, which
 * come together, find its answer without slicing their paths.
 */
class FolderLinks {
  private readonly byDir = new Map<string, string | null>();
  private last: string | undefined;
  private lastLink: string | null = null;

  /** `listed`: folders known not to be links (a listing just said they are folders), never looked at again. */
  constructor(
    private readonly root: string,
    listed?: readonly string[],
  ) {
    if (listed) for (const dir of listed) this.byDir.set(dir, null);
  }

  /** The first linked folder on the way to the file `rel`, or null. */
  on(rel: string): string | null {
    const slash = rel.lastIndexOf('/');
    if (this.last !== undefined && slash === this.last.length && rel.startsWith(this.last)) return this.lastLink;
    const dir = slash < 0 ? '' : rel.slice(0, slash);
    const link = this.folder(dir);
    this.last = dir;
    this.lastLink = link;
    return link;
  }

  /** The first linked folder of `dir` and the folders above it, or null. */
  private folder(dir: string): string | null {
    if (dir === '') return null;
    let link = this.byDir.get(dir);
    if (link !== undefined) return link;
    const slash = dir.lastIndexOf('/');
    link = this.folder(slash < 0 ? '' : dir.slice(0, slash));
    if (link === null && isLinkedFolder(this.root, dir)) link = dir;
    this.byDir.set(dir, link);
    return link;
  }
}

/**
 * Stat stamps (docs/adr/0502-warm-validate-trusts-settled-stat-stamps.md): a
 * file whose inode, size, modification and change times are those of a run
 * that read it has the bytes that run read, as git trusts its index. Only a
 * settled file gets one, so that a write in the same clock tick as the read
 * cannot leave the stamp unchanged.
 */
export interface StampOptions {
  /** Files changed at or after this time (ms since the epoch) get no stamp. */
  settledBefore: number;
  /** Answers a file from its stamp alone; true: the file is not read. */
  known?: (index: number, stamp: string) => boolean;
}

/**
 * The stamp of a regular file changed before `settledBefore`, else undefined
 * (not settled, not a regular file, gone, or times a file system does not keep).
 */
export function settledStamp(file: string, settledBefore: number): string | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    // Unreadable: the read that follows says why.
    return undefined;
  }
  if (st === undefined || !st.isFile()) return undefined;
  const { mtimeMs, ctimeMs } = st;
  if (!(mtimeMs > 0 && ctimeMs > 0 && mtimeMs < settledBefore && ctimeMs < settledBefore)) return undefined;
  return `${st.dev.toString(36)}.${st.ino.toString(36)}.${st.size.toString(36)}.${mtimeMs}.${ctimeMs}`;
}

/**
 * How long a file must have been left alone before its stat stamp is trusted:
 * the coarsest clock of a common file system (FAT keeps times to 2 s), so that
 * a write in the same tick as the read always changes the stamp.
 */
export const SETTLE_MS = 2000;

/** Files changed at or after this instant (ms since the epoch) get no stamp: those not settled at `now`. */
export function settledBefore(now: number): number {
  return now - SETTLE_MS;
}

/** A content hash keyed with a file's settled stamp too, after an `@` (the validation cache's working-tree key), when it has one. */
export function stampedKey(hash: string, stamp: string | undefined): string {
  return stamp === undefined ? hash : `${hash}@${stamp}`;
}

/** Reused by every read; grows (up to MAX_FILE_BYTES + 1) for a long file. */
let scratch = Buffer.allocUnsafe(64 * 1024);

export interface WorkingTreeOptions {
  /** Parses of settled files kept between runs (parse-cache.ts); absent: every file is read and parsed. @internal */
  parseCache?: ParseCache;
  /** The clock stamps are judged by (ms since the epoch); default: now. */
  now?: () => number;
}

/** The store as it is on disk. Synchronous fs calls: faster than async on few cores. */
export class WorkingTreeSource implements TreeSource {
  readonly description = 'working tree';
  readonly readPiece = 2048;
  /** @internal */
  readonly parses: ParseKeeping | undefined;
  readonly #now: () => number;
  /** The generation's file, found on the first read (the git folder does not move during a run); null until then. */
  #generation: string | undefined | null = null;

  constructor(
    readonly root: string,
    options: WorkingTreeOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    const cache = options.parseCache;
    // By settled stat stamp; a group keeps the entries of files a read did not ask for while they exist.
    this.parses = cache && {
      cache,
      prefix: '',
      stamps: async (paths, folders) => this.stamps(paths, folders),
      exists: (file) => fileExists(`${root}/${file}`),
    };
  }

  generation(): string {
    if (this.#generation === null) this.#generation = generationFile(this.root);
    return readGeneration(this.#generation);
  }

  /**
   * The settled stamp of each file (undefined for a file inside a linked
   * folder, not settled, or not a regular file), taken now: before any read
   * of it that follows. `folders`: folders of the way a listing just found
   * to be folders, not links.
   */
  stamps(paths: readonly string[], folders?: readonly string[]): (string | undefined)[] {
    const links = new FolderLinks(this.root, folders);
    const before = settledBefore(this.#now());
    return paths.map((rel) => this.stampOf(rel, links, before));
  }

  /** A file's settled stamp; none below a linked folder (its read reports the link). */
  private stampOf(rel: string, links: FolderLinks, settledBefore: number): string | undefined {
    return links.on(rel) === null ? settledStamp(`${this.root}/${rel}`, settledBefore) : undefined;
  }

  async list(dir: string, options: { recursive?: boolean } = {}): Promise<TreeEntry[]> {
    const link = linkedFolder(this.root, dir);
    if (link !== null) return [{ path: link, type: 'symlink' }];
    const out: TreeEntry[] = [];
    this.walk(dir, options.recursive ?? true, out);
    return out;
  }

  /**
   * Lists `dir` into `out`; false, listing nothing, when it is another repository's checkout (it holds a `.git`). A
   * folder below that cannot be listed is marked on its `entry`, for the readers to report; `dir` itself is refused.
   */
  private walk(dir: string, recursive: boolean, out: TreeEntry[], entry?: TreeEntry): boolean {
    let dirents: Dirent[];
    try {
      dirents = readdirSync(dir === '' ? this.root : join(this.root, dir), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return true;
      // The system's limit, not the folder's: said as that limit, never as a store to fix.
      const short = fileDescriptorShortage(error);
      if (short !== undefined) throw tooManyOpenFiles(`cannot list ${dir || 'the store'}`, short);
      // Read as empty, its invariants would be silently missing from every set.
      const why = code ?? (error as Error).message;
      if (entry !== undefined) entry.unreadable = why;
      else throw new InvalidStoreError(`cannot read ${dir || 'the store'}`, [unreadableFolder(dir || '.', why)]);
      return true;
    }
    // A submodule or nested repository is one entry, as git's index holds it (a gitlink): never walked into, so the
    // working tree and the index give one verdict (docs/validation.md).
    if (dir !== '' && dirents.some((d) => d.name === '.git')) return false;
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of dirents) {
      const path = dir === '' ? d.name : `${dir}/${d.name}`;
      const entry: TreeEntry = { path, type: entryType(d) };
      out.push(entry);
      if (entry.type === 'dir' && recursive && !this.walk(path, true, out, entry)) entry.type = 'other';
    }
    return true;
  }

  async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    const out = new Map<string, ReadResult>();
    const links = new FolderLinks(this.root);
    for (const p of paths) out.set(p, this.readOne(p, links));
    return out;
  }

  /**
   * Reads each file and hands its bytes to `onFile` without copying them:
   * the first `length` bytes of a shared buffer, valid only until `onFile`
   * returns (copy what you keep). Files that cannot be read go to `onFailure`.
   * For reading a whole store, allocating nothing per file. With `stamps`,
   * each settled file's stat stamp is taken first, offered to `known`, and
   * handed on with the bytes.
   */
  visit(
    paths: readonly string[],
    onFile: (index: number, buffer: Uint8Array, length: number, stamp: string | undefined) => void,
    onFailure: (index: number, r: Exclude<ReadResult, { ok: true }>) => void,
    stamps?: StampOptions,
  ): void {
    const links = new FolderLinks(this.root);
    for (let i = 0; i < paths.length; i++) {
      const rel = paths[i]!;
      let stamp: string | undefined;
      // Taken before the read: a change after it gives the file another stamp, never these bytes under a stale one.
      if (stamps) {
        stamp = this.stampOf(rel, links, stamps.settledBefore);
        if (stamp !== undefined && stamps.known?.(i, stamp)) continue;
      }
      const n = this.readShared(rel, links);
      if (typeof n === 'number') onFile(i, scratch, n, stamp);
      else onFailure(i, n);
    }
  }

  /** One file; `links` caches the folder checks of a batch. */
  readOne(rel: string, links: FolderLinks = new FolderLinks(this.root)): ReadResult {
    const n = this.readShared(rel, links);
    return typeof n === 'number' ? { ok: true, bytes: Buffer.from(scratch.subarray(0, n)) } : n;
  }

  /** One file, read into the shared buffer: its length, or why it cannot be read. */
  private readShared(rel: string, links: FolderLinks): number | Exclude<ReadResult, { ok: true }> {
    const link = links.on(rel);
    if (link !== null)
      return { ok: false, code: 'symlink', message: `is inside ${link}, a symbolic link; links are never followed inside a store` };
    let fd: number;
    try {
      fd = openSync(`${this.root}/${rel}`, OPEN_READ | NOFOLLOW);
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      if (e.code === 'ELOOP') return { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' };
      if (e.code === 'EISDIR') return { ok: false, code: 'not-a-file', message: 'is a folder, not a file' };
      // ENOTDIR: a folder of its path is a file now, so the file is gone as surely as by ENOENT (read-file.ts says so too).
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return { ok: false, code: 'missing', message: 'does not exist' };
      if (e.code === 'ENXIO') return { ok: false, code: 'not-a-file', message: 'is a socket, not a regular file' };
      throwIfNoFileDescriptor(e, rel);
      return { ok: false, code: 'file-unreadable', message: `cannot be read (${e.code ?? e.message})` };
    }
    try {
      // Read into a shared buffer without fstat: a Stats object (four Dates)
      // per file cost more than the read itself. The listing said what each
      // path is (a FIFO or device there is never opened), the open does not
      // block, and at most MAX_FILE_BYTES + 1 bytes are read; fstat looks at
      // what such a read cannot tell from a file: nothing read (an empty file,
      // or a FIFO without a writer), a read that would wait (a FIFO or a
      // terminal), a file that long (or a device that never ends).
      let off = 0;
      for (;;) {
        if (off === scratch.length) {
          if (scratch.length > MAX_FILE_BYTES) break;
          const bigger = Buffer.allocUnsafe(Math.min(scratch.length * 4, MAX_FILE_BYTES + 1));
          scratch.copy(bigger, 0, 0, off);
          scratch = bigger;
        }
        const n = readSync(fd, scratch, off, scratch.length - off, null);
        if (n === 0) break;
        off += n;
      }
      if (off > MAX_FILE_BYTES || off === 0) {
        const st = fstatSync(fd);
        if (!st.isFile()) return { ok: false, code: 'not-a-file', message: `is ${describeType(st)}, not a regular file` };
        if (off > MAX_FILE_BYTES)
          return { ok: false, code: 'file-too-large', message: `is ${st.size} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB)` };
      }
      return off;
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      if (e.code === 'EISDIR') return { ok: false, code: 'not-a-file', message: 'is a folder, not a file' };
      if (e.code === 'EAGAIN' || e.code === 'EWOULDBLOCK') {
        try {
          const st = fstatSync(fd);
          if (!st.isFile()) return { ok: false, code: 'not-a-file', message: `is ${describeType(st)}, not a regular file` };
        } catch {
          // Reported below.
        }
      }
      return { ok: false, code: 'file-unreadable', message: `cannot be read (${e.code ?? e.message})` };
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The store's path (or a folder on it, `path`) is a link, a file or a submodule in a revision (`where`): read as a
 * folder, it would be an empty store, and every invariant would read as removed.
 */
export function storeNotAFolder(
  path: string,
  where: string,
  mode: string,
  /** What the hint calls the option that names the store's folder: the command line's, unless the caller names its own. */
  storeOption = '--store',
): UsageError {
  const what = mode === '120000' ? 'a symbolic link' : mode === '160000' ? 'a submodule' : 'a file';
  return new UsageError(
    `the store's path ${path} is ${what} in the ${where}, not a folder; a store is never followed through a link`,
    `Compare revisions whose store is a folder, or name the folder the store is in with ${storeOption}.`,
  );
}

/** A store folder that could not be listed (`why`: the system's code): nothing in it can be read. */
export function unreadableFolder(folder: string, why: string): Diagnostic {
  return {
    code: 'file-unreadable',
    severity: 'error',
    file: folder,
    line: 0,
    col: 0,
    message: `${folder}/ cannot be listed (${why}): nothing in it can be read`,
    hint: 'Check its permissions.',
  };
}
