// Every write to the store: one file atomically (temporary, flush, link or
// rename), a folder in one step, several files as one change, removals.
// Locks are lock.ts; many replacements with one flush are replace-batch.ts.
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentsError, EXIT_CODES, fileDescriptorShortage, tooManyOpenFiles } from '../core/errors.ts';
import { temporaryName } from '../core/layout.ts';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import { inStyleOf } from '../core/file-style.ts';
import { assertFitsStoreFile } from '../core/store-file-size.ts';
import { writerMark } from './lock-owner.ts';
import { assertNoLinkedFolder } from './no-links.ts';
import { assertOwnStore } from './ownership.ts';
import { readRegularFile } from './read-file.ts';
import { generationFile } from './generation.ts';
import { makeFolders, removeEmptyUpTo, replaceCacheFile, writeAll } from './write-all.ts';

/** Every write below (and the batch's and the lock's) starts here: never in a folder owned by someone else unless allowed (ownership.ts). */
export function assertMine(root: string): void {
  assertOwnStore(root, 'write in');
}

/** Turns a file-system refusal into a user-facing error (read-only store, no permission, disk full). */
export function writeFailure(error: unknown, rel: string): AgentsError {
  const e = error as NodeJS.ErrnoException;
  // No file descriptor left is the system's limit, not a store to make writable (as a read says it, read-file.ts).
  const short = fileDescriptorShortage(error);
  if (short !== undefined) return tooManyOpenFiles(`cannot write ${rel}`, short);
  // A file where a folder of the path goes (a hand-made `decisions` file): to write again would fail the same way.
  const blocking = fileInTheWay(e, rel);
  if (blocking !== undefined)
    return new AgentsError(`cannot write ${rel}: ${blocking} is a file, where a folder goes`, EXIT_CODES.usage, {
      hint: `Nothing was changed. Move ${blocking} away (the command makes a folder there), then run the command again.`,
      code: 'write-failed',
    });
  // The other way round: a folder of the file's name (a hand-made schemas/invariant.schema.json/), which no rename replaces.
  if (e.code === 'EISDIR')
    return new AgentsError(`cannot write ${rel}: it is a folder, where a file goes`, EXIT_CODES.usage, {
      hint: `Nothing was changed. Move the folder ${rel} away (the command writes a file there), then run the command again.`,
      code: 'write-failed',
    });
  const why =
    e.code === 'EROFS'
      ? 'the file system is read-only'
      : e.code === 'EACCES' || e.code === 'EPERM'
        ? 'permission denied'
        : e.code === 'ENOSPC' || e.code === 'EDQUOT'
          ? 'the disk is full'
          : e.code === 'EEXIST'
            ? 'a file of that name already exists'
            : // A new folder renamed onto one that holds files: another writer made it since this command looked.
              e.code === 'ENOTEMPTY'
              ? 'a folder of that name was made meanwhile, by another writer'
              : e.code === 'ENAMETOOLONG'
                ? 'the path, or a name in it, is longer than the file system allows'
                : e.code === 'EBUSY'
                  ? 'it is in use (a mount point, or held open where the system forbids changing it)'
                  : // A limit on the size of files this process may write (ulimit -f), or the file system's own.
                    e.code === 'EFBIG'
                    ? 'the file is larger than this process may write (a limit on file size, such as ulimit -f)'
                    : (e.code ?? e.message);
  const full = e.code === 'ENOSPC' || e.code === 'EDQUOT';
  const taken = e.code === 'EEXIST' || e.code === 'ENOTEMPTY';
  return new AgentsError(`cannot write ${rel}: ${why}`, EXIT_CODES.usage, {
    hint: full
      ? 'Nothing was changed. Free some disk space, then run the command again.'
      : taken
        ? 'Nothing was changed. Run the command again: it sees what is there now.'
        : e.code === 'EFBIG'
          ? 'Nothing was changed. Raise the limit on the size of files this process may write (`ulimit -f unlimited` in its shell), then run the command again.'
          : e.code === 'ENAMETOOLONG'
            ? // No option named: this writer serves the library and the command line alike, and moving the folder is the fix.
              `Nothing was changed. Move the store (or its repository) to a shorter path, or shorten the longest name in ${rel}.`
            : 'Nothing was changed. Check that the store is writable, then run the command again.',
    code: 'write-failed',
    cause: error,
  });
}

/**
 * Refuses, as its write would be refused, a folder `rel` of the store this process may not write (a read-only file
 * system, no permission): for work whose result a failed write would throw away, such as an actor's run. A full disk
 * shows only when written; a folder not made yet is for its writer to make.
 */
export function assertWritable(root: string, rel: string): void {
  try {
    accessSync(join(root, rel), constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw writeFailure(error, rel);
  }
}

/**
 * The folder of `rel` that is a file, as `rel` names it, from the refusal: making that folder (`mkdir`, EEXIST)
 * or opening a file below it (`open`, ENOTDIR). Undefined for any other refusal.
 */
function fileInTheWay(e: NodeJS.ErrnoException, rel: string): string | undefined {
  let at: string | undefined;
  if (e.syscall === 'mkdir' && e.code === 'EEXIST') at = e.path;
  else if (e.code === 'ENOTDIR' && e.path !== undefined) {
    for (let p = dirname(e.path); p !== dirname(p); p = dirname(p)) {
      try {
        if (!statSync(p).isDirectory()) at = p;
        break;
      } catch {
        // Not there (or below the file in the way): one folder up.
      }
    }
  }
  if (at === undefined) return undefined;
  // `rel` itself when it names a folder (a scope's, which its lock makes); else its folders. An absolute `rel`
  // (a file outside the store, in git's folder) names the folder whole.
  const folders = rel.split('/');
  for (let k = folders.length; k > 0; k--) {
    const named = folders.slice(0, k).join('/');
    if (at === named || at.endsWith(`/${named}`)) return named;
  }
  return undefined;
}

/** A temporary beside `path`, named so readers skip it and `validate --fix` knows it (core/layout.ts). */
export function tempName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return join(dirname(path), temporaryName(base, process.pid, writerMark(), randomBytes(4).toString('hex')));
}

/** Flushes a folder's entries (a rename or a removal in it) to disk, where the file system allows. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The permission bits of the regular file at `path`, or undefined when there
 * is none: a replacement takes them over, so a file kept private (0600) or
 * executable stays so after a rename puts new content in its place.
 */
export function modeToKeep(path: string): number | undefined {
  try {
    const s = lstatSync(path);
    return s.isFile() ? s.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes `content` to `root/rel` atomically and durably: a temporary file in
 * the same folder, flushed, then linked (mode "create": fails if the file
 * exists) or renamed (mode "replace", keeping the file's permissions) into
 * place. Readers never see a torn file. `modeOf` names a store file whose
 * permissions a created file takes: the file it is made from (a rename that
 * rewrites it), so a private file stays private. A failure names the file as
 * `named`: the path the user will find, when `rel` lies in a temporary folder
 * or `root` is no folder the user knows (the hooks folder). Returns the first folder it made for the file, if it
 * made any; a failed write takes the folders it made back, as they were not there before. `unchanged`, for a file
 * another program may write (a client's settings an editor saves): called once the new content is flushed, just
 * before it is put in place, it throws to leave the file as it is, its error passed on as it is.
 */
export function writeFileAtomic(
  root: string,
  rel: string,
  content: string,
  mode: 'create' | 'replace' = 'create',
  modeOf?: string,
  named = rel,
  unchanged?: () => void,
): string | undefined {
  assertMine(root);
  const path = join(root, rel);
  const tmp = tempName(path);
  const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  assertNoLinkedFolder(root, relDir, `write ${rel}`);
  let made: string | undefined;
  try {
    made = makeFolders(dirname(path));
    const keep = mode === 'replace' ? modeToKeep(path) : modeOf !== undefined ? modeToKeep(join(root, modeOf)) : undefined;
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      if (keep !== undefined) fchmodSync(fd, keep);
      writeAll(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    unchanged?.();
    if (mode === 'create') {
      linkSync(tmp, path);
      unlinkSync(tmp);
    } else {
      renameSync(tmp, path);
    }
    fsyncDir(dirname(path));
    return made;
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // The temporary was never made, or is already gone.
    }
    // "Nothing was changed" holds for the folders too: a new client's or target's folder left empty would stay.
    if (made !== undefined) removeEmptyUpTo(dirname(path), made);
    throw error instanceof AgentsError ? error : writeFailure(error, named);
  }
}
/**
 * Replaces the store file `rel` with `text` (as writers make it) in the style of the file there now: its BOM and
 * its CRLF line ends kept (core/file-style.ts).
 */
export function replaceInStyle(root: string, rel: string, text: string): void {
  // The CR of each line end a CRLF file keeps counts too.
  const styled = inStyleOf(styleSource(root, rel), text);
  assertFitsStoreFile(rel, styled);
  writeFileAtomic(root, rel, styled, 'replace');
}

/**
 * Creates the store file `rel` with `text` in the style of the store file `from` it is made from (a move): its BOM,
 * its CRLF line ends and its permissions, as replaceInStyle keeps them in place.
 */
export function createInStyleOf(root: string, rel: string, text: string, from: string): void {
  const styled = inStyleOf(styleSource(root, from), text);
  assertFitsStoreFile(rel, styled);
  writeFileAtomic(root, rel, styled, 'create', from);
}

/** The text of the store file `rel` whose style a write keeps; undefined when it cannot be read. */
function styleSource(root: string, rel: string): string | undefined {
  const r = readRegularFile(join(root, rel), MAX_FILE_BYTES);
  return r.ok ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(r.bytes) : undefined;
}

/**
 * Creates the folder `rel` with `files` in one step for every reader: the
 * files are written (each atomically) into a temporary folder beside it,
 * which is then renamed into place. A crash leaves at most the temporary
 * folder, which readers ignore and `validate --fix` removes. Fails, writing
 * nothing, when `rel` exists.
 */
export function writeFolderAtomic(root: string, rel: string, files: readonly { name: string; content: string }[]): void {
  assertMine(root);
  const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  assertNoLinkedFolder(root, parent, `create ${rel}`);
  const tempRel = tempName(rel);
  try {
    makeFolders(join(root, parent));
    mkdirSync(join(root, tempRel));
  } catch (error) {
    throw writeFailure(error, rel);
  }
  try {
    // A failure names the file as it would have been, not the temporary folder, which is removed below.
    for (const f of files) writeFileAtomic(root, `${tempRel}/${f.name}`, f.content, 'create', undefined, `${rel}/${f.name}`);
    try {
      renameSync(join(root, tempRel), join(root, rel));
    } catch (error) {
      throw writeFailure(error, rel);
    }
    fsyncDir(join(root, parent));
  } catch (error) {
    rmSync(join(root, tempRel), { recursive: true, force: true });
    throw error;
  }
}

/**
 * Writes several new files as one change: each atomically, in order, the
 * last one being the one that commits the others for readers (a plan run's
 * decision node names its enforcement file; see docs/adr/0064-run-committed-by-decision-node.md). When a
 * write fails, the files already written are removed again, so the store is
 * as it was; if even that fails, the error names what was left (readers
 * ignore it: nothing commits it).
 */
export function writeFilesTogether(root: string, files: readonly { rel: string; content: string }[]): void {
  const done: string[] = [];
  const folders: { dir: string; made: string }[] = [];
  try {
    for (const f of files) {
      const made = writeFileAtomic(root, f.rel, f.content);
      done.push(f.rel);
      if (made !== undefined) folders.push({ dir: dirname(join(root, f.rel)), made });
    }
  } catch (error) {
    undoWrites(root, done, error, 'readers ignore a file nothing names', folders);
  }
}

/**
 * Removes again the new files `written` of a change that then failed with `error`, latest first, and throws
 * `error`: the store is as it was. A file that cannot be removed again is named in the hint, with `left`, what it
 * is now to a reader.
 */
export function undoWrites(
  root: string,
  written: readonly string[],
  error: unknown,
  left: string,
  /** The folders the writes made, each from a file's folder (`dir`) up to the first one made: they go again once empty. */
  folders: readonly { dir: string; made: string }[] = [],
): never {
  const kept: string[] = [];
  for (const rel of [...written].reverse()) {
    try {
      unlinkSync(join(root, rel));
      fsyncDir(dirname(join(root, rel)));
    } catch {
      kept.push(rel);
    }
  }
  for (const f of [...folders].reverse()) removeEmptyUpTo(f.dir, f.made);
  if (kept.length === 0 || !(error instanceof AgentsError)) throw error;
  throw new AgentsError(error.message, error.exitCode, {
    hint: `${kept.join(', ')} could not be removed again (${left}). Delete ${kept.length === 1 ? 'it' : 'them'} when the store is writable, then run the command again.`,
    code: error.code,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  });
}

/**
 * Throws `error`, the failure of a change of several files (each written atomically, one after another) after the
 * files `written` (of `total`, when known) were: when some were, it says so (they stay, the rest are as they were)
 * and lists them (`detail.written`, after those an inner step of the change listed), in place of a hint that nothing
 * was changed. `rerun` is the command that makes the rest (`detail.rerun`), unless an inner step named its own.
 */
export function failedPartWay(error: unknown, written: readonly string[], rerun: string, total?: number): never {
  if (!(error instanceof AgentsError)) throw error;
  const inner = error.detail?.written;
  const all = [...written, ...(Array.isArray(inner) ? (inner as string[]) : [])];
  if (all.length === 0) throw error;
  const command = typeof error.detail?.rerun === 'string' ? error.detail.rerun : rerun;
  throw new AgentsError(error.message, error.exitCode, {
    hint: `${all.length}${total === undefined ? '' : ` of ${total}`} changes were written before it, the rest not. Fix what the message says (free some disk space, make the file writable), then run \`${command}\`: it makes the rest.`,
    code: error.code,
    detail: { written: all, rerun: command },
  });
}

/**
 * Removes one file of the store, durably. The store's write generation moves on first: a reader that listed the
 * folder a move (or an add) just wrote before it was written, and lists this one after the removal, finds the
 * generation changed and reads again (settled-read.ts), rather than answering a store without the file.
 */
export function removeFile(root: string, rel: string): void {
  assertMine(root);
  assertNoLinkedFolder(root, rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '', `remove ${rel}`);
  advanceGeneration(root);
  try {
    unlinkSync(join(root, rel));
    fsyncDir(dirname(join(root, rel)));
  } catch (error) {
    throw writeFailure(error, rel);
  }
}

/**
 * Takes the folder `rel` out of the store in one step: renamed to a temporary's name beside it, which readers skip and
 * `validate --fix` removes. Readers so see the folder whole or not at all, and a crash after the rename leaves only that
 * temporary. The write generation moves on first, as for removeFile. Returns the temporary's store-relative path, for
 * removeFolder; fails, changing nothing, when the folder cannot be renamed.
 */
export function takeFolderOut(root: string, rel: string): string {
  assertMine(root);
  const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  assertNoLinkedFolder(root, parent, `remove ${rel}`);
  advanceGeneration(root);
  const away = tempName(rel);
  try {
    renameSync(join(root, rel), join(root, away));
    fsyncDir(join(root, parent));
  } catch (error) {
    throw writeFailure(error, rel);
  }
  return away;
}

/**
 * Replaces the store's write generation (generation.ts) with a token no writer wrote before. A cache's write: a git
 * folder that cannot be written (outside git there is none) leaves readers as they were before generations.
 */
function advanceGeneration(root: string): void {
  const file = generationFile(root);
  if (file === undefined) return;
  const token = `${process.pid}.${randomBytes(8).toString('hex')}`;
  replaceCacheFile(file, (fd) => writeAll(fd, token));
}

/**
 * Links the store file `rel` under a temporary's name beside it (the same file, which readers skip) and returns that
 * name: a mark that `rel` is being moved away, for `validate --fix` to finish a move cut short (validate/fix-moves.ts).
 */
export function linkAsTemporary(root: string, rel: string): string {
  assertMine(root);
  const marker = tempName(rel);
  try {
    linkSync(join(root, rel), join(root, marker));
    // On disk before the new copy is: a crash never leaves two copies without the mark that tells them apart.
    fsyncDir(dirname(join(root, rel)));
  } catch (error) {
    throw writeFailure(error, rel);
  }
  return marker;
}

/** Whether `rel` is a folder itself (a link to one is not). */
export function isFolder(root: string, rel: string): boolean {
  try {
    return lstatSync(join(root, rel)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Removes a folder the tool itself left unfinished (a plan folder of an interrupted `plan use` or `plan remove`), with its files.
 * Links inside are removed, never followed. False when it was gone already (its writer finished and renamed it).
 */
export function removeFolder(root: string, rel: string): boolean {
  assertMine(root);
  const path = join(root, rel);
  try {
    rmSync(path, { recursive: true });
    fsyncDir(dirname(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsNow(path)) return false;
    const refused = fileRefusal(error, path);
    throw refused === undefined ? writeFailure(error, rel) : writeFailure(refused.error, `${rel}${refused.below}`);
  }
  return true;
}

/**
 * The refusal behind rmSync's ENOTDIR: a file in the folder it could not unlink (EPERM: an immutable file, another
 * user's in a sticky folder) it then tried as a folder, whose ENOTDIR names no cause. The file's own refusal, and its
 * path below the folder; undefined for any other failure.
 */
function fileRefusal(error: unknown, folder: string): { error: unknown; below: string } | undefined {
  const e = error as NodeJS.ErrnoException;
  if (e.code !== 'ENOTDIR' || e.path === undefined || !e.path.startsWith(`${folder}/`)) return undefined;
  try {
    if (!lstatSync(e.path).isFile()) return undefined;
  } catch {
    // Gone, or not to be looked at: the failure is said as it came.
    return undefined;
  }
  try {
    unlinkSync(e.path);
  } catch (refused) {
    return { error: refused, below: e.path.slice(folder.length) };
  }
  // Removable after all (changed meanwhile): the failure is said as it came.
  return undefined;
}

function existsNow(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
