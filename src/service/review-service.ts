import { relative, sep } from 'node:path';
import type { InheritedSides, PolicyMove } from './review-extends.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import {
  affectedTargets,
  allTargets,
  diffStores,
  invariantFieldChanges,
  targetChanged,
  targetFolders,
  targetKey,
  type DiffSide,
  type FieldChange,
  type SideShape,
  type StoreDiff,
  type TargetRef,
} from '../core/diff.ts';
import { closestNames, didYouMean } from '../core/closest.ts';
import { InvalidStoreError, UsageError } from '../core/errors.ts';
import { classifyPath, type PathKind } from '../core/layout.ts';
import { scopeFolder, type Plan, type Scope, type ScopedInvariant } from '../core/model.ts';
import { normalisePrefix, pickId, resolvePrefix } from '../core/id-prefix.ts';
import { nameProblem, truncate } from '../core/names.ts';
import {
  GitError,
  NULL_SHA,
  catFileBatch,
  isShallow,
  logRaw,
  mergeBase,
  resolveCommit,
  topLevel,
  topLevelAndCommits,
  ObjectReader,
  findInTree,
  parseTree,
  type LogCommit,
  type TreeItem,
} from '../git/repo.ts';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import type { ReadResult } from '../store/tree-source.ts';

/**
 * The parsers (and the schema validators they bring), loaded on first use:
 * a diff between revisions starts git before loading them, and loads them
 * while git answers.
 */
type Parsing = typeof import('../core/parse-core.ts') & Pick<typeof import('../store/read-plan.ts'), 'readFailure'>;
let parsing: Promise<Parsing> | undefined;
function loadParsing(): Promise<Parsing> {
  parsing ??= Promise.all([import('../core/parse-core.ts'), import('../store/read-plan.ts')]).then(([core, read]) => ({
    ...core,
    readFailure: read.readFailure,
  }));
  return parsing;
}

/** What `agents invariant diff` compares, and for which targets. */
export interface DiffRequest {
  /** `A..B`, `A...B`, `A`, or undefined (HEAD against the working tree, or the index with `staged`). */
  range?: string;
  staged?: boolean;
  project?: string;
  /** A plan id or a unique prefix of one (among the plans of either side). */
  plan?: string;
  /** Report every project of either side, changed or not. */
  allProjects?: boolean;
}

/** One side of a diff, for people and for JSON. */
export interface SideInfo {
  /** `HEAD`, `main`, `merge base of main and HEAD`, `working tree`, `index`. */
  label: string;
  kind: 'revision' | 'index' | 'working tree';
  commit?: string;
  /** For `A...B`: the two revisions whose merge base this side is. */
  mergeBaseOf?: [string, string];
}

export interface DiffResult extends StoreDiff {
  range: string;
  before: SideInfo;
  after: SideInfo;
  /** Store paths whose content differs (invariants and plan files). */
  changedPaths: string[];
  /** Policy sources whose pin differs between the sides (docs/extends.md, "Review"). */
  policySources?: PolicyMove[];
}

type SideSpec =
  | { kind: 'empty' }
  | { kind: 'revision'; rev: string }
  | { kind: 'commit'; commit: string; label: string; mergeBaseOf?: [string, string] }
  | { kind: 'index' }
  | { kind: 'working tree' };

/** A file of a git side: its mode and blob id. */
interface GitBlob {
  mode: string;
  sha: string;
}

interface Side {
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
}

function emptySide(info: SideInfo): Side {
  return { info, files: new Map(), kinds: new Map(), keys: new Map() };
}

/** A git entry's identity for the diff: its blob id, with the mode when it is not a regular file. */
function foldedId(mode: string, sha: string): string {
  return mode.startsWith('100') ? sha : `${mode}:${sha}`;
}

/** Records one store file of a git side, if the diff looks at it. */
function addGitFile(side: Side, path: string, mode: string, sha: string): void {
  if (!path.endsWith('.yaml')) return;
  const kind = classifyPath(path);
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

/** Paths the diff looks at: invariants (and misnamed ones in scope folders) and plan files. */
function relevant(kind: PathKind): boolean {
  return kind.kind === 'invariant' || kind.kind === 'plan' || (kind.kind === 'bad-id' && kind.scope !== undefined);
}

function short(commit: string): string {
  return commit.slice(0, 12);
}

function gitFailure(error: unknown): never {
  if (error instanceof GitError) {
    throw new UsageError(
      error.message,
      error.kind === 'not-a-repo'
        ? 'Reviewing changes needs the store inside a git repository.'
        : 'Check the revision with `git log --oneline`; in a shallow clone fetch it first (`git fetch --depth=N origin REV` or `git fetch --unshallow`).',
    );
  }
  throw error;
}

/** The parse of one blob at one path, shared by both sides when the file did not change. */
interface Parsed {
  invariant?: ScopedInvariant;
  plan?: Plan;
  diagnostics: Diagnostic[];
}

/** One file of a side from its bytes (a diagnostic when it could not be read or is misnamed). */
function parseFile(at: Parsing, p: string, kind: PathKind, r: ReadResult | undefined): Parsed {
  if (kind.kind === 'bad-id') {
    return {
      diagnostics: [
        {
          code: 'id-invalid',
          severity: 'error',
          file: p,
          line: 0,
          col: 0,
          message: `${kind.problem}; every *.yaml in a scope folder is an invariant`,
          hint: 'Rename the file to <its id>.yaml, or move it out of the scope folder.',
        },
      ],
    };
  }
  if (!r?.ok) return { diagnostics: [at.readFailure(p, r ?? { ok: false, code: 'missing', message: 'is missing' })] };
  if (kind.kind === 'invariant') {
    const parsed = at.parseInvariant(p, r.bytes, kind.scope, kind.id);
    return { diagnostics: parsed.diagnostics, ...(parsed.value ? { invariant: parsed.value } : {}) };
  }
  if (kind.kind === 'plan') {
    const parsed = at.parsePlan(p, r.bytes, kind.plan);
    return { diagnostics: parsed.diagnostics, ...(parsed.value ? { plan: parsed.value } : {}) };
  }
  return { diagnostics: [] };
}

/** What a revision side says about itself. */
function revisionInfo(spec: SideSpec & { kind: 'revision' | 'commit' }, commit: string): SideInfo {
  if (spec.kind === 'revision') return { label: spec.rev, kind: 'revision', commit };
  return { label: spec.label, kind: 'revision', commit, ...(spec.mergeBaseOf ? { mergeBaseOf: spec.mergeBaseOf } : {}) };
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

/**
 * Two revisions of the store read straight from git's objects through one
 * `git cat-file --batch` (issue 7): the store's trees are compared folder by
 * folder, descending only where their ids differ, which gives the changed
 * files with both blob ids; every plan folder and the folders of the changed
 * scopes are listed, and more folders on demand. A folder or file unchanged
 * between the sides is one object, read once.
 */
class RevisionTrees {
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
    for (const part of prefix === '' ? [] : prefix.split('/')) {
      const next = level.map((items) => items.find((e) => e.name === part));
      await walk.read(next.filter(isTree).map((e) => e.sha));
      level = next.map((e) => (isTree(e) ? walk.entries(e.sha) : []));
    }
    walk.stores.forEach((store, i) => {
      for (const e of level[i]!) store.top.set(e.name, e);
    });
    return walk;
  }

  /** Whether one side's store folder holds `name` at its top. */
  holds(side: 0 | 1, name: string): boolean {
    return this.stores[side].top.has(name);
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
    const want: [StoreTree, string, TreeItem][] = [];
    for (const store of this.stores) {
      for (const path of paths) {
        if (store.containers.has(path)) continue;
        const item = this.item(store, path);
        if (isTree(item)) want.push([store, path, item]);
        else store.containers.set(path, new Map());
      }
    }
    await this.read(want.map(([, , item]) => item.sha));
    for (const [store, path, item] of want) store.containers.set(path, new Map(this.entries(item.sha).map((e) => [e.name, e])));
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
      for (const e of this.entries(item.sha)) if (!isTree(e)) addGitFile(this.sides[i]!, `${folder}/${e.name}`, e.mode, e.sha);
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
    for (const folder of scopes) {
      const names = new Set<string>();
      for (const store of this.stores) {
        const item = this.item(store, folder);
        if (isTree(item)) for (const e of this.entries(item.sha)) if (!isTree(e)) names.add(`${folder}/${e.name}`);
      }
      for (const p of names) if (before.files.get(p) !== after.files.get(p)) changed.push(p);
    }
    return changed.sort();
  }
}

function emptyStore(): StoreTree {
  return { top: new Map(), containers: new Map(), listed: new Set() };
}

/**
 * Git-native review (docs/review.md, issue "git-native review"): effective-set diffs
 * between two trees of the store, and the history of one invariant.
 */
export class ReviewService {
  constructor(readonly root: string) {}

  private async top(): Promise<string> {
    try {
      return await topLevel(this.root);
    } catch (error) {
      return gitFailure(error);
    }
  }

  private async sides(top: string, request: DiffRequest): Promise<{ range: string; before: SideSpec; after: SideSpec }> {
    const range = request.range?.trim() || undefined;
    if (range?.startsWith('-')) throw new UsageError(`revision range "${truncate(range)}" may not start with "-"`);
    const three = range?.indexOf('...') ?? -1;
    const two = range?.indexOf('..') ?? -1;
    if (range !== undefined && two >= 0) {
      if (request.staged)
        throw new UsageError(
          '--staged compares HEAD (or one revision) with the index; it cannot be combined with a range A..B',
          'Give one revision with --staged, or drop --staged.',
        );
      if (three >= 0) {
        const a = range.slice(0, three) || 'HEAD';
        const b = range.slice(three + 3) || 'HEAD';
        try {
          const [ca, cb] = [await resolveCommit(top, a), await resolveCommit(top, b)];
          const base = await mergeBase(top, ca, cb);
          return {
            range,
            before: { kind: 'commit', commit: base, label: `merge base of ${a} and ${b}`, mergeBaseOf: [a, b] },
            after: { kind: 'commit', commit: cb, label: b },
          };
        } catch (error) {
          return gitFailure(error);
        }
      }
      const a = range.slice(0, two) || 'HEAD';
      const b = range.slice(two + 2) || 'HEAD';
      return { range, before: { kind: 'revision', rev: a }, after: { kind: 'revision', rev: b } };
    }
    const a = range ?? 'HEAD';
    const after: SideSpec = request.staged ? { kind: 'index' } : { kind: 'working tree' };
    let before: SideSpec = { kind: 'revision', rev: a };
    if (range === undefined) {
      // Before the first commit HEAD names no commit: compare with nothing, as `git diff --cached` does.
      try {
        await resolveCommit(top, 'HEAD');
      } catch {
        before = { kind: 'empty' };
      }
    }
    return { range: range ?? (request.staged ? 'HEAD (staged)' : 'HEAD'), before, after };
  }

  /** The store's path inside the repository ('' at its top). */
  private prefixIn(top: string): string {
    const prefix = relative(top, this.root).split(sep).join('/');
    if (prefix.startsWith('..')) throw new UsageError(`the store ${this.root} is outside the git repository ${top}`);
    return prefix;
  }

  /** For `A..B`: the two revisions, else undefined. */
  private twoDot(request: DiffRequest): [string, string] | undefined {
    const range = request.range?.trim();
    if (!range || request.staged || range.includes('...')) return undefined;
    const two = range.indexOf('..');
    return two < 0 ? undefined : [range.slice(0, two) || 'HEAD', range.slice(two + 2) || 'HEAD'];
  }

  /** One side holding every relevant file of the store: the working tree, the index, or a revision. */
  private async openSide(top: string, spec: SideSpec, idLength: () => number): Promise<Side> {
    if (spec.kind === 'empty') return emptySide({ label: 'no commit yet', kind: 'revision' });
    if (spec.kind === 'working tree') {
      const { WorkingTreeSource } = await import('../store/tree-source.ts');
      const source = new WorkingTreeSource(this.root);
      const entries = await source.list('', { recursive: true });
      const kinds = new Map<string, PathKind>();
      const paths: string[] = [];
      for (const e of entries) {
        if (e.type === 'dir' || !e.path.endsWith('.yaml')) continue;
        const kind = classifyPath(e.path);
        if (!relevant(kind)) continue;
        kinds.set(e.path, kind);
        paths.push(e.path);
      }
      const bytes = await source.read(paths);
      const { gitBlobId } = await import('../store/blob-id.ts');
      const files = new Map<string, string>();
      const len = idLength();
      for (const p of paths) {
        const r = bytes.get(p)!;
        files.set(p, r.ok ? gitBlobId(r.bytes, len) : `unreadable:${r.code}`);
      }
      return { info: { label: 'working tree', kind: 'working tree' }, files, kinds, keys: keysOf(files), bytes };
    }
    const { GitTreeSource } = await import('../store/git-source.ts');
    let source: import('../store/git-source.ts').GitTreeSource;
    let info: SideInfo;
    try {
      if (spec.kind === 'index') {
        source = await GitTreeSource.index(this.root);
        info = { label: 'index', kind: 'index' };
      } else {
        const commit = spec.kind === 'commit' ? spec.commit : await resolveCommit(top, spec.rev);
        const label = spec.kind === 'commit' ? spec.label : spec.rev;
        source = await GitTreeSource.atCommit(this.root, top, commit, `${label} (${short(commit)})`);
        info = revisionInfo(spec, commit);
      }
    } catch (error) {
      return gitFailure(error);
    }
    const side = emptySide(info);
    for (const [p, e] of await source.blobIds()) addGitFile(side, p, e.mode, e.sha);
    return side;
  }

  /**
   * Bytes of `paths` of each side into `blobs` (by parse key), skipping those
   * already there: files of git sides come from ONE `git cat-file --batch`
   * for all sides (the revisions' reader, when there is one), the working
   * tree's were read while listing it.
   */
  private async readSides(
    top: string,
    blobs: Map<string, ReadResult>,
    wanted: readonly (readonly [Side, readonly string[]])[],
    reader?: ObjectReader,
    /** Called with each key as its bytes arrive from the reader (parsing them while git reads on). */
    each?: (key: string) => void,
  ): Promise<void> {
    const jobs = new Map<string, string>();
    for (const [side, paths] of wanted) {
      for (const p of paths) {
        const key = side.keys.get(p)!;
        if (blobs.has(key) || jobs.has(key)) continue;
        const e = side.blobs?.get(p);
        if (side.bytes || !e) blobs.set(key, side.bytes?.get(p) ?? { ok: false, code: 'missing', message: 'is missing' });
        else if (e.mode === '120000')
          blobs.set(key, { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' });
        else if (!e.mode.startsWith('100')) blobs.set(key, { ok: false, code: 'not-a-file', message: 'is not a regular file' });
        else jobs.set(key, e.sha);
      }
    }
    if (jobs.size === 0) return;
    const result = (bytes: Buffer | null | undefined): ReadResult =>
      !bytes
        ? { ok: false, code: 'file-unreadable', message: `its object is missing from the repository` }
        : bytes.byteLength > MAX_FILE_BYTES
          ? { ok: false, code: 'file-too-large', message: `is ${bytes.byteLength} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB)` }
          : { ok: true, bytes };
    if (!reader) {
      const got = await catFileBatch(top, [...jobs.values()]);
      for (const [key, sha] of jobs) blobs.set(key, result(got.get(sha)));
      return;
    }
    const keysOfSha = new Map<string, string[]>();
    for (const [key, sha] of jobs) keysOfSha.get(sha)?.push(key) ?? keysOfSha.set(sha, [key]);
    const got = await reader.read([...keysOfSha.keys()], (sha, o) => {
      for (const key of keysOfSha.get(sha) ?? []) {
        blobs.set(key, result(o?.data));
        each?.(key);
      }
    });
    for (const [key, sha] of jobs) if (!blobs.has(key)) blobs.set(key, result(got.get(sha)?.data));
  }

  /** The effective-set diff between two trees of the store. */
  async diff(request: DiffRequest = {}): Promise<DiffResult> {
    if (request.project !== undefined && request.plan !== undefined) throw new UsageError('give --project or --plan, not both');
    if (request.allProjects && (request.project !== undefined || request.plan !== undefined)) {
      throw new UsageError('--all-projects cannot be combined with --project or --plan');
    }
    if (request.project !== undefined) {
      const problem = nameProblem(request.project, 'project');
      if (problem) throw new UsageError(problem, 'Project names match ^[a-z0-9][a-z0-9._-]{0,63}$.');
    }
    // For A..B, git starts at once: one process names the top folder and both commits (if it cannot,
    // the steps are taken one by one for their messages) while the object reader starts beside it,
    // and the parsers load while git answers.
    loadParsing().catch(() => undefined);
    const revs = this.twoDot(request);
    const early = revs ? new ObjectReader(this.root) : undefined;
    try {
      const got = revs ? await topLevelAndCommits(this.root, revs) : undefined;
      const quick = got && revs ? { top: got.top, commits: new Map(revs.map((r, i) => [r, got.commits[i]!])) } : undefined;
      return await this.diffWith(request, quick, early);
    } finally {
      early?.close();
    }
  }

  private async diffWith(
    request: DiffRequest,
    quick: { top: string; commits: Map<string, string> } | undefined,
    early: ObjectReader | undefined,
  ): Promise<DiffResult> {
    const top = quick?.top ?? (await this.top());
    const { range, before: bSpec, after: aSpec } = await this.sides(top, request);
    const prefix = this.prefixIn(top);
    let before: Side;
    let after: Side;
    let changed: string[];
    let walk: RevisionTrees | undefined;
    if ((bSpec.kind === 'revision' || bSpec.kind === 'commit') && (aSpec.kind === 'revision' || aSpec.kind === 'commit')) {
      const commits: string[] = [];
      for (const spec of [bSpec, aSpec]) {
        try {
          commits.push(spec.kind === 'commit' ? spec.commit : (quick?.commits.get(spec.rev) ?? (await resolveCommit(top, spec.rev))));
        } catch (error) {
          return gitFailure(error);
        }
      }
      before = { ...emptySide(revisionInfo(bSpec, commits[0]!)), blobs: new Map() };
      after = { ...emptySide(revisionInfo(aSpec, commits[1]!)), blobs: new Map() };
      walk = await RevisionTrees.open((quick && early) ?? new ObjectReader(top), prefix, [before, after], [commits[0]!, commits[1]!]);
      changed = [];
    } else {
      before = await this.openSide(top, bSpec, () => 40);
      let idLength = 40;
      for (const sha of before.files.values()) {
        idLength = sha.length === 64 ? 64 : 40;
        break;
      }
      after = await this.openSide(top, aSpec, () => idLength);
      changed = [];
      for (const [p, sha] of before.files) if (after.files.get(p) !== sha) changed.push(p);
      for (const p of after.files.keys()) if (!before.files.has(p)) changed.push(p);
      changed.sort();
    }
    // Policy sources (docs/extends.md): each side's pins, read from the cache. Only a side holding the
    // lock pins any; without one on either side nothing more is read or loaded.
    const locked = (i: 0 | 1, side: Side) => (walk ? walk.holds(i, 'extends.lock.yaml') : side.files.has('extends.lock.yaml'));
    const inherited =
      locked(0, before) || locked(1, after)
        ? await (await import('./review-extends.ts')).inheritedSides(this.root, top, prefix, before.info, after.info)
        : undefined;
    try {
      return await this.diffSides(top, request, range, before, after, changed, walk, inherited);
    } finally {
      if (walk?.reader !== early) walk?.reader.close();
    }
  }

  /** The diff of two opened sides (`walk`: revisions read folder by folder, which lists more as needed). */
  private async diffSides(
    top: string,
    request: DiffRequest,
    range: string,
    before: Side,
    after: Side,
    changed: string[],
    walk: RevisionTrees | undefined,
    inherited?: InheritedSides,
  ): Promise<DiffResult> {
    const policyMoved = (inherited?.moves.length ?? 0) > 0;
    if (walk) {
      // Two revisions: what changed, every plan folder, global/ and the folders of the changed scopes;
      // every project when a global file changed or every project is asked for (each is a target then).
      changed = await walk.changes(request.project !== undefined ? [`projects/${request.project}`] : []);
      const globalChange = changed.some((p) => {
        const kind = before.kinds.get(p) ?? after.kinds.get(p)!;
        return (kind.kind === 'invariant' || kind.kind === 'bad-id') && kind.scope?.kind === 'global';
      });
      if (request.allProjects || globalChange || policyMoved) await walk.listAllProjects();
    }
    const changedSet = new Set(changed);

    // Bytes in two batches for both sides: every plan.yaml, then the files the targets need. A file
    // unchanged between the sides is read (and parsed) once.
    const blobs = new Map<string, ReadResult>();
    const cache = new Map<string, Parsed>();
    const parse = (side: Side, paths: readonly string[]) => this.parseSide(side, paths, blobs, cache);
    // Plans first: every plan.yaml on both sides, to know which plans target which project.
    const planPaths = (side: Side) => [...side.kinds].filter(([, k]) => k.kind === 'plan').map(([p]) => p);
    const bPlans = planPaths(before);
    const aPlans = planPaths(after);
    await this.readSides(
      top,
      blobs,
      [
        [before, bPlans],
        [after, aPlans],
      ],
      walk?.reader,
    );
    await parse(before, bPlans);
    await parse(after, aPlans);
    const shape = (side: Side): SideShape & { plans: Map<string, Plan> } => {
      const projects = new Set<string>();
      const plans = new Map<string, Plan>();
      for (const [p, k] of side.kinds) {
        if (k.kind === 'invariant' && k.scope.kind === 'project') projects.add(k.scope.project);
        if (k.kind === 'plan') {
          const plan = cache.get(side.keys.get(p)!)?.plan;
          if (plan) plans.set(k.plan, plan);
        }
      }
      return { projects, plans };
    };
    // A side listed in parts knows the projects of the folders it listed: every one the targets can need.
    const bShape = shape(before);
    const aShape = shape(after);

    let targets: TargetRef[];
    const everything = allTargets(bShape, aShape);
    if (request.project !== undefined) {
      if (!everything.some((t) => t.kind === 'project' && t.project === request.project)) {
        const known = [...new Set(everything.flatMap((t) => (t.kind === 'project' ? [t.project] : [])))].sort();
        const suggestions = closestNames(request.project, known);
        const guess = didYouMean(suggestions);
        throw new UsageError(
          `unknown project ${request.project}: it has no folder and no plan targets it in ${before.info.label} or ${after.info.label}${guess ? `; ${guess}` : ''}`,
          'Check the name; `agents invariant list` shows the scopes.',
          { project: request.project, suggestions, known },
          'unknown-project',
        );
      }
      targets = [{ kind: 'project', project: request.project }];
    } else if (request.plan !== undefined) {
      const plans = everything.flatMap((t) => (t.kind === 'plan' ? [t.plan] : []));
      const match = resolvePrefix(request.plan, plans);
      if (match.kind !== 'unique' && match.kind !== 'ambiguous')
        throw new UsageError(
          `unknown plan ${truncate(request.plan)} in ${before.info.label} and ${after.info.label}`,
          'Give the plan id (or a unique prefix of 4+ characters); `agents plan list` shows them.',
        );
      targets = [{ kind: 'plan', plan: pickId(request.plan, plans, 'plan', '') }];
    } else {
      targets = affectedTargets(changed, bShape, aShape);
      // A policy source that moved can change every project's set, as a global file does.
      if (request.allProjects || policyMoved) {
        const keys = new Set(targets.map(targetKey));
        for (const t of everything) if (t.kind === 'project' && !keys.has(targetKey(t))) targets.push(t);
      }
    }

    // Files each side needs: the folders of every target, plus every changed file (for the file-level report).
    const need = (side: Side, plans: Map<string, Plan>): string[] => {
      const folders = new Set<string>();
      for (const t of targets) for (const f of targetFolders(t, plans)) folders.add(f);
      const out: string[] = [];
      for (const [p, k] of side.kinds) {
        if (k.kind === 'plan') continue;
        const scope = k.kind === 'invariant' ? k.scope : k.kind === 'bad-id' ? k.scope : undefined;
        if (changedSet.has(p) || (scope && folders.has(scopeFolder(scope)))) out.push(p);
      }
      return out;
    };
    const folders = new Set<string>();
    for (const t of targets) for (const plans of [bShape.plans, aShape.plans]) for (const f of targetFolders(t, plans)) folders.add(f);
    await walk?.list(folders);
    const bNeed = need(before, bShape.plans);
    const aNeed = need(after, aShape.plans);
    // Files are parsed as they arrive; any that cannot be yet (the full YAML parser not loaded) are parsed below.
    const at = await loadParsing();
    const wanted = new Map<string, [string, PathKind]>();
    for (const [side, paths] of [
      [before, bNeed],
      [after, aNeed],
    ] as const) {
      for (const p of paths) wanted.set(side.keys.get(p)!, [p, side.kinds.get(p)!]);
    }
    await this.readSides(
      top,
      blobs,
      [
        [before, bNeed],
        [after, aNeed],
      ],
      walk?.reader,
      (key) => {
        const job = wanted.get(key);
        if (!job || cache.has(key)) return;
        try {
          cache.set(key, parseFile(at, job[0], job[1], blobs.get(key)));
        } catch {
          // Parsed again below, where its error (or the full parser's load) is handled.
        }
      },
    );
    await parse(before, bNeed);
    await parse(after, aNeed);

    // Anything unreadable or invalid that was needed stops the diff (exit 3), naming the side.
    for (const [side, paths] of [
      [before, [...bPlans, ...bNeed]],
      [after, [...aPlans, ...aNeed]],
    ] as const) {
      const errors = paths.flatMap((p) => cache.get(side.keys.get(p)!)?.diagnostics ?? []).filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        const first = errors[0]!;
        const where = first.line > 0 ? `${first.file}:${first.line}:${first.col}` : first.file;
        const at =
          side.info.kind === 'revision'
            ? `revision ${side.info.label}${side.info.commit ? ` (${short(side.info.commit)})` : ''}`
            : `the ${side.info.label}`;
        throw new InvalidStoreError(
          errors.length === 1
            ? `cannot diff: ${where} is invalid in ${at}`
            : `cannot diff: ${errors.length} store files are invalid in ${at}, first ${where}`,
          errors,
          side.info.kind === 'revision'
            ? 'The file is broken in that revision; compare other revisions, or fix it in a new commit.'
            : undefined,
        );
      }
    }

    const collect = (side: Side, paths: readonly string[]) =>
      paths.map((p) => cache.get(side.keys.get(p)!)?.invariant).filter((i): i is ScopedInvariant => i !== undefined);
    const bSide: DiffSide = { plans: bShape.plans, invariants: [...collect(before, bNeed), ...(inherited?.before ?? [])] };
    const aSide: DiffSide = { plans: aShape.plans, invariants: [...collect(after, aNeed), ...(inherited?.after ?? [])] };
    const diff = diffStores(
      {
        before: [
          ...collect(
            before,
            bNeed.filter((p) => changedSet.has(p)),
          ),
          ...(inherited?.changedBefore ?? []),
        ],
        after: [
          ...collect(
            after,
            aNeed.filter((p) => changedSet.has(p)),
          ),
          ...(inherited?.changedAfter ?? []),
        ],
      },
      bSide,
      aSide,
      targets,
    );
    const explicit = request.project !== undefined || request.plan !== undefined;
    diff.targets = diff.targets.filter((t) => explicit || targetChanged(t) || (request.allProjects && t.target.kind === 'project'));
    const result: DiffResult = { ...diff, range, before: before.info, after: after.info, changedPaths: changed };
    if (policyMoved) result.policySources = inherited!.moves;
    return result;
  }

  /**
   * Parses `paths` of one side from the bytes already read; a blob met on both
   * sides is parsed once. The full YAML parser is loaded only for a file that
   * is not in the canonical shape the tool writes.
   */
  private async parseSide(
    side: Side,
    paths: readonly string[],
    blobs: ReadonlyMap<string, ReadResult>,
    cache: Map<string, Parsed>,
  ): Promise<void> {
    const at = await loadParsing();
    for (const p of paths) {
      const key = side.keys.get(p)!;
      if (cache.has(key)) continue;
      try {
        cache.set(key, parseFile(at, p, side.kinds.get(p)!, blobs.get(key)));
      } catch (error) {
        if (!(error instanceof at.YamlSyntaxNotLoaded)) throw error;
        await import('../core/parse.ts');
        cache.set(key, parseFile(at, p, side.kinds.get(p)!, blobs.get(key)));
      }
    }
  }

  /** The history of one invariant (an id or a unique prefix), newest first, following moves between scopes. */
  async log(idOrPrefix: string): Promise<LogResult> {
    const want = normalisePrefix(idOrPrefix);
    // Not an id or a prefix of one: the rule's own usage error.
    if (want === undefined) return pickId(idOrPrefix, [], 'invariant', '') as never;
    const top = await this.top();
    const prefix = relative(top, this.root).split(sep).join('/');
    const base = prefix === '' ? '' : `${prefix}/`;
    let commits: LogCommit[];
    try {
      // The id stays in the file name wherever the file moves: one glob finds every scope it lived in.
      commits = await logRaw(top, [`:(glob)${base}**/${want}*.yaml`]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/does not have any commits|bad default revision/.test(message)) commits = [];
      else throw new UsageError(`git log failed: ${message.trim()}`);
    }
    type Hit = { status: string; oldSha: string; newSha: string; path: string; id: string; scope: Scope };
    const perCommit: { c: LogCommit; hits: Hit[] }[] = [];
    const ids = new Set<string>();
    for (const c of commits) {
      const hits: Hit[] = [];
      for (const ch of c.changes) {
        if (!ch.path.startsWith(base)) continue;
        const rel = ch.path.slice(base.length);
        const kind = classifyPath(rel);
        if (kind.kind !== 'invariant' || !kind.id.startsWith(want)) continue;
        ids.add(kind.id);
        hits.push({ ...ch, path: rel, id: kind.id, scope: kind.scope });
      }
      if (hits.length > 0) perCommit.push({ c, hits });
    }
    const id = pickId(
      want,
      ids,
      'invariant',
      `Check the id; \`git log\` only sees committed files in ${top} (and a shallow clone only its own commits).`,
    );
    const shas = new Set<string>();
    for (const { hits } of perCommit)
      for (const h of hits) if (h.id === id) for (const s of [h.oldSha, h.newSha]) if (s !== NULL_SHA) shas.add(s);
    const blobs = await catFileBatch(top, [...shas]);
    await import('../core/parse.ts');
    const { parseInvariant } = await loadParsing();
    const parsedAt = (sha: string, path: string, scope: Scope): { inv?: ScopedInvariant; problem?: Diagnostic } => {
      if (sha === NULL_SHA) return {};
      const bytes = blobs.get(sha);
      if (!bytes)
        return {
          problem: {
            code: 'file-unreadable',
            severity: 'error',
            file: path,
            line: 0,
            col: 0,
            message: `${path}: its object is missing from the repository`,
          },
        };
      const p = parseInvariant(path, bytes, scope, id);
      return p.value ? { inv: p.value } : p.diagnostics[0] ? { problem: p.diagnostics[0] } : {};
    };
    const events: LogEvent[] = [];
    for (const { c, hits } of perCommit) {
      const mine = hits.filter((h) => h.id === id);
      if (mine.length === 0) continue;
      const gone = mine.filter((h) => h.newSha === NULL_SHA);
      const born = mine.filter((h) => h.oldSha === NULL_SHA);
      const edits = mine.filter((h) => h.oldSha !== NULL_SHA && h.newSha !== NULL_SHA);
      const head = { commit: c.commit, author: c.author, email: c.email, date: c.date, subject: c.subject };
      const event = (
        change: LogEvent['change'],
        path: string,
        scope: Scope,
        fromPath?: string,
        fromScope?: Scope,
        oldSha = NULL_SHA,
        newSha = NULL_SHA,
      ): void => {
        const b = fromPath !== undefined && fromScope ? parsedAt(oldSha, fromPath, fromScope) : parsedAt(oldSha, path, scope);
        const a = parsedAt(newSha, path, scope);
        const e: LogEvent = {
          ...head,
          change,
          path,
          scope,
          fields: b.inv && a.inv ? invariantFieldChanges(b.inv, a.inv).filter((f) => f.field !== 'scope') : [],
        };
        if (fromPath !== undefined) e.fromPath = fromPath;
        if (fromScope) e.fromScope = fromScope;
        const shown = a.inv ?? b.inv;
        if (shown) e.text = shown.text;
        const problem = a.problem ?? (change === 'removed' ? undefined : b.problem);
        if (problem) e.invalid = problem;
        events.push(e);
      };
      while (gone.length > 0 && born.length > 0) {
        const from = gone.shift()!;
        const to = born.shift()!;
        event('moved', to.path, to.scope, from.path, from.scope, from.oldSha, to.newSha);
      }
      for (const h of born) event('added', h.path, h.scope, undefined, undefined, NULL_SHA, h.newSha);
      for (const h of edits) event('edited', h.path, h.scope, undefined, undefined, h.oldSha, h.newSha);
      for (const h of gone) event('removed', h.path, h.scope, undefined, undefined, h.oldSha, NULL_SHA);
    }
    const shallow = await isShallow(top);
    const latest = events[0];
    return {
      id,
      deleted: latest?.change === 'removed',
      ...(latest && latest.change !== 'removed' ? { path: latest.path } : {}),
      shallow,
      events,
    };
  }
}

/** One commit's change to an invariant. */
export interface LogEvent {
  commit: string;
  author: string;
  email: string;
  /** ISO 8601 author date. */
  date: string;
  subject: string;
  change: 'added' | 'edited' | 'moved' | 'removed';
  /** Store-relative path after the change (the removed path, for removals). */
  path: string;
  scope: Scope;
  fromPath?: string;
  fromScope?: Scope;
  /** The text after the change (before it, for removals). */
  text?: string;
  /** Fields that changed (edits and moves). */
  fields: FieldChange[];
  /** The file as committed was invalid here (its first problem). */
  invalid?: Diagnostic;
}

export interface LogResult {
  id: string;
  /** The last commit in its history removed it. */
  deleted: boolean;
  /** Where it lives at the newest commit that touched it (absent when deleted). */
  path?: string;
  /** The repository is a shallow clone: history may stop early. */
  shallow: boolean;
  /** Newest first. */
  events: LogEvent[];
}
