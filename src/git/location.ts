import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

/**
 * The folder holding the nearest `.git` (a folder, or a file as in linked
 * worktrees and submodules) at or above `dir`, found without a git process;
 * undefined outside a repository.
 */
export function repoTop(dir: string): string | undefined {
  for (let d = deepestExisting(resolve(dir)); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The deepest folder of `path` (absolute, folded) that exists, found by halves: a folder below one that does not exist
 * does not exist either, and holds no `.git`. Asked level by level, a path of thousands of components that do not
 * exist (a `cd a/a/a/…` the guard hook judges) cost a check of the whole path at each: minutes, past a client's time-out.
 */
function deepestExisting(path: string): string {
  if (existsSync(path)) return path;
  const root = parse(path).root;
  const cuts: number[] = [];
  for (let i = path.indexOf(sep, root.length); i >= 0; i = path.indexOf(sep, i + 1)) cuts.push(i);
  // The folder up to cuts[lo - 1] exists (the root when lo is 0); the one up to cuts[hi] does not.
  let [lo, hi] = [0, cuts.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (existsSync(path.slice(0, cuts[mid]))) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? root : path.slice(0, cuts[lo - 1]);
}

/**
 * The real path of `path` (links on the way followed, as a process started there has it for its folder), or the
 * path resolved as given when it cannot be (gone: whoever uses it then fails there and says why).
 */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The store's folder as its repository holds it, relative to the top (`.agents`, `config/agents`; '' at the top),
 * links on the way followed; undefined outside a repository, or where the store's real folder is outside its top.
 */
export function storeFolderOf(store: string): string | undefined {
  const top = repoTop(store);
  if (top === undefined) return undefined;
  const [realTop, realStore] = [realPath(top), realPath(store)];
  if (realStore !== realTop && !realStore.startsWith(`${realTop}${sep}`)) return undefined;
  return relative(realTop, realStore).split(sep).join('/');
}

/** Whether git would take `dir` for a bare repository's folder: it holds HEAD, objects/ and refs/. */
export function looksLikeGitDir(dir: string): boolean {
  return ['HEAD', 'objects', 'refs'].every((name) => existsSync(join(dir, name)));
}

/**
 * The nearest folder at or above `dir` that git would take for a bare repository (a bare clone, or a
 * repository's git folder reached from outside its working tree); undefined when there is none.
 */
export function bareRepositoryAbove(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (looksLikeGitDir(d)) return d;
    if (dirname(d) === d) return undefined;
  }
}

const MAX_DOT_GIT_BYTES = 64 * 1024;

/**
 * A file of git's that holds one line naming a folder (`.git` of a linked worktree, `worktrees/<name>/gitdir`): only
 * a regular file is read (a FIFO would wait for a writer), without blocking, and never more than 64 KiB of it.
 * Undefined when it is not such a file; throws when it cannot be opened.
 */
function readPointer(path: string): string | undefined {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_DOT_GIT_BYTES) return undefined;
    const buf = Buffer.alloc(MAX_DOT_GIT_BYTES);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The git folder of the repository holding `dir`: the nearest `.git` above
 * it when a folder, or the folder a `.git` file names (`gitdir: …`) when
 * that folder exists. Undefined outside a repository, or when `.git` cannot
 * be read.
 */
export function gitDirFor(dir: string): string | undefined {
  const top = repoTop(dir);
  if (top === undefined) return undefined;
  const dotGit = join(top, '.git');
  try {
    const st = statSync(dotGit);
    if (st.isDirectory()) return dotGit;
    if (!st.isFile()) return undefined;
    const text = readPointer(dotGit);
    if (text === undefined) return undefined;
    // As git reads it: "gitdir: " then the path to the line end, spaces it ends in kept (a folder may be so named).
    const m = /^gitdir: ([^\r\n]+)[\r\n]*$/.exec(text);
    if (!m) return undefined;
    const named = isAbsolute(m[1]!) ? m[1]! : resolve(top, m[1]!);
    // A worktree whose git folder is gone (moved, deleted) is no repository to git: never a place to make folders in.
    return statSync(named).isDirectory() ? named : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The repository's common git folder (shared by its linked worktrees), found
 * without a git process: the `.git` folder, or the `commondir` its worktree
 * folder names.
 */
export function commonGitDir(dir: string): string | undefined {
  const git = gitDirFor(dir);
  return git === undefined ? undefined : commonOf(git);
}

/** The common git folder of a git folder: the one its `commondir` names (a linked worktree's), else itself. */
export function commonOf(git: string): string {
  try {
    // Only the line end cut, as git cuts it: the folder's name may end in a space.
    const named = readFileSync(join(git, 'commondir'), 'utf8').replace(/[\r\n]+$/, '');
    return isAbsolute(named) ? named : resolve(git, named);
  } catch {
    return git;
  }
}

/** `<git common dir>/agents/extends`, the cache of the policy sources' pinned commits; undefined outside git. */
export function extendsCacheDir(dir: string): string | undefined {
  const common = commonGitDir(dir);
  return common === undefined ? undefined : join(common, 'agents', 'extends');
}

/**
 * Whether the working tree holding `dir` may be a sparse checkout (found
 * without a git process): git keeps the patterns of one in `info/sparse-checkout`
 * of the working tree's git folder (or of the common one).
 */
export function mayBeSparse(dir: string): boolean {
  const git = gitDirFor(dir);
  if (git === undefined) return false;
  if (existsSync(join(git, 'info', 'sparse-checkout'))) return true;
  // The common folder from the git folder found, not found again from `dir`: this runs at every command's start.
  const common = commonOf(git);
  return common !== git && existsSync(join(common, 'info', 'sparse-checkout'));
}

/**
 * The top folder of every working tree of the repository holding `dir`, found without a git process as
 * `git worktree list` finds them: the main one (the folder whose `.git` is the common git folder; none for a bare
 * repository) and each linked one its `worktrees/<name>/gitdir` names (`<top>/.git`, absolute, or relative to that
 * folder). Empty outside a repository.
 */
export function worktreeTops(dir: string): string[] {
  const common = commonGitDir(dir);
  if (common === undefined) return [];
  const tops: string[] = [];
  const main = dirname(common);
  if (realPath(join(main, '.git')) === realPath(common)) tops.push(main);
  const linked = join(common, 'worktrees');
  let names: string[] = [];
  try {
    names = readdirSync(linked);
  } catch {
    // No linked worktree.
  }
  for (const name of names) {
    try {
      const named = readPointer(join(linked, name, 'gitdir'))?.trim();
      if (named) tops.push(dirname(isAbsolute(named) ? named : resolve(linked, name, named)));
    } catch {
      // A worktree folder without its gitdir file is no worktree to git either.
    }
  }
  return tops;
}
