// A scope folder a command emptied (docs/store-format.md): a project exists
// while its folder does, so an emptied one is removed rather than left as a
// project with nothing in it.
import { type Dirent, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isHiddenName, KEEP_NAME, LOCK_NAME } from '../core/layout.ts';
import { fsyncDir, tempName } from './atomic-write.ts';

/**
 * Removes the folder `rel` of the store when it is empty; anything in it (a
 * file written meanwhile, another writer's lock) keeps it. Never fails.
 */
export function removeIfEmpty(storeRoot: string, rel: string): boolean {
  const path = join(storeRoot, rel);
  return removeEmptyUpTo(path, path);
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

/** Whether the folder `rel` of the store exists and holds nothing. */
export function folderIsEmpty(storeRoot: string, rel: string): boolean {
  try {
    return readdirSync(join(storeRoot, rel)).length === 0;
  } catch {
    return false;
  }
}

/**
 * Takes the emptied folder `rel` of the store (holding only its writer's lock) out of its place in one step, renamed
 * to a temporary's name beside it, while that lock is held: a writer waiting for the lock then finds no folder, as
 * after the removal, never the emptied one, which it would fill and so bring the scope back unsaid. Returns the
 * temporary's path, for removeTakenFolder once the lock is released; undefined when it could not be renamed (the
 * folder stays, removed once empty as before).
 */
export function takeFolderAway(storeRoot: string, rel: string): string | undefined {
  const path = join(storeRoot, rel);
  const away = tempName(path);
  try {
    renameSync(path, away);
    fsyncDir(dirname(path));
    return away;
  } catch {
    return undefined;
  }
}

/**
 * Removes a folder takeFolderAway took away: its lock, then the folder and the empty folders in it (a `waivers/` left
 * empty), never a file. Never fails (a folder left is a temporary `validate --fix` removes).
 */
export function removeTakenFolder(away: string): void {
  try {
    unlinkSync(join(away, LOCK_NAME));
  } catch {
    // Released already.
  }
  removeEmptyTree(away);
}

/** Removes `dir` when it holds nothing but empty folders, those first; a file anywhere keeps it. */
function removeEmptyTree(dir: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) removeEmptyTree(join(dir, e.name));
  removeEmptyUpTo(dir, dir);
}

/**
 * Removes the `.gitkeep` of each project folder of `folders` that holds something else git keeps (a file, or a folder
 * with one, whose name is not hidden): it kept the project while it held nothing, and a writer that filled the folder
 * calls this under the folder's lock. The store's top folders (global/, plans/…) keep the ones init gave them, so that
 * git keeps them however empty. The store-relative paths of the `.gitkeep`s removed.
 */
export function dropKeeps(storeRoot: string, folders: readonly string[]): string[] {
  const removed: string[] = [];
  for (const rel of folders) {
    if (!/^projects\/[^/]+$/.test(rel)) continue;
    const dir = join(storeRoot, rel);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    if (!names.includes(KEEP_NAME) || !holdsKept(dir)) continue;
    try {
      unlinkSync(join(dir, KEEP_NAME));
      removed.push(`${rel}/${KEEP_NAME}`);
    } catch {
      // A .gitkeep left beside files is harmless: the next writer of the folder tries again.
    }
  }
  return removed;
}

/** Whether `dir` holds a file git keeps: one whose name (and every folder's on the way) is not hidden. */
function holdsKept(dir: string): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.some((e) => !isHiddenName(e.name) && (e.isDirectory() ? holdsKept(join(dir, e.name)) : true));
}
