// Who a writer's lock names, whether that process still runs, and the one
// rule by which a lock is stale (for writers, `validate` and its `--fix`).
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { Hash53 } from '../core/hash53.ts';
import type { TemporaryWriter } from '../core/layout.ts';

/** Who a lock names: its process, host, when it was taken (NaN: not named), its pid namespace and its process's start. */
export interface LockOwner {
  pid: number;
  host: string;
  taken: number;
  ns: string | undefined;
  /** When its process started, in ticks since boot (`start:TICKS`; NaN: not named). */
  start: number;
  /** How many folders, from the lock's own upwards, its writer made for it (`made:N`; 0: none). */
  made: number;
}

/** "pid host time pidns start:ticks made:n" of a lock, or null when it does not hold one; `taken` is NaN when it names no time. */
export function lockOwner(text: string): LockOwner | null {
  const m = /^(\d{1,10}) (\S{1,255})(?: (\S{1,40}))?(?: (?!start:|made:)(\S{1,40}))?(?: start:(\d{1,20}))?(?: made:(\d{1,3}))?/.exec(text);
  if (!m) return null;
  const start = Number(m[5] ?? Number.NaN);
  return { pid: Number(m[1]), host: m[2]!, taken: Date.parse(m[3] ?? ''), ns: m[4], start, made: Number(m[6] ?? 0) };
}

/** This process's pid namespace, once looked up (null: not yet). */
let ownNamespace: string | null | undefined = null;

/**
 * This process's pid namespace as Linux names it (`pid:[4026531836]`), undefined where there is none. Two containers
 * of one host may share a host name (a Kubernetes pod's containers, `--uts=host`) and a store, yet number their
 * processes apart: a process number means something only in the namespace that gave it.
 */
function pidNamespace(): string | undefined {
  if (ownNamespace === null) {
    try {
      ownNamespace = /^pid:\[\d+\]$/.exec(readlinkSync('/proc/self/ns/pid'))?.[0];
    } catch {
      ownNamespace = undefined;
    }
  }
  return ownNamespace;
}

/** This process's start in ticks since boot, once looked up (null: not yet; undefined: not known). */
let ownStart: number | null | undefined = null;

/**
 * What a lock (or breaker) names: this process, this host, now, its pid namespace and its start where the system
 * says them, and how many folders its writer `made` for it (so that whoever clears it once its writer died takes
 * them back, as the writer would have). The start, counted from boot, tells this process from a later one given its number when the wall clock
 * has been set since (the lock's time alone would make a live writer look started after its own lock).
 */
export function ownerLine(made = 0): string {
  const ns = pidNamespace();
  if (ownStart === null) ownStart = processStat(process.pid)?.ticks;
  const start = ownStart;
  const named = `${ns === undefined ? '' : ` ${ns}`}${start === undefined ? '' : ` start:${start}`}${made > 0 ? ` made:${made}` : ''}`;
  return `${process.pid} ${hostname()} ${new Date().toISOString()}${named}\n`;
}

/** Whether pid namespace `ns` of a lock is this process's (a lock that names none, written before they were recorded, is). */
export function samePidNamespace(ns: string | undefined): boolean {
  const own = pidNamespace();
  return ns === undefined || own === undefined || ns === own;
}

/** Whether the process a lock of `host`, taken in pid namespace `ns`, names can be looked up here. */
export function lookupablePid(host: string, ns: string | undefined): boolean {
  return host === hostname() && samePidNamespace(ns);
}

/** The largest process number a system gives (kill(2) takes a signed 32-bit one). */
const MAX_PID = 2 ** 31 - 1;

/** Linux counts a process's start in ticks of USER_HZ, 100 a second on every architecture Node.js runs on. */
const TICKS_PER_SECOND = 100;

/**
 * What /proc says of process `pid` of this host: its state (`R`, `S`, `Z` for one that has exited but is not yet
 * collected by its parent…) and when it started (ms since the epoch, when known); undefined where there is no /proc
 * (not Linux) or the process is gone.
 */
function processStat(pid: number): { state: string; start: number | undefined; ticks: number | undefined } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The name (field 2) may hold spaces and parentheses: the fields after it follow the last ")". Field 3 is the
  // state, field 22 the start.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  let boot = Number.NaN;
  try {
    boot = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))?.[1]);
  } catch {
    // No boot time: the start is not known.
  }
  const start = Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + (ticks * 1000) / TICKS_PER_SECOND : undefined;
  return { state: fields[0] ?? '', start, ticks: Number.isFinite(ticks) ? ticks : undefined };
}

/**
 * Why a lock holding `text`, last written `ageMs` ago, is stale, or null when it is not: the one rule of waiting
 * writers, `validate` and `validate --fix`, so that none calls stale a lock another keeps. A lock that names no
 * process is stale only once older than 10 s, since a writer creates its lock before it writes its line in it;
 * one that names a process is stale when `gone` says why that process is gone (null: running, or not to be looked
 * up here).
 */
export function staleLockReason(text: string, ageMs: number, gone: (owner: LockOwner) => string | null): string | null {
  const owner = lockOwner(text);
  if (owner === null || owner.pid <= 0) return ageMs > 10_000 ? 'it names no process and is older than 10 s' : null;
  return gone(owner);
}

/** How long ago the lock at `lockPath` was last written (ms); NaN when it is gone. */
export function lockAge(lockPath: string): number {
  try {
    const st = lstatSync(lockPath, { throwIfNoEntry: false });
    return st === undefined ? Number.NaN : Date.now() - st.mtimeMs;
  } catch {
    return Number.NaN;
  }
}

/**
 * Whether process `pid` is not what wrote a lock or a temporary at `since` (ms; NaN: not known): its number was
 * reused after the writer died (numbers wrap around). A lock that names its writer's `start` (ticks since boot) is
 * judged by it, which no change of the wall clock moves; else by whether the process started after `since`. The
 * boot time /proc gives is whole seconds, hence the margin.
 */
export function startedAfter(pid: number, since: number, start = Number.NaN, stat = processStat(pid)): boolean {
  if (Number.isFinite(start) && stat?.ticks !== undefined) return stat.ticks !== start;
  if (Number.isNaN(since)) return false;
  return stat?.start !== undefined && stat.start > since + 2_000;
}

/**
 * Whether process `pid` of this host still runs: only "no such process" says it is gone (one of another user
 * answers EPERM), and a zombie, which has exited and waits for its parent to collect it, runs no more. With `since`,
 * the time its lock was taken (and `start`, when the lock names it), a later process given its number is not that
 * writer.
 */
export function processAlive(pid: number, since = Number.NaN, start = Number.NaN): boolean {
  // A number no system gives a process (a lock or a temporary written by hand, or cut): no process has it.
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid > MAX_PID) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  // One look at /proc for both questions: the process's state and its start.
  const stat = processStat(pid);
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  return !startedAfter(pid, since, start, stat);
}

/** This process's `<host>-<boot>-<start>`, once made (null: not yet; undefined: its start is not known). */
let ownMark: string | null | undefined = null;

/** A boot id that could not be read: not compared. */
const UNKNOWN_BOOT = '00000000';

/** The boot id and the place digest, once looked up. */
let ownBoot: string | undefined;
let ownPlace: string | undefined;

/** The first 8 hex digits of the system's boot id, new at each boot (Linux), or UNKNOWN_BOOT. */
function bootId(): string {
  if (ownBoot === undefined) {
    try {
      ownBoot = /^[0-9a-f]{8}/.exec(readFileSync('/proc/sys/kernel/random/boot_id', 'latin1'))?.[0] ?? UNKNOWN_BOOT;
    } catch {
      ownBoot = UNKNOWN_BOOT;
    }
  }
  return ownBoot;
}

/**
 * A digest of this host's name and this process's pid namespace: where a process number means the same process. A
 * name, not a secret (Hash53): every command that reads the store loads this module, and node:crypto costs its start.
 */
function placeDigest(): string {
  if (ownPlace === undefined) {
    const n = Number.parseInt(new Hash53().update(`${hostname()}\0${pidNamespace() ?? ''}`).digest(), 36);
    ownPlace = (n % 2 ** 32).toString(16).padStart(8, '0');
  }
  return ownPlace;
}

/**
 * What a temporary's name says of its writer, `<host>-<boot>-<start>` (core/layout.ts `temporaryName`): who it is as
 * a lock says it (host, pid namespace, start), so that it is judged by the lock's rule and never by the file's time,
 * which a clock set forward or back misleads. Undefined where the system says no process's start (not Linux): the
 * name then holds the pid alone, judged as before.
 */
export function writerMark(): string | undefined {
  if (ownMark === null) {
    if (ownStart === null) ownStart = processStat(process.pid)?.ticks;
    ownMark = ownStart === undefined ? undefined : `${placeDigest()}-${bootId()}-${ownStart}`;
  }
  return ownMark;
}

/**
 * Whether the writer a temporary names may still be writing it, by the rule of locks: `elsewhere` when its process
 * number means nothing here (another host, another pid namespace: another container), `gone` when this system has
 * booted since (every process of the former boot is gone) or the process of that number did not start when the
 * writer did, else `running`.
 */
export function temporaryWriterState(
  pid: number,
  writer: TemporaryWriter,
  isAlive: (pid: number, since?: number, start?: number) => boolean = processAlive,
): 'running' | 'gone' | 'elsewhere' {
  writerMark();
  if (writer.host !== placeDigest()) return 'elsewhere';
  if (pid === process.pid && writer.start === ownStart) return 'running';
  const boot = bootId();
  if (writer.boot !== boot && writer.boot !== UNKNOWN_BOOT && boot !== UNKNOWN_BOOT) return 'gone';
  return isAlive(pid, Number.NaN, writer.start) ? 'running' : 'gone';
}
