// The submodules (gitlinks) a repository's index holds, asked synchronously for the checks of folders on disk.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runEnv } from './run-environment.ts';
import { runGitSync } from './runner.ts';

/**
 * Whether the index of the repository at `top` holds a submodule (a gitlink) at `rel`, a folder relative to `top`:
 * one not checked out is an empty folder without `.git`, which only the index tells from a folder of this
 * repository's. Blocking, for the synchronous checks of a target's folders; one `git ls-files`, false when git
 * cannot answer.
 */
export function indexHoldsGitlink(top: string, rel: string): boolean {
  return indexGitlinksAmong(top, [rel]).has(rel);
}

/**
 * Which of the folders `rels` (relative to `top`) the index of the repository at `top` holds as gitlinks: one
 * `git ls-files` of those paths alone, none when git cannot answer.
 */
export function indexGitlinksAmong(top: string, rels: readonly string[]): Set<string> {
  if (!hasIndex(top)) return new Set();
  return gitlinksOf(runGitSync(top, ['--literal-pathspecs', 'ls-files', '-s', '-z', '--', ...rels], 1024 * 1024 * 1024));
}

/**
 * The submodules (gitlinks) the index of the repository at `top` holds, folders relative to `top`: one not checked
 * out may hold files written there since (an AGENTS.md an older export left), which only the index tells from a
 * folder of this repository's. Blocking; one `git ls-files` of the whole index, none when git cannot answer.
 */
export function indexGitlinks(top: string): Set<string> {
  return gitlinksOf(runGitSync(top, ['ls-files', '-s', '-z'], 1024 * 1024 * 1024));
}

/**
 * Whether the repository at `top` may have an index: a repository made by `git init` has none until its first add,
 * so it holds no gitlink and no git process need ask. A `.git` file (a worktree, a submodule) or GIT_INDEX_FILE is
 * left to git: the run's, which a command run in-process is given apart from the process's own.
 */
function hasIndex(top: string): boolean {
  if (runEnv().GIT_INDEX_FILE) return true;
  try {
    return !statSync(join(top, '.git')).isDirectory() || statSync(join(top, '.git', 'index'), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/** The paths of the gitlinks of a `git ls-files -s -z` listing (`<mode> <blob> <stage>\t<path>` records); none without one. */
function gitlinksOf(listing: string | undefined): Set<string> {
  const links = new Set<string>();
  for (const r of listing?.split('\0') ?? []) if (r.startsWith('160000 ')) links.add(r.slice(r.indexOf('\t') + 1));
  return links;
}
