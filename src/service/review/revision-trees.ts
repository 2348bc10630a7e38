/**
 * The store as git holds it at a revision, in the index or in the working
 * tree (docs/review.md): which files each side of a diff holds, read tree by
 * tree from git's objects, and their bytes.
 */
import { isHiddenName, isKnownFolder, type PathKind, pathClassifier } from '../../core/layout.ts';
import type { ObjectReader } from '../../git/object-reader.ts';
import { GitError, resolveCommit } from '../../git/repo.ts';
import { findInTree, parseTree, type TreeItem } from '../../git/tree-object.ts';
import { storeNotAFolder } from '../../store/tree-source.ts';
import type { OptionWords } from '../option-words.ts';
import { gitFailure, revisionInfo, short, type SideInfo, type SideSpec, storePrefix } from './ranges.ts';
import {
  addGitFile,
  emptySide,
  keysOf,
  noteMisnamed,
  noteNotAFolder,
  projectOf,
  relevant,
  type Side,
  sortKinds,
  UNMERGED,
} from './side.ts';

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
    /** What the hint calls the option that names the store's folder. */
    storeOption: string,
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
          throw storeNotAFolder(parts.slice(0, k + 1).join('/'), `revision ${label} (${commits[i]!.slice(0, 12)})`, e.mode, storeOption);
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

  /** The object id of `name` at the top of one side's store folder, if it holds one. */
  topId(side: 0 | 1, name: string): string | undefined {
    return this.stores[side].top.get(name)?.sha;
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
    // Sub-folders the layout has no place for (`global/sub/`): their files are said as every reader says them.
    let unplaced: [number, string, TreeItem][] = [];
    for (const [i, folder, item] of todo) {
      this.stores[i]!.listed.add(folder);
      if (!isTree(item)) continue;
      for (const e of this.entries(item.sha)) {
        const path = `${folder}/${e.name}`;
        if (storeEntry(e)) addGitFile(this.sides[i]!, path, e.mode, e.sha);
        else if (!isKnownFolder(path) && !isHiddenName(e.name)) unplaced.push([i, path, e]);
      }
    }
    while (unplaced.length > 0) {
      await this.read(unplaced.map(([, , e]) => e.sha));
      const below: [number, string, TreeItem][] = [];
      for (const [i, folder, item] of unplaced)
        for (const e of this.entries(item.sha))
          if (isTree(e)) below.push([i, `${folder}/${e.name}`, e]);
          else addGitFile(this.sides[i]!, `${folder}/${e.name}`, e.mode, e.sha);
      unplaced = below;
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
export async function openSide(
  root: string,
  top: string,
  spec: SideSpec,
  idLength: () => number,
  /** What the hints call a diff of the index and the store's folder: the command line's words, the library's. */
  words: OptionWords,
  /** The one revision the request names (none: HEAD), which a hint to compare the index instead keeps. */
  revision?: string,
): Promise<Side> {
  if (spec.kind === 'empty') return emptySide({ label: 'no commit yet', kind: 'revision' });
  if (spec.kind === 'working tree') {
    // Files a sparse checkout leaves out would read as removed (docs/store-format.md): the index holds them all.
    await (await import('../../store/sparse-store.ts')).refuseSparseStore(
      root,
      `Compare with the index instead, which holds them all (\`${words.calls.diffStaged(revision)}\`)`,
    );
    const { WorkingTreeSource } = await import('../../store/tree-source.ts');
    const source = new WorkingTreeSource(root);
    const entries = await source.list('', { recursive: true });
    const kinds = new Map<string, PathKind>();
    const paths: string[] = [];
    let holdsLock = false;
    let holdsConfig = false;
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
      if (e.path === 'config.yaml' && e.type === 'file') holdsConfig = true;
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
    const config = holdsConfig ? (await source.read(['config.yaml'])).get('config.yaml') : undefined;
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
      ...(config?.ok ? { configId: gitBlobId(config.bytes, len) } : config ? { configId: `unreadable:${config.code}` } : {}),
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
  const refused = await source.notAFolder(words.store);
  if (refused) throw refused;
  const blobs = await source.blobIds();
  // No file at all where the store is: git keeps no empty folder, so this side holds no store there.
  const side = emptySide(blobs.size === 0 ? { ...info, missingStore: storePrefix(root, top) } : info);
  for (const [p, e] of blobs) {
    if (p === 'extends.lock.yaml') side.holdsLock = true;
    if (p === 'config.yaml') side.configId = e.sha;
    addGitFile(side, p, e.unmerged ? `${UNMERGED}:${e.stages ?? ''}` : e.mode, e.sha);
  }
  return side;
}
