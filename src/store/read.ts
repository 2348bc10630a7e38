import type { Diagnostic } from '../core/diagnostics.ts';
import type { PathKind } from '../core/layout.ts';
import type { Plan, ProjectMeta, ScopedInvariant, StoreConfig } from '../core/model.ts';
import { parseConfig, parseInvariant, parsePlan, type YamlSyntax } from '../core/parse-core.ts';
import { parseActionMeta, parseProjectMeta } from '../core/parse-meta.ts';
import type { ExtendsLock } from '../core/extends.ts';
import { parseExtendsLock } from '../core/extends-lock.ts';
import { isScopeFolder, planReads, readFailure } from './read-plan.ts';
import type { TreeEntry, TreeSource } from './tree-source.ts';
import { parseYamlDocument } from './yaml-document.ts';

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
    kind.kind === 'bad-id'
  );
}

/**
 * Parses the listed entries into a snapshot. Invariant files with a name that
 * is not a ULID are errors (a hand-written invariant must not be silently
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
  const contents = await source.read(jobs.map((j) => j.entry.path));
  for (const { entry, kind } of jobs) {
    const r = contents.get(entry.path);
    if (!r) continue;
    if (!r.ok) {
      into.diagnostics.push(readFailure(entry.path, r));
      continue;
    }
    // Parsing is pure and adds to `into` only when it returns (the entry point may run it twice).
    await parseYamlDocument((syntax) => parseInto(into, entry.path, kind, r.bytes, syntax));
  }
  return into;
}

function parseInto(into: StoreSnapshot, file: string, kind: PathKind, bytes: Uint8Array, syntax?: YamlSyntax): void {
  switch (kind.kind) {
    case 'invariant': {
      const p = parseInvariant(file, bytes, kind.scope, kind.id, true, syntax);
      if (p.value) into.invariants.push(p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'plan': {
      const p = parsePlan(file, bytes, kind.plan, syntax);
      if (p.value) into.plans.set(kind.plan, p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'action-meta': {
      const p = parseActionMeta(file, bytes, syntax);
      if (p.value) into.actionMeta.set(`${kind.ns}/${kind.name}`, p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'project-meta': {
      const p = parseProjectMeta(file, bytes, syntax);
      if (p.value) into.projectMeta.set(kind.project, p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'config': {
      const p = parseConfig(file, bytes, syntax);
      if (p.value) into.config = p.value;
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'extends-lock': {
      const p = parseExtendsLock(file, bytes, syntax);
      if (p.value) into.extendsLock = p.value;
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    default:
      return;
  }
}

/** Reads the given scope folders (not recursively) into one snapshot. */
export async function readFolders(
  source: TreeSource,
  folders: readonly string[],
  into: StoreSnapshot = emptySnapshot(),
): Promise<StoreSnapshot> {
  const entries: TreeEntry[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    for (const entry of await source.list(folder, { recursive: false })) {
      // Two folders below one linked folder both report that link.
      if (seen.has(entry.path)) continue;
      seen.add(entry.path);
      entries.push(entry);
    }
  }
  return readEntries(source, entries, into);
}

/** Reads the whole store. */
export async function readStore(source: TreeSource): Promise<StoreSnapshot> {
  return readEntries(source, await source.list('', { recursive: true }));
}

/** Every plan's plan.yaml (for finding the plans that target a project). */
export async function readAllPlans(source: TreeSource, into: StoreSnapshot = emptySnapshot()): Promise<StoreSnapshot> {
  const entries = await source.list('plans', { recursive: false });
  const planDirs = entries.filter((e) => e.type === 'dir');
  // A linked plans/ or plan folder is reported (readEntries names it), never skipped in silence.
  const links = entries.filter((e) => e.type === 'symlink' && isScopeFolder(e.path));
  return readEntries(source, [...links, ...planDirs.map((d) => ({ path: `${d.path}/plan.yaml`, type: 'file' as const }))], into);
}
