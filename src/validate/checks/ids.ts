import type { Diagnostic } from '../../core/diagnostics.ts';
import { type PathKind, temporaryTarget } from '../../core/layout.ts';
import { isUlid } from '../../core/names.ts';
import { looseKey, oneEditApart } from '../../core/near-duplicates.ts';
import { textKey } from '../../core/normalise.ts';
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
 * Ids in use anywhere in the store (file names, plan folders), those of them that name an invariant file, and
 * `id-reused` for every later use of an id that names an invariant file, a plan or a record: one id names one thing
 * in the whole store. One pass over the entries.
 */
export function checkIds(
  entries: readonly TreeEntry[],
  kinds: readonly PathKind[],
  /** Whether the files at two paths hold one invariant (the same or nearly the same text): the hint says to keep one. */
  copies?: (a: string, b: string) => boolean,
): { usedIds: Set<string>; invariantIds: Set<string>; diagnostics: Diagnostic[] } {
  const usedIds = new Set<string>();
  // What a record naming an invariant (a waiver's invariant_id, a copy's origin_id) must name: a violation's id is in use, but no invariant.
  const invariantIds = new Set<string>();
  // A use that does not grow the set is a reuse (rare): only then are first uses looked for.
  let reused: Map<string, string[]> | undefined;
  const planFolders: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    // A file both sides of a merge deleted is in no side of it: its conflict is reported, not its id.
    const id = e.deleted ? undefined : idOf(kinds[i]!);
    if (id && kinds[i]!.kind === 'invariant') invariantIds.add(id);
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
  if (!reused) return { usedIds, invariantIds, diagnostics };
  // Grouped by id in the order of first use.
  const first = new Map<string, string>();
  for (let i = 0; i < entries.length; i++) {
    const id = entries[i]!.deleted ? undefined : idOf(kinds[i]!);
    if (id && reused.has(id) && !first.has(id)) first.set(id, entries[i]!.path);
  }
  // A temporary of one of the copies (a link to it an `invariant move` makes while it runs) says the move was cut short.
  const temporaryOf = new Set<string>();
  for (const e of entries) {
    const target = temporaryTarget(e.path);
    if (target !== undefined) temporaryOf.add(target);
  }
  for (const [id, firstPath] of first)
    for (const p of reused.get(id)!)
      diagnostics.push(idReused(id, p, firstPath, temporaryOf.has(p) || temporaryOf.has(firstPath), copies?.(firstPath, p) === true));
  return { usedIds, invariantIds, diagnostics };
}

function idReused(id: string, path: string, firstPath: string, moving = false, copies = false): Diagnostic {
  return problem(
    'id-reused',
    'error',
    path,
    `id ${id} is already used by ${firstPath}; an id names one thing in the whole store`,
    moving
      ? 'An `agents invariant move` may have been cut short here (a temporary stands beside a copy): run `agents validate --fix`, which finishes it when that temporary marks the copy it left.'
      : copies
        ? // Two copies of one invariant (a merge of two moves of it, each to another scope) are one rule: a new id would keep both.
          `This file and ${firstPath} are copies of one invariant, as a merge of two moves of it leaves them: keep the one in the scope it belongs in and delete the other (\`git rm\` it during a merge).`
        : 'Give this file a new id (copy the text with `agents invariant add`, then delete this file).',
    { related: [{ file: firstPath, line: 0, col: 0, message: `first use of ${id}` }] },
  );
}

/**
 * `id-reused`, as `checkIds` says it, for each invariant file whose id a file before it in path order has: what a
 * reader of some scope folders finds (two copies there would shadow one another and shorten an effective set).
 */
export function reusedInvariantIds(files: Iterable<IdUse>): Diagnostic[] {
  // Every reader asks this of every file it read: one map of first paths, and lists only for the ids seen twice.
  const first = new Map<string, IdUse>();
  let more: Map<string, IdUse[]> | undefined;
  for (const f of files) {
    const seen = first.get(f.id);
    if (seen === undefined) first.set(f.id, f);
    else {
      more ??= new Map();
      const list = more.get(f.id);
      if (list === undefined) more.set(f.id, [seen, f]);
      else list.push(f);
    }
  }
  if (more === undefined) return [];
  const out: Diagnostic[] = [];
  for (const [id, list] of more) {
    const [one, ...rest] = [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const f of rest) out.push(idReused(id, f.path, one!.path, false, sameInvariant(one!, f)));
  }
  return out;
}

/** An invariant file a reader found, with its text when it parsed it, and its blob where git holds it. */
export interface IdUse {
  id: string;
  path: string;
  text?: string;
  blob?: string;
}

function sameInvariant(a: IdUse, b: IdUse): boolean {
  if (a.blob !== undefined && a.blob === b.blob) return true;
  return a.text !== undefined && b.text !== undefined && sameText(a.text, b.text);
}

/** Whether two invariants' texts say one thing: the same text key, or near-duplicates (core/near-duplicates.ts). */
export function sameText(a: string, b: string): boolean {
  if (textKey(a) === textKey(b)) return true;
  const [la, lb] = [looseKey(a), looseKey(b)];
  return la === lb || oneEditApart(la, lb);
}

/**
 * Whether the files at two store paths hold one invariant, from what validate knows of them without reading them
 * again: one blob (a path a merge left unresolved has no facts, but the blob of the side git holds), or facts whose
 * text keys are equal or near (the punctuation-free keys equal or one edit apart).
 */
export function copiesByFacts(
  paths: readonly string[],
  facts: readonly { k?: string; n?: string }[],
  blobs: ReadonlyMap<string, { readonly sha: string }> | undefined,
): (a: string, b: string) => boolean {
  let at: Map<string, number> | undefined;
  return (a, b) => {
    const [ba, bb] = [blobs?.get(a)?.sha, blobs?.get(b)?.sha];
    if (ba !== undefined && ba === bb) return true;
    at ??= new Map(paths.map((p, i) => [p, i]));
    const [fa, fb] = [facts[at.get(a) ?? -1], facts[at.get(b) ?? -1]];
    if (fa?.k === undefined || fb?.k === undefined) return false;
    if (fa.k === fb.k) return true;
    return fa.n !== undefined && fb.n !== undefined && (fa.n === fb.n || oneEditApart(fa.n, fb.n));
  };
}
