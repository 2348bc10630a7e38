// The folders a project path with wildcards in its folder names (`packages/*/**`) names: where its AGENTS.md,
// CLAUDE.md and GEMINI.md go (docs/export.md, "What a file holds").
import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileGlob, compileSegments, folderPattern, singleFolder } from '../core/globs.ts';
import { lsRepoFiles } from '../git/file-listing.ts';
import { GitError } from '../git/repo.ts';

/**
 * Folders never searched outside a git repository, by import's search for instruction files and export's folders of
 * a wildcard path alike: git's own, the packages installed, and the store's usual folder.
 */
export const NEVER_WALKED: ReadonlySet<string> = new Set(['.git', 'node_modules', '.agents']);

/**
 * The folders of the repository at `top` that each path glob with wildcards
 * in its folder names (`packages/*\/src/**` → packages/a/src,
 * packages/b/src): where AGENTS.md, CLAUDE.md and GEMINI.md go for it. As
 * git lists the repository (tracked files and untracked ones it does not
 * ignore), the store's folder left out; outside a git repository, as the
 * disk holds them. No glob of that shape, or git failing: none, and nothing
 * listed.
 */
export async function wildcardFolders(top: string, storeRel: string, globs: readonly string[]): Promise<Map<string, string[]>> {
  const wild = [...new Set(globs)].filter((g) => singleFolder([g]) === undefined && folderPattern(g) !== undefined);
  const out = new Map<string, string[]>();
  if (wild.length === 0) return out;
  const inStore = (d: string) => d === storeRel || d.startsWith(`${storeRel}/`);
  let files: string[];
  try {
    files = await lsRepoFiles(top, true);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    // Outside git the top is the folder holding the store, and its folders are those on disk.
    if (error.kind === 'not-a-repo')
      for (const g of wild) {
        const found = diskFolders(top, folderPattern(g)!).filter((d) => !inStore(d));
        if (found.length > 0) out.set(g, found);
      }
    return out;
  }
  const dirs = new Set<string>();
  // A repository inside this one (a submodule, a clone) is one entry of git's list, never a folder of this one's.
  for (const f of files) for (let at = f.lastIndexOf('/'); at > 0; at = f.lastIndexOf('/', at - 1)) dirs.add(f.slice(0, at));
  const sorted = [...dirs].filter((d) => !inStore(d)).sort();
  for (const g of wild) {
    const found = sorted.filter(compileGlob(folderPattern(g)!));
    if (found.length > 0) out.set(g, found);
  }
  return out;
}

/**
 * The folders below `top` that `pattern` (a folder glob without `**`, as folderPattern gives it) matches, read one
 * level per segment: only the folders its segments lead into are listed, never the whole tree. Links are not
 * followed, as git lists a link and not what it leads to, nor are repositories of their own entered.
 */
function diskFolders(top: string, pattern: string): string[] {
  let at = [''];
  for (const seg of compileSegments(pattern)) {
    const next: string[] = [];
    for (const dir of at) {
      let entries: Dirent[];
      try {
        entries = readdirSync(join(top, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const path = dir === '' ? e.name : `${dir}/${e.name}`;
        // A folder holding `.git` is a repository of its own, as git itself would take it: none of this folder's.
        if (e.isDirectory() && !NEVER_WALKED.has(e.name) && seg !== '**' && seg.test(e.name) && !existsSync(join(top, path, '.git')))
          next.push(path);
      }
    }
    at = next;
  }
  return at.sort();
}
