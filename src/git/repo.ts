import { statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { truncate } from '../core/names.ts';
import { passOn, runGit, runGitSync } from './runner.ts';
import { runEnv } from './run-environment.ts';
import { EMPTY_BLOBS, intentsToAdd } from './intent-to-add.ts';

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

/** A git failure the user can act on (not a repository, an unknown revision). */
export class GitError extends Error {
  constructor(
    message: string,
    readonly kind: 'not-a-repo' | 'bad-revision' | 'failed',
    /** What to do, when it is not what every failure of its kind is told. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** One git process in `cwd` (src/git/runner.ts), its output as text. */
async function git(cwd: string, args: readonly string[]): Promise<string> {
  return (await runGit(cwd, args)).toString('utf8');
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim();
}

/** The working tree's top folder, or a GitError when `cwd` is not in a repository. */
export async function topLevel(cwd: string): Promise<string> {
  try {
    return (await git(cwd, ['rev-parse', '--show-toplevel'])).trim();
  } catch (error) {
    passOn(error);
    throw new GitError(`not a git repository: ${cwd} (${message(error)})`, 'not-a-repo');
  }
}

/** When a commit (a full id this repository holds) was made: its committer date, as git records it. */
export async function commitTime(cwd: string, commit: string): Promise<Date> {
  return new Date(Number((await git(cwd, ['show', '-s', '--format=%ct', commit])).trim()) * 1000);
}

/**
 * The commit a revision names and its committer date, from one git process: `cat-file --batch` reads one object name,
 * as rev-parse --verify does (never a range), and answers with the commit's id and its text, whose committer line
 * holds the date. A revision it does not answer for (a message search, a tree, a missing one) is resolved, or refused,
 * by resolveCommit, and its date asked then.
 */
export async function resolveCommitTime(cwd: string, rev: string): Promise<{ commit: string; time: Date }> {
  // A line break would end the object name and start another; a leading "-" is refused by resolveCommit.
  if (!rev.startsWith('-') && !/[\r\n]/.test(rev)) {
    let out: string;
    try {
      out = (await runGit(cwd, ['cat-file', '--batch'], `${rev}^{commit}\n`)).toString('utf8');
    } catch (error) {
      passOn(error);
      out = '';
    }
    const head = /^([0-9a-f]{40,64}) commit \d+\n/.exec(out);
    const headers = head ? out.slice(head[0].length).split('\n\n', 1)[0]! : '';
    const date = /^committer .* (\d+) [+-]\d{4}$/m.exec(headers);
    if (head && date) return { commit: head[1]!, time: new Date(Number(date[1]) * 1000) };
  }
  const commit = await resolveCommit(cwd, rev);
  return { commit, time: await commitTime(cwd, commit) };
}

/** The commit a revision names, or a GitError saying it is missing. */
export async function resolveCommit(cwd: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new GitError(`revision "${rev}" may not start with "-"`, 'bad-revision');
  // git reads `^X` as the commits to leave out, and rev-parse answers it with `^<id>`, which no reader takes for a commit.
  if (rev.startsWith('^'))
    throw new GitError(
      `revision "${truncate(rev)}" names the commits to leave out (^), not a commit to compare`,
      'bad-revision',
      'Name the commit without the ^, or a range such as main...HEAD.',
    );
  // git's null id, which CI gives as the commit before a push that created the branch: no fetch brings it.
  if (/^(?:0{40}|0{64})$/.test(rev))
    throw new GitError(
      `revision ${rev} is git's null id, which names no commit (a push that created its branch has no commit before it)`,
      'bad-revision',
      'Compare with the branch it left instead, such as origin/main...HEAD (in a shallow clone, fetch that branch first).',
    );
  const verify = async (name: string) => {
    try {
      return (await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', name])).trim();
    } catch {
      return '';
    }
  };
  const commit = await verify(`${rev}^{commit}`);
  if (commit !== '') return commit;
  // Asked again only when that failed: a message search (`:/fix`) takes a suffix for part of its text, and a
  // revision that names a tree or a blob is no missing one.
  const object = await verify(rev);
  if (object === '') {
    // On a branch with no commit yet HEAD names nothing: no fetch brings it, as "missing" would suggest.
    if (/^(?:HEAD|@)/.test(rev) && (await verify('HEAD')) === '')
      throw new GitError(
        `revision ${truncate(rev)} names no commit: the current branch has no commit yet`,
        'bad-revision',
        'Make a first commit on this branch, or name a revision of another branch.',
      );
    return missing(rev);
  }
  const peeled = await verify(`${object}^{commit}`);
  if (peeled !== '') return peeled;
  // A full id is taken by rev-parse whether or not the object is here (a shallow clone): missing then.
  let type: string;
  try {
    type = (await git(cwd, ['cat-file', '-t', object])).trim();
  } catch {
    return missing(rev);
  }
  throw new GitError(`revision ${truncate(rev)} names a ${type}, not a commit`, 'bad-revision');
}

function missing(rev: string): never {
  // Cut as every value a message echoes is: a revision pasted whole from elsewhere must not flood the terminal.
  throw new GitError(`revision ${truncate(rev)} is not in this repository (a shallow clone may lack it; fetch it first)`, 'bad-revision');
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
  const out = await git(cwd, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', prefix === '' ? '.' : prefix]);
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
    passOn(error);
    const why = message(error);
    if (/not a git repository/i.test(why)) throw new GitError(`not a git repository: ${dir} (${why})`, 'not-a-repo');
    throw new GitError(`git ls-files failed in ${dir}: ${why}`, 'failed');
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
    passOn(error);
    const why = message(error);
    if (/not a git repository/i.test(why)) throw new GitError(`not a git repository: ${dir} (${why})`, 'not-a-repo');
    throw new GitError(`git ls-files failed in ${dir}: ${why}`, 'failed');
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

const HEX_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The repository's top folder and the commits `revs` name, from ONE
 * `git rev-parse`; undefined when git does not answer all of them (not a
 * repository, a revision missing or not a commit, an unusual name): then
 * `topLevel` and `resolveCommit`, one by one, say what is wrong.
 */
export async function topLevelAndCommits(cwd: string, revs: readonly string[]): Promise<{ top: string; commits: string[] } | undefined> {
  if (revs.some((r) => r === '' || r.startsWith('-'))) return undefined;
  let out: string;
  try {
    out = (await runGit(cwd, ['rev-parse', '--show-toplevel', ...revs.map((r) => `${r}^{commit}`)])).toString('utf8');
  } catch {
    return undefined;
  }
  const lines = out.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const [top, ...commits] = lines;
  if (!top || commits.length !== revs.length || !commits.every((c) => HEX_ID.test(c))) return undefined;
  return { top, commits };
}

/** One entry of a tree object. */
export interface TreeItem {
  name: string;
  /** As `git ls-tree` prints it: six digits (`040000` for a folder). */
  mode: string;
  sha: string;
}

/** The entry called `name` of a tree object's raw bytes, found without decoding the others. */
export function findInTree(data: Buffer, name: string | Buffer, hashBytes: number): TreeItem | undefined {
  const want = typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > data.length) throw new GitError('a tree object could not be read', 'failed');
    if (nul - space - 1 === want.length && data.compare(want, 0, want.length, space + 1, nul) === 0) {
      return {
        mode: data.toString('latin1', pos, space).padStart(6, '0'),
        name: want.toString('utf8'),
        sha: data.toString('hex', nul + 1, nul + 1 + hashBytes),
      };
    }
    pos = nul + 1 + hashBytes;
  }
  return undefined;
}

/** The entries of a tree object's raw bytes (ids of `hashBytes` bytes: 20, or 32 for SHA-256). */
export function parseTree(data: Buffer, hashBytes: number): TreeItem[] {
  const items: TreeItem[] = [];
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > data.length) throw new GitError('a tree object could not be read', 'failed');
    const mode = data.toString('latin1', pos, space);
    items.push({
      mode: mode.padStart(6, '0'),
      name: data.toString('utf8', space + 1, nul),
      sha: data.toString('hex', nul + 1, nul + 1 + hashBytes),
    });
    pos = nul + 1 + hashBytes;
  }
  return items;
}

/**
 * The best common ancestor of two commits, for `A...B`; a GitError when there is none. `names` are the
 * revisions as the user gave them: the message names those, not the commit ids. Only a shallow clone is
 * told to fetch more; in a whole history the two are unrelated, and `A..B` compares them.
 */
export async function mergeBase(cwd: string, a: string, b: string, names: readonly [string, string] = [a, b]): Promise<string> {
  try {
    const out = (await git(cwd, ['merge-base', '--end-of-options', a, b])).trim();
    if (out) return out;
  } catch {
    // fall through
  }
  const [x, y] = names;
  if (await isShallow(cwd))
    throw new GitError(
      `${x} and ${y} have no common ancestor here (a shallow clone may lack the history between them; fetch more with \`git fetch --deepen\` or \`--unshallow\`)`,
      'bad-revision',
    );
  throw new GitError(
    `${x} and ${y} have no common ancestor: their histories are unrelated`,
    'bad-revision',
    `Compare the two trees directly with \`${x}..${y}\`, which needs no merge base.`,
  );
}

/**
 * The working tree's top folder and whether the repository is a shallow
 * clone, from ONE `git rev-parse`; when git cannot answer both (not a
 * repository), `topLevel` says what is wrong.
 */
export async function topLevelAndShallow(cwd: string): Promise<{ top: string; shallow: boolean }> {
  try {
    const [top, shallow] = (await git(cwd, ['rev-parse', '--show-toplevel', '--is-shallow-repository'])).split('\n');
    if (top && (shallow === 'true' || shallow === 'false')) return { top, shallow: shallow === 'true' };
  } catch {
    // Said by topLevel below.
  }
  return { top: await topLevel(cwd), shallow: await isShallow(cwd) };
}

/** Whether the repository is a shallow clone. */
export async function isShallow(cwd: string): Promise<boolean> {
  try {
    return (await git(cwd, ['rev-parse', '--is-shallow-repository'])).trim() === 'true';
  } catch {
    return false;
  }
}

/** Absolute path of the repository's hooks folder (honours core.hooksPath). */
export async function hooksDir(cwd: string): Promise<string> {
  const top = await topLevel(cwd);
  const out = (await git(top, ['rev-parse', '--git-path', 'hooks'])).trim();
  return resolvePath(top, out);
}

/**
 * Whether git compares paths without case in the repository holding `dir`
 * (`core.ignorecase`, which git sets when it makes a repository on a
 * case-insensitive file system). One `git config`; false when unset or
 * outside a repository.
 */
export async function ignoresCase(dir: string): Promise<boolean> {
  try {
    return (await git(dir, ['config', '--type=bool', '--get', 'core.ignorecase'])).trim() === 'true';
  } catch {
    return false;
  }
}
