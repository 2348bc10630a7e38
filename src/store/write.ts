import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import { LOCK_NAME, TEMP_SUFFIX } from '../core/layout.ts';

/** Turns a file-system refusal into a user-facing error (read-only store, no permission, disk full). */
export function writeFailure(error: unknown, rel: string): AgentsError {
  const e = error as NodeJS.ErrnoException;
  const why =
    e.code === 'EROFS' ? 'the file system is read-only'
    : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied'
    : e.code === 'ENOSPC' ? 'the disk is full'
    : e.code === 'EEXIST' ? 'a file of that name already exists'
    : (e.code ?? e.message);
  return new AgentsError(`cannot write ${rel}: ${why}`, EXIT_CODES.usage, {
    hint: 'Nothing was changed. Check that the store is writable, then run the command again.',
  });
}

function tempName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return join(dirname(path), `.${base}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
}

function fsyncDir(dir: string): void {
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
 * Writes `content` to `root/rel` atomically and durably: a temporary file in
 * the same folder, flushed, then linked (mode "create": fails if the file
 * exists) or renamed (mode "replace") into place. Readers never see a torn file.
 */
export function writeFileAtomic(root: string, rel: string, content: string, mode: 'create' | 'replace' = 'create'): void {
  const path = join(root, rel);
  const tmp = tempName(path);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (mode === 'create') {
      linkSync(tmp, path);
      unlinkSync(tmp);
    } else {
      renameSync(tmp, path);
    }
    fsyncDir(dirname(path));
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // The temporary was never made, or is already gone.
    }
    throw writeFailure(error, rel);
  }
}

export function removeFile(root: string, rel: string): void {
  try {
    unlinkSync(join(root, rel));
    fsyncDir(dirname(join(root, rel)));
  } catch (error) {
    throw writeFailure(error, rel);
  }
}

export interface LockOptions {
  /** How long to wait for another writer, in ms. */
  timeoutMs?: number;
  /** Told when a stale lock of a dead process is cleared. */
  onStale?: (message: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lock file is stale when its process is gone (same host) or it was left empty long ago. */
function isStale(lockPath: string): string | null {
  let text: string;
  let mtimeMs: number;
  try {
    text = readFileSync(lockPath, 'utf8');
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch {
    return null;
  }
  const [pidText, host] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) {
    return Date.now() - mtimeMs > 10_000 ? text : null;
  }
  if (host !== hostname()) return null;
  try {
    process.kill(pid, 0);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? text : null;
  }
}

/** Clears a stale lock, serialised by a short-lived breaker file so two waiters cannot both clear it. */
function breakStale(lockPath: string, seen: string): boolean {
  const breaker = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx');
  } catch {
    try {
      if (Date.now() - statSync(breaker).mtimeMs > 5_000) unlinkSync(breaker);
    } catch {
      // Gone already.
    }
    return false;
  }
  try {
    const now = readFileSync(lockPath, 'utf8');
    if (now !== seen) return false;
    unlinkSync(lockPath);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
    try {
      unlinkSync(breaker);
    } catch {
      // Nothing to clean.
    }
  }
}

/**
 * Runs `fn` holding the lock of one scope folder (`<folder>/.lock`, created
 * exclusively), so that a duplicate check and the write that follows it are
 * one step for every other writer of that scope.
 */
export async function withFolderLock<T>(root: string, folder: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const dir = join(root, folder);
  const lockPath = join(dir, LOCK_NAME);
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw writeFailure(error, folder);
  }
  let delay = 2;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(lockPath, 'wx', 0o644);
      writeSync(fd, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailure(error, `${folder}/${LOCK_NAME}`);
    }
    if (fd !== undefined) {
      closeSync(fd);
      try {
        return await fn();
      } finally {
        try {
          unlinkSync(lockPath);
        } catch {
          // Cleared by someone who judged it stale; nothing more to do.
        }
      }
    }
    const stale = isStale(lockPath);
    if (stale !== null && breakStale(lockPath, stale)) {
      options.onStale?.(`cleared a stale lock ${folder}/${LOCK_NAME} left by a process that is gone (${stale.trim() || 'empty'})`);
      continue;
    }
    if (Date.now() > deadline) {
      throw new AgentsError(`${folder} is locked by another writer (${folder}/${LOCK_NAME})`, EXIT_CODES.usage, {
        hint: `If no other agents command is running, delete ${folder}/${LOCK_NAME} and run the command again.`,
      });
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
}
