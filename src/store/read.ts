import type { Diagnostic, Parsed } from '../core/diagnostics.ts';
import { isTemporaryName, type PathKind } from '../core/layout.ts';
import { isUlid, ulidProblem } from '../core/names.ts';
import type { Plan, ProjectMeta, ScopedInvariant, StoreConfig } from '../core/model.ts';
import { parseConfig, parseInvariant, parsePlan, type YamlSyntax } from '../core/parse-core.ts';
import { parseActionMeta, parseProjectMeta } from '../core/parse-meta.ts';
import { isCachedActionMeta, isCachedInvariant, isCachedPlan, isCachedProjectMeta } from '../core/parsed-shape.ts';
import type { ExtendsLock } from '../core/extends.ts';
import { parseExtendsLock } from '../core/extends-lock.ts';
import { badName, fileWhereFolderGoes, isRequiredFolder, isScopeFolder, planReads, readFailure } from './read-plan.ts';
import type { TreeEntry, TreeSource } from './tree-source.ts';
import { readParsed } from './read-parsed.ts';
import { withoutMovingCopies } from './moving-copies.ts';
import { settledRead } from './settled-read.ts';
import { filesBelowUnknownFolders } from './unplaced.ts';

export { isScopeFolder, planReads, readFailure, type ReadJob } from './read-plan.ts';

/** What was read from a store (all of it, or the scope folders a command needs). */
export interface StoreSnapshot {
  /** Every entry listed, files and folders. */
  entries: TreeEntry[];
  invariants: ScopedInvariant[];
  plans: Map<string, Plan>;
  actionMeta: Map<string, { description?: string }>;
  /** Each project's project.yaml that was read, by project name. */
  projectMeta: Map<string, ProjectMeta>;
  config?: StoreConfig;
  /** extends.lock.yaml, when read (docs/extends.md). */
  extendsLock?: ExtendsLock;
  /** Problems met while reading and parsing the files above. */
  diagnostics: Diagnostic[];
}

export function emptySnapshot(): StoreSnapshot {
  return { entries: [], invariants: [], plans: new Map(), actionMeta: new Map(), projectMeta: new Map(), diagnostics: [] };
}

/** The kinds of path this reader parses. */
function wanted(kind: PathKind): boolean {
  return (
    kind.kind === 'invariant' ||
    kind.kind === 'plan' ||
    kind.kind === 'action-meta' ||
    kind.kind === 'project-meta' ||
    kind.kind === 'config' ||
    kind.kind === 'extends-lock' ||
    kind.kind === 'bad-id' ||
    kind.kind === 'bad-name'
  );
}

/**
 * Parses the listed entries into a snapshot. Invariant files with a name that
 * is not a ULID, and files in a project, action or plan folder whose name breaks
 * the rules, are errors (a hand-written invariant must not be silently
 * ignored); other shapes are left to `validate`.
 */
export async function readEntries(
  source: TreeSource,
  entries: TreeEntry[],
  into: StoreSnapshot = emptySnapshot(),
  /** The kind of each entry, already classified by the caller (classifyPath's answers, aligned with `entries`). */
  kinds?: readonly PathKind[],
): Promise<StoreSnapshot> {
  for (const entry of entries) into.entries.push(entry);
  const jobs = planReads(entries, wanted, into.diagnostics, kinds);
  const parsed = await readParsed(
    source,
    jobs.map((j) => j.entry.path),
    (i, bytes, syntax) => parseRecord(jobs[i]!.entry.path, jobs[i]!.kind, bytes, syntax),
    // The records a store holds by the thousand are kept, by folder; config.yaml and the lock are one file each.
    {
      parser: 'records',
      group: (file, i) => (KEPT.has(jobs[i]!.kind.kind) ? file.slice(0, file.lastIndexOf('/')) : undefined),
      fits: (value, i) => fitsKind(value, jobs[i]!.kind, jobs[i]!.entry.path),
    },
  );
  for (const [i, { entry, kind }] of jobs.entries()) {
    const p = parsed[i];
    if (p === undefined) continue;
    if ('ok' in p) into.diagnostics.push(readFailure(entry.path, p));
    else addRecord(into, kind, p);
  }
  return into;
}

/** The kinds of record whose parses the parse cache keeps. */
const KEPT = new Set<PathKind['kind']>(['invariant', 'plan', 'action-meta', 'project-meta']);

/** Whether a kept value has the shape the parser of its kind gives (a cache entry that does not is parsed again). */
function fitsKind(value: unknown, kind: PathKind, file: string): boolean {
  switch (kind.kind) {
    case 'invariant':
      return isCachedInvariant(value, kind.id, file);
    case 'plan':
      return isCachedPlan(value, kind.plan);
    case 'action-meta':
      return isCachedActionMeta(value);
    case 'project-meta':
      return isCachedProjectMeta(value);
    default:
      return false;
  }
}

type RecordValue = ScopedInvariant | Plan | { description?: string } | ProjectMeta | StoreConfig | ExtendsLock;

/** One file's parse: pure, from its path (and the kind the path gives) and bytes alone. */
function parseRecord(file: string, kind: PathKind, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<RecordValue> {
  switch (kind.kind) {
    case 'invariant':
      return parseInvariant(file, bytes, kind.scope, kind.id, true, syntax);
    case 'plan':
      return parsePlan(file, bytes, kind.plan, syntax);
    case 'action-meta':
      return parseActionMeta(file, bytes, syntax);
    case 'project-meta':
      return parseProjectMeta(file, bytes, syntax);
    case 'config':
      return parseConfig(file, bytes, syntax);
    case 'extends-lock':
      return parseExtendsLock(file, bytes, syntax);
    default:
      return { diagnostics: [] };
  }
}

/** Adds a file's parse to the snapshot. */
function addRecord(into: StoreSnapshot, kind: PathKind, p: Parsed<RecordValue>): void {
  into.diagnostics.push(...p.diagnostics);
  if (p.value === undefined) return;
  switch (kind.kind) {
    case 'invariant': {
      const inv = p.value as ScopedInvariant;
      // The folder's one scope object (a parse from the cache has a copy of it).
      inv.scope = kind.scope;
      into.invariants.push(inv);
      return;
    }
    case 'plan':
      into.plans.set(kind.plan, p.value as Plan);
      return;
    case 'action-meta':
      into.actionMeta.set(`${kind.ns}/${kind.name}`, p.value as { description?: string });
      return;
    case 'project-meta':
      into.projectMeta.set(kind.project, p.value as ProjectMeta);
      return;
    case 'config':
      into.config = p.value as StoreConfig;
      return;
    case 'extends-lock':
      into.extendsLock = p.value as ExtendsLock;
      return;
    default:
      return;
  }
}

/**
 * What stands in the place of the required folder `folder` (isRequiredFolder) and is no folder, when `listed`, its
 * listing, is empty: a file there lists as an empty folder, so only then is its parent listed (once for each parent,
 * with `parents`). None for a folder that is one, or is absent.
 */
export async function standingAt(
  source: TreeSource,
  folder: string,
  listed: readonly TreeEntry[],
  parents: Map<string, TreeEntry[]> = new Map(),
): Promise<TreeEntry[]> {
  if (listed.length > 0 || !isRequiredFolder(folder)) return [];
  const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
  let around = parents.get(parent);
  if (around === undefined) parents.set(parent, (around = await source.list(parent, { recursive: false })));
  return around.filter((e) => e.path === folder && e.type !== 'dir');
}

/**
 * One read of a store (listed, then its files read), made again whole while a file it listed vanished before it was
 * read, or a writer took a file away during it (settled-read.ts); added to `into` only once settled, so that no half
 * of a moment stays in it.
 */
async function settled(
  source: TreeSource,
  into: StoreSnapshot | undefined,
  read: (fresh: StoreSnapshot) => Promise<StoreSnapshot>,
): Promise<StoreSnapshot> {
  // A move under way holds an id twice, the old copy marked: the snapshot is the store as the move leaves it.
  const snap = withoutMovingCopies(
    source,
    await settledRead(
      source,
      () => read(emptySnapshot()),
      (s) => s.diagnostics,
    ),
  );
  if (into === undefined) return snap;
  // One by one: a spread of a large store's entries would pass more arguments than a call takes.
  for (const e of snap.entries) into.entries.push(e);
  for (const i of snap.invariants) into.invariants.push(i);
  for (const [k, v] of snap.plans) into.plans.set(k, v);
  for (const [k, v] of snap.actionMeta) into.actionMeta.set(k, v);
  for (const [k, v] of snap.projectMeta) into.projectMeta.set(k, v);
  if (snap.config !== undefined) into.config = snap.config;
  if (snap.extendsLock !== undefined) into.extendsLock = snap.extendsLock;
  for (const d of snap.diagnostics) into.diagnostics.push(d);
  return into;
}

/** Reads the given scope folders (not recursively) into one snapshot. */
export function readFolders(source: TreeSource, folders: readonly string[], into?: StoreSnapshot): Promise<StoreSnapshot> {
  return settled(source, into, (fresh) => readFoldersOnce(source, folders, fresh));
}

async function readFoldersOnce(source: TreeSource, folders: readonly string[], into: StoreSnapshot): Promise<StoreSnapshot> {
  const entries: TreeEntry[] = [];
  const seen = new Set<string>();
  const parents = new Map<string, TreeEntry[]>();
  for (const folder of folders) {
    const listed = await source.list(folder, { recursive: false });
    // An empty scope folder (a top one, a project's) may be no folder at all: a file there is reported (planReads), not
    // read as empty. Its parent is listed once for every such folder.
    listed.push(...(await standingAt(source, folder, listed, parents)));
    // An invariant put by hand in a sub-folder of the scope is said by planReads, not left out of the set in silence.
    for (const entry of [...listed, ...(await filesBelowUnknownFolders(source, listed))]) {
      // Two folders below one linked folder both report that link.
      if (seen.has(entry.path)) continue;
      seen.add(entry.path);
      entries.push(entry);
    }
  }
  return readEntries(source, entries, into);
}

/** Reads the whole store. */
export function readStore(source: TreeSource): Promise<StoreSnapshot> {
  return settled(source, undefined, async (fresh) => readEntries(source, await source.list('', { recursive: true }), fresh));
}

/** Every plan's plan.yaml (for finding the plans that target a project). */
export function readAllPlans(source: TreeSource, into?: StoreSnapshot): Promise<StoreSnapshot> {
  return settled(source, into, (fresh) => readAllPlansOnce(source, fresh));
}

async function readAllPlansOnce(source: TreeSource, into: StoreSnapshot): Promise<StoreSnapshot> {
  const entries = await source.list('plans', { recursive: false });
  const planDirs = entries.filter((e) => e.type === 'dir' && isUlid(e.path.slice('plans/'.length)));
  // A folder of another name is no plan: its plan.yaml is not asked for, but the folder is said, as validate says it
  // (a plan whose folder name was changed by hand would otherwise drop out of every listing in silence). A folder an
  // interrupted `plan use` left is no plan yet.
  for (const e of entries) {
    const name = e.path.slice('plans/'.length);
    if (e.type === 'dir' && !isUlid(name) && !isTemporaryName(name))
      into.diagnostics.push(badName(e.path, ulidProblem(name, 'plan folder')!));
    // A file where a plan's folder goes is said, never a plan left out of the listing.
    else if (e.type !== 'dir' && isRequiredFolder(e.path, e.type)) into.diagnostics.push(fileWhereFolderGoes(e.path));
  }
  // A linked plans/ or plan folder is reported (readEntries names it), never skipped in silence.
  const links = entries.filter((e) => e.type === 'symlink' && isScopeFolder(e.path));
  // A file in the place of plans/ lists as no plan at all: said, never "no plans" with the gate left without them.
  const top = await standingAt(source, 'plans', entries);
  return readEntries(source, [...top, ...links, ...planDirs.map((d) => ({ path: `${d.path}/plan.yaml`, type: 'file' as const }))], into);
}
