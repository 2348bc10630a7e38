import { isAbsolute, resolve } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * The git environment variables that git itself honours and that users and
 * hooks rely on: identity (GIT_AUTHOR_*, GIT_COMMITTER_*), configuration, and
 * the repository and index a hook was started for (a pre-commit hook of
 * `git commit -a` gets a temporary GIT_INDEX_FILE). simple-git drops ambient
 * GIT_* variables unless they are allowed, so they are passed on explicitly.
 */
const PASSED = [
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
] as const;

/** Variables holding paths, which git resolves against the directory it was started in. */
const PATHS = new Set(['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY']);

/**
 * Makes path variables absolute, once: our git runs in the store folder, not
 * where we were started, and must still find the repository and index the
 * caller meant. Same meaning for this process, so changing them is safe.
 */
function absolutePaths(): void {
  for (const k of PATHS) {
    const v = process.env[k];
    if (v !== undefined && v !== '' && !isAbsolute(v)) process.env[k] = resolve(process.cwd(), v);
  }
}

/** A simple-git client for `cwd`, optionally writing `input` to git's stdin. */
export function gitClient(cwd: string, input?: Buffer | string): SimpleGit {
  absolutePaths();
  return simpleGit({
    baseDir: cwd,
    allowEnvironment: [...PASSED],
    // GIT_CONFIG_GLOBAL/SYSTEM come from the user's own environment, as for any git they run.
    unsafe: { allowUnsafeConfigPaths: true },
    ...(input !== undefined ? { input: () => input } : {}),
  });
}
