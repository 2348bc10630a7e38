import type { Diagnostic } from '../core/diagnostics.ts';
import { classifyPath, isKnownFolder, type PathKind } from '../core/layout.ts';
import type { Plan, ScopedInvariant, StoreConfig } from '../core/model.ts';
import { parseActionMeta, parseConfig, parseInvariant, parsePlan, YamlSyntaxNotLoaded } from '../core/parse-core.ts';
import type { ReadResult, TreeEntry, TreeSource } from './tree-source.ts';

/** What was read from a store (all of it, or the scope folders a command needs). */
export interface StoreSnapshot {
  /** Every entry listed, files and folders. */
  entries: TreeEntry[];
  invariants: ScopedInvariant[];
  plans: Map<string, Plan>;
  actionMeta: Map<string, { description?: string }>;
  config?: StoreConfig;
  /** Problems met while reading and parsing the files above. */
  diagnostics: Diagnostic[];
}

export function emptySnapshot(): StoreSnapshot {
  return { entries: [], invariants: [], plans: new Map(), actionMeta: new Map(), diagnostics: [] };
}

/** Diagnostic for a file the source could not give us. */
export function readFailure(file: string, r: Exclude<ReadResult, { ok: true }>): Diagnostic {
  if (r.code === 'missing') {
    if (file.endsWith('/plan.yaml')) {
      return { code: 'plan-missing', severity: 'error', file, line: 0, col: 0, message: `plan folder ${file.slice(0, -'plan.yaml'.length)} has no plan.yaml`, hint: 'Restore plan.yaml, or remove the folder if the plan is gone.' };
    }
    return { code: 'file-unreadable', severity: 'error', file, line: 0, col: 0, message: `${file} vanished while it was read`, hint: 'Run the command again.' };
  }
  const hint =
    r.code === 'symlink'
      ? 'Replace the link with the file itself; a store never follows links.'
      : r.code === 'file-too-large'
        ? 'A store file holds one short document; shorten it.'
        : r.code === 'not-a-file'
          ? 'Only files may have a .yaml name in a store; rename or move it.'
          : 'Check its permissions.';
  return { code: r.code, severity: 'error', file, line: 0, col: 0, message: `${file} ${r.message}`, hint };
}

/** A folder that holds (or leads to) invariants, plans or records. */
export function isScopeFolder(path: string): boolean {
  return !path.endsWith('.yaml') && isKnownFolder(path) && !path.startsWith('schemas') && !path.startsWith('actors');
}

/** The kinds of path this reader parses. */
function wanted(kind: PathKind): boolean {
  return kind.kind === 'invariant' || kind.kind === 'plan' || kind.kind === 'action-meta' || kind.kind === 'config' || kind.kind === 'bad-id';
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
  /** Paths already classified by the caller (classifyPath's answers), to avoid doing it twice on a whole store. */
  kinds?: ReadonlyMap<string, PathKind>,
): Promise<StoreSnapshot> {
  const jobs: { entry: TreeEntry; kind: PathKind }[] = [];
  for (const entry of entries) {
    into.entries.push(entry);
    if (entry.type === 'symlink' && isScopeFolder(entry.path)) {
      // A scope folder that is a link: its invariants are not read, so the set would be silently short.
      into.diagnostics.push({ code: 'symlink', severity: 'error', file: entry.path, line: 0, col: 0, message: `${entry.path} is a symbolic link to a folder; links are never followed inside a store`, hint: 'Replace the link with the folder itself.' });
      continue;
    }
    if (!entry.path.endsWith('.yaml')) continue;
    const kind = kinds?.get(entry.path) ?? classifyPath(entry.path);
    if (!wanted(kind)) continue;
    if (kind.kind === 'bad-id') {
      into.diagnostics.push({ code: 'id-invalid', severity: 'error', file: entry.path, line: 0, col: 0, message: `${kind.problem}; every *.yaml in a scope folder is an invariant`, hint: 'Rename the file to <its id>.yaml, or move it out of the scope folder.' });
      continue;
    }
    if (entry.type !== 'file') {
      const r: ReadResult =
        entry.type === 'symlink'
          ? { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' }
          : { ok: false, code: 'not-a-file', message: entry.type === 'dir' ? 'is a folder, not a file' : 'is not a regular file' };
      into.diagnostics.push(readFailure(entry.path, r));
      continue;
    }
    jobs.push({ entry, kind });
  }
  const contents = await source.read(jobs.map((j) => j.entry.path));
  for (const { entry, kind } of jobs) {
    const r = contents.get(entry.path);
    if (!r) continue;
    if (!r.ok) {
      into.diagnostics.push(readFailure(entry.path, r));
      continue;
    }
    try {
      parseInto(into, entry.path, kind, r.bytes);
    } catch (error) {
      // The file needs the full YAML parser (it is not in the canonical shape,
      // or a diagnostic needs positions): load it once, then parse again.
      // Parsing is pure and adds to `into` only when it returns.
      if (!(error instanceof YamlSyntaxNotLoaded)) throw error;
      await import('../core/parse.ts');
      parseInto(into, entry.path, kind, r.bytes);
    }
  }
  return into;
}

function parseInto(into: StoreSnapshot, file: string, kind: PathKind, bytes: Uint8Array): void {
  switch (kind.kind) {
    case 'invariant': {
      const p = parseInvariant(file, bytes, kind.scope, kind.id);
      if (p.value) into.invariants.push(p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'plan': {
      const p = parsePlan(file, bytes, kind.plan);
      if (p.value) into.plans.set(kind.plan, p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'action-meta': {
      const p = parseActionMeta(file, bytes);
      if (p.value) into.actionMeta.set(`${kind.ns}/${kind.name}`, p.value);
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    case 'config': {
      const p = parseConfig(file, bytes);
      if (p.value) into.config = p.value;
      into.diagnostics.push(...p.diagnostics);
      return;
    }
    default:
      return;
  }
}

/** Reads the given scope folders (not recursively) into one snapshot. */
export async function readFolders(source: TreeSource, folders: readonly string[], into: StoreSnapshot = emptySnapshot()): Promise<StoreSnapshot> {
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
