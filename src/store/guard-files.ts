/**
 * The guard hook's files outside the committed store, in the repository's git
 * folder (`.git/agents/`): the index of guards (`guard-index.json`), the
 * active plan (`active-plan`, changed only under `active-plan-lock/.lock`) and the audit log (`guard-audit.jsonl`).
 * None of them is ever read from or written into the store itself.
 */
import { type FSWatcher, mkdirSync, readdirSync, statSync, watch } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { AgentsError, UsageError } from '../core/errors.ts';
import type { GuardIndex } from '../core/guard.ts';
import { isGuardIndexFrame } from '../core/guard-index-shape.ts';
import { isObject, keyCount } from '../core/parsed-shape.ts';
import { Hash53 } from '../core/hash53.ts';
import { writeFailure } from './atomic-write.ts';
import { gitDirFor } from './git-dir.ts';
import { type LockOptions, withFolderLock } from './lock.ts';
import { readRegularFile } from './read-file.ts';
import { settledBefore } from './tree-source.ts';
import { appendWhole, replaceCacheFile, replaceFile, writeAll } from './write-all.ts';

/**
 * Bump when the index's shape changes, or what the build keeps for the same store (a waiver that no longer lifts a
 * guard): an index of another format is rebuilt.
 */
const FORMAT = 6;
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** `.git/agents/` of the repository holding the store; undefined outside git (no index, no log, no active plan file). */
export function guardDir(storeRoot: string): string | undefined {
  const git = gitDirFor(storeRoot);
  return git === undefined ? undefined : join(git, 'agents');
}

/** The latest change time (ctime, ms) of what a stamp looked at, for {@link racyStamp}. */
export interface StampSeen {
  newest: number;
}

/**
 * What a file or folder looks like now: a change of content, of entries
 * (a folder gains or loses a file, an atomic write renames into it), or of
 * identity changes it. "-" when it is absent.
 */
export function stamp(path: string, seen?: StampSeen): string {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s && seen && s.ctimeMs > seen.newest) seen.newest = s.ctimeMs;
    return s ? `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}` : '-';
  } catch {
    return '-';
  }
}

/**
 * A stamp taken for an index built at `at` (ms). A file changed within a tick of
 * the file system's clock before its stamp is taken can change again in that
 * tick, to the same size, and keep every figure of its stamp (a project.yaml
 * edited twice within one second where times are kept in seconds): a stamp of
 * what is not settled yet (settledBefore, the rule the parse cache trusts
 * stamps by) is marked so that no stamp taken later equals it, and the next
 * call builds the index again. Only the change time counts: any later change
 * sets it to the clock, whatever the modification time was set to.
 */
export function racyStamp(at: number, take: (seen: StampSeen) => string): string {
  const seen = { newest: 0 };
  const value = take(seen);
  return seen.newest >= settledBefore(at) ? `${value}~racy` : value;
}

/**
 * A folder of invariants or waivers as it looks now: its own stamp (files
 * added, removed or renamed into it) and a digest of its files' stamps, so
 * that a file edited in place (an editor that writes over it, a guard added
 * to an invariant that had none) changes it too. "-" when it is absent.
 */
export function folderStamp(path: string, seen?: StampSeen): string {
  const own = stamp(path, seen);
  if (own === '-') return own;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return own;
  }
  const hash = new Hash53();
  // The folder's path is joined once: path.join normalises the whole path again for each of what may be a thousand files.
  const prefix = path.endsWith(sep) ? path : path + sep;
  for (const name of names.sort()) if (name.endsWith('.yaml')) hash.update(`${name}\0${stamp(prefix + name, seen)}\n`);
  return `${own}#${hash.digest()}`;
}

/**
 * Every project's `project.yaml` as one stamp: a project whose paths are
 * edited in place may now hold a file the index placed in no project, or in
 * another one. "-" when `projects/` is absent.
 */
export function projectMetasStamp(projects: string, seen?: StampSeen): string {
  let names: string[];
  try {
    names = readdirSync(projects);
  } catch {
    return '-';
  }
  const hash = new Hash53();
  const prefix = projects.endsWith(sep) ? projects : projects + sep;
  for (const name of names.sort()) hash.update(`${name}\0${stamp(`${prefix}${name}${sep}project.yaml`, seen)}\n`);
  return hash.digest();
}

/** How long a long-lived process trusts a watched folder's stamp without an event before taking it again. */
const RESTAMP_MS = 2000;

/**
 * `folderStamp` for a process that answers many calls (the MCP server): a
 * folder's stamp is taken again only after its watcher (one plain `fs.watch`
 * per folder, inotify on Linux) reported a change in it, or `RESTAMP_MS`
 * after it was taken, in case an event was lost. A change is queued by the
 * kernel when it is written, before a request that follows it can arrive; the
 * caller lets the event loop turn once before it compares (GuardService), so
 * the stamp is never older than the last write. A folder that cannot be
 * watched is stamped on every call.
 */
export class WatchedStamps {
  readonly #folders = new Map<string, { value: string; at: number; dirty: boolean; watcher: FSWatcher }>();

  stamp(path: string): string {
    const known = this.#folders.get(path);
    const now = Date.now();
    if (known && !known.dirty && now - known.at < RESTAMP_MS) return known.value;
    // Taken again with a new watcher: the folder may have been removed and made again.
    known?.watcher.close();
    this.#folders.delete(path);
    let watcher: FSWatcher;
    try {
      watcher = watch(path, { persistent: false });
    } catch {
      return folderStamp(path);
    }
    const entry = { value: folderStamp(path), at: now, dirty: false, watcher };
    watcher.on('change', () => {
      entry.dirty = true;
    });
    watcher.on('error', () => {
      entry.dirty = true;
    });
    this.#folders.set(path, entry);
    return entry.value;
  }

  readonly #metas = new Map<string, { value: string; at: number; dirty: boolean; watchers: FSWatcher[] }>();

  /**
   * `projectMetasStamp` for a long-lived process: taken again only after a
   * watcher of `projects/` or of one of its folders saw a change, or
   * `RESTAMP_MS` after it was taken. When a folder cannot be watched, it is
   * taken on every call.
   */
  projectMetas(projects: string): string {
    const known = this.#metas.get(projects);
    const now = Date.now();
    if (known && !known.dirty && now - known.at < RESTAMP_MS) return known.value;
    for (const w of known?.watchers ?? []) w.close();
    this.#metas.delete(projects);
    const entry = { value: '', at: now, dirty: false, watchers: [] as FSWatcher[] };
    const mark = () => {
      entry.dirty = true;
    };
    let names: string[];
    try {
      names = readdirSync(projects);
    } catch {
      return projectMetasStamp(projects);
    }
    for (const folder of [projects, ...names.map((n) => join(projects, n))]) {
      try {
        const w = watch(folder, { persistent: false });
        w.on('change', mark);
        w.on('error', mark);
        entry.watchers.push(w);
      } catch {
        // Not a folder, or out of watches: this stamp is taken on every call.
        for (const w of entry.watchers) w.close();
        return projectMetasStamp(projects);
      }
    }
    // Taken after the watchers exist: a write from here on marks it.
    entry.value = projectMetasStamp(projects);
    this.#metas.set(projects, entry);
    return entry.value;
  }

  close(): void {
    for (const f of this.#folders.values()) f.watcher.close();
    this.#folders.clear();
    for (const m of this.#metas.values()) for (const w of m.watchers) w.close();
    this.#metas.clear();
  }
}

/** The index as kept: the guards, and the stamps of what they were built from. */
export interface StoredIndex {
  format: number;
  /** Store-relative path (or `:git-index`) → its stamp when the index was built. */
  stamps: Record<string, string>;
  index: GuardIndex;
}

export function readGuardIndex(dir: string): StoredIndex | undefined {
  try {
    const read = readRegularFile(join(dir, 'guard-index.json'), MAX_INDEX_BYTES);
    if (!read.ok) return undefined;
    const data: unknown = JSON.parse(read.bytes.toString('utf8'));
    // The frame only: the entries a call reads are checked by the call (indexFits), not the thousands it does not.
    if (!isObject(data) || data.format !== FORMAT || !isObject(data.stamps) || !isGuardIndexFrame(data.index) || keyCount(data) !== 3)
      return undefined;
    return data as unknown as StoredIndex;
  } catch {
    return undefined;
  }
}

/** Best effort, atomic: a reader sees the old index or the new one; a read-only git folder means no index. */
export function writeGuardIndex(dir: string, stamps: Record<string, string>, index: GuardIndex): void {
  // A cache as the others in .git/agents/: when it cannot be put in place, the next call builds it again.
  const text = JSON.stringify({ format: FORMAT, stamps, index } satisfies StoredIndex);
  replaceCacheFile(join(dir, 'guard-index.json'), (fd) => writeAll(fd, text));
}

/** The plan `agents plan activate` set, or undefined; exit 2 when something other than a file of it stands there. */
export function readActivePlan(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const path = join(dir, 'active-plan');
  // A regular file only, read without waiting: a named pipe there held every hook call until the client gave up on it.
  const read = readRegularFile(path, MAX_ACTIVE_PLAN_BYTES);
  if (!read.ok && read.code === 'missing') return undefined;
  if (!read.ok || read.bytes.length > MAX_ACTIVE_PLAN_BYTES)
    throw new UsageError(
      `cannot read the active plan ${path}: it ${read.ok ? `is over ${MAX_ACTIVE_PLAN_BYTES} bytes` : read.message}`,
      (agents) => `Run \`${agents} plan activate ID\` or \`${agents} plan activate --clear\`, which replace it.`,
    );
  const text = read.bytes.toString('utf8').trim();
  return text === '' ? undefined : text;
}

/** An active plan file holds one id and a line end: anything much longer is not one. */
const MAX_ACTIVE_PLAN_BYTES = 4096;

/** Sets (or, with null, clears) the active plan; only through changeActivePlan, under its lock. */
function writeActivePlan(dir: string, plan: string | null): void {
  const file = join(dir, 'active-plan');
  try {
    replaceFile(file, (fd) => writeAll(fd, plan === null ? '' : `${plan}\n`));
  } catch (error) {
    throw writeFailure(error, file);
  }
}

/**
 * A git folder this user may not write in (read-only, another user's) said as such, never as a store to make
 * writable: the same advice whether its lock or the file itself was refused. Other failures pass as they are.
 */
function gitFolderFailure(error: unknown, dir: string): unknown {
  if (!(error instanceof AgentsError) || error.code !== 'write-failed') return error;
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') return error;
  return new AgentsError(error.message, error.exitCode, {
    hint: `Nothing was changed. Make ${dir} writable, or set AGENTS_PLAN=ID in the agent's environment instead.`,
    code: error.code,
    detail: { path: dir },
    cause: error.cause,
  });
}

/**
 * The one route that changes the active plan: its read, `decide` and its write made one step under a lock of its own
 * (`active-plan-lock/.lock` in `dir`). Plans' own locks do not serialise it: a `plan remove A` that read it naming A
 * and an activation of B holding B's lock wrote over each other, and the removal cleared B. `decide` is given the
 * read (it may throw, see readActivePlan) and answers the plan to write, null to clear, undefined to leave it.
 */
export async function changeActivePlan(
  dir: string,
  decide: (read: () => string | undefined) => string | null | undefined,
  options: Pick<LockOptions, 'notice'> = {},
): Promise<void> {
  const folder = join(dir, 'active-plan-lock');
  try {
    await withFolderLock(
      dirname(dir),
      `${basename(dir)}/active-plan-lock`,
      () => {
        const next = decide(() => readActivePlan(dir));
        if (next !== undefined) writeActivePlan(dir, next);
      },
      { ...options, label: folder },
    );
  } catch (error) {
    throw gitFolderFailure(error, dir);
  }
}

/** Appends one decision to the audit log (JSON lines); a log that cannot be written is skipped, never fatal. */
export function appendAudit(dir: string | undefined, entry: Record<string, unknown>): string | undefined {
  if (dir === undefined) return undefined;
  const file = join(dir, 'guard-audit.jsonl');
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {
    return undefined;
  }
  // Never through a link, nor into a named pipe, which held every hook call until a reader came: a regular file only.
  return appendWhole(file, `${JSON.stringify(entry)}\n`, { follow: false }) ? file : undefined;
}
