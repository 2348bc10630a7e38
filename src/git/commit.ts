import { accessSync, constants, existsSync, lstatSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { LOCK_NAME } from '../core/layout.ts';
import { commonOf, gitDirFor } from './location.ts';
import { GitError } from './repo.ts';
import { type ConfigPair, GitProcessError, runGit } from './runner.ts';

/** A path git will not add, and the rule that says so (`.gitignore:1: .agents/`). */
export interface IgnoredPath {
  path: string;
  rule: string;
}

/**
 * Which of `paths` (repository-relative; a folder ends in `/`) git ignores,
 * each with its rule: one `git check-ignore`. A path git already tracks is
 * never ignored.
 */
export async function ignoredPaths(top: string, paths: readonly string[]): Promise<IgnoredPath[]> {
  if (paths.length === 0) return [];
  let out: string;
  try {
    out = (await runGit(top, ['check-ignore', '--verbose', '-z', '--stdin'], paths.map((p) => `${p}\0`).join(''))).toString('utf8');
  } catch (error) {
    // Exit 1: none of them is ignored.
    if (error instanceof GitProcessError && error.exitCode === 1) return [];
    throw error;
  }
  // Four fields a path: the file of the rule, its line, the pattern, the path.
  const fields = out.split('\0');
  const found: IgnoredPath[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    found.push({ path: fields[i + 3]!, rule: `${fields[i]}:${fields[i + 1]}: ${fields[i + 2]}` });
  }
  return found;
}

/**
 * The rule by which git ignores the folder `dir` (absolute) of the
 * repository whose top is `top`, so that nothing new in it can be added;
 * undefined when it does not, or when `dir` is the top itself.
 */
export async function folderIgnored(top: string, dir: string): Promise<IgnoredPath | undefined> {
  const rel = relative(top, dir).split(sep).join('/');
  if (rel === '' || rel.startsWith('../')) return undefined;
  return (await ignoredPaths(top, [`${rel}/`]))[0];
}

/**
 * The operation under way in the repository whose top is `top` that git makes no commit of chosen files during
 * ("cannot do a partial commit during a merge"), with the file that says so; undefined when there is none. Read
 * from git's folder, no process.
 */
export function operationInProgress(top: string): { operation: 'merge' | 'cherry-pick' | 'revert'; file: string } | undefined {
  const dir = gitDirFor(top);
  if (dir === undefined) return undefined;
  for (const [operation, file] of [
    ['merge', 'MERGE_HEAD'],
    ['cherry-pick', 'CHERRY_PICK_HEAD'],
    ['revert', 'REVERT_HEAD'],
  ] as const)
    if (existsSync(join(dir, file))) return { operation, file };
  return undefined;
}

/**
 * A rebase (or a `git am`) stopped part-way in the repository whose top is `top`, with the folder that says so; undefined
 * when there is none. git commits chosen files during one (an `edit` stop), so this only tells why files are staged:
 * the commit it stopped at, a conflict among them. Read from git's folder, no process.
 */
export function rebaseInProgress(top: string): { operation: 'rebase' | 'am'; file: string } | undefined {
  const dir = gitDirFor(top);
  if (dir === undefined) return undefined;
  if (existsSync(join(dir, 'rebase-merge'))) return { operation: 'rebase', file: 'rebase-merge' };
  if (!existsSync(join(dir, 'rebase-apply'))) return undefined;
  return { operation: existsSync(join(dir, 'rebase-apply', 'applying')) ? 'am' : 'rebase', file: 'rebase-apply' };
}

/**
 * git's index lock (`index.lock` in the git folder of the repository whose top is `top`) when a process holds it: an
 * editor's or IDE's git, another git command, or one that crashed. git commits nothing while it is there. Read from
 * git's folder, no process.
 */
export function heldIndexLock(top: string): string | undefined {
  const dir = gitDirFor(top);
  if (dir === undefined) return undefined;
  const lock = join(dir, 'index.lock');
  return lstatSync(lock, { throwIfNoEntry: false }) === undefined ? undefined : lock;
}

/**
 * The folder of git's that a commit in the repository whose top is `top` writes in and this process may not (a
 * read-only file system, or a git folder a `sudo git` left owned by root), with the refusal's code: its git folder
 * (the index's lock) or the objects folder; undefined when both may be written. Asked of the file system, no process.
 */
export function unwritableGitFolder(top: string): { folder: string; code: string } | undefined {
  const dir = gitDirFor(top);
  if (dir === undefined) return undefined;
  for (const folder of [dir, join(commonOf(dir), 'objects')]) {
    try {
      accessSync(folder, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EACCES';
      // A folder git makes when it needs it is no refusal of this process's.
      if (code !== 'ENOENT') return { folder, code };
    }
  }
  return undefined;
}

/** A commit that failed; `staged`: whether its files had been staged before it failed (a hook refused it, say). */
export class CommitError extends GitError {
  constructor(
    message: string,
    readonly staged: boolean,
  ) {
    super(message, 'failed');
  }
}

/** Paths (repository-relative) already staged in the index: changes someone else has prepared. */
export async function stagedPaths(top: string): Promise<string[]> {
  const out = (await runGit(top, ['diff', '--cached', '--name-only', '-z', '--no-renames'])).toString('utf8');
  return out.split('\0').filter((p) => p !== '');
}

/**
 * Of `paths` (repository-relative; a folder ends in `/` or not), those a commit can record: the ones in the working
 * tree, and the deleted ones git tracks. A file deleted that git never had (an invariant added without `--commit`,
 * then removed) is no change of git's, and git refuses a pathspec that matches nothing. One `git ls-files`, only
 * when a path is gone.
 */
async function recordable(top: string, paths: readonly string[]): Promise<string[]> {
  // lstat: a link whose target is gone is still in the working tree.
  const gone = paths.filter((p) => lstatSync(join(top, p), { throwIfNoEntry: false }) === undefined);
  if (gone.length === 0) return [...paths];
  const tracked = (await runGit(top, ['ls-files', '-z', '--', ...gone])).toString('utf8').split('\0');
  const had = (p: string) => {
    const folder = p.endsWith('/') ? p : `${p}/`;
    return tracked.some((t) => t === p || t.startsWith(folder));
  };
  return paths.filter((p) => !gone.includes(p) || had(p));
}

/**
 * The files a commit records are the store's, each written with one line end throughout (LF, or the CRLF of the
 * file it replaced), which git's line-end conversion keeps as they are. core.safecrlf=true refuses an LF file in a
 * checkout that turns LF into CRLF (core.autocrlf=true), which would leave every write written and never committed.
 */
const STORE_LINE_ENDS: readonly ConfigPair[] = [['core.safecrlf', 'false']];

/**
 * The message is given in UTF-8 (an invariant's text in its body): the commit says so, whatever i18n.commitEncoding
 * says, or git would record UTF-8 bytes as that encoding and every log would show them garbled.
 */
const COMMIT_SETTINGS: readonly ConfigPair[] = [...STORE_LINE_ENDS, ['i18n.commitEncoding', 'UTF-8']];

/**
 * Stages exactly `paths` (repository-relative; written or deleted files) and
 * commits them, and nothing else, with `message`. Two processes: `git add -A`
 * (which records deletions too) and `git commit --only`. Hooks run as usual.
 * Returns the new commit id, and whether HEAD is detached (no branch holds the commit), or undefined when none of
 * the paths is a change git can record (a file removed that it never had): no commit is made.
 */
export async function commitPaths(
  top: string,
  paths: readonly string[],
  message: string,
): Promise<{ id: string; detached: boolean } | undefined> {
  if (paths.length === 0) throw new GitError('nothing to commit', 'failed');
  const said = (error: unknown) => (error instanceof Error ? error.message : String(error)).trim();
  let changed: string[];
  try {
    changed = await recordable(top, paths);
    if (changed.length === 0) return undefined;
    const files = changed.filter((p) => !p.endsWith('/'));
    if (files.length > 0) await runGit(top, ['add', '-A', '--', ...files], undefined, undefined, undefined, STORE_LINE_ENDS);
    // A folder alone in its call: git (2.39) adds no untracked file when an exclude reaches above the files' common folder.
    for (const folder of changed.filter((p) => p.endsWith('/')))
      await runGit(top, ['add', '-A', '--', folder, ...noLocks(folder)], undefined, undefined, undefined, STORE_LINE_ENDS);
  } catch (error) {
    // git add stages the paths it can before it fails on one it ignores: they are unstaged again, so that a
    // failure leaves the index as it found it, as staged: false says.
    await runGit(top, ['reset', '--quiet', '--', ...paths]).catch(() => undefined);
    throw new CommitError(said(error), false);
  }
  try {
    // --cleanup=whitespace: the message as given, whatever commit.cleanup says; `strip` would drop a body line that
    // starts with '#' (an invariant's text, "#1 rule: …") as a comment.
    await runGit(
      top,
      ['commit', '--quiet', '--only', '--cleanup=whitespace', '-m', message, '--', ...changed],
      undefined,
      undefined,
      undefined,
      COMMIT_SETTINGS,
    );
    // The id, then the branch HEAD names ("HEAD" itself when detached): one process for both.
    const [id = '', ref = ''] = (await runGit(top, ['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD']))
      .toString('utf8')
      .trim()
      .split('\n');
    return { id, detached: ref === 'HEAD' };
  } catch (error) {
    // Files written back to what the last commit holds (an edit undone) leave git nothing to commit, which it
    // refuses: that is no failure, and no commit is made. Asked only once a commit failed, so a commit costs no more.
    if (await unchanged(top, changed)) return undefined;
    throw new CommitError(said(error), true);
  }
}

/**
 * A folder given whole (`plans/ID/`, a plan removed: its tracked files, whatever their names' bytes, which no list of
 * names read as text could name) may hold another writer's lock again, or its try at it (`.lock`, `..lock.….tmp`,
 * layout.ts's isLockName), made by a writer waiting for it: neither is ever the store's to add. The commit that
 * follows takes only what is staged or tracked, so excluding them here is enough.
 */
function noLocks(folder: string): string[] {
  const glob = folder.replace(/[*?[\]\\]/g, '\\$&');
  return [`:(exclude,glob)${glob}**/${LOCK_NAME}`, `:(exclude,glob)${glob}**/.${LOCK_NAME}.*.tmp`];
}

/** Whether the index holds `paths` as HEAD does (true too when HEAD has no commit and the index none of them). */
async function unchanged(top: string, paths: readonly string[]): Promise<boolean> {
  try {
    await runGit(top, ['diff', '--cached', '--quiet', '--no-renames', '--', ...paths]);
    return true;
  } catch {
    return false;
  }
}
