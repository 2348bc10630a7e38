import type { YamlSyntax } from '../core/parse-core.ts';
import { fileExists, type Parsed } from './parse-cache.ts';
import { WorkingTreeSource, type ReadResult, type TreeSource } from './tree-source.ts';
import { parseYamlDocument } from './yaml-document.ts';

export type { Parsed } from './parse-cache.ts';

/** Why a file could not be read. */
export type ReadFailed = Exclude<ReadResult, { ok: true }>;

/** Where the parses of one reader are kept: its name, and each file's group (undefined: not kept). */
export interface ParseCacheUse {
  parser: string;
  group: (file: string, index: number) => string | undefined;
}

/**
 * Reads and parses `files`, in their order: each file's parse, why it could
 * not be read, or undefined when the source gave nothing for it. A working
 * tree with a parse cache (parse-cache.ts) answers the settled files it knows
 * from their stamps alone, and keeps the parses of the others; `parse` must
 * then depend on nothing but the file's path and bytes.
 */
export async function readParsed<T>(
  source: TreeSource,
  files: readonly string[],
  parse: (index: number, bytes: Uint8Array, syntax: YamlSyntax | undefined) => Parsed<T>,
  use?: ParseCacheUse,
): Promise<(Parsed<T> | ReadFailed | undefined)[]> {
  const out: (Parsed<T> | ReadFailed | undefined)[] = new Array(files.length);
  const cache = use !== undefined && source instanceof WorkingTreeSource ? source.parseCache : undefined;
  let todo: number[] = [];
  let stamps: (string | undefined)[] = [];
  let groups: (string | undefined)[] = [];
  if (cache && use) {
    // Taken before any read: a file written after its stamp was taken is read now and stamped again next time.
    stamps = (source as WorkingTreeSource).stamps(files);
    groups = files.map((f, i) => (stamps[i] === undefined ? undefined : use.group(f, i)));
    for (let i = 0; i < files.length; i++) {
      const group = groups[i];
      const hit = group === undefined ? undefined : cache.get<T>(`${use.parser}:${group}`, files[i]!, stamps[i]!);
      if (hit) out[i] = hit;
      else todo.push(i);
    }
  } else todo = files.map((_, i) => i);
  const contents = await source.read(todo.map((i) => files[i]!));
  for (const i of todo) {
    const r = contents.get(files[i]!);
    if (!r) continue;
    if (!r.ok) {
      out[i] = r;
      continue;
    }
    const parsed = await parseYamlDocument((syntax) => parse(i, r.bytes, syntax));
    out[i] = parsed;
    const group = groups[i];
    if (cache && use && group !== undefined) cache.set(`${use.parser}:${group}`, files[i]!, stamps[i]!, parsed);
  }
  if (cache) {
    const root = (source as WorkingTreeSource).root;
    cache.save((file) => fileExists(`${root}/${file}`));
  }
  return out;
}
