import { resolve as resolvePath } from 'node:path';
import type { SimpleGit } from 'simple-git';
import { gitClient, runGit } from './client.ts';

/** A git object listed in a tree or the index. */
export interface GitEntry {
  /** Repository-relative path. */
  path: string;
  mode: string;
  sha: string;
}

/** A git failure the user can act on (not a repository, an unknown revision). */
export class GitError extends Error {
  constructor(message: string, readonly kind: 'not-a-repo' | 'bad-revision' | 'failed') {
    super(message);
    this.name = 'GitError';
  }
}

function git(cwd: string, input?: Buffer | string): Promise<SimpleGit> {
  return gitClient(cwd, input);
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim();
}

/** The working tree's top folder, or a GitError when `cwd` is not in a repository. */
export async function topLevel(cwd: string): Promise<string> {
  try {
    return (await (await git(cwd)).revparse(['--show-toplevel'])).trim();
  } catch (error) {
    throw new GitError(`not a git repository: ${cwd} (${message(error)})`, 'not-a-repo');
  }
}

/** The commit a revision names, or a GitError saying it is missing. */
export async function resolveCommit(cwd: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new GitError(`revision "${rev}" may not start with "-"`, 'bad-revision');
  try {
    return (await (await git(cwd)).raw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`])).trim() || missing(rev);
  } catch {
    return missing(rev);
  }
}

function missing(rev: string): never {
  throw new GitError(`revision ${rev} is not in this repository (a shallow clone may lack it; fetch it first)`, 'bad-revision');
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
  const out = await (await git(cwd)).raw(['ls-tree', '-r', '-z', '--full-tree', commit, '--', prefix === '' ? '.' : prefix]);
  // "<mode> SP <type> SP <sha> TAB <path>"
  return parseZ(out, (record) => {
    const tab = record.indexOf('\t');
    const [mode, , sha] = record.slice(0, tab).split(' ');
    return mode && sha ? { mode, sha, path: record.slice(tab + 1) } : undefined;
  });
}

/** Every entry of the index under `prefix` (stage 0, or the first conflicting stage): one `git ls-files` process. */
export async function lsIndex(cwd: string, prefix: string): Promise<GitEntry[]> {
  const top = await topLevel(cwd);
  const out = await (await git(top)).raw(['ls-files', '-s', '-z', '--full-name', '--', prefix === '' ? '.' : prefix]);
  // "<mode> SP <sha> SP <stage> TAB <path>"
  const seen = new Set<string>();
  return parseZ(out, (record) => {
    const tab = record.indexOf('\t');
    const [mode, sha] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (!mode || !sha || seen.has(path)) return undefined;
    seen.add(path);
    return { mode, sha, path };
  });
}

/**
 * The contents of many blobs from ONE `git cat-file --batch` process (SPEC 8),
 * never a process per file. Keys are the requested object names.
 */
export async function catFileBatch(cwd: string, objects: readonly string[]): Promise<Map<string, Buffer | null>> {
  const result = new Map<string, Buffer | null>();
  const unique = [...new Set(objects)];
  if (unique.length === 0) return result;
  const out = await runGit(cwd, ['cat-file', '--batch'], `${unique.join('\n')}\n`);
  let pos = 0;
  for (const name of unique) {
    const nl = out.indexOf(0x0a, pos);
    if (nl < 0) throw new GitError('git cat-file --batch ended early', 'failed');
    const header = out.toString('utf8', pos, nl);
    pos = nl + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(name, null);
      continue;
    }
    const size = Number(header.slice(header.lastIndexOf(' ') + 1));
    result.set(name, out.subarray(pos, pos + size));
    pos += size + 1;
  }
  return result;
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

/** One entry that differs between two trees, from `git diff-tree --raw`. */
export interface TreeChange {
  /** `000000` (and an all-zero id) on the side where the path does not exist. */
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  /** Repository-relative path. */
  path: string;
}

/**
 * Every blob (or gitlink) under `pathspecs` that differs between two
 * tree-ishes, recursively and without rename detection: ONE `git diff-tree`
 * process. Pathspecs are relative to `cwd` (give the top folder) and may use
 * magic (`:(glob)`, `:(literal)`); none means the whole tree.
 */
export async function diffTree(cwd: string, from: string, to: string, pathspecs: readonly string[]): Promise<TreeChange[]> {
  const out = (await runGit(cwd, ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', from, to, '--', ...pathspecs])).toString('utf8');
  // ":<old mode> SP <new mode> SP <old id> SP <new id> SP <status> NUL <path> NUL"
  const fields = out.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i]!;
    if (!meta.startsWith(':')) continue;
    const [oldMode = '', newMode = '', oldSha = '', newSha = ''] = meta.slice(1).split(' ');
    changes.push({ oldMode, newMode, oldSha, newSha, path: fields[i + 1]! });
  }
  return changes;
}

/** The empty tree of each object format, which git knows without storing it. */
const EMPTY_TREE = { 40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', 64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321' } as const;

/**
 * Every blob (or gitlink) under `pathspecs` at a commit, like `lsTree`, but
 * with magic pathspecs (`:(glob)plans/*\/plan.yaml`), which `ls-tree` refuses:
 * the diff from the empty tree, ONE `git diff-tree` process.
 */
export async function lsTreeMatching(cwd: string, commit: string, pathspecs: readonly string[]): Promise<GitEntry[]> {
  if (pathspecs.length === 0) return [];
  const empty = commit.length === 64 ? EMPTY_TREE[64] : EMPTY_TREE[40];
  return (await diffTree(cwd, empty, commit, pathspecs)).map((c) => ({ mode: c.newMode, sha: c.newSha, path: c.path }));
}

/** The best common ancestor of two commits, for `A...B`; a GitError when there is none (or history is cut by a shallow clone). */
export async function mergeBase(cwd: string, a: string, b: string): Promise<string> {
  try {
    const out = (await (await git(cwd)).raw(['merge-base', '--end-of-options', a, b])).trim();
    if (out) return out;
  } catch {
    // fall through
  }
  throw new GitError(
    `${a} and ${b} have no common ancestor here (a shallow clone may lack the history between them; fetch more with \`git fetch --deepen\` or \`--unshallow\`)`,
    'bad-revision',
  );
}

/** Whether the repository is a shallow clone. */
export async function isShallow(cwd: string): Promise<boolean> {
  try {
    return (await (await git(cwd)).raw(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
  } catch {
    return false;
  }
}

/** One file change of a commit, from `git log --raw`. */
export interface RawChange {
  status: string;
  /** Blob ids; all zeros on the side where the file does not exist. */
  oldSha: string;
  newSha: string;
  /** Repository-relative path. */
  path: string;
}

export interface LogCommit {
  commit: string;
  author: string;
  email: string;
  /** Author date, ISO 8601 with the author's offset. */
  date: string;
  subject: string;
  changes: RawChange[];
}

export const NULL_SHA = '0000000000000000000000000000000000000000';

/**
 * Commits (newest first) that touched paths matching `pathspecs`, each with its
 * raw file changes (no rename detection: callers pair deletions and additions
 * themselves). One `git log` process. Merges are left out: their changes are
 * the ones of the commits they merge.
 */
export async function logRaw(cwd: string, pathspecs: readonly string[]): Promise<LogCommit[]> {
  const out = await (await git(cwd)).raw([
    'log', '-z', '--raw', '--no-renames', '--no-abbrev', '--no-merges', '--no-color',
    '--format=%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%s',
    '--', ...pathspecs,
  ]);
  const commits: LogCommit[] = [];
  for (const chunk of out.split('\x1e')) {
    if (chunk === '') continue;
    const end = chunk.indexOf('\0');
    const header = end < 0 ? chunk : chunk.slice(0, end);
    const [commit = '', author = '', email = '', date = '', subject = ''] = header.split('\x1f');
    const fields = end < 0 ? [] : chunk.slice(end + 1).replace(/^\n/, '').split('\0');
    const changes: RawChange[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const meta = fields[i]!.replace(/^\n/, '');
      if (!meta.startsWith(':')) continue;
      const [, , oldSha = NULL_SHA, newSha = NULL_SHA, status = 'M'] = meta.slice(1).split(' ');
      changes.push({ status, oldSha, newSha, path: fields[i + 1]! });
    }
    commits.push({ commit, author, email, date, subject, changes });
  }
  return commits;
}

/** Absolute path of the repository's hooks folder (honours core.hooksPath). */
export async function hooksDir(cwd: string): Promise<string> {
  const top = await topLevel(cwd);
  const out = (await (await git(top)).raw(['rev-parse', '--git-path', 'hooks'])).trim();
  return resolvePath(top, out);
}
