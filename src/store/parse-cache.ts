import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { Parsed } from '../core/diagnostics.ts';
import { Hash53 } from '../core/hash53.ts';
import { replaceCacheFile, writeAll } from './write-all.ts';
import { gitDirFor } from './git-dir.ts';
import { readRegularFile } from './read-file.ts';

/**
 * How a tree source keeps its files' parses: the cache, a prefix for its
 * groups (the sources one cache serves are kept apart), each file's stamp
 * (undefined: not kept; taken before any read of it), and whether a file not
 * read this time is still there (its entry is kept).
 */
export interface ParseKeeping {
  cache: ParseCache;
  prefix: string;
  /** `folders`: folders on the way to `paths` that the caller has just listed as folders, not links (see ParseCacheUse). */
  stamps(paths: readonly string[], folders?: readonly string[]): Promise<(string | undefined)[]>;
  exists(path: string): boolean;
}

/** Bump when the shape of a file of the cache changes: a file of another format is ignored. */
const FORMAT = 1;
const HEADER = 'agents parse cache';
/** A larger cache file is ignored (and rewritten): a group is one folder of the store. */
const MAX_GROUP_BYTES = 64 * 1024 * 1024;

/** A group's entries: the file's stamp and its parse as JSON text. */
type Entry = { stamp: string; json: string };

interface Group {
  /** Where it is kept. */
  file: string;
  entries: Map<string, Entry>;
  /** Keys asked for or added by this process. */
  used: Set<string>;
  /** Something was added: the group is written again. */
  dirty: boolean;
}

/**
 * The parses of a store's files, kept between runs in the repository's git
 * folder (`.git/agents/parsed/`), each under the stamp its source gives
 * (docs/adr/0503-reads-answered-from-settled-stamps.md): a working tree's
 * settled stat stamp, a policy source's blob id. A file whose stamp is
 * unchanged is not read or parsed again. Kept by group (a folder of the
 * store, every project.yaml, a policy source's folder), one cache file each,
 * so that a command pays for the folders it reads, not for the whole store.
 * Each answer is parsed from its own JSON text: callers own what they get.
 * A damaged, foreign or unreadable cache file is ignored; one that cannot be
 * written is skipped.
 */
export class ParseCache {
  readonly #groups = new Map<string, Group>();

  constructor(
    /** The folder the groups' files live in. */
    readonly dir: string,
    /** The build of the tool: another build may parse differently, so its entries are not used. */
    readonly build: string,
  ) {}

  /**
   * The parse of `key` (a parser and a path) in `group`, when the file's
   * stamp is still `stamp` and the entry has the shape its parser gives
   * (`fits(parsed, index)`, see core/parsed-shape.ts).
   */
  get<T>(
    group: string,
    key: string,
    stamp: string,
    fits: (parsed: unknown, index: number) => parsed is Parsed<T>,
    index: number,
  ): Parsed<T> | undefined {
    const g = this.group(group);
    const e = g.entries.get(key);
    if (e === undefined || e.stamp !== stamp) return undefined;
    g.used.add(key);
    try {
      const parsed: unknown = JSON.parse(e.json);
      if (fits(parsed, index)) return parsed;
    } catch {
      // A damaged entry: parsed afresh, and replaced.
    }
    return undefined;
  }

  /** Remembers the parse of `key` under `stamp` (written by `close`). */
  set(group: string, key: string, stamp: string, parsed: Parsed<unknown>): void {
    // Keys and stamps are separated by tabs and end with the line.
    if (/[\t\n\r]/.test(key)) return;
    const g = this.group(group);
    g.entries.set(key, { stamp, json: JSON.stringify(parsed) });
    g.used.add(key);
    g.dirty = true;
  }

  /**
   * Writes `group` if it learned something, with what this process used and
   * the older entries of files that still exist (so a group read in part, or
   * by two commands that need different parts, keeps both), and lets go of
   * it: a reader done with a folder does not keep its entries' text beside
   * the parses it handed out (a whole store's is tens of megabytes). A later
   * `get` of it reads its file again.
   */
  close(name: string, exists: (key: string) => boolean): void {
    const g = this.#groups.get(name);
    if (g === undefined) return;
    this.#groups.delete(name);
    if (!g.dirty) return;
    let text = `${HEADER}\t${FORMAT}\t${this.build}\t${name}\n`;
    for (const [key, e] of g.entries) if (g.used.has(key) || exists(key)) text += `${key}\t${e.stamp}\t${e.json}\n`;
    replaceCacheFile(g.file, (fd) => writeAll(fd, text));
  }

  private group(name: string): Group {
    let g = this.#groups.get(name);
    if (g === undefined) {
      const file = join(this.dir, `${new Hash53().update(name).digest()}.cache`);
      g = { file, entries: this.load(file, name), used: new Set(), dirty: false };
      this.#groups.set(name, g);
    }
    return g;
  }

  private load(file: string, name: string): Map<string, Entry> {
    const entries = new Map<string, Entry>();
    // Regular files only, bounded: a cache that is a FIFO, a link or a device is ignored, never waited on.
    const read = readRegularFile(file, MAX_GROUP_BYTES);
    if (!read.ok) return entries;
    const text = read.bytes.toString('utf8');
    const end = text.indexOf('\n');
    // Another format, build or group (two names with one hash): nothing of it is used.
    if (end < 0 || text.slice(0, end) !== `${HEADER}\t${FORMAT}\t${this.build}\t${name}`) return entries;
    for (let at = end + 1; at < text.length; ) {
      let next = text.indexOf('\n', at);
      if (next < 0) next = text.length;
      const a = text.indexOf('\t', at);
      const b = a < 0 ? -1 : text.indexOf('\t', a + 1);
      // A line cut short (the file was not written whole) ends what is used.
      if (b < 0 || b >= next) break;
      entries.set(text.slice(at, a), { stamp: text.slice(a + 1, b), json: text.slice(b + 1, next) });
      at = next + 1;
    }
    return entries;
  }
}

/** Whether a file is still there (a cache group keeps the entries of files that are). */
export function fileExists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The parse cache of a store inside a git repository (`.git/agents/parsed/`); undefined outside one. */
export function parseCacheOf(storeRoot: string, build: string): ParseCache | undefined {
  const git = gitDirFor(storeRoot);
  return git === undefined ? undefined : new ParseCache(join(git, 'agents', 'parsed'), build);
}
