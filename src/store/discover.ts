import { existsSync, lstatSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { missingValue, UsageError } from '../core/errors.ts';
import { shellPath } from '../core/shell-word.ts';
import { bareRepositoryAbove, commonGitDir, gitDirFor, mayBeSparse, repoTop } from './git-dir.ts';
import { refuseUncheckedSubmodule } from './unchecked-submodule.ts';

export const DEFAULT_STORE_DIR = '.agents';

export interface DiscoverOptions {
  /** `--store DIR`. */
  store?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** What messages call `store` by: `--store` on the command line, the library's own name for it otherwise. */
  storeOption?: string;
  /**
   * The store nearest the repository's top instead of the nearest one (the guard hook's): a store an agent makes in a
   * folder below with a file tool must not stand in for the repository's own.
   */
  outermost?: boolean;
}

/** A store folder as the caller gives one: the command line's `--store DIR`, the library's `store: "DIR"`. */
function storeNamed(options: DiscoverOptions, store: string): string {
  return options.storeOption === undefined ? `--store ${shellPath(store)}` : `store: ${JSON.stringify(store)}`;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The file at `path` or on the way to it (`file/sub`), where a folder must be;
 * undefined when every part that exists is a folder.
 */
export function fileOnPath(path: string): string | undefined {
  for (let p = resolve(path); ; p = dirname(p)) {
    try {
      return statSync(p).isDirectory() ? undefined : p;
    } catch {
      // Not there, or below the file in the way: one folder up.
    }
    if (dirname(p) === p) return undefined;
  }
}

/** Entries only a store holds at its top (docs/store-format.md): one of them marks a folder as a store. */
const STORE_MARKS = ['config.yaml', 'global', 'projects', 'actions', 'plans'];

/** Whether `root` holds anything a store holds at its top; an empty folder or a repository's top does not. */
export function looksLikeStore(root: string): boolean {
  return STORE_MARKS.some((m) => existsSync(join(root, m)));
}

/** The nearest folder above `dir` that holds a store's config.yaml, if any. */
function enclosingStore(dir: string): string | undefined {
  for (let up = dirname(dir); up !== dir; dir = up, up = dirname(up)) {
    if (existsSync(join(up, 'config.yaml')) && looksLikeStore(up) && isDir(join(up, 'global'))) return up;
  }
  return undefined;
}

/**
 * The store a long-lived process (the MCP server, a terminal screen) was started on, still a store: a folder removed
 * or moved away since then would read as a store that holds nothing, and a write would make a fragment of one there,
 * so it is an error instead. `since`: when the process found it ("the server started"); `back`: what putting the
 * folder back does.
 */
export function requireStore(root: string, since: string, back: string): void {
  if (looksLikeStore(root)) return;
  throw new UsageError(
    `no store at ${root}: the store was removed or moved away after ${since}`,
    `Put the store folder back (${back}), or start again where the store is now.`,
    { store: root },
    'no-store',
  );
}

/**
 * The store folder `--store` or `AGENTS_STORE` names, as an absolute path; undefined when neither is given. A
 * leading `~` is the home folder, as in a shell: `--store=~/x`, a value quoted in a CI file or an `.env` file
 * reach us unexpanded, and would otherwise name a folder called `~` below the current one.
 */
export function explicitStore(options: DiscoverOptions): string | undefined {
  // An empty --store (an unset variable, `--store "$DIR"`) would name the current folder, and init would make a store there.
  if (options.store === '')
    throw missingValue(
      `${options.storeOption ?? '--store'} is empty`,
      `Give the store folder (${options.storeOption ?? '--store DIR'}), or leave it out to find .agents/ from the current folder.`,
      'store',
    );
  const given = options.store ?? (options.env.AGENTS_STORE || undefined);
  if (given === undefined) return undefined;
  const from = options.store !== undefined ? (options.storeOption ?? '--store') : 'AGENTS_STORE';
  // Node reads an environment variable's bytes that are not UTF-8 (a Latin-1 é) as U+FFFD, as it reads the
  // arguments (refused in src/cli/main.ts): init would make the store in a folder of that other name.
  if (from === 'AGENTS_STORE' && given.includes('\uFFFD'))
    throw new UsageError(
      `AGENTS_STORE ${JSON.stringify(given)} is not UTF-8 text: its bytes were read as U+FFFD`,
      "Nothing was done. Set AGENTS_STORE in UTF-8 (set the terminal's or the script's encoding to UTF-8).",
      { store: given },
    );
  const home = /^~(?=$|[/\\])/.test(given) ? (options.env.HOME ?? homedir()) : undefined;
  // An empty or relative HOME would make ~ the current folder, or one below it: init would make the store there.
  if (home !== undefined && !isAbsolute(home))
    throw new UsageError(
      `${from} ${given} starts with ~, but the home folder (HOME) is ${home === '' ? 'empty' : `the relative path ${home}`}`,
      'Nothing was done. Give the store folder in full, or set HOME to your home folder.',
      { store: given, home },
    );
  return resolve(options.cwd, home === undefined ? given : join(home, given.slice(1)));
}

/**
 * Finds the store (docs/store-format.md): `--store DIR`, else `AGENTS_STORE`, else the first
 * folder holding `.agents/` walking up from the current directory, stopping
 * at the git top level or the file-system root.
 */
export function discoverStore(options: DiscoverOptions): string {
  const explicit = options.store ?? (options.env.AGENTS_STORE || undefined);
  const root = explicitStore(options);
  if (explicit !== undefined && root !== undefined) {
    const from = options.store !== undefined ? (options.storeOption ?? '--store') : 'AGENTS_STORE';
    if (!isDir(root)) {
      // A file there, or on the way there (`file/sub`), cannot become a store: init is not the way out then.
      const file = fileOnPath(root);
      throw new UsageError(
        file === root
          ? `no store at ${root} (from ${from}): it is a file, not a folder`
          : file !== undefined
            ? `no store at ${root} (from ${from}): ${file} is a file, not a folder`
            : `no store at ${root} (from ${from})`,
        file !== undefined
          ? 'Check the path: a store is a folder.'
          : `Check the path, or create a store there with \`agents init --store ${shellPath(explicit)}\`.`,
        file !== undefined ? { store: root, file } : { store: root },
        'no-store',
      );
    }
    if (!looksLikeStore(root)) {
      // A submodule not checked out is named as init names it, not as a folder to make a store in.
      refuseUncheckedSubmodule(root, 'read');
      // Never read as an empty store, let alone written into: a folder such as the repository's top holding .agents/.
      const inner = join(root, DEFAULT_STORE_DIR);
      const named = (store: string) => (from === 'AGENTS_STORE' ? `AGENTS_STORE=${store}` : storeNamed(options, store));
      // A folder of a store (its global/, a project's folder) is no store of its own, nor one init could make there.
      const outer = enclosingStore(root);
      const hint = isDir(inner)
        ? `It holds ${DEFAULT_STORE_DIR}/: did you mean ${named(join(explicit, DEFAULT_STORE_DIR))}?`
        : outer !== undefined
          ? `It is a folder of the store ${outer}: did you mean ${named(outer)}?`
          : `A store holds config.yaml or the folders global/, projects/, actions/, plans/. Create one with \`agents init --store ${shellPath(explicit)}\`, or check the path.`;
      throw new UsageError(
        `${root} (from ${from}) is not a store`,
        hint,
        { store: root, ...(outer !== undefined ? { inside: outer } : {}) },
        'not-a-store',
      );
    }
    refuseUncheckedSubmodule(root, 'open');
    return root;
  }
  let dir = resolve(options.cwd);
  let found: string | undefined;
  let passed: string | undefined;
  // A file of the store folder's name, where `agents init` would make the store: named, since init refuses it.
  let blocked: string | undefined;
  for (;;) {
    const candidate = join(dir, DEFAULT_STORE_DIR);
    if (isDir(candidate)) {
      // A checked-out repository could carry `.agents` as a link to anywhere on this machine.
      if (lstatSync(candidate).isSymbolicLink()) {
        throw new UsageError(
          `${candidate} is a symbolic link; a store found by searching is never followed through a link`,
          `If you trust where it points, name it explicitly: ${storeNamed(options, candidate)} (or AGENTS_STORE).`,
        );
      }
      if (looksLikeStore(candidate)) {
        // One an older version made in a submodule not checked out is named, never read as the repository's.
        refuseUncheckedSubmodule(candidate, 'open');
        if (!options.outermost) return candidate;
        found = candidate;
      }
      // Another tool's folder of that name (`~/.agents/skills/`, say) is never read or written as a store, as
      // `--store` naming it is refused: the search goes on above it.
      passed ??= candidate;
    } else if (blocked === undefined && existsSync(candidate)) blocked = candidate;
    if (existsSync(join(dir, '.git'))) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (found !== undefined) return found;
  // The caller's option that names a store (the library's open({store})), which the hints name beside AGENTS_STORE.
  const point = options.storeOption ?? '--store DIR';
  if (passed !== undefined) refuseUncheckedSubmodule(passed, 'read');
  if (passed !== undefined)
    throw new UsageError(
      `no store found: ${passed} holds no store (no config.yaml, no global/, projects/, actions/, plans/), and no other ${DEFAULT_STORE_DIR}/ from ${resolve(options.cwd)} up does`,
      `Run \`agents init\` to make the store there when the folder is empty, or \`agents init --store DIR\` to make it elsewhere when another tool uses it (then ${point} or AGENTS_STORE for every command).`,
      { passed },
    );
  if (blocked !== undefined)
    throw new UsageError(
      `no store found: ${blocked} is a file, not a store folder, and no other ${DEFAULT_STORE_DIR}/ from ${resolve(options.cwd)} up is a store`,
      `Move ${blocked} away, then run \`agents init\`; or make the store elsewhere with \`agents init --store DIR\` (then ${point} or AGENTS_STORE for every command).`,
      { file: blocked },
    );
  // The search ends at the repository's top: a store above it (the outer tree of a worktree or submodule made inside
  // it) is another repository's, so the message says where it stopped rather than "or above it".
  const top = existsSync(join(dir, '.git')) ? dir : undefined;
  const cwd = resolve(options.cwd);
  // A sparse checkout may leave the repository's store out: init would make a second store beside the one in git.
  const sparse = top !== undefined && mayBeSparse(dir);
  // A linked worktree of a branch from before the store: init there would make a second store the branches then merge.
  const linked = top !== undefined && !sparse && isLinkedWorktree(top);
  // A repository inside another (a submodule, a nested clone) whose outer one has a store: that store is named.
  const outer = top !== undefined && !sparse && !linked ? storeAbove(dirname(top)) : undefined;
  throw new UsageError(
    `no store found: no ${DEFAULT_STORE_DIR}/ folder in ${cwd}${top === undefined ? ' or above it' : top === cwd ? '' : ` or above it up to the repository's top ${top}`}${sparse ? ' (this is a sparse checkout)' : ''}`,
    sparse
      ? `If the repository has a store, bring it into the checkout: git sparse-checkout add ${DEFAULT_STORE_DIR}. Otherwise run \`agents init\` at the top of your repository, or point to a store with ${point} or AGENTS_STORE.`
      : linked
        ? `This worktree's checkout holds no store: if the repository has one, check out a branch that holds it here (or merge it in), or point to a store with ${point} or AGENTS_STORE; otherwise run \`agents init\` at the top of the repository.`
        : outer !== undefined
          ? `${top} is a repository of its own (a submodule or a nested clone), and the search stops at its top: run agents in the repository around it, or point to its store with ${storeNamed(options, outer)} (or AGENTS_STORE); \`agents init\` here would make a store for this repository alone.`
          : `Run \`agents init\` at the top of your repository, or point to a store with ${point} or AGENTS_STORE.`,
    sparse
      ? { sparse: true, top }
      : top !== undefined
        ? { top, ...(linked ? { worktree: true } : {}), ...(outer !== undefined ? { outer } : {}) }
        : undefined,
  );
}

/**
 * Where a diff of two revisions finds the store when the working tree holds none (a branch that removed it): the
 * folder --store or AGENTS_STORE names when nothing is there, else .agents/ at the git top level when it is missing
 * or no store; `top` is that repository's. Undefined outside a repository, or when what is there is refused as it is.
 */
export function storePlaceAtRevisions(options: DiscoverOptions): { root: string; top: string } | undefined {
  const explicit = explicitStore(options);
  const top = repoTop(explicit ?? options.cwd);
  if (top === undefined) return undefined;
  if (explicit !== undefined) return existsSync(explicit) ? undefined : { root: explicit, top };
  const root = join(top, DEFAULT_STORE_DIR);
  // A link there is never followed by the search: it stays refused.
  const found = lstatOrUndefined(root);
  if (found === undefined) return { root, top };
  return found.isDirectory() && !looksLikeStore(root) ? { root, top } : undefined;
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Where `agents init` creates the store: --store, AGENTS_STORE, else .agents/ at the git top level or here. */
export function initTarget(options: DiscoverOptions): string {
  const explicit = explicitStore(options);
  if (explicit !== undefined) return explicit;
  const top = repoTop(options.cwd);
  if (top !== undefined) return join(top, DEFAULT_STORE_DIR);
  // A bare clone has no working tree: a store made in its folder is never committed, and no hook there runs on a commit.
  const bare = bareRepositoryAbove(options.cwd);
  if (bare !== undefined)
    throw new UsageError(
      `${resolve(options.cwd)} is in the git repository ${bare}, which has no working tree: a store made there would never be committed`,
      `Nothing was created. Run \`agents init\` in a clone with a working tree (\`git clone ${bare}\`), or name the store's folder with --store DIR.`,
      { repository: bare },
      'bare-repository',
    );
  return join(resolve(options.cwd), DEFAULT_STORE_DIR);
}

/**
 * The store nearest above `dir` up to the top of the repository holding `dir` (a plain `.agents/`, no link), if any.
 * None when no repository holds `dir`: a store in a folder outside git (a personal `~/.agents/`) is no outer
 * repository's, and a clone below it is no submodule.
 */
function storeAbove(dir: string): string | undefined {
  let found: string | undefined;
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, DEFAULT_STORE_DIR);
    if (found === undefined && isDir(candidate) && !lstatSync(candidate).isSymbolicLink() && looksLikeStore(candidate)) found = candidate;
    if (existsSync(join(d, '.git'))) return found;
    if (dirname(d) === d) return undefined;
  }
}

/** Whether `top` is a linked worktree's: its git folder is not the common one (`git worktree add`). */
function isLinkedWorktree(top: string): boolean {
  const git = gitDirFor(top);
  return git !== undefined && git !== commonGitDir(top);
}
