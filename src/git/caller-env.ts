// Which of the caller's git variables reach the repository a command works in: shared by the git runner and by
// the readers of git's own files (index-tree.ts), which must look where a git process would.
import { isAbsolute, resolve } from 'node:path';
import { docsRef } from '../core/docs-link.ts';
import { gitDirFor, realPath } from './location.ts';
import { runCwd, runEnv } from './run-environment.ts';

/**
 * The caller's repository contents: the index a pre-commit hook of `git commit
 * -a` or `git commit FILE` must check is a temporary one named here. Passed on
 * only when git runs in the repository the caller's environment names.
 */
const CALLERS = ['GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES'] as const;

/** Path variables, which git resolves against the folder it was started in (ours is not the caller's). */
const PATHS = new Set<string>(['GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY']);

/** The git folder the caller's environment names: `GIT_DIR` (relative to where we were started), else the repository holding that folder. */
function callersGitDir(): string | undefined {
  const named = runEnv().GIT_DIR;
  const dir = named !== undefined && named !== '' ? resolve(runCwd(), named) : gitDirFor(runCwd());
  return dir === undefined ? undefined : realPath(dir);
}

/** The (real) git folder of the repository holding `cwd`: a few `stat`s, no git process; not cached, as repositories come and go. */
export function gitDirOf(cwd: string): string | undefined {
  const dir = gitDirFor(cwd);
  return dir === undefined ? undefined : realPath(dir);
}

/**
 * The caller's index and object folders (GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
 * GIT_ALTERNATE_OBJECT_DIRECTORIES) that apply in `cwd`: those set, when `cwd`
 * is in the repository the caller's environment names, made absolute (git runs
 * in `cwd`, not where we were started); none otherwise.
 */
export function callerVariables(cwd: string): Record<string, string> {
  const outer = runEnv();
  const found: Record<string, string> = {};
  if (!CALLERS.some((k) => outer[k])) return found;
  const mine = gitDirOf(cwd);
  if (mine === undefined || mine !== callersGitDir()) return found;
  for (const k of CALLERS) {
    const v = outer[k];
    if (v === undefined || v === '') continue;
    found[k] = PATHS.has(k) && !isAbsolute(v) ? resolve(runCwd(), v) : v;
  }
  return found;
}

/**
 * What to do when the store is in no repository git finds from its folder while the caller's environment names one
 * with GIT_DIR or GIT_WORK_TREE (a bare repository with a separate work tree), which the tool never follows: `git
 * init`, the usual remedy, would make a second repository there. Undefined when neither is set.
 */
export function namedRepositoryHint(): string | undefined {
  const env = runEnv();
  const set = ['GIT_DIR', 'GIT_WORK_TREE'].filter((k) => env[k] !== undefined && env[k] !== '');
  if (set.length === 0) return undefined;
  return `${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} set, and agents never takes the repository from ${set.length > 1 ? 'them' : 'it'}: it finds it from the store's folder (see ${docsRef('validation.md', 'hooks-in-linked-worktrees')}). Give the work tree a .git (a folder, or a file naming the repository), or run agents in a clone; do not run \`git init\` there.`;
}
