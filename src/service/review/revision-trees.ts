/**
 * The store as git holds it at a revision, in the index or in the working
 * tree (docs/review.md): which files each side of a diff holds, read tree by
 * tree from git's objects, and their bytes.
 */
import { type PathKind, pathClassifier } from '../../core/layout.ts';
import type { ObjectReader } from '../../git/object-reader.ts';
import { GitError, findInTree, parseTree, resolveCommit, type TreeItem } from '../../git/repo.ts';
import type { Diagnostic } from '../../core/diagnostics.ts';
import {
  fileWhereFolderGoes,
  isRequiredFolder,
  isScopeFolder,
  linkedFolder,
  misnamedYaml,
  nestedYaml,
  nestedYamlMeant,
  yamlNameMeant,
} from '../../store/read-plan.ts';
import { type ReadResult, storeNotAFolder } from '../../store/tree-source.ts';
import { gitFailure, revisionInfo, short, type SideInfo, type SideSpec } from './ranges.ts';

/** A file of a git side: its mode and blob id. */
interface GitBlob {
  mode: string;
  sha: string;
}

export interface Side {
  info: SideInfo;
  /** Relevant store files: path → blob id (mode folded in, so a file turned into a link differs). */
  files: Map<string, string>;
  kinds: Map<string, PathKind>;
  /** path → "path NUL blob id": the key of a parse, shared by both sides when the file did not change. */
  keys: Map<string, string>;
  /** The working tree: the bytes of every relevant file, read while listing it. */
  bytes?: Map<string, ReadResult>;
  /** A git side (revision or index): mode and blob id of every file in `files`. */
  blobs?: Map<string, GitBlob>;
  /** A working-tree or index side holds `extends.lock.yaml` (not a relevant file, but its pins are compared). */
  holdsLock?: boolean;
  /** The side's path classifier: the files of one folder share their scope object, as in every whole-store read. */
  classify: (rel: string) => PathKind;
  /** The projects whose folder holds a file on this side, whatever the file (of the folders listed). */
  projects?: Set<string>;
  /** Store folders that are not folders on this side (a link, a submodule, a file), by path: the diff stops there. */
  notFolders?: Map<string, Diagnostic>;
  /** Files with another YAML ending (`.yml`) where a `.yaml` store file would be read: path → the name meant. */
  misnamed?: Map<string, string>;
}

/**
 * Notes a `.yml` (or `.YAML`) file standing where a store file of the diff would be read, or a `.yaml` in a sub-folder
 * of a scope whose name the scope would read (store/read-plan.ts).
 */
function noteMisnamed(side: Pick<Side, 'misnamed' | 'classify'>, path: string): void {
  const meant = path.endsWith('.yaml') ? nestedYamlMeant(path) : yamlNameMeant(path);
  if (meant === undefined) return;
  const kind = side.classify(meant);
  if (kind.kind === 'bad-id' || kind.kind === 'bad-name' || !relevant(kind)) return;
  (side.misnamed ??= new Map()).set(path, meant);
}

/** The findings of a side's misnamed files whose `.yaml` name it does not hold: left out, they are an error. */
export function misnamedFindings(side: Side): Diagnostic[] {
  return [...(side.misnamed ?? [])]
    .filter(([, meant]) => !side.files.has(meant))
    .map(([path, meant]) => (path.endsWith('.yaml') ? nestedYaml(path, meant) : misnamedYaml(path, meant)));
}

/**
 * Notes a store folder that is a link, a submodule or a file on this side: every reader of the store refuses it,
 * so the diff does too, never reading its scope as empty and its invariants as removed.
 */
function noteNotAFolder(side: Pick<Side, 'notFolders'>, path: string, mode: string): void {
  const link = mode === '120000' ? 'a symbolic link' : mode === '160000' ? 'a submodule' : undefined;
  const d = link
    ? isScopeFolder(path)
      ? linkedFolder(path, link)
      : undefined
    : isRequiredFolder(path)
      ? fileWhereFolderGoes(path)
      : undefined;
  if (d) (side.notFolders ??= new Map()).set(path, d);
}

/** The project whose folder holds `path`, if any. */
const projectOf = (path: string): string | undefined => /^projects\/([^/]+)\//.exec(path)?.[1];

/** Records the project whose folder holds `path`, if any. */
function noteProject(side: Side, path: string): void {
  const project = projectOf(path);
  if (project !== undefined) (side.projects ??= new Set()).add(project);
}

export function emptySide(info: SideInfo): Side {
  return { info, files: new Map(), kinds: new Map(), keys: new Map(), classify: pathClassifier() };
}

/** A git entry's identity for the diff: its blob id, with the mode when it is not a regular file. */
/** The mode an index side gives a path a merge left unresolved: none of its stages is what is staged. */
export const UNMERGED = 'unmerged';

/** The mode of a git tree: a folder where a store file belongs. */
export const FOLDER = '040000';

function foldedId(mode: string, sha: string): string {
  return mode.startsWith('100') ? sha : `${mode}:${sha}`;
}

/** Records one store file of a git side, if the diff looks at it. */
export function addGitFile(side: Side, path: string, mode: string, sha: string): void {
  noteProject(side, path);
  if (!path.endsWith('.yaml')) {
    noteNotAFolder(side, path, mode);
    if (mode.startsWith('100')) noteMisnamed(side, path);
    // A file inside a folder named as a store file (an index's global/X.yaml/f): the folder stands where the
    // file was, and is refused (not-a-file) as every reader of the store refuses it, never read as removed.
    const folder = /^(.*?\.yaml)\//.exec(path)?.[1];
    if (folder !== undefined && !side.files.has(folder)) addGitFile(side, folder, FOLDER, '');
    return;
  }
  const kind = side.classify(path);
  if (kind.kind === 'unknown' && mode.startsWith('100')) noteMisnamed(side, path);
  if (!relevant(kind)) return;
  const id = foldedId(mode, sha);
  side.kinds.set(path, kind);
  side.files.set(path, id);
  side.keys.set(path, `${path}\0${id}`);
  (side.blobs ??= new Map()).set(path, { mode, sha });
}

/** Code point order, i.e. the byte order of UTF-8 paths: the order git lists a tree in. */
function gitOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return x < 0xd800 && y < 0xd800 ? x - y : a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

/** Puts a side read folder by folder in the order one listing of the whole tree gives. */
function sortKinds(side: Side): void {
  side.kinds = new Map([...side.kinds].sort(([a], [b]) => gitOrder(a, b)));
}

function keysOf(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, id] of files) out.set(p, `${p}\0${id}`);
  return out;
}

/** Paths the diff looks at: invariants (and misnamed ones in scope folders), plan files, waivers, project.yaml, files of misnamed folders. */
function relevant(kind: PathKind): boolean {
  return (
    kind.kind === 'invariant' ||
    kind.kind === 'plan' ||
    kind.kind === 'waiver' ||
    kind.kind === 'project-meta' ||
    (kind.kind === 'bad-id' && kind.scope !== undefined) ||
    // A file in a folder whose name breaks the rules is refused as every reader of the store refuses it, never left out.
    kind.kind === 'bad-name'
  );
}

/** A revision side's store tree, read folder by folder. */
interface StoreTree {
  /** The store folder's entries (global, projects, plans, actions…); empty when the revision has no store. */
  top: Map<string, TreeItem>;
  /** Entries of the folders that hold scope folders (`projects`, `plans`, `actions`, `actions/<ns>`), once read. */
  containers: Map<string, Map<string, TreeItem>>;
  /** Scope folders whose files the side holds. */
  listed: Set<string>;
}

const isTree = (item: TreeItem | undefined): item is TreeItem & { mode: '040000' } => item !== undefined && item.mode === '040000';

/** An entry of a scope folder the diff looks at: a file, or a folder named as a file (refused when read). */
const storeEntry = (e: TreeItem): boolean => !isTree(e) || e.name.endsWith('.yaml');

/**
 * Two revisions of the store read straight from git's objects through one
 * `git cat-file --batch`: the store's trees are compared folder by
 * folder, descending only where their ids differ, which gives the changed
 * files with both blob ids; every plan folder and the folders of the changed
 * scopes are listed, and more folders on demand. A folder or file unchanged
 * between the sides is one object, read once.
 */
export class RevisionTrees {
  /** Tree objects read (raw), and their entries once decoded. */
  private readonly raw = new Map<string, Buffer>();
  private readonly decoded = new Map<string, TreeItem[]>();
  private readonly hashBytes: number;

  constructor(
    readonly reader: ObjectReader,
    private readonly sides: readonly [Side, Side],
    private readonly stores: readonly [StoreTree, StoreTree],
    commit: string,
  ) {
    this.hashBytes = commit.length / 2;
  }

  /** Starts at the store folder (`prefix` in the repository) of two commits. */
  static async open(
    reader: ObjectReader,
    prefix: string,
    sides: readonly [Side, Side],
    commits: readonly [string, string],
  ): Promise<RevisionTrees> {
    const walk = new RevisionTrees(reader, sides, [emptyStore(), emptyStore()], commits[0]);
    const roots = await reader.read(commits.map((c) => `${c}^{tree}`));
    let level = commits.map((c) => {
      const o = roots.get(`${c}^{tree}`);
      if (o?.type !== 'tree') throw new GitError(`the tree of commit ${c} is missing from the repository`, 'failed');
      return parseTree(o.data, walk.hashBytes);
    });
    const parts = prefix === '' ? [] : prefix.split('/');
    for (const [k, part] of parts.entries()) {
      const next = level.map((items) => items.find((e) => e.name === part));
      next.forEach((e, i) => {
        const { label } = sides[i]!.info;
        if (e !== undefined && !isTree(e))
          throw storeNotAFolder(parts.slice(0, k + 1).join('/'), `revision ${label} (${commits[i]!.slice(0, 12)})`, e.mode);
      });
      await walk.read(next.filter(isTree).map((e) => e.sha));
      level = next.map((e) => (isTree(e) ? walk.entries(e.sha) : []));
    }
    walk.stores.forEach((store, i) => {
      for (const e of level[i]!) {
        store.top.set(e.name, e);
        if (!isTree(e)) noteNotAFolder(sides[i]!, e.name, e.mode);
      }
    });
    return walk;
  }

  /** Whether one side's store folder holds `name` at its top. */
  holds(side: 0 | 1, name: string): boolean {
    return this.stores[side].top.has(name);
  }

  /** Whether one side has no store folder (git keeps no empty folder). */
  isEmpty(side: 0 | 1): boolean {
    return this.stores[side].top.size === 0;
  }

  /** Reads the tree objects not read yet, in one round. */
  private async read(shas: readonly string[]): Promise<void> {
    const missing = [...new Set(shas)].filter((s) => !this.raw.has(s));
    if (missing.length === 0) return;
    const got = await this.reader.read(missing);
    for (const sha of missing) {
      const o = got.get(sha);
      if (o?.type !== 'tree') throw new GitError(`tree ${sha} is missing from the repository`, 'failed');
      this.raw.set(sha, o.data);
    }
  }

  /** The entries of a tree read before. */
  private entries(sha: string): TreeItem[] {
    let items = this.decoded.get(sha);
    if (!items) this.decoded.set(sha, (items = parseTree(this.raw.get(sha)!, this.hashBytes)));
    return items;
  }

  /** Reads the named containers (`projects`, `actions/<ns>`…) of both sides, in one round. */
  private async containers(paths: readonly string[]): Promise<void> {
    const want: [StoreTree, string, TreeItem, Side][] = [];
    this.stores.forEach((store, i) => {
      for (const path of paths) {
        if (store.containers.has(path)) continue;
        const item = this.item(store, path);
        if (isTree(item)) want.push([store, path, item, this.sides[i]!]);
        else store.containers.set(path, new Map());
      }
    });
    await this.read(want.map(([, , item]) => item.sha));
    for (const [store, path, item, side] of want) {
      const entries = this.entries(item.sha);
      store.containers.set(path, new Map(entries.map((e) => [e.name, e])));
      for (const e of entries) if (!isTree(e)) noteNotAFolder(side, `${path}/${e.name}`, e.mode);
    }
  }

  /** The entry of a store folder (`global`, `projects/P`…) on one side, from the folders read. */
  private item(store: StoreTree, folder: string): TreeItem | undefined {
    const cut = folder.lastIndexOf('/');
    if (cut < 0) return store.top.get(folder);
    return store.containers.get(folder.slice(0, cut))?.get(folder.slice(cut + 1));
  }

  /** Makes both sides hold every file of `folders` (scope folders whose containers were read), in one round. */
  async list(folders: Iterable<string>): Promise<void> {
    const wanted = [...new Set(folders)].filter((f) => this.stores.some((s) => !s.listed.has(f)));
    await this.containers([...new Set(wanted.filter((f) => f.includes('/')).map((f) => f.slice(0, f.lastIndexOf('/'))))]);
    const todo: [number, string, TreeItem | undefined][] = [];
    for (const folder of wanted) {
      this.stores.forEach((store, i) => {
        if (!store.listed.has(folder)) todo.push([i, folder, this.item(store, folder)]);
      });
    }
    if (todo.length === 0) return;
    await this.read(todo.flatMap(([, , item]) => (isTree(item) ? [item.sha] : [])));
    for (const [i, folder, item] of todo) {
      this.stores[i]!.listed.add(folder);
      if (!isTree(item)) continue;
      for (const e of this.entries(item.sha)) if (storeEntry(e)) addGitFile(this.sides[i]!, `${folder}/${e.name}`, e.mode, e.sha);
    }
    for (const side of this.sides) sortKinds(side);
  }

  /** Lists every project folder of both sides. */
  async listAllProjects(): Promise<void> {
    await this.containers(['projects']);
    const names = new Set(this.stores.flatMap((s) => [...s.containers.get('projects')!.values()].filter(isTree).map((e) => e.name)));
    await this.list([...names].map((n) => `projects/${n}`));
  }

  /**
   * The waiver files that differ between the sides: a project's or plan's waivers are one folder
   * down (`projects/P/waivers/`), listed where that folder's tree differs.
   */
  private async changedWaivers(
    scopes: readonly string[],
    differs: (x: TreeItem | undefined, y: TreeItem | undefined) => boolean,
    compare: (folder: string, trees: readonly (TreeItem | undefined)[]) => void,
  ): Promise<void> {
    const found: [string, (TreeItem | undefined)[]][] = [];
    for (const folder of scopes) {
      if (!folder.startsWith('projects/') && !folder.startsWith('plans/')) continue;
      const trees = this.stores.map((store) => {
        const item = this.item(store, folder);
        return isTree(item) ? this.entries(item.sha).find((e) => e.name === 'waivers') : undefined;
      });
      if (differs(trees[0], trees[1])) found.push([`${folder}/waivers`, trees]);
    }
    await this.read(found.flatMap(([, trees]) => trees.filter(isTree).map((e) => e.sha)));
    for (const [folder, trees] of found) {
      trees.forEach((tree, i) => {
        if (isTree(tree))
          for (const e of this.entries(tree.sha)) if (storeEntry(e)) addGitFile(this.sides[i]!, `${folder}/${e.name}`, e.mode, e.sha);
      });
      compare(folder, trees);
    }
    if (found.length > 0) for (const side of this.sides) sortKinds(side);
  }

  /**
   * The relevant files that differ between the sides (sorted), after listing
   * the folders that hold them, `global/` and `extra`, and finding every plan.yaml.
   */
  async changes(extra: readonly string[]): Promise<string[]> {
    const [b, a] = this.stores;
    const differs = (x: TreeItem | undefined, y: TreeItem | undefined) =>
      (isTree(x) || isTree(y)) && (x?.sha !== y?.sha || x?.mode !== y?.mode);
    const containerDiffers = (path: string) => differs(this.item(b, path), this.item(a, path));
    // Which containers to open: plans always (every plan.yaml is needed), the others where they differ.
    await this.containers(['plans', ...['projects', 'actions'].filter(containerDiffers)]);
    const childNames = (path: string) => new Set([...b.containers.get(path)!.keys(), ...a.containers.get(path)!.keys()]);
    const namespaces = b.containers.has('actions') ? [...childNames('actions')].map((ns) => `actions/${ns}`).filter(containerDiffers) : [];
    await this.containers(namespaces);
    const scopes: string[] = [];
    if (containerDiffers('global')) scopes.push('global');
    for (const path of ['projects', 'plans', ...namespaces]) {
      const before = b.containers.get(path);
      const after = a.containers.get(path);
      if (!before || !after) continue;
      for (const [name, x] of before) if (differs(x, after.get(name))) scopes.push(`${path}/${name}`);
      for (const [name, y] of after) if (!before.has(name) && isTree(y)) scopes.push(`${path}/${name}`);
    }
    // Every plan.yaml: each plan folder's tree is read, but only that entry is decoded.
    const planFolders = this.stores.map((store) => [...store.containers.get('plans')!.values()].filter(isTree));
    // One round for the plan folders and the folders listed next (whose containers are read).
    const next = ['global', ...scopes].flatMap((f) =>
      this.stores
        .map((store) => this.item(store, f))
        .filter(isTree)
        .map((e) => e.sha),
    );
    await this.read([...planFolders.flat().map((e) => e.sha), ...next]);
    const planYaml = Buffer.from('plan.yaml');
    planFolders.forEach((folders, i) => {
      for (const folder of folders) {
        const plan = findInTree(this.raw.get(folder.sha)!, planYaml, this.hashBytes);
        if (plan && !isTree(plan)) addGitFile(this.sides[i]!, `plans/${folder.name}/plan.yaml`, plan.mode, plan.sha);
      }
    });
    await this.list(['global', ...scopes, ...extra]);
    const changed: string[] = [];
    const [before, after] = this.sides;
    const compare = (folder: string, trees: readonly (TreeItem | undefined)[]) => {
      const names = new Set<string>();
      for (const item of trees)
        if (isTree(item)) for (const e of this.entries(item.sha)) if (storeEntry(e)) names.add(`${folder}/${e.name}`);
      for (const p of names) if (before.files.get(p) !== after.files.get(p)) changed.push(p);
    };
    for (const folder of scopes)
      compare(
        folder,
        this.stores.map((store) => this.item(store, folder)),
      );
    await this.changedWaivers(scopes, differs, compare);
    return changed.sort();
  }
}

function emptyStore(): StoreTree {
  return { top: new Map(), containers: new Map(), listed: new Set() };
}

/** One side holding every relevant file of the store at `root`: the working tree, the index, or a revision. */
export async function openSide(root: string, top: string, spec: SideSpec, idLength: () => number): Promise<Side> {
  if (spec.kind === 'empty') return emptySide({ label: 'no commit yet', kind: 'revision' });
  if (spec.kind === 'working tree') {
    // Files a sparse checkout leaves out would read as removed (docs/store-format.md): the index holds them all.
    await (await import('../../store/sparse-store.ts')).refuseSparseStore(
      root,
      'Compare with the index instead, which holds them all (`agents invariant diff --staged`)',
    );
    const { WorkingTreeSource } = await import('../../store/tree-source.ts');
    const source = new WorkingTreeSource(root);
    const entries = await source.list('', { recursive: true });
    const kinds = new Map<string, PathKind>();
    const paths: string[] = [];
    let holdsLock = false;
    const projects = new Set<string>();
    const classify = pathClassifier();
    const side: Pick<Side, 'notFolders' | 'misnamed' | 'classify'> = { classify };
    for (const e of entries) {
      const project = e.type === 'dir' ? undefined : projectOf(e.path);
      if (project !== undefined) projects.add(project);
      // A folder named as a store file is kept: reading it refuses it (not-a-file), as the git sides do.
      if (!e.path.endsWith('.yaml')) {
        if (e.type === 'symlink' || e.type === 'file') noteNotAFolder(side, e.path, e.type === 'symlink' ? '120000' : '100644');
        if (e.type === 'file') noteMisnamed(side, e.path);
        continue;
      }
      if (e.path === 'extends.lock.yaml') holdsLock = true;
      const kind = classify(e.path);
      if (kind.kind === 'unknown' && e.type === 'file') noteMisnamed(side, e.path);
      if (!relevant(kind)) continue;
      kinds.set(e.path, kind);
      paths.push(e.path);
    }
    const bytes = await source.read(paths);
    const { gitBlobId } = await import('../../store/blob-id.ts');
    const files = new Map<string, string>();
    const len = idLength();
    for (const p of paths) {
      const r = bytes.get(p)!;
      files.set(p, r.ok ? gitBlobId(r.bytes, len) : `unreadable:${r.code}`);
    }
    return {
      info: { label: 'working tree', kind: 'working tree' },
      files,
      kinds,
      keys: keysOf(files),
      bytes,
      holdsLock,
      projects,
      ...side,
    };
  }
  const { GitTreeSource } = await import('../../store/git-source.ts');
  let source: import('../../store/git-source.ts').GitTreeSource;
  let info: SideInfo;
  try {
    if (spec.kind === 'index') {
      source = await GitTreeSource.index(root);
      info = { label: 'index', kind: 'index' };
    } else {
      const commit = spec.kind === 'commit' ? spec.commit : await resolveCommit(top, spec.rev);
      const label = spec.kind === 'commit' ? spec.label : spec.rev;
      source = await GitTreeSource.atCommit(root, top, commit, `${label} (${short(commit)})`);
      info = revisionInfo(spec, commit);
    }
  } catch (error) {
    return gitFailure(error);
  }
  const refused = await source.notAFolder();
  if (refused) throw refused;
  const side = emptySide(info);
  for (const [p, e] of await source.blobIds()) {
    if (p === 'extends.lock.yaml') side.holdsLock = true;
    addGitFile(side, p, e.unmerged ? UNMERGED : e.mode, e.sha);
  }
  return side;
}
