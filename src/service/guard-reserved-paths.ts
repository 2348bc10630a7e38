/**
 * The files and folders the guard hook keeps from every agent's file tools by itself (docs/guard.md, "What no guard
 * is needed for"): found on first need, as most calls name no file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { GUARD_CLIENTS, HOOK_SETTINGS } from '../core/guard-clients.ts';
import type { ReservedWrite } from '../core/guard-reserved.ts';
import { loosely } from '../core/names.ts';
import { commonGitDir, gitDirFor, repoTop, worktreeTops } from '../git/location.ts';
import { stamp } from '../store/guard-files.ts';
import { relativeCaseless, relativeTo, userSettingsFiles, within } from './guard-paths.ts';
import { physicalPath } from './link-paths.ts';

export class ReservedPaths {
  #dirs: { dir: string; folder: ReservedWrite['folder'] }[] | undefined;
  #hookSettings: Set<string> | undefined;
  #tops: string[] | undefined;
  /** The other working trees' tops, their links followed, innermost (longest) first. */
  #otherTops: string[] | undefined;
  /** Of a long-lived process: how the common git folder's `worktrees/` looked when the worktrees were listed. */
  #listed: string | undefined;

  constructor(
    readonly root: string,
    /** The repository's top, its links followed. */
    readonly top: string,
    /** The folder of the agents package that runs the hook (default: found from the running program). */
    readonly program?: string,
  ) {}

  /**
   * For a process that answers many calls (the MCP server): the worktrees listed again when one was added, removed or
   * moved since (`git worktree add` changes the common folder's `worktrees/`, `git worktree move` the `gitdir` file in
   * the worktree's folder there), so that a new or moved one's store is kept too.
   */
  refresh(): void {
    const common = commonGitDir(this.root);
    if (common === undefined) return;
    const linked = join(common, 'worktrees');
    let names: string[] = [];
    try {
      names = readdirSync(linked);
    } catch {
      // No linked worktree: the folder's stamp says so.
    }
    const now = [stamp(linked), ...names.map((name) => stamp(join(linked, name, 'gitdir')))].join('|');
    if (this.#listed !== undefined && now !== this.#listed)
      [this.#tops, this.#otherTops, this.#dirs, this.#hookSettings] = [undefined, undefined, undefined, undefined];
    this.#listed = now;
  }

  /**
   * The top of every working tree of the repository, this one's first: each holds a store and clients' settings of
   * its own, which an agent working in one of them could otherwise write with file tools, being outside its tree.
   */
  private tops(): string[] {
    if (this.#tops) return this.#tops;
    const own = repoTop(this.root);
    if (own === undefined) return (this.#tops = []);
    const out = [own];
    // Each top's links followed once: one named twice (through a link) is one worktree.
    const seen = new Set([physicalPath(own)]);
    for (const t of worktreeTops(this.root)) {
      const real = physicalPath(t);
      if (seen.has(real)) continue;
      seen.add(real);
      out.push(t);
    }
    return (this.#tops = out);
  }

  /** The other working trees' tops, their links followed, the innermost first (one may hold another, or this one). */
  private otherTops(): string[] {
    this.#otherTops ??= this.tops()
      .slice(1)
      .map(physicalPath)
      .sort((a, b) => b.length - a.length);
    return this.#otherTops;
  }

  /**
   * `abs` relative to the other working tree that holds it most closely (one nested in this tree's top too), unless
   * this tree holds it more closely: its path in the repository, which this store's guards judge as the same path here
   * (ADR 0605). `caseless`: under that top in another case only, judged so where git ignores case, as under this top.
   */
  otherWorktreePath(abs: string): { rel: string; caseless: boolean } | undefined {
    const own = relativeTo(this.top, abs) ?? relativeCaseless(this.top, abs);
    for (const top of this.otherTops()) {
      // Innermost first: this top holding `abs` more closely than any other tree leaves the path this tree's own.
      if (own !== undefined && top.length <= this.top.length) return undefined;
      const rel = relativeTo(top, abs);
      if (rel !== undefined) return { rel, caseless: false };
      const caseless = relativeCaseless(top, abs);
      if (caseless !== undefined) return { rel: caseless, caseless: true };
    }
    return undefined;
  }

  /**
   * git's folders (the repository's `.git`, file or folder, in each working tree; this worktree's git folder; the
   * common one) and the store, in each working tree, each as named and where its links lead.
   */
  private dirs(): { dir: string; folder: ReservedWrite['folder'] }[] {
    if (this.#dirs) return this.#dirs;
    const out: { dir: string; folder: ReservedWrite['folder'] }[] = [];
    const add = (dir: string | undefined, folder: ReservedWrite['folder']) => {
      if (dir === undefined) return;
      for (const d of [resolve(dir), physicalPath(dir)]) if (!out.some((o) => o.dir === d)) out.push({ dir: d, folder });
    };
    const [top, ...others] = this.tops();
    // A store that holds the whole repository (--store at its top) would make every file reserved: only git's are then.
    if (top === undefined || !within(resolve(this.root), resolve(top))) add(this.root, 'store');
    if (top !== undefined) {
      add(join(top, '.git'), 'git');
      // The other working trees hold the store at the same place in theirs.
      const store = within(resolve(top), resolve(this.root)) ? relative(resolve(top), resolve(this.root)) : undefined;
      for (const t of others) {
        add(join(t, '.git'), 'git');
        if (store !== undefined && store !== '') add(join(t, store), 'store');
      }
    }
    add(gitDirFor(this.root), 'git');
    add(commonGitDir(this.root), 'git');
    // The package the hook runs from (node_modules/agents-invariants): a file written there is the hook's own code. Not
    // when it holds the repository (the tool's own sources), where it would make every file reserved.
    const program = this.program ?? programFolder();
    if (program !== undefined && !(top !== undefined && within(resolve(program), resolve(top)))) {
      add(program, 'program');
      // Installed in the repository, each other working tree has it at the same place, and its sessions run that copy.
      if (top !== undefined && within(resolve(top), resolve(program)))
        for (const t of others) add(join(t, relative(resolve(top), resolve(program))), 'program');
    }
    return (this.#dirs = out);
  }

  /** The clients' hook settings files (core/guard-install.ts HOOK_SETTINGS), each as named and where its links lead. */
  private hookSettings(): Set<string> {
    if (this.#hookSettings) return this.#hookSettings;
    const out = new Set<string>();
    const add = (file: string) => {
      out.add(resolve(file));
      out.add(physicalPath(file));
    };
    for (const top of this.tops()) for (const f of HOOK_SETTINGS.project) add(join(top, f));
    // The user settings where the client's variable (in the environment the hook inherits from it) moves them, and the
    // home folder's too, which a session started without the variable reads. Without the variable they are one file,
    // whose links are followed once.
    for (const client of GUARD_CLIENTS)
      for (const f of new Set([...userSettingsFiles(client), ...userSettingsFiles(client, 'home')])) add(f);
    return (this.#hookSettings = out);
  }

  /** The reserved folder a file is in, by any of `candidates` (the path as named, where its links lead), if any. */
  folder(candidates: readonly string[]): ReservedWrite['folder'] | undefined {
    // git's own folder first: a store inside it (unusual) is still git's.
    const dirs = this.dirs();
    for (const folder of ['git', 'store', 'program'] as const)
      if (dirs.some((d) => d.folder === folder && candidates.some((c) => within(d.dir, c)))) return folder;
    // Compared as `within` compares folders: loosely, as the most forgiving file system would name them.
    for (const file of this.hookSettings()) if (candidates.some((c) => within(file, c))) return 'hooks';
    // Every folder's, not only the top's: a client started below the top reads the settings of the folder it starts in
    // (Claude Code, Gemini CLI) or of each folder up to the top (Codex CLI), so a write there can switch its hook off.
    const tops = [this.top, ...this.otherTops()];
    if (candidates.some((c) => tops.some((t) => within(t, c)) && PROJECT_SETTINGS.some((f) => loosely(c).endsWith(f)))) return 'hooks';
    // A `.git` written below a top makes its folder a repository of its own: Codex CLI started there reads none of the
    // top's hook settings, and the top's git status shows the folder as one path, its files hidden from guard check.
    if (candidates.some((c) => tops.some((t) => gitBelow(t, c)))) return 'nested-git';
    return undefined;
  }
}

/** Whether `abs` is a `.git` below `top`, or in one: a part of its path there named `.git`, compared loosely as `within` compares. */
function gitBelow(top: string, abs: string): boolean {
  if (!within(top, abs)) return false;
  const [t, a] = [loosely(top), loosely(abs)];
  return a.slice(t.length).split(sep).includes('.git');
}

/** A client's project settings file (`.claude/settings.json`…) as the end of a path, compared loosely as `within` compares. */
const PROJECT_SETTINGS = HOOK_SETTINGS.project.map((f) => loosely(sep + f.split('/').join(sep)));

/** The folder of the agents package whose program runs now (its package.json names it), if one can be told. */
function programFolder(): string | undefined {
  const main = process.argv[1];
  if (main === undefined) return undefined;
  let dir = dirname(physicalPath(main));
  for (let up = 0; up < 3; up++, dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'agents-invariants') return dir;
    } catch {
      // No package.json here, or none that parses: look further up.
    }
  }
  return undefined;
}
