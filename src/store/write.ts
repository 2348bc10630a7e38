import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AgentsError, EXIT_CODES, InvalidStoreError, UsageError } from '../core/errors.ts';
import { LOCK_NAME, TEMP_SUFFIX } from '../core/layout.ts';
import { assertNoLinkedFolder } from './no-links.ts';
import { assertOwnStore } from './ownership.ts';
import { describeType, OPEN_READ } from './read-file.ts';
import { runEnv } from '../git/run-environment.ts';

/** Every write below starts here: never in a folder owned by someone else unless allowed (ownership.ts). */
function assertMine(root: string): void {
  assertOwnStore(root, 'write in');
}

/** Turns a file-system refusal into a user-facing error (read-only store, no permission, disk full). */
export function writeFailure(error: unknown, rel: string): AgentsError {
  const e = error as NodeJS.ErrnoException;
  const why =
    e.code === 'EROFS'
      ? 'the file system is read-only'
      : e.code === 'EACCES' || e.code === 'EPERM'
        ? 'permission denied'
        : e.code === 'ENOSPC' || e.code === 'EDQUOT'
          ? 'the disk is full'
          : e.code === 'EEXIST'
            ? 'a file of that name already exists'
            : (e.code ?? e.message);
  const full = e.code === 'ENOSPC' || e.code === 'EDQUOT';
  return new AgentsError(`cannot write ${rel}: ${why}`, EXIT_CODES.usage, {
    hint: full
      ? 'Nothing was changed. Free some disk space, then run the command again.'
      : 'Nothing was changed. Check that the store is writable, then run the command again.',
  });
}

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

function tempName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return join(dirname(path), `.${base}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
}

/** fsync errors that mean written bytes did not reach the disk. */
const LOST_DATA = new Set(['ENOSPC', 'EDQUOT', 'EIO']);

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
  assertMine(root);
  const path = join(root, rel);
  const tmp = tempName(path);
  const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  assertNoLinkedFolder(root, relDir, `write ${rel}`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeAll(fd, content);
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

/**
 * Flushes the file system that holds `path` to its disk: syncfs(2), through
 * coreutils `sync -f` (Linux). One call costs about as much as a few fsyncs,
 * however many files were written since. False where it is not available;
 * the caller then flushes file by file.
 */
export function syncFileSystem(path: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return spawnSync('sync', ['-f', path], { stdio: 'ignore', timeout: 120_000 }).status === 0;
  } catch {
    return false;
  }
}

/**
 * Replaces many files, each atomically, without an fsync per file
 * (docs/decisions.md, "validate --fix: one file-system sync, not an fsync per
 * file"): every new content goes to a temporary beside its file first
 * (`stage`); `commit` then flushes them all to disk at once, renames each into
 * place, and flushes the renames. A crash at any point leaves each file
 * either as it was or replaced whole, and at most temporaries that readers
 * skip and `validate --fix` removes; after a power loss the same holds, since
 * no rename is made before the data it exposes is on disk.
 */
export class ReplaceBatch {
  /**
   * The staged files, by store-relative path only: the temporary's name
   * follows from the path and its place here (`tmpOf`). A batch of 100,000
   * files then keeps no absolute paths (about 30 MiB at that size).
   */
  private readonly staged: string[] = [];
  private readonly safeFolders = new Set<string>();
  private dirty = false;
  /** Random per batch, as `tempName`'s is per file: `.<name>.<pid>.<token><n>.tmp`. */
  private readonly token = randomBytes(4).toString('hex');

  constructor(private readonly root: string) {
    assertMine(root);
  }

  private tmpOf(rel: string, n: number): string {
    const slash = rel.lastIndexOf('/');
    return join(this.root, rel.slice(0, slash + 1), `.${rel.slice(slash + 1)}.${process.pid}.${this.token}${n.toString(16)}${TEMP_SUFFIX}`);
  }

  /** Writes the new content of `rel` to a temporary beside it; throws the user-facing error of a refused write (nothing left behind). */
  stage(rel: string, content: string): void {
    const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    if (!this.safeFolders.has(relDir)) {
      assertNoLinkedFolder(this.root, relDir, `write ${rel}`);
      this.safeFolders.add(relDir);
    }
    const tmp = this.tmpOf(rel, this.staged.length);
    try {
      const fd = openSync(tmp, 'wx', 0o644);
      try {
        writeAll(fd, content);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // Never made.
      }
      throw writeFailure(error, rel);
    }
    this.staged.push(rel);
  }

  /** Removes a file (made durable by `commit`'s final flush). */
  remove(rel: string): void {
    const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    assertNoLinkedFolder(this.root, relDir, `remove ${rel}`);
    this.safeFolders.add(relDir);
    try {
      unlinkSync(join(this.root, rel));
    } catch (error) {
      throw writeFailure(error, rel);
    }
    this.dirty = true;
  }

  /** Puts every staged file in place; returns the files that could not be, with why (their temporaries removed). */
  commit(): Map<string, AgentsError> {
    const failed = new Map<string, AgentsError>();
    if (this.staged.length > 0) {
      // The data first: a rename must never reach the disk before the bytes it exposes.
      const flushed = syncFileSystem(this.root);
      for (const [n, rel] of this.staged.entries()) {
        const tmp = this.tmpOf(rel, n);
        try {
          if (!flushed) fsyncFile(tmp);
          renameSync(tmp, join(this.root, rel));
          this.dirty = true;
        } catch (error) {
          try {
            unlinkSync(tmp);
          } catch {
            // Gone already.
          }
          failed.set(rel, writeFailure(error, rel));
        }
      }
      this.staged.length = 0;
    }
    if (this.dirty && !syncFileSystem(this.root)) for (const dir of this.folders()) fsyncDir(dir);
    this.dirty = false;
    return failed;
  }

  private folders(): Set<string> {
    return new Set([...this.safeFolders].map((d) => join(this.root, d)));
  }
}

function fsyncFile(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r+');
    fsyncSync(fd);
  } catch (error) {
    // Data the disk could not take must stop the rename; anything else (gone, not flushable) need not.
    if (LOST_DATA.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
    mkdirSync(join(root, parent), { recursive: true });
    mkdirSync(join(root, tempRel));
  } catch (error) {
    throw writeFailure(error, rel);
  }
  try {
    for (const f of files) writeFileAtomic(root, `${tempRel}/${f.name}`, f.content);
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
 * decision node names its enforcement file; see docs/decisions.md). When a
 * write fails, the files already written are removed again, so the store is
 * as it was; if even that fails, the error names what was left (readers
 * ignore it: nothing commits it).
 */
export function writeFilesTogether(root: string, files: readonly { rel: string; content: string }[]): void {
  const done: string[] = [];
  try {
    for (const f of files) {
      writeFileAtomic(root, f.rel, f.content);
      done.push(f.rel);
    }
  } catch (error) {
    const left: string[] = [];
    for (const rel of done.reverse()) {
      try {
        unlinkSync(join(root, rel));
        fsyncDir(dirname(join(root, rel)));
      } catch {
        left.push(rel);
      }
    }
    if (left.length === 0 || !(error instanceof AgentsError)) throw error;
    throw new AgentsError(error.message, error.exitCode, {
      hint: `${left.join(', ')} could not be removed again; nothing names ${left.length === 1 ? 'it' : 'them'}, so readers ignore ${left.length === 1 ? 'it' : 'them'}. Delete ${left.length === 1 ? 'it' : 'them'} when the store is writable, then run the command again.`,
    });
  }
}

export function removeFile(root: string, rel: string): void {
  assertMine(root);
  assertNoLinkedFolder(root, rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '', `remove ${rel}`);
  try {
    unlinkSync(join(root, rel));
    fsyncDir(dirname(join(root, rel)));
  } catch (error) {
    throw writeFailure(error, rel);
  }
}

/** Whether `rel` is a folder itself (a link to one is not). */
export function isFolder(root: string, rel: string): boolean {
  try {
    return lstatSync(join(root, rel)).isDirectory();
  } catch {
    return false;
  }
}

/** Removes a folder the tool itself left unfinished (a plan folder of an interrupted `plan use`), with its files. Links inside are removed, never followed. */
export function removeFolder(root: string, rel: string): void {
  assertMine(root);
  const path = join(root, rel);
  try {
    rmSync(path, { recursive: true });
    fsyncDir(dirname(path));
  } catch (error) {
    throw writeFailure(error, rel);
  }
}

export interface LockOptions {
  /** How long to wait for another writer, in ms (default: AGENTS_LOCK_TIMEOUT_MS, else 15 s). */
  timeoutMs?: number;
  /** Told when a stale lock of a dead process is cleared. */
  onStale?: (message: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Default wait for another writer's lock. */
export const LOCK_TIMEOUT_MS = 15_000;

/** The lock wait from `AGENTS_LOCK_TIMEOUT_MS` (milliseconds), else {@link LOCK_TIMEOUT_MS}. */
export function lockTimeoutFromEnv(env: Record<string, string | undefined> = runEnv()): number {
  const raw = env.AGENTS_LOCK_TIMEOUT_MS;
  if (raw === undefined || raw === '') return LOCK_TIMEOUT_MS;
  if (!/^\d{1,9}$/.test(raw)) {
    throw new UsageError(
      `AGENTS_LOCK_TIMEOUT_MS="${raw.slice(0, 20)}" is not a number of milliseconds`,
      'Set it to a whole number such as 15000, or unset it.',
    );
  }
  return Number(raw);
}

/**
 * The first bytes of a lock file, never through a link (a planted link must
 * not make us read, or print, a file outside the store); null when it is gone.
 */
function readLock(lockPath: string): { text: string; mtimeMs: number } | null {
  let fd: number;
  try {
    // Without blocking: a FIFO at that name must not hold the writer.
    fd = openSync(lockPath, OPEN_READ | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    // A link in place of the lock: not ours, not a process's; treat it as an empty, old lock.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return { text: '', mtimeMs: lstatMtime(lockPath) };
    return null;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(200);
    const n = st.isFile() ? readSync(fd, buf, 0, buf.length, 0) : 0;
    return { text: buf.subarray(0, n).toString('utf8'), mtimeMs: st.mtimeMs };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function lstatMtime(path: string): number {
  try {
    return lstatSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** "pid host" of a lock, or null when it does not hold one. */
function lockOwner(text: string): { pid: number; host: string } | null {
  const m = /^(\d{1,10}) (\S{1,255})/.exec(text);
  if (!m) return null;
  return { pid: Number(m[1]), host: m[2]! };
}

/** A lock file is stale when its process is gone (same host) or it holds no owner and was left long ago. */
function isStale(lockPath: string): { seen: string; why: string } | null {
  const lock = readLock(lockPath);
  if (lock === null) return null;
  const owner = lockOwner(lock.text);
  if (owner === null || owner.pid <= 0) {
    return Date.now() - lock.mtimeMs > 10_000 ? { seen: lock.text, why: 'it names no process and is older than 10 s' } : null;
  }
  if (owner.host !== hostname()) return null;
  try {
    process.kill(owner.pid, 0);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
      ? { seen: lock.text, why: `process ${owner.pid} on ${owner.host} is gone` }
      : null;
  }
}

/** Clears a stale lock, serialised by a short-lived breaker file so two waiters cannot both clear it. */
function breakStale(lockPath: string, seen: string): boolean {
  const breaker = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx');
    // Like the lock, it names its process, so a crash here leaves something `validate` can judge.
    writeAll(fd, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
  } catch {
    try {
      if (Date.now() - lstatMtime(breaker) > 5_000) unlinkSync(breaker);
    } catch {
      // Gone already.
    }
    return false;
  }
  try {
    const now = readLock(lockPath);
    if (now === null || now.text !== seen) return false;
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
 * Clears `rel` if it is a stale lock (its process is gone), exactly as a
 * waiting writer would: under the breaker, and only if it still holds what
 * was judged stale. Returns why it was stale, or null when it was kept.
 */
export function clearStaleLock(root: string, rel: string): string | null {
  assertMine(root);
  const lockPath = join(root, rel);
  clearDeadBreaker(lockPath);
  const stale = isStale(lockPath);
  if (stale === null || !breakStale(lockPath, stale.seen)) return null;
  return stale.why;
}

/** A breaker left by a process killed while it cleared a stale lock: removed once its process is gone. */
function clearDeadBreaker(lockPath: string): void {
  const breaker = `${lockPath}.break`;
  const lock = readLock(breaker);
  if (lock === null) return;
  const owner = lockOwner(lock.text);
  let dead = owner === null ? Date.now() - lock.mtimeMs > 5_000 : false;
  if (owner !== null && owner.host === hostname()) {
    try {
      process.kill(owner.pid, 0);
    } catch (error) {
      dead = (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
  if (!dead) return;
  try {
    unlinkSync(breaker);
  } catch {
    // Gone already.
  }
}

/**
 * What stands at a lock's name when it is not a file a writer made (a folder,
 * a link, a FIFO…): no writer could ever take or clear it. Null for a regular
 * file or nothing.
 */
export function lockBlocker(path: string): string | null {
  try {
    const st = lstatSync(path);
    return st.isFile() ? null : describeType(st);
  } catch {
    return null;
  }
}

/**
 * Removes what stands at a lock's name when it is not a regular file (see
 * lockBlocker): a link, a FIFO, a socket or device node, or an empty folder.
 * A folder that holds files is kept (they are not the tool's to delete), and
 * so is a regular file, which may be a live writer's lock.
 */
export function removeLockBlocker(root: string, rel: string): void {
  assertNoLinkedFolder(root, rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '', `remove ${rel}`);
  const path = join(root, rel);
  let folder: boolean;
  try {
    const st = lstatSync(path);
    if (st.isFile()) throw new AgentsError(`${rel} is a regular file now (a writer's lock); it was kept`, EXIT_CODES.usage);
    folder = st.isDirectory();
  } catch (error) {
    if (error instanceof AgentsError) throw error;
    return; // Gone already: nothing stands in a writer's way.
  }
  try {
    if (folder) rmdirSync(path);
    else unlinkSync(path);
    fsyncDir(dirname(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY')
      throw new AgentsError(`${rel}/ holds files; move them out, then remove the folder`, EXIT_CODES.usage);
    throw writeFailure(error, rel);
  }
}

/** Refuses (exit 3) at once when the lock of `folder` (or its breaker) is something no writer can take or clear. */
function assertLockUsable(lockPath: string, folder: string): void {
  for (const [path, name] of [
    [lockPath, LOCK_NAME],
    [`${lockPath}.break`, `${LOCK_NAME}.break`],
  ] as const) {
    const what = lockBlocker(path);
    if (what === null) continue;
    const file = folder === '' ? name : `${folder}/${name}`;
    const message = `${file} is ${what}, not a writer's lock file; every writer of ${folder || 'the store'} would wait on it`;
    throw new InvalidStoreError(
      `cannot lock ${folder || 'the store'}: ${message}`,
      [
        {
          code: 'bad-lock',
          severity: 'error',
          file,
          line: 0,
          col: 0,
          message,
          hint: 'Run `agents validate --fix` to remove it (it never holds anything of the store).',
        },
      ],
      `Nothing was written. Run \`agents validate --fix\` to remove ${file}, then run the command again.`,
    );
  }
}

/**
 * Takes the lock: its content ("pid host time") goes to a temporary first and
 * is then linked to `.lock`, which fails when the lock exists. So a lock is
 * never seen empty or half written, even when its writer is killed.
 */
function tryLock(lockPath: string, folder: string): boolean {
  const tmp = tempName(lockPath);
  try {
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeAll(fd, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw writeFailure(error, `${folder}/${LOCK_NAME}`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Never made.
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
  const timeoutMs = options.timeoutMs ?? lockTimeoutFromEnv();
  const deadline = Date.now() + timeoutMs;
  assertMine(root);
  assertNoLinkedFolder(root, folder, `lock ${folder}`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw writeFailure(error, folder);
  }
  let delay = 2;
  for (;;) {
    if (tryLock(lockPath, folder)) {
      clearDeadBreaker(lockPath);
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
    assertLockUsable(lockPath, folder);
    const stale = isStale(lockPath);
    if (stale !== null && breakStale(lockPath, stale.seen)) {
      options.onStale?.(`cleared a stale lock ${folder}/${LOCK_NAME}: ${stale.why}`);
      continue;
    }
    if (Date.now() >= deadline) {
      const owner = lockOwner(readLock(lockPath)?.text ?? '');
      const by = owner ? `process ${owner.pid} on ${owner.host}` : 'another writer';
      throw new AgentsError(`${folder} is locked by ${by} (${folder}/${LOCK_NAME}); gave up after ${timeoutMs} ms`, EXIT_CODES.usage, {
        hint: `Nothing was written. Run the command again when the other agents command has finished; if none is running, delete ${folder}/${LOCK_NAME}. AGENTS_LOCK_TIMEOUT_MS sets the wait.`,
      });
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
}
