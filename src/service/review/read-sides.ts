/**
 * The bytes of the files each side of a diff needs (docs/review.md): a git side's from one
 * `git cat-file --batch`, the working tree's as read while it was listed.
 */
import { MAX_FILE_BYTES } from '../../core/limits.ts';
import { catFileBatch, type GitObject, type ObjectReader } from '../../git/object-reader.ts';
import type { ReadResult } from '../../store/tree-source.ts';
import { unmergedRead } from '../../store/unmerged-read.ts';
import { FOLDER, type Side, UNMERGED } from './side.ts';

/**
 * Bytes of `paths` of each side into `blobs` (by parse key), skipping those
 * already there: files of git sides come from ONE `git cat-file --batch`
 * for all sides (the revisions' reader, when there is one), the working
 * tree's were read while listing it.
 */
export async function readSides(
  top: string,
  blobs: Map<string, ReadResult>,
  wanted: readonly (readonly [Side, readonly string[]])[],
  reader?: ObjectReader,
  /** Called with each key as its bytes arrive from the reader (parsing them while git reads on). */
  each?: (key: string) => void,
): Promise<void> {
  const jobs = new Map<string, string>();
  for (const [side, paths] of wanted) {
    for (const p of paths) {
      const key = side.keys.get(p)!;
      if (blobs.has(key) || jobs.has(key)) continue;
      const e = side.blobs?.get(p);
      if (side.bytes || !e) blobs.set(key, side.bytes?.get(p) ?? { ok: false, code: 'missing', message: 'is missing' });
      else if (e.mode.startsWith(UNMERGED)) blobs.set(key, unmergedRead(e.mode.slice(UNMERGED.length + 1) || undefined));
      else if (e.mode === '120000')
        blobs.set(key, { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' });
      else if (!e.mode.startsWith('100'))
        blobs.set(key, { ok: false, code: 'not-a-file', message: e.mode === FOLDER ? 'is a folder, not a file' : 'is not a regular file' });
      else jobs.set(key, e.sha);
    }
  }
  if (jobs.size === 0) return;
  // A blob over the limit is answered by its size, its bytes never held: a revision can hold one of any size.
  const result = (bytes: Buffer | number | null | undefined): ReadResult =>
    bytes === null || bytes === undefined
      ? { ok: false, code: 'file-unreadable', message: `its object is missing from the repository` }
      : typeof bytes === 'number'
        ? { ok: false, code: 'file-too-large', message: `is ${bytes} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB)` }
        : { ok: true, bytes };
  const ofObject = (o: GitObject | null | undefined) => (o && o.size > MAX_FILE_BYTES ? o.size : o?.data);
  if (!reader) {
    const got = await catFileBatch(top, [...jobs.values()], MAX_FILE_BYTES);
    for (const [key, sha] of jobs) blobs.set(key, result(got.get(sha)));
    return;
  }
  const keysOfSha = new Map<string, string[]>();
  for (const [key, sha] of jobs) keysOfSha.get(sha)?.push(key) ?? keysOfSha.set(sha, [key]);
  // `each` may take a key's bytes out of `blobs` once it has parsed them: those are not put back.
  const delivered = new Set<string>();
  const got = await reader.read(
    [...keysOfSha.keys()],
    (sha, o) => {
      for (const key of keysOfSha.get(sha) ?? []) {
        blobs.set(key, result(ofObject(o)));
        delivered.add(key);
        each?.(key);
      }
    },
    MAX_FILE_BYTES,
  );
  for (const [key, sha] of jobs) if (!delivered.has(key)) blobs.set(key, result(ofObject(got.get(sha))));
}
