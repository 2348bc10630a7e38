// The files of a folder that a sparse checkout keeps out of the working tree.
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { GitProcessError, runGit } from './runner.ts';

/**
 * The tracked files under `dir` (relative to it), hidden ones aside, that git
 * marks skip-worktree and that are not in the working tree: what a sparse
 * checkout leaves out. A file marked by hand (`git update-index
 * --skip-worktree`) that is still on disk is not among them. One `git
 * ls-files` process; none when git cannot answer.
 */
export async function sparseMissing(dir: string): Promise<string[]> {
  // A folder the checkout leaves out whole is not on disk (a store `init` would make there): git runs in the
  // nearest folder that is, and is asked for the files under `dir`.
  let from = dir;
  while (!existsSync(from) && dirname(from) !== from) from = dirname(from);
  const under = relative(from, dir).split(sep).join('/');
  let out: string;
  try {
    out = (await runGit(from, ['--literal-pathspecs', 'ls-files', '-t', '-z', '--', under === '' ? '.' : under])).toString('utf8');
  } catch (error) {
    if (error instanceof GitProcessError) return [];
    throw error;
  }
  const skipped = out
    .split('\0')
    .filter((record) => record.startsWith('S '))
    .map((record) => (under === '' ? record.slice(2) : record.slice(3 + under.length)))
    // A hidden file (a folder's `.gitkeep`) holds nothing a reader takes.
    .filter((p) => !p.slice(p.lastIndexOf('/') + 1).startsWith('.'));
  const missing = await Promise.all(
    skipped.map((p) =>
      lstat(join(dir, p)).then(
        () => false,
        () => true,
      ),
    ),
  );
  return skipped.filter((_, i) => missing[i]);
}
