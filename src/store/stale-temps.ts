// Temporaries the tool's atomic writes leave behind when a process is killed
// between creating and renaming (`.CLAUDE.md.<pid>.<random>.tmp`, atomic-write.ts;
// `..agents.<pid>.<random>.tmp/`, the store `init` builds). In the store,
// `validate --fix` removes them; beside an exported file or the store, git
// would show them forever, so the next export (or init) removes those of
// processes that are gone.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from './lock-owner.ts';

/** `.<name>.<pid>.<hex><n>.tmp`: what atomic-write.ts and replace-batch.ts name a temporary. */
const TOOL_TEMP = /^\.(.+)\.(\d+)\.[0-9a-f]+\.tmp$/;

/**
 * Removes, beside each of `files` (paths relative to `top`), the tool's
 * temporaries of that file whose process is gone; returns the paths removed.
 * A temporary of a running process (another export at work) is left alone;
 * nothing here ever fails a run.
 */
export function removeStaleTemps(
  top: string,
  files: readonly string[],
  isAlive: (pid: number, since?: number) => boolean = processAlive,
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
      const m = TOOL_TEMP.exec(entry);
      if (!m || !names.has(m[1]!)) continue;
      const pid = Number(m[2]);
      const rel = dir === '.' ? entry : `${dir}/${entry}`;
      if (tempWriterRunning(join(top, rel), pid, isAlive)) continue;
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
 * Whether the process `pid` a temporary at `path` names may still be writing it: this process, or one running that
 * started before the temporary was last written. One that started after it was given the writer's number since (a
 * restarted container numbers its processes from 1 again): not the writer.
 */
export function tempWriterRunning(path: string, pid: number, isAlive: (pid: number, since?: number) => boolean): boolean {
  if (pid === process.pid) return true;
  let since = Number.NaN;
  try {
    since = lstatSync(path).mtimeMs;
  } catch {
    // Gone: nothing tells when it was written.
  }
  return isAlive(pid, since);
}
