import type { YamlSyntax } from '../core/parse-core.ts';
import type { Parsed } from '../core/diagnostics.ts';
import { isCachedParse } from '../core/parsed-shape.ts';
import type { ReadResult, TreeSource } from './tree-source.ts';
import { parseYamlDocument } from './yaml-document.ts';

/** Why a file could not be read. */
export type ReadFailed = Exclude<ReadResult, { ok: true }>;

/**
 * Where the parses of one reader are kept: its name, each file's group
 * (undefined: not kept), and whether a kept value has the shape `parse`
 * gives for that file (a cache entry that does not is parsed again).
 */
export interface ParseCacheUse {
  parser: string;
  group: (file: string, index: number) => string | undefined;
  fits: (value: unknown, index: number) => boolean;
  /**
   * Folders on the way to the files that the caller has just listed as folders, not links: a working tree takes
   * their link check from that listing instead of an `lstat` of each (a thousand project folders for `which`).
   */
  folders?: readonly string[];
}

/**
 * Reads and parses `files`, in their order: each file's parse, why it could
 * not be read, or undefined when the source gave nothing for it. A source
 * that keeps parses (`TreeSource.parses`: the working tree by settled stat
 * stamps, a policy source's commit by blob id) answers the files whose stamp
 * it knows without reading them, and keeps the parses of the others; `parse`
 * must then depend on nothing but the file's path and bytes. The others are
 * read `TreeSource.readPiece` at a time, each piece parsed before the next
 * is read.
 */
export async function readParsed<T>(
  source: TreeSource,
  files: readonly string[],
  parse: (index: number, bytes: Uint8Array, syntax: YamlSyntax | undefined) => Parsed<T>,
  use?: ParseCacheUse,
): Promise<(Parsed<T> | ReadFailed | undefined)[]> {
  const out: (Parsed<T> | ReadFailed | undefined)[] = new Array(files.length);
  const keeping = use !== undefined ? source.parses : undefined;
  let todo: number[] = [];
  let stamps: (string | undefined)[] = [];
  let groups: (string | undefined)[] = [];
  // Each group's files not answered yet: the group is saved and let go when the last one is.
  const left = new Map<string, number>();
  const answered = (group: string | undefined) => {
    if (!keeping || group === undefined) return;
    const n = left.get(group)! - 1;
    if (n > 0) left.set(group, n);
    else {
      left.delete(group);
      keeping.cache.close(group, (file) => keeping.exists(file));
    }
  };
  if (keeping && use) {
    // Taken before any read: a file written after its stamp was taken is read now and stamped again next time.
    stamps = await keeping.stamps(files, use.folders);
    groups = files.map((f, i) => {
      const group = stamps[i] === undefined ? undefined : use.group(f, i);
      return group === undefined ? undefined : `${use.parser}:${keeping.prefix}${group}`;
    });
    for (const group of groups) if (group !== undefined) left.set(group, (left.get(group) ?? 0) + 1);
    const fits = (parsed: unknown, i: number): parsed is Parsed<T> => isCachedParse<T>(parsed, use.fits, i);
    for (let i = 0; i < files.length; i++) {
      const group = groups[i];
      const hit = group === undefined ? undefined : keeping.cache.get<T>(group, files[i]!, stamps[i]!, fits, i);
      if (hit) {
        out[i] = hit;
        answered(group);
      } else todo.push(i);
    }
  } else todo = files.map((_, i) => i);
  // Each piece's bytes are garbage once parsed: 100,000 files' bytes are never all held beside their parses.
  const piece = source.readPiece ?? Math.max(todo.length, 1);
  for (let from = 0; from < todo.length; from += piece) {
    const some = todo.slice(from, from + piece);
    const contents = await source.read(some.map((i) => files[i]!));
    for (const i of some) {
      const r = contents.get(files[i]!);
      const group = groups[i];
      if (r?.ok) {
        const parsed = await parseYamlDocument((syntax) => parse(i, r.bytes, syntax));
        out[i] = parsed;
        if (keeping && group !== undefined) keeping.cache.set(group, files[i]!, stamps[i]!, parsed);
      } else if (r) out[i] = r;
      answered(group);
    }
  }
  return out;
}
