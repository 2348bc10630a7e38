// Intent-to-add entries of the index (`git add -N`): a place held for a file,
// not content. `git commit` records none of them and `git diff --cached` shows
// none, so a reader of the index leaves them out rather than read the empty
// blob the index lists for them as an empty file.
import { relative, sep } from 'node:path';
import { realPath, repoTop } from './location.ts';
import { runGit } from './runner.ts';

/** The empty blob's id (SHA-1 and SHA-256 repositories): what the index lists for an intent-to-add entry. */
export const EMPTY_BLOBS: ReadonlySet<string> = new Set([
  'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813',
]);

/**
 * Which of `paths` (relative to `dir`, each listed in the index with the empty blob) are intent-to-add entries.
 * One `git status`, asked only when the index lists an empty file below `dir`; it prints paths from the top.
 */
export async function intentsToAdd(dir: string, paths: readonly string[]): Promise<Set<string>> {
  // git runs in the folder's real path and prints paths from the top it finds from there: a link on the way (a store
  // named through one) is matched where it leads.
  const real = realPath(dir);
  const top = repoTop(real);
  const rel = top === undefined ? '' : relative(top, real).split(sep).join('/');
  const prefix = rel === '' ? '' : `${rel}/`;
  const args = ['--no-optional-locks', '--literal-pathspecs', 'status', '--porcelain=v2', '-z', '--untracked-files=no', '--no-renames'];
  // Many empty files (rare) would make a command line too long: then the whole folder is asked.
  const pathspecs = paths.length > 500 ? ['.'] : paths;
  const out = (await runGit(dir, [...args, '--ignore-submodules=all', '--', ...pathspecs])).toString('utf8');
  const wanted = new Set(paths);
  const found = new Set<string>();
  for (const record of out.split('\0')) {
    // "1 XY sub mH mI mW hH hI path": an intent to add is added in the working tree only (".A").
    if (!record.startsWith('1 .A ')) continue;
    const path = record.split(' ').slice(8).join(' ');
    if (path.startsWith(prefix) && wanted.has(path.slice(prefix.length))) found.add(path.slice(prefix.length));
  }
  return found;
}
