// A store folder that is a submodule git has not checked out (the empty folder a clone without
// --recurse-submodules leaves, its index holding a gitlink there): init refuses to make a store in it, and store
// discovery names it, so that every command gives the same diagnosis and the same way out.
import { readdirSync, type Stats, statSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { shellPath } from '../core/shell-word.ts';
import { repoTop } from '../git/location.ts';
import { indexHoldsGitlink } from '../git/repo.ts';

/** What is at `path`: nothing, an empty folder, a folder that holds something, or something else; throws what else the system says. */
export function folderState(path: string): 'none' | 'empty' | 'full' | 'not-a-folder' {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'none';
    if (code === 'ENOTDIR') return 'not-a-folder';
    throw error;
  }
  if (!st.isDirectory()) return 'not-a-folder';
  return readdirSync(path).length === 0 ? 'empty' : 'full';
}

/**
 * The submodule git has not checked out that `root` is or is below (its path from the repository's top), else
 * undefined. A git process only when the nearest folder on the way that exists is empty.
 */
function uncheckedSubmodule(root: string): string | undefined {
  let dir = root;
  const state = (path: string) => {
    try {
      return folderState(path);
    } catch {
      // A folder that cannot be read is said by whatever reads it next, not taken for a submodule.
      return 'not-a-folder';
    }
  };
  while (state(dir) === 'none' && dirname(dir) !== dir) dir = dirname(dir);
  const top = repoTop(dir);
  if (top === undefined || dir === top || state(dir) !== 'empty') return undefined;
  const rel = relative(top, dir).split(sep).join('/');
  if (rel.startsWith('../') || !indexHoldsGitlink(top, rel)) return undefined;
  return rel;
}

/**
 * Refuses (exit 2, `submodule-not-checked-out`) a store at `root` in a submodule git has not checked out, or below
 * one: `init` would make it where git never sees it (nothing written to it committed, the submodule's own store
 * beside it once checked out); every other command would find no store there. `doing`: what was refused.
 */
export function refuseUncheckedSubmodule(root: string, doing: 'create' | 'read'): void {
  const rel = uncheckedSubmodule(root);
  if (rel === undefined) return;
  const checkout = `git submodule update --init -- ${shellPath(rel)}`;
  throw new UsageError(
    doing === 'create'
      ? `cannot create a store at ${root}: ${rel}/ is a submodule git has not checked out (an empty folder git's index holds as a gitlink), so git would never see a store made there`
      : `no store found at ${root}: ${rel}/ is a submodule git has not checked out (an empty folder git's index holds as a gitlink)`,
    doing === 'create'
      ? `Nothing was changed. Check the submodule out (\`${checkout}\`), whose own store is then found, or make the store elsewhere with --store DIR.`
      : `Check the submodule out (\`${checkout}\`), whose store is then found, then run the command again.`,
    { folder: rel },
    'submodule-not-checked-out',
  );
}
