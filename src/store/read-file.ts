import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { fileDescriptorShortage, tooManyOpenFiles } from '../core/errors.ts';

/**
 * Reading one file the tool did not list itself (a cache, a context file, a
 * hook, a lock, `.git`): regular files only, and never more bytes than the
 * caller allows (docs/adr/0044-only-regular-files-read-bounded.md).
 */
export type FileRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; code: 'missing' | 'symlink' | 'not-a-file' | 'too-large' | 'unreadable'; message: string };

/** O_NONBLOCK: a FIFO (or a device) swapped in after the type check opens and reads at once instead of waiting for a writer. O_NOCTTY: a terminal never becomes ours. */
export const OPEN_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** What a non-regular file is, for messages ("a FIFO", "a folder", …). */
export function describeType(
  st: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>,
): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * No file descriptor left (EMFILE, ENFILE) when `path` was opened or read: thrown as the system's limit it is
 * (too-many-open-files), never answered as a file that cannot be read, which a caller would say as the file's fault
 * or take for a file that is not there (a cache, the active plan, a program's first line).
 */
export function throwIfNoFileDescriptor(error: unknown, path: string | Buffer): void {
  const short = fileDescriptorShortage(error);
  if (short !== undefined) throw tooManyOpenFiles(`cannot read ${path.toString()}`, short);
}

function errorCode(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ?? e.message;
}

/**
 * The bytes of the regular file `path`, at most `maxBytes` of them. Its type
 * is checked before it is opened (`lstat`, or `stat` when links are followed)
 * and again on the open descriptor (`fstat`: it may have been replaced in
 * between); it is opened without blocking, and at most `maxBytes + 1` bytes
 * are read, so a FIFO, a device or a file that grows never holds the reader.
 * Links are refused unless `followLinks`; then the target must be a regular file.
 */
export function readRegularFile(path: string, maxBytes: number, options: { followLinks?: boolean } = {}): FileRead {
  const follow = options.followLinks ?? false;
  let before: Stats;
  try {
    before = follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    throwIfNoFileDescriptor(error, path);
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, code: 'missing', message: 'does not exist' };
    if (code === 'ELOOP') return { ok: false, code: 'symlink', message: 'is a loop of symbolic links' };
    return { ok: false, code: 'unreadable', message: `cannot be read (${code})` };
  }
  if (before.isSymbolicLink()) return { ok: false, code: 'symlink', message: 'is a symbolic link' };
  if (!before.isFile()) return { ok: false, code: 'not-a-file', message: `is ${describeType(before)}, not a regular file` };
  if (before.size > maxBytes) return { ok: false, code: 'too-large', message: `is ${before.size} bytes; the limit is ${maxBytes}` };
  let fd: number;
  try {
    fd = openSync(path, OPEN_READ | (follow ? 0 : NOFOLLOW));
  } catch (error) {
    throwIfNoFileDescriptor(error, path);
    const code = errorCode(error);
    if (code === 'ENOENT') return { ok: false, code: 'missing', message: 'does not exist' };
    if (code === 'ELOOP') return { ok: false, code: 'symlink', message: 'is a symbolic link' };
    if (code === 'ENXIO') return { ok: false, code: 'not-a-file', message: 'is a socket, not a regular file' };
    return { ok: false, code: 'unreadable', message: `cannot be read (${code})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, code: 'not-a-file', message: `is ${describeType(st)}, not a regular file` };
    if (st.size > maxBytes) return { ok: false, code: 'too-large', message: `is ${st.size} bytes; the limit is ${maxBytes}` };
    // The size may change while it is read: read up to one byte past the limit, never more.
    const cap = maxBytes + 1;
    let buf = Buffer.allocUnsafe(Math.min(cap, Math.max(st.size + 1, 4096)));
    let off = 0;
    for (;;) {
      if (off === buf.length) {
        if (buf.length >= cap) break;
        const bigger = Buffer.allocUnsafe(Math.min(cap, buf.length * 2));
        buf.copy(bigger, 0, 0, off);
        buf = bigger;
      }
      const n = readSync(fd, buf, off, buf.length - off, null);
      if (n === 0) break;
      off += n;
    }
    if (off > maxBytes) return { ok: false, code: 'too-large', message: `is over ${maxBytes} bytes (it grew while it was read)` };
    return { ok: true, bytes: buf.subarray(0, off) };
  } catch (error) {
    throwIfNoFileDescriptor(error, path);
    return { ok: false, code: 'unreadable', message: `cannot be read (${errorCode(error)})` };
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `maxBytes` bytes (or fewer) of the regular file `path`, links followed, or undefined for anything that is
 * not a regular file or cannot be read: a program's `#!` line, which the system reads through a link too.
 */
export function fileHead(path: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_READ);
  } catch (error) {
    throwIfNoFileDescriptor(error, path);
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(maxBytes);
    return buf.subarray(0, readSync(fd, buf, 0, maxBytes, 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the regular file `path` holds `needle` anywhere, read in pieces of 1 MiB: a file too large to read whole
 * (over a reader's limit) is searched without being held. False for anything that is not a regular file or cannot be
 * read; links are not followed.
 */
export function fileHolds(path: string | Buffer, needle: string): boolean {
  const want = Buffer.from(needle);
  let fd: number;
  try {
    fd = openSync(path, OPEN_READ | NOFOLLOW);
  } catch (error) {
    throwIfNoFileDescriptor(error, path);
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    const piece = Buffer.allocUnsafe(1 << 20);
    // The last bytes of each piece are kept before the next: a needle across two pieces is found.
    let carry = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, piece, 0, piece.length, null);
      if (n === 0) return false;
      const window = Buffer.concat([carry, piece.subarray(0, n)]);
      if (window.includes(want)) return true;
      carry = window.subarray(Math.max(0, window.length - want.length + 1));
    }
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of the path `rel` below `top` that a listing showed with U+FFFD for the bytes of a name that are not UTF-8
 * (git's and Node's listings both decode names so): found by listing each folder on the way as bytes, for a reader
 * that must look into a file it cannot open by the name it was given. Undefined when no name, or more than one,
 * decodes to it.
 */
export function pathBytes(top: string, rel: string): Buffer | undefined {
  let at = Buffer.from(top);
  for (const part of rel.split('/')) {
    let names: Buffer[];
    try {
      names = readdirSync(at, { encoding: 'buffer' });
    } catch {
      return undefined;
    }
    const found = names.filter((n) => n.toString('utf8') === part);
    if (found.length !== 1) return undefined;
    at = Buffer.concat([at, Buffer.from('/'), found[0]!]);
  }
  return at;
}
