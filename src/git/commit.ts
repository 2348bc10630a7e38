import { GitError } from './repo.ts';
import { runGit } from './runner.ts';

/** Paths (repository-relative) already staged in the index: changes someone else has prepared. */
export async function stagedPaths(top: string): Promise<string[]> {
  const out = (await runGit(top, ['diff', '--cached', '--name-only', '-z', '--no-renames'])).toString('utf8');
  return out.split('\0').filter((p) => p !== '');
}

/**
 * Stages exactly `paths` (repository-relative; written or deleted files) and
 * commits them, and nothing else, with `message`. Two processes: `git add -A`
 * (which records deletions too) and `git commit --only`. Hooks run as usual.
 * Returns the new commit id.
 */
export async function commitPaths(top: string, paths: readonly string[], message: string): Promise<string> {
  if (paths.length === 0) throw new GitError('nothing to commit', 'failed');
  try {
    await runGit(top, ['add', '-A', '--', ...paths]);
    await runGit(top, ['commit', '--quiet', '--only', '-m', message, '--', ...paths]);
    return (await runGit(top, ['rev-parse', 'HEAD'])).toString('utf8').trim();
  } catch (error) {
    throw new GitError((error instanceof Error ? error.message : String(error)).trim(), 'failed');
  }
}
