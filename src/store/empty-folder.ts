// A scope folder a command emptied (docs/store-format.md): a project exists
// while its folder does, so an emptied one is removed rather than left as a
// project with nothing in it.
import { type Dirent, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isLockName } from '../core/layout.ts';
import { fsyncDir, tempName } from './atomic-write.ts';
import { removeEmptyUpTo } from './write-all.ts';

/**
 * Removes the folder `rel` of the store when it is empty; anything in it (a
 * file written meanwhile, another writer's lock) keeps it. Never fails.
 */
export function removeIfEmpty(storeRoot: string, rel: string): boolean {
  const path = join(storeRoot, rel);
  return removeEmptyUpTo(path, path);
}

/**
 * Whether the folder `rel` of the store exists and holds nothing but its writer's lock (the caller's, held) and the
 * attempts of writers waiting for it: each try of theirs writes the lock's temporary beside it, for an instant.
 */
export function holdsOnlyLock(storeRoot: string, rel: string): boolean {
  try {
    return readdirSync(join(storeRoot, rel)).every(isLockName);
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
 * Removes a folder takeFolderAway took away: its lock and the tries of writers that waited for it (taken away with
 * the folder, they can no longer become the lock), those of the folders in it too (a `waivers/` lock a crashed
 * writer left, which locks nothing once its folder is gone), then the folder and the empty folders in it (a
 * `waivers/` left empty), never another file. Never fails (a folder left is a temporary `validate --fix` removes).
 */
export function removeTakenFolder(away: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(away, { withFileTypes: true });
  } catch {
    // Gone already.
    return;
  }
  for (const e of entries) {
    if (e.isDirectory()) removeTakenFolder(join(away, e.name));
    else if (isLockName(e.name)) {
      try {
        unlinkSync(join(away, e.name));
      } catch {
        // Released already, or removed by the writer that made it.
      }
    }
  }
  removeEmptyUpTo(away, away);
}
