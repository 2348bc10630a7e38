// The files git lists: a commit's tree, the index, the repository's files as a commit would take them.
import { EMPTY_BLOBS, intentsToAdd } from './intent-to-add.ts';
import { GitError, message } from './repo.ts';
import { passOn, runGit } from './runner.ts';

/** A git object listed in a tree or the index. */
export interface GitEntry {
  /** Repository-relative path. */
  path: string;
  mode: string;
  sha: string;
  /** In the index: a merge left this path unresolved (its stages 1–3 instead of one entry at stage 0). */
  unmerged?: true;
  /**
   * Of an unmerged path, the stages the index holds, in order: `1` the base, `2` ours, `3` theirs (`123` both
   * changed it, `1` both deleted it, `2` or `3` one side added it, as a rename/rename conflict leaves each new name).
   */
  stages?: string;
}

/** A `git ls-files` that failed in `dir`, as the GitError of its kind (an interruption is passed on as it is). */
function lsFilesFailure(dir: string, error: unknown): GitError {
  passOn(error);
  const why = message(error);
  if (/not a git repository/i.test(why)) return new GitError(`not a git repository: ${dir} (${why})`, 'not-a-repo');
  return new GitError(`git ls-files failed in ${dir}: ${why}`, 'failed');
}

function parseZ(out: string, parse: (record: string) => GitEntry | undefined): GitEntry[] {
  const entries: GitEntry[] = [];
  for (const record of out.split('\0')) {
    if (record === '') continue;
    const e = parse(record);
    if (e) entries.push(e);
  }
  return entries;
}

/** Every blob under `prefix` at a commit: one `git ls-tree` process. */
export async function lsTree(cwd: string, commit: string, prefix: string): Promise<GitEntry[]> {
  const out = (await runGit(cwd, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', prefix === '' ? '.' : prefix])).toString('utf8');
  // "<mode> SP <type> SP <sha> TAB <path>"
  return parseZ(out, (record) => {
    const tab = record.indexOf('\t');
    const [mode, , sha] = record.slice(0, tab).split(' ');
    return mode && sha ? { mode, sha, path: record.slice(tab + 1) } : undefined;
  });
}

/**
 * Every entry of the index below the folder `dir` (stage 0; a path a merge
 * left unresolved once, marked `unmerged`), with paths relative to `dir`: one `git ls-files`
 * process started in that folder, so the repository's top folder need not be
 * known first.
 */
export async function lsIndex(dir: string): Promise<GitEntry[]> {
  let out: string;
  try {
    out = (await runGit(dir, ['ls-files', '-s', '-z', '--', '.'])).toString('utf8');
  } catch (error) {
    throw lsFilesFailure(dir, error);
  }
  // "<mode> SP <sha> SP <stage> TAB <path>" NUL …, read in place: one string per field, no record strings.
  const entries: GitEntry[] = [];
  let seen: Set<string> | undefined;
  let conflicted: Map<string, GitEntry> | undefined;
  for (let at = 0; at < out.length; ) {
    const end = out.indexOf('\0', at);
    const stop = end < 0 ? out.length : end;
    const sp1 = out.indexOf(' ', at);
    const sp2 = out.indexOf(' ', sp1 + 1);
    const tab = out.indexOf('\t', sp2 + 1);
    if (sp1 > at && sp2 > sp1 && tab > sp2 && tab < stop) {
      const path = out.slice(tab + 1, stop);
      // A conflicted path is listed once per stage: kept once, marked unmerged, so that no stage passes for what is staged.
      if (out.charCodeAt(sp2 + 1) !== 48 /* 0 */ || tab !== sp2 + 2) {
        seen ??= new Set(entries.map((e) => e.path));
        conflicted ??= new Map();
        const stage = out[sp2 + 1]!;
        const known = conflicted.get(path);
        if (known !== undefined) known.stages += stage;
        if (seen.has(path)) {
          at = stop + 1;
          continue;
        }
        seen.add(path);
        const entry: GitEntry = { mode: out.slice(at, sp1), sha: out.slice(sp1 + 1, sp2), path, unmerged: true, stages: stage };
        conflicted.set(path, entry);
        entries.push(entry);
        at = stop + 1;
        continue;
      }
      seen?.add(path);
      entries.push({ mode: out.slice(at, sp1), sha: out.slice(sp1 + 1, sp2), path });
    }
    at = stop + 1;
  }
  const empty = entries.filter((e) => !e.unmerged && EMPTY_BLOBS.has(e.sha)).map((e) => e.path);
  if (empty.length === 0) return entries;
  let intents: Set<string>;
  try {
    intents = await intentsToAdd(dir, empty);
  } catch (error) {
    passOn(error);
    throw new GitError(`git status failed in ${dir}: ${message(error)}`, 'failed');
  }
  return intents.size === 0 ? entries : entries.filter((e) => !intents.has(e.path));
}

/**
 * The files of the repository holding `dir`, relative to its top: the
 * index's (`untracked` false), or also the untracked files git does not
 * ignore (the working tree as a commit would take it); a repository of its
 * own inside it (a submodule, an untracked clone or worktree) is one entry,
 * its folder, whose files are not listed. With `names`, only
 * the files of those names in any folder (`AGENTS.md`, …), which git itself
 * filters. One `git ls-files`.
 */
export async function lsRepoFiles(
  dir: string,
  untracked: boolean,
  names?: readonly string[],
  unlisted?: (folder: string, code: string) => void,
): Promise<string[]> {
  const specs = names === undefined ? [':/'] : names.flatMap((n) => [`:(top,glob)${n}`, `:(top,glob)**/${n}`]);
  let out: string;
  try {
    out = (
      await runGit(
        dir,
        ['ls-files', '-z', '--full-name', ...(untracked ? ['--cached', '--others', '--exclude-standard'] : []), '--', ...specs],
        undefined,
        undefined,
        undefined,
        [],
        unlisted === undefined ? undefined : (said) => unlistedFolders(said, unlisted),
      )
    ).toString('utf8');
  } catch (error) {
    throw lsFilesFailure(dir, error);
  }
  // A repository inside this one that git does not track (a clone, a linked worktree) is listed as its folder with a
  // `/` after it: named without it, it is one entry, as a submodule's gitlink is, and no folder a glob's `**` enters.
  const files = out
    .split('\0')
    .filter((f) => f !== '')
    .map((f) => (f.endsWith('/') ? f.slice(0, -1) : f));
  return [...new Set(files)];
}

/** The system's codes of git's reasons for a folder it could not open, as the search outside git names them. */
const OPEN_FAILURES: Record<string, string> = { 'Permission denied': 'EACCES', 'File name too long': 'ENAMETOOLONG' };

/** How long a line of git's is when it was cut short: its message buffer (usage.c's `msg[4096]`), less the newline. */
const GIT_MESSAGE_MAX = 4095;

/**
 * The folders git's warnings say it could not open while it listed the untracked files (`could not open directory
 * 'secret/': Permission denied`, in whatever language git speaks): their files are missing from the list, not absent.
 */
function unlistedFolders(said: string, unlisted: (folder: string, code: string) => void): void {
  for (const line of said.split('\n')) {
    const found = folderGitCouldNotOpen(line);
    if (found !== undefined) unlisted(found.folder, found.code);
  }
}

/**
 * The folder one line of git's warnings says it could not open, and the code of why. git writes the folder as it is,
 * unquoted (a `'` in it too), between a quote after a space and `/': ` before the reason, the last of the line: the
 * reason holds no `/`. A path longer than the system allows cuts the line short at git's limit, quote and reason with
 * it. A quoted name that is no folder (the user's ignore file git could not read, `'…/ignore': Permission denied`)
 * names none.
 */
export function folderGitCouldNotOpen(line: string): { folder: string; code: string } | undefined {
  const open = line.indexOf(" '");
  if (open < 0) return undefined;
  const quoted = line.slice(open + 2);
  const close = quoted.lastIndexOf("': ");
  const reason = close < 0 ? undefined : quoted.slice(close + 3).trim();
  if (reason !== undefined && reason !== '' && !reason.includes('/')) {
    const folder = quoted.slice(0, close);
    if (!folder.endsWith('/') || folder === '/') return undefined;
    return { folder: folder.slice(0, -1), code: OPEN_FAILURES[reason] ?? reason };
  }
  // A letter cut in its bytes is read as a replacement letter no shorter than they were.
  if (Buffer.byteLength(line) < GIT_MESSAGE_MAX || quoted === '') return undefined;
  return { folder: quoted.replace(/\/$/, ''), code: 'ENAMETOOLONG' };
}
