import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ExportTargetName } from '../core/model.ts';
import { WorkingTreeSource, type TreeSource } from './tree-source.ts';
import { readRegularFile } from './read-file.ts';
import { filesBelowUnknownFolders } from './unplaced.ts';
import { replaceCacheFile, writeAll } from './write-all.ts';

const MAX_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * What the last export (or check that found everything up to date) knew:
 * a digest of every input it read (config.yaml, project.yaml files, the
 * invariant files of the scopes it exported, the options and the build)
 * and a hash of each file it left up to date. When the inputs have the same
 * digest and every file still has its hash, `export --check` is answered
 * without parsing a single invariant (docs/export.md, "Performance"). Kept
 * in the repository's git folder (`.git/agents/export.cache`), never in the
 * store; a damaged cache is ignored.
 */
export interface ExportCacheData {
  digest: string;
  files: { path: string; target: ExportTargetName; hash: string }[];
  /** Target files that were links to another of the files: still such links, or the cache does not answer. */
  linked?: { path: string; to: string; empty?: true }[];
  /** When the first waiver the files name expires (ms since the epoch): from then on the cache does not answer. */
  until?: number;
  /** The warnings the export said, said again when the cache answers. */
  warnings?: string[];
  /** The files those warnings were read from beyond `files`, with their hashes (null: none there): else it does not answer. */
  watched?: { path: string; hash: string | null }[];
}

const HEADER = 'agents export cache 2';
/** Kinds of export remembered at once (by targets and --project): the oldest goes first. */
const MAX_ENTRIES = 32;

type CacheFile = { entries: [string, ExportCacheData][] };

export class ExportCache {
  constructor(readonly file: string) {}

  /** The cache file of a git folder's `agents/` folder. */
  static in(dir: string): ExportCache {
    return new ExportCache(join(dir, 'export.cache'));
  }

  private read(): CacheFile {
    try {
      // Regular files only, capped: a cache that is a FIFO, link or device is ignored, never waited on.
      const read = readRegularFile(this.file, MAX_CACHE_BYTES);
      if (!read.ok) return { entries: [] };
      const [header, body] = read.bytes.toString('utf8').split('\n', 2);
      if (header !== HEADER || body === undefined) return { entries: [] };
      const data = JSON.parse(body) as CacheFile;
      return Array.isArray(data.entries) ? data : { entries: [] };
    } catch {
      return { entries: [] };
    }
  }

  /** What the last export of this kind (`key`: targets and --project) knew. */
  load(key: string): ExportCacheData | undefined {
    const hit = this.read().entries.find(([k]) => k === key)?.[1];
    if (!hit || typeof hit.digest !== 'string' || !Array.isArray(hit.files)) return undefined;
    if (hit.until !== undefined && typeof hit.until !== 'number') return undefined;
    if (hit.warnings !== undefined && !(Array.isArray(hit.warnings) && hit.warnings.every((w) => typeof w === 'string'))) return undefined;
    if (hit.watched !== undefined && !(Array.isArray(hit.watched) && hit.watched.every((w) => typeof w?.path === 'string')))
      return undefined;
    return hit;
  }

  /** Best effort: a cache that cannot be written is skipped. */
  save(key: string, data: ExportCacheData): void {
    try {
      const entries = this.read().entries.filter(([k]) => k !== key);
      entries.push([key, data]);
      const text = `${HEADER}\n${JSON.stringify({ entries: entries.slice(-MAX_ENTRIES) })}\n`;
      replaceCacheFile(this.file, (fd) => writeAll(fd, text));
    } catch {
      // Read-only .git, no space: the next run computes again.
    }
  }
}

/** The hash of a file's text as the cache keeps it. */
export function textHash(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A digest of the files of `folders` (not recursively) and of `files`, by
 * path and content, with `extra` (options, build): read without parsing.
 * Undefined when a file cannot be read (the full path then reports it).
 */
export async function inputDigest(
  source: TreeSource,
  folders: readonly string[],
  files: readonly string[],
  extra: string,
): Promise<string | undefined> {
  const paths: string[] = [...files];
  const subFolders: string[] = [];
  for (const folder of folders) {
    const listed = await source.list(folder, { recursive: false });
    // The files of a sub-folder the layout has no place for are inputs too: an invariant put there stops the export.
    for (const e of [...listed, ...(await filesBelowUnknownFolders(source, listed))]) {
      // A link, a FIFO or device, or a folder that cannot be listed: the full path reads the scope and refuses it.
      if (e.type === 'symlink' || e.type === 'other' || e.unreadable !== undefined) return undefined;
      if (e.type === 'file') paths.push(e.path);
      // A folder's name is an input: one made at an invariant's name (`global/<ULID>.yaml/`) stops the export.
      else subFolders.push(e.path);
    }
  }
  // One running hash over every path and its bytes (length-prefixed, so no two inputs run together).
  const hash = createHash('sha256').update(extra);
  for (const folder of subFolders) hash.update(`\u0000${folder}/\u0000`);
  let failed = false;
  const add = (path: string, bytes: Uint8Array | undefined) => {
    hash.update(`\u0000${path}\u0000${bytes === undefined ? -1 : bytes.byteLength}\u0000`);
    if (bytes !== undefined) hash.update(bytes);
  };
  if (source instanceof WorkingTreeSource) {
    source.visit(
      paths,
      (i, buffer, length) => add(paths[i]!, buffer.subarray(0, length)),
      (i, r) => {
        if (r.code === 'missing' && i < files.length) add(paths[i]!, undefined);
        else failed = true;
      },
    );
  } else {
    const contents = await source.read(paths);
    for (const [i, p] of paths.entries()) {
      const r = contents.get(p);
      if (r?.ok) add(p, r.bytes);
      else if (r && !r.ok && r.code === 'missing' && i < files.length) add(p, undefined);
      else failed = true;
    }
  }
  return failed ? undefined : hash.digest('hex');
}
