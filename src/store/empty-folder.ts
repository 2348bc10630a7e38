// A scope folder a command emptied (docs/store-format.md): a project exists
// while its folder does, so an emptied one is removed rather than left as a
// project with nothing in it.
import { readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Removes the folder `rel` of the store when it is empty; anything in it (a
 * file written meanwhile, another writer's lock) keeps it. Never fails.
 */
export function removeIfEmpty(storeRoot: string, rel: string): boolean {
  try {
    // rmdir removes only an empty folder, in one step: no window between looking and removing.
    rmdirSync(join(storeRoot, rel));
    return true;
  } catch {
    return false;
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
