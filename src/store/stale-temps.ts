// Temporaries the tool's atomic writes leave behind when a process is killed
// between creating and renaming (`.CLAUDE.md.<writer>.<pid>.<random>.tmp`, atomic-write.ts;
// `..agents.<writer>.<pid>.<random>.tmp/`, the store `init` builds). In the store,
// `validate --fix` removes them; beside an exported file or the store, git
// would show them forever, so the next export (or init) removes those of
// processes that are gone.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { temporaryParts } from '../core/layout.ts';
import { processAlive, temporaryWriterState } from './lock-owner.ts';

/**
 * Removes, beside each of `files` (paths relative to `top`), the tool's
 * temporaries of that file whose process is gone; returns the paths removed.
 * A temporary of a running process (another export at work), or of one elsewhere, is left alone;
 * nothing here ever fails a run.
 */
export function removeStaleTemps(
  top: string,
  files: readonly string[],
  isAlive: (pid: number, since?: number, start?: number) => boolean = processAlive,
): string[] {
  const byDir = new Map<string, Set<string>>();
  for (const f of files) {
    const dir = dirname(f);
    const names = byDir.get(dir) ?? new Set<string>();
    names.add(basename(f));
    byDir.set(dir, names);
  }
  const removed: string[] = [];
  for (const [dir, names] of byDir) {
    let entries: string[];
    try {
      entries = readdirSync(join(top, dir));
    } catch {
      continue;
    }
    for (const entry of entries) {
      const parts = temporaryParts(entry);
      if (parts === undefined || !names.has(parts.name)) continue;
      const rel = dir === '.' ? entry : `${dir}/${entry}`;
      if (tempWriterState(join(top, rel), isAlive) !== 'gone') continue;
      try {
        // A folder too (a store init was building): its files go with it, links inside never followed.
        rmSync(join(top, rel), { recursive: true });
        removed.push(rel);
      } catch {
        // Gone already, or not ours to remove: left as it is.
      }
    }
  }
  return removed;
}

/**
 * Removes every temporary in the folder `dir` whose writer is gone, whatever file it stood for: a cache folder
 * (`.git/agents/`, `parsed/`) is the tool's alone, and a cache's writer killed before its rename leaves one that
 * nothing else would remove. Temporaries of the former cache forms, `<name>.<pid>[.<random>].tmp` (not hidden), are
 * judged by their pid and time as the former store form is. Returns the names removed; never fails.
 */
export function removeStaleTempsIn(
  dir: string,
  isAlive: (pid: number, since?: number, start?: number) => boolean = processAlive,
): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.endsWith('.tmp')) continue;
    const path = join(dir, entry);
    const former = FORMER_CACHE_TEMP.exec(entry);
    const state =
      temporaryParts(entry) !== undefined
        ? tempWriterState(path, isAlive)
        : former !== null
          ? formerWriterState(path, Number(former[1]), isAlive)
          : 'running';
    if (state !== 'gone') continue;
    try {
      rmSync(path, { force: true });
      removed.push(entry);
    } catch {
      // A folder, or not ours to remove: left as it is.
    }
  }
  return removed;
}

/** A cache's temporary as earlier versions named it: `<name>.<pid>.<random>.tmp` (base 36 random), the export cache's `<name>.<pid>.tmp`. */
const FORMER_CACHE_TEMP = /^[^.].*\.(\d{1,10})(?:\.[0-9a-z]{1,12})?\.tmp$/;

/**
 * Whether the writer of the temporary at `path` may still be writing it: `running`, `gone`, or `elsewhere` (a
 * process of another host or container, which cannot be looked up here: kept, as its lock would be). A name that
 * says who wrote it is judged as a lock is (lock-owner.ts); one of the former form, `.<name>.<pid>.<hex>.tmp`, by its
 * pid and the file's time: this process, or one running that started before the temporary was last written (one
 * that started after it was given the writer's number since).
 */
export function tempWriterState(
  path: string,
  isAlive: (pid: number, since?: number, start?: number) => boolean = processAlive,
): 'running' | 'gone' | 'elsewhere' {
  const parts = temporaryParts(basename(path));
  if (parts === undefined || parts.pid <= 0) return 'gone';
  if (parts.writer !== undefined) return temporaryWriterState(parts.pid, parts.writer, isAlive);
  return formerWriterState(path, parts.pid, isAlive);
}

/** A temporary named by its writer's pid alone: this process, or one running that started before the file was last written. */
function formerWriterState(
  path: string,
  pid: number,
  isAlive: (pid: number, since?: number, start?: number) => boolean,
): 'running' | 'gone' {
  if (pid === process.pid) return 'running';
  let since = Number.NaN;
  try {
    since = lstatSync(path).mtimeMs;
  } catch {
    // Gone: nothing tells when it was written.
  }
  return isAlive(pid, since) ? 'running' : 'gone';
}

/**
 * The marks beside store file `rel` of an `invariant move` taking it away: temporaries that are links to it (the same
 * file; an atomic write's temporary is a file of its own), each with its writer's state. A mark of a running writer is
 * a move under way; one of a writer gone, a move cut short that `validate --fix` finishes.
 */
export function moveMarks(
  root: string,
  rel: string,
  isAlive: (pid: number, since?: number, start?: number) => boolean = processAlive,
): { marker: string; writer: 'running' | 'gone' | 'elsewhere' }[] {
  const dir = dirname(rel);
  const name = basename(rel);
  let names: string[];
  let file: { ino: number; dev: number };
  try {
    names = readdirSync(join(root, dir));
    file = lstatSync(join(root, rel));
  } catch {
    return [];
  }
  const marks: { marker: string; writer: 'running' | 'gone' | 'elsewhere' }[] = [];
  for (const n of names) {
    if (temporaryParts(n)?.name !== name) continue;
    const marker = `${dir}/${n}`;
    try {
      const st = lstatSync(join(root, marker));
      if (st.ino !== file.ino || st.dev !== file.dev) continue;
    } catch {
      continue;
    }
    marks.push({ marker, writer: tempWriterState(join(root, marker), isAlive) });
  }
  return marks;
}
