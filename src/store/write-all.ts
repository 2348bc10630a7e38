// Writing whole files (and appending whole texts) whatever the disk says:
// write(2) may take fewer bytes than asked; and the folders made for a write
// that failed taken back. Kept apart from atomic-write.ts, whose store writes
// load what a cache's writer never needs (ownership checks, git).
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { temporaryName } from '../core/layout.ts';
import { writerMark } from './lock-owner.ts';
import { removeStaleTempsIn } from './stale-temps.ts';

/**
 * Writes every byte of `content` to `fd`. write(2) may take fewer bytes than
 * asked when the disk is nearly full; taking that count for the whole write
 * is how a file ends up cut short while the command reports success.
 */
export function writeAll(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let done = 0;
  try {
    while (done < bytes.length) {
      const n = writeSync(fd, bytes, done, bytes.length - done);
      if (n <= 0) throw Object.assign(new Error('no byte was written'), { code: 'ENOSPC' });
      done += n;
    }
  } catch (error) {
    // How many bytes did land, for a writer that appends in place (no temporary to drop) and must take them back.
    if (done > 0 && error instanceof Error) Object.assign(error, { written: done });
    throw error;
  }
}

/** The bytes a failed {@link writeAll} had written before it failed (0 when none, or another error). */
function writtenBefore(error: unknown): number {
  const n = (error as { written?: unknown } | null)?.written;
  return typeof n === 'number' ? n : 0;
}

const APPEND_OPEN = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

/**
 * Appends `text` to the regular file `file` (made when missing), whole or not at all: a log read a line at a time (the
 * guard's audit log, a CI job's step summary), which a part left by a full disk would cut, and glue to what follows.
 * Never waits on a named pipe at that name, nor (`follow: false`) goes through a link. False when it could not.
 */
export function appendWhole(file: string, text: string, options: { follow?: boolean } = {}): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, APPEND_OPEN | (options.follow === false ? (constants.O_NOFOLLOW ?? 0) : 0), 0o644);
    if (!fstatSync(fd).isFile()) return false;
    // One write for a short text (under PIPE_BUF): appenders at once do not interleave their lines.
    writeAll(fd, text);
    return true;
  } catch (error) {
    const part = writtenBefore(error);
    if (fd !== undefined && part > 0) {
      try {
        ftruncateSync(fd, Math.max(0, fstatSync(fd).size - part));
      } catch {
        // The file keeps the part; nothing more can be done here.
      }
    }
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Makes the folder `path` and those above it that are missing, as
 * `mkdirSync(path, { recursive: true })` does, returning the first one made.
 * Node.js reports some refusals of that call (a read-only file system) as
 * ENOENT, which says nothing of the cause: the first missing folder is then
 * made alone, which fails with the file system's own reason.
 */
export function makeFolders(path: string): string | undefined {
  try {
    return mkdirSync(path, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let missing = path;
    for (let up = dirname(missing); up !== missing && !existsSync(up); up = dirname(up)) missing = up;
    let made = true;
    try {
      mkdirSync(missing);
    } catch (refused) {
      // Made meanwhile by another writer: not this call's to remove again.
      if ((refused as NodeJS.ErrnoException).code !== 'EEXIST') throw refused;
      made = false;
    }
    // It could be made now (another writer removed a folder of the path meanwhile, then it was missing): the rest.
    const below = mkdirSync(path, { recursive: true });
    return made ? missing : below;
  }
}

/**
 * Removes the folder `dir`, then its parents up to `top`, each while it is empty (a lock that made them takes them
 * back); stops at the first that is not. Whether `dir` itself went. Never fails.
 */
export function removeEmptyUpTo(dir: string, top: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    try {
      // rmdir removes only an empty folder, in one step: no window between looking and removing.
      rmdirSync(d);
    } catch {
      return d !== dir;
    }
    if (d === top || dirname(d) === d) return true;
  }
}

/**
 * Replaces `file` with what `write` writes: a temporary file renamed into
 * place, so a reader never sees half of it. Throws when it cannot, and
 * leaves no temporary file behind.
 */
export function replaceFile(file: string, write: (fd: number) => void): void {
  // Named as the store's temporaries are (who writes it), so one left by a kill is judged by the rule of locks.
  const tmp = join(dirname(file), temporaryName(basename(file), process.pid, writerMark(), randomHex()));
  let fd: number | undefined;
  let created = false;
  let made: string | undefined;
  try {
    made = makeFolders(dirname(file));
    // Exclusive: never through a link or into a FIFO someone left at that name.
    fd = openSync(tmp, 'wx');
    created = true;
    write(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    // Only a temporary this run made (none when the exclusive open failed).
    if (created) rmSync(tmp, { force: true });
    // And the folders made for it (`.git/agents/` of a first `plan activate`), as a failed store write takes them back.
    if (made !== undefined) removeEmptyUpTo(dirname(file), made);
    throw error;
  }
  sweepOnce(dirname(file));
}

/** Eight random hex digits for a temporary's name: unique enough beside the pid, and no node:crypto to load. */
function randomHex(): string {
  return Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0');
}

/** The folders whose stale temporaries this process has removed: once each, not at every cache file it writes. */
const swept = new Set<string>();

/**
 * Removes the temporaries left in `dir` by writers killed before their rename, the first time this process writes
 * there: as a lock left by a dead writer is cleared by the next writer, nothing else would ever remove them.
 */
function sweepOnce(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  removeStaleTempsIn(dir);
}

/** `replaceFile` for caches kept outside the store, in `.git/agents/`: failures are ignored (a cache only ever saves time). */
export function replaceCacheFile(file: string, write: (fd: number) => void): void {
  try {
    replaceFile(file, write);
  } catch {
    // The next run makes it again.
  }
}
