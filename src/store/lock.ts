// The writers' lock of one scope folder (`<folder>/.lock`): taken
// exclusively, waited on, cleared when its process is gone; and what
// `validate --fix` uses to judge and clear locks left behind.
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { AgentsError, CancelledError, EXIT_CODES, type SIGNAL_EXIT_CODES, stopSignalOf } from '../core/errors.ts';
import { millisecondsFromEnv } from '../core/env-milliseconds.ts';
import { LOCK_NAME } from '../core/layout.ts';
import { repoTop } from '../git/location.ts';
import { runEnv } from '../git/run-environment.ts';
import { holdStopSignals, refuseAfterDeferredStop, stopPending, takePending } from './held-signals.ts';
import { lockOwner, lookupablePid, ownerLine, processAlive, staleLockReason, startedAfter } from './lock-owner.ts';
import { assertMine, tempName, writeFailure } from './atomic-write.ts';
import { makeFolders, removeEmptyUpTo, writeAll } from './write-all.ts';
import { assertLockUsable } from './lock-blocker.ts';
import { assertNoLinkedFolder } from './no-links.ts';
import { OPEN_READ } from './read-file.ts';

export interface LockOptions {
  /** How long to wait for another writer, in ms (default: AGENTS_LOCK_TIMEOUT_MS, else 15 s). */
  timeoutMs?: number;
  /** Told what the wait does that its user should know: a stale lock of a dead process cleared, a wait that lasts. */
  notice?: (message: string) => void;
  /** The folder as messages name it, when `folder` (relative to a root the user does not know) would not lead there. */
  label?: string;
  /** Stops the wait for another writer's lock (a caller that gave up, as an MCP client cancels a call): nothing is written. */
  signal?: AbortSignal;
  /**
   * For a lock held through a long task rather than a write (an actor's run): another process holding it is refused
   * at once with the error this makes, instead of waited for (this process's own hold, a server's call that ends, is
   * waited for as a writer's, then refused so), and stop signals are not held while it is held (a write under it takes
   * a lock of its own, which holds them).
   */
  busy?: (held: HeldLock) => Error;
}

/** Who holds a lock a caller was refused (LockOptions.busy). */
export interface HeldLock {
  /** The lock file, as messages name it. */
  lock: string;
  /** Its holder in words: `process 4242 on build-7`. */
  by: string;
  pid: number | null;
  host: string | null;
  /** A holder of another host or pid namespace, which this host cannot look up: the lock never clears by itself. */
  elsewhere: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a breaker that names no process stands before another may remove it: its maker may be about to name itself. */
const BREAKER_LIFETIME_MS = 5_000;

/** How long a writer waits for another's lock before it says so: a shorter wait is a turn, a longer one looks hung. */
const WAIT_NOTICE_MS = 1_000;

/**
 * The call to make on each try of a wait for a lock (the store's, git's index lock): it says the wait once, through
 * `say`, when it has lasted WAIT_NOTICE_MS, since a command silent for the whole wait looked hung.
 */
export function waitNotice<A extends unknown[]>(say: (...args: A) => void): (...args: A) => void {
  const from = Date.now();
  let told = false;
  return (...args) => {
    if (told || Date.now() < from + WAIT_NOTICE_MS) return;
    told = true;
    say(...args);
  };
}

/** Default wait for another writer's lock. */
export const LOCK_TIMEOUT_MS = 15_000;

/** The lock wait from `AGENTS_LOCK_TIMEOUT_MS` (milliseconds), else `fallback` ({@link LOCK_TIMEOUT_MS}). */
export function lockTimeoutFromEnv(env: Record<string, string | undefined> = runEnv(), fallback = LOCK_TIMEOUT_MS): number {
  return millisecondsFromEnv(env, 'AGENTS_LOCK_TIMEOUT_MS', fallback);
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

/** A lock file is stale when its process is gone (same host) or it holds no owner and was left long ago. */
function isStale(lockPath: string): { seen: string; why: string } | null {
  const lock = readLock(lockPath);
  if (lock === null) return null;
  const why = staleLockReason(lock.text, Date.now() - lock.mtimeMs, (owner) => {
    if (!lookupablePid(owner.host, owner.ns)) return null;
    if (!processAlive(owner.pid)) return `process ${owner.pid} on ${owner.host} is gone`;
    if (startedAfter(owner.pid, owner.taken, owner.start))
      return `process ${owner.pid} on ${owner.host} is gone (the process of that number now started after the lock was taken)`;
    return null;
  });
  return why === null ? null : { seen: lock.text, why };
}

/**
 * Clears a stale lock, serialised by a short-lived breaker file so two waiters cannot both clear it. A store that
 * refuses the breaker or the removal (read-only, full) is a write failure naming `rel`, the lock as the user sees it:
 * the lock is stale, yet kept.
 */
function breakStale(lockPath: string, seen: string, rel: string): boolean {
  if (!clearUnderBreaker(lockPath, seen, rel)) return false;
  takeBackFolders(lockPath, seen);
  return true;
}

/**
 * Removes the folders a dead writer made for the lock it held (`made:N`), each while empty, as that writer would have
 * on its way out: killed before it wrote into them, it would leave a new scope (an empty project, an action template).
 */
function takeBackFolders(lockPath: string, seen: string): void {
  const made = lockOwner(seen)?.made ?? 0;
  if (made < 1) return;
  const dir = dirname(lockPath);
  let top = dir;
  for (let i = 1; i < made; i++) top = dirname(top);
  removeEmptyUpTo(dir, top);
}

/** breakStale's removal of the lock it judged stale, under the breaker; whether it removed it. */
function clearUnderBreaker(lockPath: string, seen: string, rel: string): boolean {
  const breaker = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOENT') throw writeFailure(error, `${rel}.break`);
    try {
      if (Date.now() - lstatMtime(breaker) > BREAKER_LIFETIME_MS) unlinkSync(breaker);
    } catch {
      // Gone already.
    }
    return false;
  }
  try {
    // Like the lock, it names its process, so a crash here leaves something `validate` can judge.
    writeAll(fd, ownerLine());
    const now = readLock(lockPath);
    if (now === null || now.text !== seen) return false;
    unlinkSync(lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Gone meanwhile (cleared by another, or its writer finished): not ours to clear.
    if (code === 'ENOENT') return false;
    throw writeFailure(error, rel);
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
 * was judged stale. A breaker another process holds is waited out, as a
 * writer waits it out: that process is clearing the lock, or died before it
 * named itself in the breaker, which then stands until BREAKER_LIFETIME_MS.
 * Returns why it was stale, or null when it was kept (its process runs).
 */
export async function clearStaleLock(root: string, rel: string, signal?: AbortSignal): Promise<string | null> {
  assertMine(root);
  const lockPath = join(root, rel);
  const until = Date.now() + BREAKER_LIFETIME_MS + 500;
  for (;;) {
    clearDeadBreaker(lockPath);
    const stale = isStale(lockPath);
    if (stale === null) return null;
    if (breakStale(lockPath, stale.seen, rel)) return stale.why;
    if (Date.now() >= until) return null;
    await sleep(50);
    signal?.throwIfAborted();
  }
}

/** A breaker left by a process killed while it cleared a stale lock: removed once its process is gone. */
function clearDeadBreaker(lockPath: string): void {
  const breaker = `${lockPath}.break`;
  const lock = readLock(breaker);
  if (lock === null) return;
  const owner = lockOwner(lock.text);
  let dead = owner === null ? Date.now() - lock.mtimeMs > BREAKER_LIFETIME_MS : false;
  if (owner !== null && lookupablePid(owner.host, owner.ns)) dead = !processAlive(owner.pid, owner.taken, owner.start);
  if (!dead) return;
  try {
    unlinkSync(breaker);
  } catch {
    // Gone already.
  }
}

/** Which file a lock is, so that its writer removes that one and no other at its name. */
interface LockFile {
  dev: number;
  ino: number;
}

/**
 * Takes the lock: its content ("pid host time") goes to a temporary first and
 * is then linked to `.lock`, which fails when the lock exists. So a lock is
 * never seen empty or half written, even when its writer is killed. Returns
 * which file the lock is, false while another writer holds it.
 */
function tryLock(lockPath: string, lockName: () => string, made: number): LockFile | false | 'gone' {
  const tmp = tempName(lockPath);
  try {
    const fd = openSync(tmp, 'wx', 0o644);
    let file: LockFile;
    try {
      writeAll(fd, ownerLine(made));
      const { dev, ino } = fstatSync(fd);
      file = { dev, ino };
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, lockPath);
    return file;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // The folder went meanwhile (another writer's refused change removed the folder it had made): make it again.
    if (code === 'ENOENT') return 'gone';
    throw writeFailure(error, lockName());
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Never made.
    }
  }
}

/**
 * Removes the lock `file` its writer took, and nothing else at its name: a folder taken away under its lock
 * (takeFolderAway) may be there again, made and locked by a writer that waited, whose lock must stay.
 */
function releaseLock(lockPath: string, file: LockFile): void {
  try {
    const st = lstatSync(lockPath);
    if (st.dev === file.dev && st.ino === file.ino) unlinkSync(lockPath);
  } catch {
    // Cleared by someone who judged it stale, or taken away with its folder; nothing more to do.
  }
}

/**
 * The lock of `folder` (in the store at `root`) as messages name it: from the repository's top
 * (`.agents/global/.lock`), where a user who deletes it stands, or by its whole path outside a repository; a lock
 * named by `label` (a folder outside the store) by that label.
 */
function shownLock(root: string, folder: string, label: string | undefined): string {
  if (label !== undefined) return label === '' ? LOCK_NAME : `${label}/${LOCK_NAME}`;
  const top = repoTop(root);
  const store = top === undefined ? root : relative(top, root).split(sep).join('/');
  return [store, folder, LOCK_NAME].filter((p) => p !== '').join('/');
}

/**
 * Runs `fn` holding the lock of one scope folder (`<folder>/.lock`, created
 * exclusively), so that a duplicate check and the write that follows it are
 * one step for every other writer of that scope. The folders it makes for the
 * lock go again when `fn` leaves them empty (a refused change leaves no new
 * scope behind: an empty action folder reads as an action template).
 */
export async function withFolderLock<T>(
  root: string,
  folder: string,
  fn: (made: boolean) => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const dir = join(root, folder);
  const lockPath = join(dir, LOCK_NAME);
  const named = options.label ?? folder;
  // Made only for a message: finding the repository's top costs a look at each folder above the store.
  let shown: string | undefined;
  const lockName = () => (shown ??= shownLock(root, folder, options.label));
  const timeoutMs = options.timeoutMs ?? lockTimeoutFromEnv();
  const deadline = Date.now() + timeoutMs;
  const waitSaid = waitNotice(() =>
    options.notice?.(`waiting for ${lockName()}, held by ${holder().by}; gives up after ${timeoutMs} ms (AGENTS_LOCK_TIMEOUT_MS)`),
  );
  assertMine(root);
  assertNoLinkedFolder(root, folder, `lock ${folder}`);
  // A caller that gave up before its turn came (an MCP call cancelled while the store was read) writes nothing, though
  // the lock be free by then.
  if (options.signal?.aborted)
    throw new CancelledError(`Cancelled before taking ${lockName()}: nothing was written.`, stopSignalOf(options.signal.reason));
  refuseAfterDeferredStop(() => `taking ${lockName()}`);
  // The first folder this call made, if it made any: it and those below it, down to `dir`, are this call's to remove.
  let made: string | undefined;
  const makeFolder = () => {
    try {
      made = makeFolders(dir) ?? made;
    } catch (error) {
      throw writeFailure(error, named || '.');
    }
  };
  let delay = 2;
  // Whether `fn` ran: until then, a failure leaves the lock untaken and the folders made for it are this call's alone.
  let running = false;
  // Held while this call waits for another writer: a stop signal then ends the wait, said as such, not the process
  // at once without a word.
  let waiting: (() => Promise<void>) | undefined;
  const holder = () => {
    const owner = lockOwner(readLock(lockPath)?.text ?? '');
    const elsewhere = owner !== null && owner.host === hostname() && !lookupablePid(owner.host, owner.ns);
    const by = owner
      ? `process ${owner.pid} on ${owner.host}${elsewhere ? ' in another pid namespace (another container)' : ''}`
      : 'another writer';
    // A holder this host cannot look up (another host, another container) is never judged gone: its lock stays until deleted.
    const foreign = owner !== null && !lookupablePid(owner.host, owner.ns);
    return { owner, by, foreign };
  };
  try {
    makeFolder();
    for (;;) {
      // How many folders, from `dir` up, this call made: named in the lock, for whoever clears it if this process dies.
      const levels = made === undefined ? 0 : relative(made, dir).split(sep).filter(Boolean).length + 1;
      const taken = tryLock(lockPath, lockName, levels);
      if (taken === 'gone') {
        makeFolder();
        continue;
      }
      if (taken) {
        running = true;
        const release = options.busy ? async () => {} : holdStopSignals();
        // The lock's own hold goes on holding a stop signal that comes now: the wait's is no longer needed.
        await waiting?.();
        waiting = undefined;
        clearDeadBreaker(lockPath);
        try {
          // Whether the folder had to be made for the lock: a scope removed meanwhile, for a writer that needs it there.
          return await fn(made !== undefined);
        } finally {
          releaseLock(lockPath, taken);
          if (made !== undefined) removeEmptyUpTo(dir, made);
          await release();
        }
      }
      assertLockUsable(lockPath, folder, options.label);
      const stale = isStale(lockPath);
      if (stale !== null && breakStale(lockPath, stale.seen, lockName())) {
        options.notice?.(`cleared a stale lock ${lockName()}: ${stale.why}`);
        continue;
      }
      if (options.busy) {
        const { owner, by, foreign } = holder();
        const ours = owner !== null && !foreign && owner.host === hostname() && owner.pid === process.pid;
        if (!ours || Date.now() >= deadline)
          throw options.busy({ lock: lockName(), by, pid: owner?.pid ?? null, host: owner?.host ?? null, elsewhere: foreign });
      }
      if (Date.now() >= deadline) {
        const { owner, by, foreign } = holder();
        const never = foreign ? '; this host cannot tell whether that process still runs, so the lock never clears by itself' : '';
        throw new AgentsError(
          `${named || 'the store'} is locked by ${by} (${lockName()}); gave up after ${timeoutMs} ms${never}`,
          EXIT_CODES.usage,
          {
            // Worded for any surface: a form of the terminal UI says it too, and the lock to delete is the way out.
            hint: foreign
              ? `Nothing was written. Try again when the agents command there has finished; if none runs there, delete ${lockName()}. AGENTS_LOCK_TIMEOUT_MS sets the wait.`
              : `Nothing was written. Try again when the other agents command has finished; if none is running, delete ${lockName()}. AGENTS_LOCK_TIMEOUT_MS sets the wait.`,
            hintAnySurface: true,
            // Its own code, so that a script (an agent) can tell "busy, try again" from a mistake in what it asked.
            code: 'locked',
            // `elsewhere`: a script retrying a lock it will never see taken back is told to stop retrying.
            detail: {
              lock: lockName(),
              pid: owner?.pid ?? null,
              host: owner?.host ?? null,
              waited_ms: timeoutMs,
              elsewhere: foreign,
            },
          },
        );
      }
      waiting ??= holdStopSignals();
      waitSaid();
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 50);
      // A caller's stop signal (extends fetch's, strategize's) is said as the process's own is, with its exit code.
      const stopped = options.signal?.aborted ? stopSignalOf(options.signal.reason) : undefined;
      if (options.signal?.aborted && stopped === undefined)
        throw new CancelledError(`Cancelled while waiting for ${lockName()}: nothing was written.`);
      // Taken, so that no release raises it again before the error is said: the run ends with its exit code.
      const signal = stopped ?? (stopPending() ? (takePending() as keyof typeof SIGNAL_EXIT_CODES) : undefined);
      if (signal !== undefined)
        throw new CancelledError(
          `Stopped by ${signal} while waiting for ${lockName()}, held by ${holder().by}: nothing was written.`,
          signal,
        );
    }
  } catch (error) {
    await waiting?.();
    // No lock taken (a full disk refused it, a lock that is no file, a turn that never came, a cancel): the folders
    // made for it go again, as after a change that wrote nothing.
    if (!running && made !== undefined) removeEmptyUpTo(dir, made);
    throw error;
  }
}

/**
 * Runs `fn` holding the locks of several scope folders, taken one by one in
 * sorted order (as every writer that holds more than one takes them, so two
 * such writers never wait on each other) and released when it returns. `fn`
 * is told which of them had to be made for their lock (see withFolderLock).
 */
export async function withFolderLocks<T>(
  root: string,
  folders: readonly string[],
  fn: (made: ReadonlySet<string>) => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const sorted = [...new Set(folders)].sort();
  const made = new Set<string>();
  const hold = async (i: number): Promise<T> => {
    if (i === sorted.length) return fn(made);
    // Each lock is taken in a turn of its own: taken in one synchronous descent, thousands of folders (a
    // `validate --fix` of a store with a plan each) would overflow the call stack.
    await null;
    return withFolderLock(
      root,
      sorted[i]!,
      (madeHere) => {
        if (madeHere) made.add(sorted[i]!);
        return hold(i + 1);
      },
      options,
    );
  };
  return hold(0);
}
