// The files git lists for an export that may not be on disk: the nested target files an obsolete project left, and
// what the index holds for the files a sparse checkout leaves out of the working tree (docs/export.md).
import { existsSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { indexFilesUnder } from '../git/changed.ts';
import { mayBeSparse } from '../git/location.ts';
import { catFileBatch } from '../git/object-reader.ts';
import { lsRepoFiles } from '../git/file-listing.ts';
import { GitError } from '../git/repo.ts';
import { sparseBlobs } from '../git/sparse.ts';
import { DEFAULT_STORE_DIR } from '../store/discover.ts';
import { type FileRead, pathBytes } from '../store/read-file.ts';
import { MAX_TARGET_BYTES } from './export-targets.ts';

/**
 * The files below the top of the repository named as a nested target's
 * (`AGENTS.md`, …), outside the store: where an export may have written a
 * project's block that no project names any more. Only regular files, and
 * none in a folder that holds a store of its own, on disk or in git's index
 * when a sparse checkout leaves it out (a repository copied in whole has that
 * store's files, never this export's); in a sparse checkout, a file git lists
 * that is not on disk is among them. Outside a git repository, none.
 */
export async function nestedTargetFiles(top: string, storeRel: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  let files: string[];
  try {
    files = await lsRepoFiles(top, true, names);
  } catch (error) {
    if (error instanceof GitError) return [];
    throw error;
  }
  files = files.filter((f) => f.includes('/') && !f.startsWith(`${storeRel}/`));
  const storesAbove = (rel: string) => {
    const out: string[] = [];
    for (let dir = dirname(rel); dir !== '.'; dir = dirname(dir)) {
      const store = `${dir}/${DEFAULT_STORE_DIR}`;
      if (store !== storeRel) out.push(store);
    }
    return out;
  };
  // Regular files, and in a sparse checkout the files it leaves out (not on disk), whose text sparseTargets reads.
  // Outside one, a file git lists that is not on disk was deleted: no text to judge, and no store above to look for.
  const sparse = mayBeSparse(top);
  // One in a folder whose name is not UTF-8 is listed by a name no file has (U+FFFD for its bytes): kept when its own
  // bytes name a file, for the export to refuse it if it holds a block.
  const isFile = (f: string) =>
    lstatSync(join(top, f), { throwIfNoEntry: false })?.isFile() ??
    (f.includes('\uFFFD') ? lstatSync(pathBytes(top, f) ?? '', { throwIfNoEntry: false })?.isFile() : undefined);
  files = files.filter((f) => isFile(f) ?? sparse);
  // Many files lie below the same folders: each store is looked for on disk once.
  const onDisk = new Map<string, boolean>();
  const present = (store: string) => {
    let found = onDisk.get(store);
    if (found === undefined) onDisk.set(store, (found = existsSync(join(top, store))));
    return found;
  };
  // A store a sparse checkout leaves out (with the copy holding it, or alone) is not on disk, yet still that copy's:
  // git is asked, once, which of the stores above the files it holds.
  const unseen = sparse ? [...new Set(files.flatMap(storesAbove))].filter((s) => !present(s)) : [];
  const tracked = new Set<string>();
  if (unseen.length > 0) {
    const held = await indexFilesUnder(top, unseen).catch((error: unknown) => {
      if (error instanceof GitError) return [];
      throw error;
    });
    for (const f of held) for (const s of unseen) if (f.startsWith(`${s}/`)) tracked.add(s);
  }
  const foreign = (rel: string) => storesAbove(rel).some((s) => tracked.has(s) || present(s));
  return files.filter((f) => !foreign(f)).sort();
}

/**
 * What the index holds for the files of `paths` that a sparse checkout leaves out of the working tree (tracked, not
 * on disk), and for those of the same kind below `folders` (the targets' rule folders, whose files an obsolete project
 * left), read as a file on disk is (targetText takes its text): judged by what git holds for them, they are not
 * missing (docs/export.md). Outside a sparse checkout none, found without a git process; none either when git cannot
 * answer.
 */
export async function sparseTargets(
  top: string,
  paths: readonly string[],
  folders: readonly string[] = [],
): Promise<Map<string, FileRead>> {
  const out = new Map<string, FileRead>();
  if (!mayBeSparse(top)) return out;
  const absent = (p: string) => lstatSync(join(top, p), { throwIfNoEntry: false }) === undefined;
  try {
    const entries = [...(await sparseBlobs(top, [...paths.filter(absent), ...folders]))].filter(([path]) => absent(path));
    // A link git holds there (its blob is the path it leads to) or a gitlink is refused as one on disk would be, never
    // read as the file's text and replaced by a file of that text with the block.
    const blobs: [string, string][] = [];
    for (const [path, { blob, mode }] of entries) {
      if (mode === '100644' || mode === '100755') blobs.push([path, blob]);
      else out.set(path, notAFile(mode));
    }
    const held = await catFileBatch(top, [...new Set(blobs.map(([, blob]) => blob))], MAX_TARGET_BYTES);
    for (const [path, blob] of blobs) {
      const bytes = held.get(blob);
      // Bytes that are no text (not UTF-8, over the limit) are refused as on disk, never taken for a missing file.
      if (Buffer.isBuffer(bytes)) out.set(path, { ok: true, bytes });
      else if (typeof bytes === 'number')
        out.set(path, { ok: false, code: 'too-large', message: `is ${bytes} bytes; the limit is ${MAX_TARGET_BYTES}` });
    }
  } catch {
    // Read as missing, as before git was asked.
  }
  return out;
}

/** What a sparse checkout's entry that is no regular file is to the export: refused as the same thing on disk is. */
function notAFile(mode: string): FileRead {
  const where = "in git's index, which the sparse checkout leaves out of the working tree";
  return mode === '120000'
    ? { ok: false, code: 'symlink', message: `is a symbolic link ${where}` }
    : { ok: false, code: 'not-a-file', message: `is ${mode === '160000' ? 'a submodule (gitlink)' : `an entry of mode ${mode}`} ${where}` };
}
