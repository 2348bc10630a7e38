import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { repoTop } from '../git/location.ts';
import { runGitSync } from '../git/runner.ts';
import { runEnv } from '../git/run-environment.ts';
import { docsRef } from '../core/docs-link.ts';
import { shellPath, shellWord } from '../core/shell-word.ts';

/**
 * Stores owned by someone else (docs/store-format.md#stores-owned-by-someone-else).
 * As git's `safe.directory` check does for repositories: a folder another user
 * owns may hold a `config.yaml` whose actor command is theirs, so the tool
 * neither runs its actor nor writes in it unless the user allowed that folder.
 * Reading stays allowed: it runs nothing and changes nothing.
 */

/** The environment variable that allows folders, as git's `safe.directory` does. */
export const SAFE_DIRECTORY_ENV = 'AGENTS_SAFE_DIRECTORY';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The user ids that count as "you": the effective uid, and under sudo (root) the invoking user's, as git allows. */
function ownIds(env: Record<string, string | undefined>): number[] | undefined {
  const euid = process.geteuid?.();
  if (euid === undefined) return undefined; // no owners to compare (Windows)
  const ids = [euid];
  const sudo = env.SUDO_UID;
  if (euid === 0 && sudo !== undefined && /^\d{1,10}$/.test(sudo)) ids.push(Number(sudo));
  return ids;
}

/** Expands `~/` as git does for `safe.directory`: from the run's HOME, which the git it runs reads too. */
function expand(entry: string, env: Record<string, string | undefined>): string {
  if (entry === '~' || entry.startsWith('~/')) return join(env.HOME || homedir(), entry.slice(1));
  return entry;
}

/** Whether an allow-list entry (`*`, a folder, or `folder/*` for every folder below it) covers one of `folders`. */
function covers(entry: string, folders: readonly string[], env: Record<string, string | undefined>): boolean {
  if (entry === '*') return true;
  const e = expand(entry, env);
  if (!isAbsolute(e)) return false;
  if (e.endsWith('/*')) {
    const prefix = real(e.slice(0, -2));
    return folders.some((f) => f.startsWith(`${prefix}/`));
  }
  const want = real(e.replace(/\/+$/, '') || '/');
  return folders.includes(want);
}

/**
 * git's `safe.directory` values from the system and global configuration
 * (`git -c` values do not reach us: the runner drops GIT_CONFIG_PARAMETERS), in order (an empty value clears the list, as in git); a
 * repository's own configuration is ignored, as git ignores it. Asked only
 * when a store is foreign: one git process.
 */
function gitSafeDirectories(cwd: string): string[] {
  const out = runGitSync(cwd, ['config', '--show-scope', '--get-all', 'safe.directory']) ?? '';
  let list: string[] = [];
  for (const line of out.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const scope = line.slice(0, tab);
    if (scope !== 'system' && scope !== 'global') continue;
    const value = line.slice(tab + 1);
    list = value === '' ? [] : [...list, value];
  }
  return list;
}

export interface ForeignOwner {
  /** The folder (or file) that is not ours. */
  path: string;
  owner: number;
  uid: number;
}

/** The first of `paths` that exists and is owned by another user, or undefined. */
export function foreignOwner(paths: readonly string[], env: Record<string, string | undefined> = runEnv()): ForeignOwner | undefined {
  const ids = ownIds(env);
  if (ids === undefined) return undefined;
  for (const path of paths) {
    let owner: number;
    try {
      owner = statSync(path).uid;
    } catch {
      continue; // not there (yet): nothing of anyone else's to trust
    }
    if (!ids.includes(owner)) return { path, owner, uid: ids[0]! };
  }
  return undefined;
}

/** Whether the user allowed `folder` (or the repository holding it): `AGENTS_SAFE_DIRECTORY`, else git's `safe.directory`. */
export function isAllowed(folder: string, env: Record<string, string | undefined> = runEnv()): boolean {
  const folders = [real(folder)];
  const top = repoTop(folder);
  if (top !== undefined) folders.push(real(top));
  const fromEnv = (env[SAFE_DIRECTORY_ENV] ?? '').split(delimiter).filter((e) => e !== '');
  if (fromEnv.some((e) => covers(e, folders, env))) return true;
  return gitSafeDirectories(folder).some((e) => covers(e, folders, env));
}

/**
 * Refuses (exit 2, nothing done) to `action` in the store at `root` when the
 * folder (or, for `also`, those files) belongs to another user and the user
 * has not allowed it.
 */
export function assertOwnStore(
  root: string,
  action: string,
  also: readonly string[] = [],
  env: Record<string, string | undefined> = runEnv(),
): void {
  const foreign = foreignOwner([root, ...also], env);
  if (foreign === undefined || isAllowed(root, env)) return;
  const shown = real(root);
  throw new UsageError(
    `refusing to ${action} ${shown}: ${foreign.path === root ? 'the folder' : foreign.path} is owned by user ${foreign.owner}, not by you (user ${foreign.uid})`,
    // Quoted for the shell, as the user pastes them: a folder with a space would split the command.
    `Nothing was run or written. If you trust it, allow it as for git: \`git config --global --add safe.directory ${shellPath(shown)}\`, or set ${SAFE_DIRECTORY_ENV}=${shellWord(shown)} (see ${docsRef('store-format.md', 'stores-owned-by-someone-else')}).`,
    { store: shown, path: foreign.path, owner: foreign.owner, uid: foreign.uid },
    'foreign-store',
  );
}
