// A store folder that is a submodule git has not checked out (the empty folder a clone without
// --recurse-submodules leaves, its index holding a gitlink there): init refuses to make a store in it, and store
// discovery names it, so that every command gives the same diagnosis and the same way out.
import { existsSync, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { shellPath } from '../core/shell-word.ts';
import { repoTop } from '../git/location.ts';
import { indexFileGitlinks } from '../git/index-tree.ts';
import { indexGitlinksAmong } from '../git/gitlinks.ts';

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
 * undefined, and whether a line of `.gitmodules` names it. Each folder on the way up to the top may be one (none holds
 * `.git`, or it would be the top): each one, for a store below a folder, by the index file (no git process); else, or
 * when that file cannot tell, the folders `.gitmodules` names, and when `maybeEmpty`, those not made yet and the
 * nearest that exists when it is empty (a fresh clone's, `.gitmodules` or not), asked of git.
 */
function uncheckedSubmodule(root: string, maybeEmpty: boolean): { rel: string; named: boolean } | undefined {
  let dir = root;
  const state = (path: string) => {
    try {
      return folderState(path);
    } catch {
      // A folder that cannot be read is said by whatever reads it next, not taken for a submodule.
      return 'not-a-folder';
    }
  };
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const top = repoTop(dir);
  if (top === undefined) return undefined;
  // The way is root's own, folders not made yet included: a submodule's folder removed is still its gitlink.
  const path = relative(top, root).split(sep).join('/');
  if (path === '' || path.startsWith('../')) return undefined;
  const nearest = relative(top, dir).split(sep).join('/');
  const way: string[] = [];
  for (let f = path; f !== '.'; f = posix.dirname(f)) way.push(f);
  let modules = '';
  try {
    modules = readFileSync(join(top, '.gitmodules'), 'utf8');
  } catch {
    // No .gitmodules (or none readable): no submodule git could check out, but the empty folder's own.
  }
  // Named in it at all is enough to ask: git reads the paths, its index says which are gitlinks. Where a store is to
  // be made (or was not found), the folders not made yet are asked too: a gitlink without a line of .gitmodules is
  // still a repository of its own, which a folder made there would not be.
  const missing = (f: string) => maybeEmpty && f.length > nearest.length;
  const asked = way.filter((f) => modules.includes(f) || missing(f));
  if (maybeEmpty && nearest !== '' && !asked.includes(nearest) && state(dir) === 'empty') asked.push(nearest);
  // A store below a folder (vendor/x/.agents), any of which may be a gitlink no line of .gitmodules names that holds
  // files: the index file tells, read with no git process, and so every folder on the way is judged. The usual store
  // at the top (.agents) lies below none, and reads nothing more.
  const below = way.length > 1;
  if (asked.length === 0 && !below) return undefined;
  const file = indexFileGitlinks(top);
  const links = file ?? (asked.length > 0 ? indexGitlinksAmong(top, asked) : new Set<string>());
  const rel = (file === undefined ? asked : way).findLast((f) => links.has(f));
  return rel === undefined ? undefined : { rel, named: modules.includes(rel) };
}

/**
 * Refuses (exit 2, `submodule-not-checked-out`) a store at `root` in a submodule git has not checked out, or below
 * one: `init` would make it where git never sees it (nothing written to it committed, the submodule's own store
 * beside it once checked out); a store found there (one an older version made) is not the repository's, and an
 * empty folder holds none. `doing`: what was refused (`open`: a store found there).
 */
export function refuseUncheckedSubmodule(root: string, doing: 'create' | 'read' | 'open'): void {
  const found = uncheckedSubmodule(root, doing !== 'open');
  if (found === undefined) return;
  const { rel } = found;
  const update = `\`git submodule update --init -- ${shellPath(rel)}\``;
  // Without a line of .gitmodules git has no URL to check it out from: the update alone would fail.
  const checkout = found.named
    ? `Check the submodule out (${update})`
    : `Give it a line in .gitmodules (none names it, so git has no URL to check it out from) and check it out (${update})`;
  const what = `${rel}/ is a submodule git has not checked out (a folder git's index holds as a gitlink, without its own .git)`;
  throw new UsageError(
    doing === 'create'
      ? `cannot create a store at ${root}: ${what}, so git would never see a store made there`
      : doing === 'read'
        ? `no store found at ${root}: ${what}`
        : `the store ${root} is not the repository's: ${what}, so git never sees what is written there`,
    doing === 'create'
      ? `Nothing was changed. ${checkout}, whose own store is then found, or make the store elsewhere with --store DIR.`
      : doing === 'read'
        ? `${checkout}, whose store is then found, then run the command again.`
        : `Move what is in ${rel}/ out of it (the store to a folder of this repository, then named with --store DIR), then ${checkout[0]!.toLowerCase()}${checkout.slice(1)}.`,
    { folder: rel },
    'submodule-not-checked-out',
  );
}
