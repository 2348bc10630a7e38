import { join } from 'node:path';
import { replaceCacheFile, writeAll } from '../store/write-all.ts';
import { gitDirFor } from '../store/git-dir.ts';
import { readRegularFile } from '../store/read-file.ts';
import { stampedKey } from '../store/tree-source.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { isDiagnostic, isObject } from '../core/parsed-shape.ts';
import type { FileFacts } from './file-facts.ts';

/**
 * Bump when the shape of the file, of FileFacts or of a key changes: a cache
 * of another format is ignored. 4: keys are SHA-256 (content-hash.ts), no
 * longer MurmurHash3, whose collisions can be forged (3 and before). 5: the
 * header names the generation the whole-store checks' memo belongs to. 6: a
 * working-tree key may carry the file's stat stamp after an `@`. 7: an
 * invariant's facts hold its guard's write globs (`g`). 8: the first line of a file without its modeline (`m`) is
 * written after a tab in the short form, not as JSON.
 */
const FORMAT = 8;

/**
 * Where the caches of a store inside a git repository live (one file for the
 * working tree, one for the index); undefined outside a repository (no cache).
 */
export function defaultCacheDir(storeRoot: string): string | undefined {
  const gitDir = gitDirFor(storeRoot);
  return gitDir === undefined ? undefined : join(gitDir, 'agents');
}

/** The cache file for the working tree or for the index. */
export function cacheFileIn(dir: string, staged: boolean): string {
  return join(dir, staged ? 'validate-index.cache' : 'validate-worktree.cache');
}

/** What `keyDigest` gives: 11 base64 digits. Anything else where a key belongs is a damaged line, a miss. */
const KEY_DIGEST = /^[A-Za-z0-9+/]{11}$/;
const KEY_DIGEST_LENGTH = 11;

function isFacts(v: unknown): v is FileFacts {
  if (!isObject(v)) return false;
  const f = v;
  for (const key of ['k', 'n', 'v', 'o', 'r', 'm'] as const) if (f[key] !== undefined && typeof f[key] !== 'string') return false;
  if (f.k !== undefined && !KEY_DIGEST.test(f.k as string)) return false;
  if (f.l !== undefined && (typeof f.l !== 'number' || typeof f.m !== 'string')) return false;
  // A plan, a project's paths or a waiver of another shape would stop the checks that read them with a trace.
  if (
    f.p !== undefined &&
    !(isObject(f.p) && typeof f.p.id === 'string' && strings(f.p, ['action', 'project', 'goal', 'created_at', 'created_by']))
  )
    return false;
  if (f.j !== undefined && !(isObject(f.j) && strings(f.j, ['description']) && (f.j.paths === undefined || isStringList(f.j.paths))))
    return false;
  if (f.w !== undefined && !(isObject(f.w) && typeof f.w.i === 'string' && typeof f.w.x === 'string')) return false;
  if (f.g !== undefined && !isStringList(f.g)) return false;
  return f.d === undefined || isDiagnosticList(f.d);
}

/** Whether each of `keys` of `x` is absent or a string. */
function strings(x: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((key) => x[key] === undefined || typeof x[key] === 'string');
}

function isStringList(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * Diagnostics as the checks make them, so that a damaged cache or memo is a miss: a finding of another shape
 * would stop the formatters with a trace, or count under no severity and let a failing store pass.
 */
function isDiagnosticList(v: unknown): v is Diagnostic[] {
  return Array.isArray(v) && v.every(isDiagnostic);
}

/**
 * Facts as they are written: a bare key digest, after a space the loose key, and after a tab the first line of a
 * file that lacks its modeline (most files have one or more of these and nothing else), or JSON.
 */
function encode(f: FileFacts): string {
  if (
    f.k !== undefined &&
    !/[ \t\n\r]/.test(f.k) &&
    f.d === undefined &&
    f.v === undefined &&
    f.o === undefined &&
    f.r === undefined &&
    f.p === undefined &&
    f.l === undefined &&
    f.g === undefined &&
    (f.n === undefined || !/[\t\n\r]/.test(f.n)) &&
    (f.m === undefined || !/[\n\r]/.test(f.m))
  ) {
    const kn = f.n === undefined ? f.k : `${f.k} ${f.n}`;
    return f.m === undefined ? kn : `${kn}\t${f.m}`;
  }
  return JSON.stringify(f);
}

/** The facts `encode` wrote; undefined for a damaged line (a miss). */
function decode(text: string): FileFacts | undefined {
  if (text.charCodeAt(0) !== 123 /* { */) {
    if (text.length === 0) return undefined;
    // The first tab ends the key and loose key (neither holds one); a space after it belongs to the first line.
    const tab = text.indexOf('\t');
    const head = tab < 0 ? text.length : tab;
    let space = text.indexOf(' ');
    if (space >= head) space = -1;
    // A key digest's length, before anything is cut: this runs for every file of the store.
    if ((space < 0 ? head : space) !== KEY_DIGEST_LENGTH) return undefined;
    const k = text.slice(0, KEY_DIGEST_LENGTH);
    if (tab < 0) return space < 0 ? { k } : { k, n: text.slice(space + 1) };
    const m = text.slice(tab + 1);
    return space < 0 ? { k, m } : { k, n: text.slice(space + 1, tab), m };
  }
  try {
    const f: unknown = JSON.parse(text);
    return isFacts(f) ? f : undefined;
  } catch {
    return undefined;
  }
}

const HEADER = 'agents validate cache';
/**
 * The largest cache read: about 2.5 million files' lines (a store of
 * 100,000 files writes about 10 MiB), and well below the longest string V8
 * makes. A larger file is ignored as damaged.
 */
export const MAX_CACHE_BYTES = 256 * 1024 * 1024;
const TAB = 9;
const AT = 64;

/**
 * Facts of files validated before, keyed by store-relative path and a hash
 * of the bytes: the git blob id for the index (git knows it already), the
 * SHA-256 of the bytes (content-hash.ts) for the working tree. Valid for one build
 * of the tool only: any other build's cache is ignored. A cache that cannot
 * be read or parsed is ignored too (a damaged line is a miss), and one that
 * cannot be written is skipped: it only ever saves time.
 *
 * The file is text, a line per file, `path TAB blob TAB facts`, after a
 * header line naming the format and the build. In the working tree's cache
 * the blob may be followed by `@` and the file's stat stamp (`known`): a
 * file whose stamp is unchanged is answered without being read. Lines are written in the
 * order validation asks for the files, so the next run finds each line where
 * the previous one ended: looking a file up compares text in place, without
 * building a map of the whole cache. Only when a file was added, removed or
 * reordered is the map built, once.
 */
export class FactsCache {
  /**
   * This run's files: for each, its path, then either the start and end of
   * its `blob TAB facts` in `text`, or -1 and the new entry, or -2 and the
   * line after `amend`, or -3 (dropped by `forget`).
   */
  private readonly used: (string | number | { blob: string; facts: FileFacts })[] = [];
  /** path → its place in `used`, for `amend` and `forget` (built on first use). */
  private places: Map<string, number> | undefined;
  private placed = 0;
  /** Whether a path was met again (`validate --fix` checks the store a second time with the same cache). */
  private repeated = false;
  private changed = false;
  private hitCount = 0;
  /** Where the next line is expected to start. */
  private cursor: number;
  /** path → start of its line, built on the first file not found at the cursor. */
  private index: Map<string, number> | undefined;

  private constructor(
    private readonly file: string | undefined,
    private readonly build: string,
    /** The cache as read ('' for none). */
    private readonly text: string,
    start: number,
    /** A token written with each new content of the cache: the memo of the whole-store checks names the one it was made on. */
    private generation: string,
  ) {
    this.cursor = start;
  }

  /** The cache in `file` (none yet, unreadable, or of another build: an empty one that will be written there). */
  static load(file: string | undefined, build: string): FactsCache {
    if (file !== undefined) {
      // None yet, unreadable, or not what this tool writes (a link, a FIFO, a device, a folder, too large): start again.
      const r = readRegularFile(file, MAX_CACHE_BYTES);
      const text = r.ok ? r.bytes.toString('utf8') : '';
      const header = `${HEADER}\t${FORMAT}\t${build}\t`;
      const end = text.indexOf('\n');
      // Every line the writer writes ends with a line break: a cache without one at its end was cut short, and its
      // last line (a digest or a loose key cut) would pass for whole.
      if (text.startsWith(header) && end > header.length && text.endsWith('\n'))
        return new FactsCache(file, build, text, end + 1, text.slice(header.length, end));
    }
    return new FactsCache(file, build, '', 0, '');
  }

  /** An empty cache that is never written (`--no-cache`, or a store outside git). */
  static none(): FactsCache {
    return new FactsCache(undefined, '', '', 0, '');
  }

  /** Whether facts are looked up and kept at all (not for `none()`). */
  get enabled(): boolean {
    return this.build !== '';
  }

  /** Whether no earlier run's facts were read (none kept yet, another build's, or `none()`): no file can be answered. */
  get empty(): boolean {
    return this.text.length === 0;
  }

  /** How many files were answered from the cache in this run. */
  get hits(): number {
    return this.hitCount;
  }

  /**
   * Whether this run met every file of the cache, in its order, with the same
   * bytes, and no other: the files are exactly those the cache was written
   * for. Known once every file has been looked up.
   */
  get unchanged(): boolean {
    return this.enabled && !this.empty && !this.changed && !this.repeated && this.index === undefined && this.cursor >= this.text.length;
  }

  /** The memo of the whole-store checks (`memoFor`), read on first use. */
  private memo: { generation: string; listing: string; checks: Record<string, Diagnostic[]> } | undefined;
  /** The memo file's text as read, so that a run that found the same is not written again. */
  private memoText: string | undefined;
  /** What this run found, to memoize for the listing `memoListing`. */
  private found: Record<string, Diagnostic[]> | undefined;
  private memoListing = '';

  /**
   * The diagnostics a whole-store check found on these very files (the same
   * bytes at the same paths, `unchanged`) and this listing of the tree, when
   * an earlier run kept them; undefined otherwise.
   */
  memoized(check: string, listing: string): Diagnostic[] | undefined {
    if (!this.unchanged || this.file === undefined) return undefined;
    if (this.memo === undefined) {
      const r = readRegularFile(`${this.file}.checks`, MAX_CACHE_BYTES);
      let memo: unknown;
      try {
        this.memoText = r.ok ? r.bytes.toString('utf8') : undefined;
        memo = this.memoText !== undefined ? JSON.parse(this.memoText) : undefined;
      } catch {
        memo = undefined;
      }
      const m = memo as FactsCache['memo'];
      this.memo =
        m && typeof m.generation === 'string' && typeof m.listing === 'string' && typeof m.checks === 'object'
          ? m
          : { generation: '', listing: '', checks: {} };
    }
    if (this.memo.generation !== this.generation || this.memo.listing !== listing) return undefined;
    const found = this.memo.checks[check];
    return isDiagnosticList(found) ? found : undefined;
  }

  /** Keeps what a whole-store check found on this run's files and `listing`, written by `save`. */
  keep(check: string, listing: string, found: readonly Diagnostic[]): void {
    if (!this.enabled || this.file === undefined) return;
    if (this.found === undefined || this.memoListing !== listing) {
      this.found = {};
      this.memoListing = listing;
    }
    this.found[check] = [...found];
  }

  /** Start of the line of `path`: at the cursor (the usual case), else from the index. */
  private find(path: string): number {
    const t = this.text;
    const at = this.cursor;
    if (at < t.length && t.charCodeAt(at + path.length) === TAB && t.startsWith(path, at)) return at;
    if (this.index === undefined) {
      this.index = new Map();
      for (let i = 0; i < t.length; ) {
        const end = t.indexOf('\n', i);
        const tab = t.indexOf('\t', i);
        if (tab > i && (end < 0 || tab < end)) this.index.set(t.slice(i, tab), i);
        if (end < 0) break;
        i = end + 1;
      }
    }
    return this.index.get(path) ?? -1;
  }

  /**
   * The line of `path`: where its key starts (`at`), where the key ends
   * (`keyEnd`, -1 for a damaged line) and where the line ends. The cursor
   * is not moved.
   */
  private entryOf(path: string): { at: number; keyEnd: number; end: number } | undefined {
    const t = this.text;
    if (t.length === 0) return undefined;
    const line = this.find(path);
    if (line < 0) return undefined;
    let end = t.indexOf('\n', line);
    if (end < 0) end = t.length;
    const at = line + path.length + 1;
    const keyEnd = t.indexOf('\t', at);
    return { at, keyEnd: keyEnd < 0 || keyEnd >= end ? -1 : keyEnd, end };
  }

  /** A hit on `path`: its line kept as it is (`at`, `end`), or -1 and the entry it is kept as from now on. */
  private hit(path: string, at: number, entry: number | { blob: string; facts: FileFacts }): void {
    if (this.used.length > 0 && path === this.used[0]) this.repeated = true;
    this.used.push(path, at, entry);
    this.hitCount++;
  }

  /**
   * The facts of `path` when its bytes still have the blob id `blob`. With
   * `stamp` (the file's settled stat stamp), an entry kept under another
   * stamp or none is kept under this one from now on.
   */
  get(path: string, blob: string, stamp?: string): FileFacts | undefined {
    const entry = this.entryOf(path);
    if (entry === undefined) return undefined;
    const { at, keyEnd, end } = entry;
    this.cursor = end + 1;
    const t = this.text;
    if (keyEnd < 0 || !t.startsWith(blob, at)) return undefined;
    const after = t.charCodeAt(at + blob.length);
    if (after !== TAB && after !== AT) return undefined;
    const facts = decode(t.slice(keyEnd + 1, end));
    if (facts === undefined) return undefined;
    if (stamp !== undefined && (after !== AT || t.slice(at + blob.length + 1, keyEnd) !== stamp)) {
      this.hit(path, -1, { blob: stampedKey(blob, stamp), facts });
      this.changed = true;
    } else this.hit(path, at, end);
    return facts;
  }

  /**
   * The facts of `path` when its entry was kept under this stat stamp (see
   * `StampOptions` in store/tree-source.ts): the file is not read at all.
   * A miss leaves the cursor where it was, for `get` to look again.
   */
  known(path: string, stamp: string): FileFacts | undefined {
    const entry = this.entryOf(path);
    if (entry === undefined || entry.keyEnd < 0) return undefined;
    const { at, keyEnd, end } = entry;
    const t = this.text;
    const stampAt = keyEnd - stamp.length;
    if (stampAt <= at || t.charCodeAt(stampAt - 1) !== AT || !t.startsWith(stamp, stampAt)) return undefined;
    const facts = decode(t.slice(keyEnd + 1, end));
    if (facts === undefined) return undefined;
    this.cursor = end + 1;
    this.hit(path, at, end);
    return facts;
  }

  set(path: string, blob: string, facts: FileFacts): void {
    if (!this.enabled || /[\t\n\r]/.test(path) || /[\t\n\r]/.test(blob)) return;
    // JSON escapes control characters: the facts stay on one line.
    if (this.used.length > 0 && path === this.used[0]) this.repeated = true;
    this.used.push(path, -1, { blob, facts });
    this.changed = true;
  }

  /**
   * A file this run rewrote itself (`validate --fix`): when its entry still
   * holds the blob `from`, it now holds `to`, with its facts mapped by
   * `facts` (undefined: dropped, checked again next time). Keeps the next run
   * warm without checking the rewritten files again. Called once per file as
   * each is written, so nothing is kept per file beyond the new line.
   */
  amend(path: string, from: string, to: string, facts: (f: FileFacts) => FileFacts | undefined): void {
    const i = this.placeOf(path);
    if (i === undefined) return;
    const at = this.used[i + 1] as number;
    // Amended or dropped already.
    if (at < -1) return;
    const entry = this.used[i + 2]!;
    let blob: string;
    let old: FileFacts | undefined;
    if (at === -1) ({ blob, facts: old } = entry as { blob: string; facts: FileFacts });
    else {
      const line = this.text.slice(at, entry as number);
      const tab = line.indexOf('\t');
      blob = line.slice(0, tab);
      old = decode(line.slice(tab + 1));
    }
    // The rewritten file has a new stamp: its entry keeps the content hash alone.
    const stampAt = blob.indexOf('@');
    if (stampAt >= 0) blob = blob.slice(0, stampAt);
    const next = blob === from && old !== undefined ? facts(old) : undefined;
    if (next === undefined || /[\t\n\r]/.test(to)) return;
    // The line itself: smaller than an entry object, and what save() writes.
    this.used[i + 1] = -2;
    this.used[i + 2] = `${to}\t${encode(next)}`;
    this.changed = true;
  }

  /** Drops the entry of `path` (a rewrite that did not happen after all): it is checked afresh next time. */
  forget(path: string): void {
    const i = this.placeOf(path);
    if (i === undefined) return;
    this.used[i + 1] = -3;
    this.changed = true;
  }

  /** Where `path`'s last entry is in `used` (the map is built on the first call). */
  private placeOf(path: string): number | undefined {
    if (!this.enabled) return undefined;
    this.places ??= new Map();
    // Entries added since the last call (a second check after --fix) take their places too.
    for (; this.placed < this.used.length; this.placed += 3) this.places.set(this.used[this.placed] as string, this.placed);
    return this.places.get(path);
  }

  /**
   * Writes the facts of this run's files (and only those: deleted files drop
   * out), in the order they were asked for, when anything changed. A
   * temporary file renamed into place, so a reader never sees half a cache;
   * failures are ignored.
   */
  save(): void {
    if (this.file === undefined) return;
    // Unchanged: every line was met in order, none was added, and the last one ended the file.
    if (this.changed || this.repeated || this.index !== undefined || this.cursor < this.text.length) this.saveFacts(this.file);
    this.saveMemo(this.file);
  }

  /** The memo of this run's whole-store checks, for the generation the cache file now holds. */
  private saveMemo(file: string): void {
    if (this.found === undefined) return;
    const text = `${JSON.stringify({ generation: this.generation, listing: this.memoListing, checks: this.found })}\n`;
    // As the facts: written only when it says something new.
    if (text !== this.memoText) replaceCacheFile(`${file}.checks`, (fd) => writeAll(fd, text));
  }

  private saveFacts(file: string): void {
    this.generation = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 10)}`;
    replaceCacheFile(file, (fd) => {
      // A path met twice: its last facts, at its last place.
      let last: Map<string, number> | undefined;
      if (this.repeated) {
        last = new Map();
        for (let i = 0; i < this.used.length; i += 3) last.set(this.used[i] as string, i);
      }
      // Written in pieces: no array of every line, nor one string of the whole cache, at once.
      let chunk = `${HEADER}\t${FORMAT}\t${this.build}\t${this.generation}\n`;
      for (let i = 0; i < this.used.length; i += 3) {
        const path = this.used[i] as string;
        if (last && last.get(path) !== i) continue;
        const from = this.used[i + 1] as number;
        const entry = this.used[i + 2]!;
        if (from === -3) continue;
        const line =
          from === -1
            ? `${(entry as { blob: string }).blob}\t${encode((entry as { facts: FileFacts }).facts)}`
            : from === -2
              ? (entry as string)
              : this.text.slice(from, entry as number);
        chunk += `${path}\t${line}\n`;
        if (chunk.length > 1 << 16) {
          writeAll(fd, chunk);
          chunk = '';
        }
      }
      writeAll(fd, chunk);
    });
  }
}
