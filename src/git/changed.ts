// The store files a commit is about to change: what `validate --staged` and
// `validate --changed` report on (docs/validation.md, "Hook mode"). One git
// process for the staged files, two at once for the changed ones, through the
// runner (the hook must start fast).
import type { HiddenEntry } from './hidden-edits.ts';
import { passOn, runGit } from './runner.ts';
import { GitError } from './repo.ts';

function split(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '');
}

async function run(cwd: string, args: readonly string[]): Promise<Buffer> {
  try {
    return await runGit(cwd, args);
  } catch (error) {
    passOn(error);
    throw new GitError(error instanceof Error ? error.message : String(error), 'failed');
  }
}

/**
 * Store-relative paths of the files staged in the index (added, changed or
 * deleted against HEAD; every file of the store before the first commit).
 * Run in the store folder: git gives paths relative to it.
 */
export async function stagedStorePaths(storeDir: string): Promise<string[]> {
  return split(await run(storeDir, ['diff', '--cached', '--name-only', '-z', '--no-renames', '--relative', '--', '.']));
}

/**
 * Store-relative paths of the files that differ from HEAD in the working
 * tree or the index, untracked ones included. `prefix`: the store folder
 * relative to the repository's top ("" or "sub/.agents/"), since git prints
 * status paths from the top; `top`: the repository's top. A file git is told
 * not to look at (assume-unchanged, skip-worktree) or that a `core.fsmonitor`
 * hook says is unchanged is compared with the index itself, as guard check
 * does (hidden-edits.ts): an edit to it is a change too. Two git processes,
 * at once: the status, and the index with its hidden bits.
 */
export async function changedStorePaths(storeDir: string, prefix: string, top: string): Promise<string[]> {
  const { status, hidden } = await storeStatus(storeDir, false);
  const out = new Set<string>();
  for (const entry of status) {
    // "XY path": two status letters and a space.
    const path = entry.slice(3);
    if (path.startsWith(prefix)) out.add(path.slice(prefix.length));
  }
  if (hidden.length > 0) {
    const { hiddenEdits } = await import('./hidden-edits.ts');
    for (const { path } of await hiddenEdits(top, undefined, hidden)) if (path.startsWith(prefix)) out.add(path.slice(prefix.length));
  }
  return [...out];
}

/**
 * Whether the store's files in the working tree are the index's: none changed or deleted since it was staged, none
 * untracked or ignored, none git is told not to look at (assume-unchanged, skip-worktree) that differs. An agent's
 * shell can make each, and the guards of the one then differ from the other's. Two git processes, at once.
 */
export async function storeAsIndexed(storeDir: string, top: string): Promise<boolean> {
  const { status, hidden } = await storeStatus(storeDir, true);
  // "XY path": Y compares the working tree with the index (`?` untracked, `!` ignored).
  if (status.some((entry) => entry[1] !== ' ')) return false;
  if (hidden.length === 0) return true;
  const { hiddenEdits } = await import('./hidden-edits.ts');
  return (await hiddenEdits(top, undefined, hidden)).length === 0;
}

/**
 * The `git status` records of the store's files (untracked ones, and with `ignored` ignored ones, file by file), and
 * its index entries hidden from the working tree, which the status cannot see. A `core.fsmonitor` hook that could say
 * nothing changed is not run (NO_FSMONITOR).
 */
async function storeStatus(storeDir: string, ignored: boolean): Promise<{ status: string[]; hidden: HiddenEntry[] }> {
  // Loaded here: the commit hook's bundle holds this module for --staged, which needs none of it.
  const { hiddenEntries, NO_FSMONITOR } = await import('./hidden-edits.ts');
  const [status, index] = await Promise.all([
    run(storeDir, [
      ...NO_FSMONITOR,
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      ...(ignored ? ['--ignored=matching'] : []),
      '--no-renames',
      '--',
      '.',
    ]),
    run(storeDir, [...NO_FSMONITOR, 'ls-files', '-v', '-s', '-z', '--full-name', '--', '.']),
  ]);
  return {
    status: split(status),
    hidden: hiddenEntries(index),
  };
}

/**
 * Whether the index holds a file at or under `path` (relative to `top`, the
 * repository's top): whether the next commit records anything there.
 */
export async function indexHolds(top: string, path: string): Promise<boolean> {
  return (await indexFilesUnder(top, path)).length > 0;
}

/** The files the index holds under folder `path` (or any of `path`s; relative to `top`, the repository's top), as paths from the top. */
export async function indexFilesUnder(top: string, path: string | readonly string[]): Promise<string[]> {
  // No path at all is no folder: git given no pathspec would list the whole index.
  if (typeof path !== 'string' && path.length === 0) return [];
  return split(await run(top, ['--literal-pathspecs', 'ls-files', '-z', '--', ...(typeof path === 'string' ? [path] : path)]));
}

/** The files under folder `path` (relative to `top`) that the next commit adds, changes or deletes against HEAD. */
export async function stagedUnder(top: string, path: string): Promise<string[]> {
  return split(await run(top, ['--literal-pathspecs', 'diff', '--cached', '--name-only', '-z', '--no-renames', '--', path]));
}
