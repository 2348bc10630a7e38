// A scope folder a command emptied (docs/store-format.md): a project exists
// while its folder does, so an emptied one is removed rather than left as a
// project with nothing in it.
import { readdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
