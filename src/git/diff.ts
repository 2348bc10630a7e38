// What a diff writes, for `agents guard check` (docs/guard.md, "At the commit"):
// the files it adds, changes or deletes, and the lines it adds to each. One git
// process, started directly like the hook-mode readers (changed.ts); against the
// working tree, one more lists the untracked files git does not ignore and the
// index entries git is told not to look at (hidden-edits.ts).
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import { type HiddenEntry, hiddenEdits, hiddenEntry, NO_FSMONITOR, noFilters, readWhole, WORKTREE_LIMIT } from './hidden-edits.ts';
import { GitError } from './repo.ts';
import { type ConfigPair, passOn, runGit } from './runner.ts';

export interface DiffFile {
  /** Repository-relative path (the new one; the old one for a deletion). */
  path: string;
  /** The lines the diff adds, each with its line number in the new file. */
  added: { line: number; text: string }[];
}

/**
 * Whether `git diff RANGE` compares one revision with the working tree (`HEAD`,
 * `main`, `v1^`) rather than two revisions (`A..B`, `A...B`, `C^!`, `C^@`, `C^-`).
 */
export function namesWorkingTree(range: string): boolean {
  return !range.includes('..') && !/\^(?:!|@|-\d*)$/.test(range);
}

async function git(top: string, args: readonly string[], config: readonly ConfigPair[] = []): Promise<Buffer> {
  try {
    return await runGit(top, args, undefined, undefined, undefined, config);
  } catch (error) {
    passOn(error);
    throw new GitError(error instanceof Error ? error.message : String(error), 'failed');
  }
}

/**
 * The output of the diff `args`, read up to `limit` bytes: past it git is stopped and the diff of `what` refused (exit
 * 2, `diff-too-large`), naming the file it was at, before more is held than the text its lines are read from can be.
 */
async function boundedDiff(
  top: string,
  args: readonly string[],
  config: readonly ConfigPair[],
  what: string,
  limit: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let file: string | undefined;
  const stop = new AbortController();
  const onStdout = (chunk: Buffer) => {
    if (stop.signal.aborted) return;
    // The last file header whole in the chunk, read as the diff's own reader reads it: a name git quotes too.
    const header = chunk.lastIndexOf(HEADER);
    const end = header < 0 ? -1 : chunk.indexOf(0x0a, header);
    if (end >= 0 && (header === 0 || chunk[header - 1] === 0x0a))
      file = headerPath(chunk.toString('utf8', header + HEADER.length, end)) ?? file;
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    else stop.abort(diffTooLarge(what, limit, file));
  };
  try {
    await runGit(top, args, undefined, stop.signal, onStdout, config);
  } catch (error) {
    passOn(error);
    throw new GitError(error instanceof Error ? error.message : String(error), 'failed');
  }
  return Buffer.concat(chunks, size);
}

/** What starts the line that names each file of a diff. */
const HEADER = 'diff --git ';

/** The refusal of a diff whose output is over `limit` bytes, `file` the one it was at when it went over. */
function diffTooLarge(what: string, limit: number, file: string | undefined): AgentsError {
  return new AgentsError(
    `the diff of ${what} is larger than the ${limit} bytes read of one to check its lines${file === undefined ? '' : ` (it went over at ${file})`}; nothing was judged`,
    EXIT_CODES.usage,
    {
      hint:
        what === 'the index'
          ? 'Stage fewer files at once (a large generated file apart, or kept out of git with .gitignore), then run the command again.'
          : 'Check a narrower range, fewer commits at once (main~20..main, then main~40..main~20), or keep the large file out of the working tree (.gitignore), then run the command again.',
      code: 'diff-too-large',
      detail: { diff: what, limit, file: file ?? null },
    },
  );
}

/** Whether HEAD names a commit: false on a branch with no commit yet. */
async function hasCommit(top: string): Promise<boolean> {
  try {
    await runGit(top, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files of `git diff --cached` (staged) or `git diff RANGE`, run at the
 * repository's top. Renames are a deletion and an addition (`--no-renames`), so both paths are seen; a submodule's
 * new commit is a change to its path, however the config shows or ignores submodules.
 * Every file is diffed as text (`--text`, no textconv): a NUL byte or a `-diff`
 * attribute, which an agent can write, does not hide the lines a file adds.
 * Against the working tree, the untracked files git does not ignore are new
 * files too: an agent's shell writes them without `git add`. So are the edits to
 * files marked assume-unchanged or skip-worktree, which git diff does not see.
 */
export async function diffFiles(
  top: string,
  what: { staged: true } | { range: string },
  /** The most bytes of the diff's output read: the longest text the runtime holds. */
  limit = WORKTREE_LIMIT,
  /** Told `unborn: true` when HEAD named no commit and the working tree was diffed against the empty tree. */
  seen?: { unborn?: boolean },
): Promise<DiffFile[]> {
  if ('range' in what && what.range.startsWith('-')) throw new GitError(`"${what.range}" is not a revision range`, 'failed');
  const args = [
    ...NO_FSMONITOR,
    'diff',
    '-U0',
    '--text',
    '--no-textconv',
    '--no-color',
    '--no-ext-diff',
    '--no-renames',
    // A submodule's new commit is a change to its path whatever the config says: `diff.submodule=log` prints it
    // without a `diff --git` header, and `ignore = all` (in .gitmodules, which an agent can write) leaves it out.
    '--submodule=short',
    '--ignore-submodules=none',
    '--src-prefix=a/',
    '--dst-prefix=b/',
  ];
  if ('staged' in what) args.push('--cached');
  else args.push(what.range);
  args.push('--');
  const worktree = 'range' in what && namesWorkingTree(what.range);
  const diff = async () => {
    // Against the working tree, no clean filter stands in for a file's bytes (the staged text is what the commit
    // records). Read while the index is listed below, which does not wait for it.
    const config = worktree ? await noFilters(top) : [];
    const named = 'staged' in what ? 'the index' : what.range;
    return boundedDiff(top, args, config, named, limit).catch(async (error: unknown) => {
      // No commit yet (the branch is unborn): HEAD names nothing, so the working tree is diffed against the empty tree,
      // every file new, as the first commit will make it. Asked only once the diff failed: HEAD is there as a rule.
      if (!('range' in what) || what.range !== 'HEAD' || (await hasCommit(top))) throw error;
      if (seen) seen.unborn = true;
      const empty = (await runGit(top, ['hash-object', '-t', 'tree', '--stdin'], '')).toString('utf8').trim();
      return boundedDiff(
        top,
        args.map((a) => (a === 'HEAD' ? empty : a)),
        config,
        named,
        limit,
      );
    });
  };
  const [out, others] = await Promise.all([
    diff(),
    // The index is listed with the untracked files, in the same process, for the bits that hide an entry's edits.
    worktree
      ? git(top, [...NO_FSMONITOR, 'ls-files', '-v', '-s', '--cached', '--others', '--exclude-standard', '-z', '--full-name', '--', '.'])
      : undefined,
  ]);
  let files = parseUnifiedDiff(out.toString('utf8'));
  if (others === undefined) return files;
  const hidden: HiddenEntry[] = [];
  const unpopulated = new Map<string, string>();
  const untracked: DiffFile[] = [];
  for (const record of others.toString('utf8').split('\0')) {
    if (record.startsWith('? ')) untracked.push(untrackedFile(top, record.slice(2)));
    else if (record.startsWith('H 160000 ')) {
      const tab = record.indexOf('\t');
      const path = record.slice(tab + 1);
      if (!existsSync(join(top, path, '.git'))) unpopulated.set(path, record.slice(9, record.indexOf(' ', 9)));
    } else if (!record.startsWith('H ')) {
      const entry = hiddenEntry(record);
      if (entry) hidden.push(entry);
    }
  }
  if (untracked.length > 0 && 'range' in what) files = await withUntracked(top, what.range, files, untracked);
  if (unpopulated.size > 0 && 'range' in what) {
    const seen = new Set(files.map((f) => f.path));
    for (const path of await movedGitlinks(top, what.range, unpopulated)) if (!seen.has(path)) files.push({ path, added: [] });
  }
  if (hidden.length > 0 && 'range' in what) {
    const edits = await hiddenEdits(top, what.range, hidden);
    const edited = new Set(edits.map((e) => e.path));
    files = [...files.filter((f) => !edited.has(f.path)), ...edits];
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The diff's files and the untracked ones, one entry a path. An untracked file where the diff deletes one was removed
 * from the index only (`git rm --cached`): the working tree still holds it, so it stands for the deletion, and is no
 * change at all when its bytes are the revision's. One `git ls-tree` and one `git hash-object`, only for such files.
 */
async function withUntracked(top: string, revision: string, files: DiffFile[], untracked: DiffFile[]): Promise<DiffFile[]> {
  const listed = new Set(files.map((f) => f.path));
  const both = untracked.filter((f) => listed.has(f.path)).map((f) => f.path);
  if (both.length === 0) return [...files, ...untracked];
  const kept = new Set(both);
  const same = await unchangedSince(top, revision, both);
  return [...files.filter((f) => !kept.has(f.path)), ...untracked.filter((f) => !same.has(f.path))];
}

/** Of `paths` (regular files in the working tree), those whose bytes are the file `revision` holds there. */
async function unchangedSince(top: string, revision: string, paths: readonly string[]): Promise<Set<string>> {
  const files = paths.filter((path) => {
    try {
      return lstatSync(join(top, path)).isFile();
    } catch {
      return false;
    }
  });
  if (files.length === 0) return new Set();
  const [tree, hashes] = await Promise.all([
    git(top, ['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', revision, '--', ...files]),
    // Raw bytes, as the diff against the working tree reads them (noFilters): no clean filter stands in for them.
    git(top, ['hash-object', '--no-filters', '--', ...files]),
  ]);
  const at = new Map<string, string>();
  for (const record of tree.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    if (tab > 0 && type === 'blob' && mode?.startsWith('100')) at.set(record.slice(tab + 1), oid!);
  }
  const oids = hashes.toString('utf8').trim().split('\n');
  return new Set(files.filter((path, i) => at.get(path) === oids[i]));
}

/**
 * Of the submodules not checked out (`gitlinks`: path to the commit the index holds), those whose commit in the index
 * is not the one `revision` holds: against the working tree git takes such a submodule as unchanged, so a new commit
 * staged for it (`git update-index --cacheinfo`, which an agent can run) is in no diff but the index's. One
 * `git ls-tree`; on a branch with no commit yet, every one is new.
 */
async function movedGitlinks(top: string, revision: string, gitlinks: ReadonlyMap<string, string>): Promise<string[]> {
  let listed: string;
  try {
    listed = (await git(top, ['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', revision, '--', ...gitlinks.keys()])).toString('utf8');
  } catch (error) {
    passOn(error);
    if (await hasCommit(top)) throw error;
    listed = '';
  }
  const at = new Map<string, string>();
  for (const record of listed.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab > 0) at.set(record.slice(tab + 1), record.slice(0, tab).split(' ')[2]!);
  }
  return [...gitlinks].filter(([path, oid]) => at.get(path) !== oid).map(([path]) => path);
}

/**
 * An untracked file as the diff of a new file would show it: every line
 * added (a link's target as its one line, as git diffs a link). A nested
 * repository (`sub/`) and a file gone or unreadable since git listed it are
 * judged by their path alone; a file too large to read whole is refused.
 */
function untrackedFile(top: string, listed: string): DiffFile {
  const path = listed.replace(/\/$/, '');
  if (path !== listed) return { path, added: [] };
  let text: string;
  try {
    const full = join(top, path);
    const st = lstatSync(full);
    if (st.isSymbolicLink()) text = readlinkSync(full, 'utf8');
    else if (st.isFile()) text = readWhole(full, path, st.size).toString('utf8');
    else return { path, added: [] };
  } catch (error) {
    if (error instanceof AgentsError) throw error;
    return { path, added: [] };
  }
  if (text === '') return { path, added: [] };
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return { path, added: lines.map((t, i) => ({ line: i + 1, text: t })) };
}

/** Unquotes a path git printed in C-style quotes ("a/x\\ty"). */
function unquote(p: string): string {
  if (!p.startsWith('"')) return p;
  const bytes: number[] = [];
  for (let i = 1; i < p.length - 1; i++) {
    const c = p[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = p[++i]!;
    if (/[0-7]/.test(n)) {
      bytes.push(Number.parseInt(p.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(({ n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7 } as Record<string, number>)[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The path a `diff --git a/P b/P` header names (both halves are equal without
 * renames): every file has this header, including empty and binary ones,
 * which have no `+++` line.
 */
function headerPath(rest: string): string | undefined {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") /.exec(rest);
    return m ? unquote(m[1]!).replace(/^a\//, '') : undefined;
  }
  const len = (rest.length - 5) / 2;
  if (!Number.isInteger(len) || len <= 0 || !rest.startsWith('a/')) return undefined;
  return rest.slice(2, 2 + len);
}

/** The files and added lines of a `-U0` unified diff (pure; exported for tests). */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let current: DiffFile | undefined;
  let line = 0;
  let inHeader = false;
  for (const l of text.split('\n')) {
    if (l.startsWith(HEADER)) {
      inHeader = true;
      const path = headerPath(l.slice(HEADER.length));
      current = path === undefined ? undefined : { path, added: [] };
      if (current) files.push(current);
      continue;
    }
    // `--- a/P` and `+++ b/P` belong to the header; in a hunk they are removed and added lines.
    if (inHeader && (l.startsWith('--- ') || l.startsWith('+++ '))) continue;
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) {
      inHeader = false;
      line = Number(hunk[1]);
      continue;
    }
    if (current && l.startsWith('+')) current.added.push({ line: line++, text: l.slice(1) });
  }
  return files;
}
