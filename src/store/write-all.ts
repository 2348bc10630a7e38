// Writing whole files whatever the disk says: write(2) may take fewer bytes
// than asked. Kept apart from atomic-write.ts, whose store writes load what a
// cache's writer never needs (ownership checks, git, random names).
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes every byte of `content` to `fd`. write(2) may take fewer bytes than
 * asked when the disk is nearly full; taking that count for the whole write
 * is how a file ends up cut short while the command reports success.
 */
export function writeAll(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let done = 0;
  while (done < bytes.length) {
    const n = writeSync(fd, bytes, done, bytes.length - done);
    if (n <= 0) throw Object.assign(new Error('no byte was written'), { code: 'ENOSPC' });
    done += n;
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
 * Replaces `file` with what `write` writes: a temporary file renamed into
 * place, so a reader never sees half of it. Throws when it cannot, and
 * leaves no temporary file behind.
 */
export function replaceFile(file: string, write: (fd: number) => void): void {
  // Unique per run, so a temporary left by a crash never stands in the way.
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  let fd: number | undefined;
  let created = false;
  try {
    makeFolders(dirname(file));
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
    throw error;
  }
}

/** `replaceFile` for caches kept outside the store, in `.git/agents/`: failures are ignored (a cache only ever saves time). */
export function replaceCacheFile(file: string, write: (fd: number) => void): void {
  try {
    replaceFile(file, write);
  } catch {
    // The next run makes it again.
  }
}
