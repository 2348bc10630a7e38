import type { Diagnostic } from '../../core/diagnostics.ts';
import { type PathKind, temporaryParts } from '../../core/layout.ts';
import { isUlid } from '../../core/names.ts';
import type { TreeEntry } from '../../store/tree-source.ts';
import { problem } from './problem.ts';

/** The id each path stands for: its file name, or the plan folder for plan.yaml. */
function idOf(kind: PathKind): string | undefined {
  if (kind.kind === 'invariant' || kind.kind === 'record' || kind.kind === 'waiver') return kind.id;
  if (kind.kind === 'plan') return kind.plan;
  return undefined;
}

/** Whether `path` is a plan folder (`plans/<ULID>`), without splitting every path of the store. */
function isPlanFolderPath(path: string): boolean {
  return path.startsWith('plans/') && isUlid(path.slice(6));
}

/**
 * Ids in use anywhere in the store (file names, plan folders), and `id-reused`
 * for every later use of an id that names an invariant file, a plan or a
 * record: one id names one thing in the whole store. One pass over the entries.
 */
export function checkIds(entries: readonly TreeEntry[], kinds: readonly PathKind[]): { usedIds: Set<string>; diagnostics: Diagnostic[] } {
  const usedIds = new Set<string>();
  // A use that does not grow the set is a reuse (rare): only then are first uses looked for.
  let reused: Map<string, string[]> | undefined;
  const planFolders: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    // A file both sides of a merge deleted is in no side of it: its conflict is reported, not its id.
    const id = e.deleted ? undefined : idOf(kinds[i]!);
    if (id) {
      const size = usedIds.size;
      if (usedIds.add(id).size === size) {
        reused ??= new Map();
        const list = reused.get(id);
        if (list) list.push(e.path);
        else reused.set(id, [e.path]);
      }
    }
    if (e.type === 'dir' && isPlanFolderPath(e.path)) planFolders.push(e.path.slice(6));
  }
  for (const id of planFolders) usedIds.add(id);
  const diagnostics: Diagnostic[] = [];
  if (!reused) return { usedIds, diagnostics };
  // Grouped by id in the order of first use.
  const first = new Map<string, string>();
  for (let i = 0; i < entries.length; i++) {
    const id = entries[i]!.deleted ? undefined : idOf(kinds[i]!);
    if (id && reused.has(id) && !first.has(id)) first.set(id, entries[i]!.path);
  }
  // A temporary of one of the copies (a link to it an `invariant move` makes while it runs) says the move was cut short.
  const temporaryOf = new Set<string>();
  for (const e of entries) {
    const slash = e.path.lastIndexOf('/');
    const name = temporaryParts(e.path.slice(slash + 1))?.name;
    if (name !== undefined) temporaryOf.add(`${e.path.slice(0, slash + 1)}${name}`);
  }
  for (const [id, firstPath] of first)
    for (const p of reused.get(id)!) diagnostics.push(idReused(id, p, firstPath, temporaryOf.has(p) || temporaryOf.has(firstPath)));
  return { usedIds, diagnostics };
}

function idReused(id: string, path: string, firstPath: string, moving = false): Diagnostic {
  return problem(
    'id-reused',
    'error',
    path,
    `id ${id} is already used by ${firstPath}; an id names one thing in the whole store`,
    moving
      ? 'An `agents invariant move` may have been cut short here (a temporary stands beside a copy): run `agents validate --fix`, which finishes it when that temporary marks the copy it left.'
      : 'Give this file a new id (copy the text with `agents invariant add`, then delete this file).',
    { related: [{ file: firstPath, line: 0, col: 0, message: `first use of ${id}` }] },
  );
}

/**
 * `id-reused`, as `checkIds` says it, for each invariant file whose id a file before it in path order has: what a
 * reader of some scope folders finds (two copies there would shadow one another and shorten an effective set).
 */
export function reusedInvariantIds(files: Iterable<{ id: string; path: string }>): Diagnostic[] {
  // Every reader asks this of every file it read: one map of first paths, and lists only for the ids seen twice.
  const first = new Map<string, string>();
  let more: Map<string, string[]> | undefined;
  for (const f of files) {
    const seen = first.get(f.id);
    if (seen === undefined) first.set(f.id, f.path);
    else {
      more ??= new Map();
      const paths = more.get(f.id);
      if (paths === undefined) more.set(f.id, [seen, f.path]);
      else paths.push(f.path);
    }
  }
  if (more === undefined) return [];
  const out: Diagnostic[] = [];
  for (const [id, paths] of more) {
    const [firstPath, ...rest] = [...paths].sort();
    for (const p of rest) out.push(idReused(id, p, firstPath!));
  }
  return out;
}
