/**
 * Pairing the two sides' versions of files named by their ids (invariants,
 * waivers) into the file-level changes a diff reports (docs/review.md).
 */

/**
 * Path order. It answers -1 or 1, never 0: V8's sort only asks whether an answer is below zero, and
 * the lists sorted here hold no two changes of one path.
 */
function byPath<T extends { path: string }>(a: T, b: T): number {
  return a.path < b.path ? -1 : 1;
}

/** A file-level change of one file named by its id (an invariant, a waiver), with the fields that differ. */
export interface IdFileChange<T, F> {
  change: 'added' | 'removed' | 'edited' | 'moved';
  id: string;
  /** Path after the change (before, for removals). */
  path: string;
  /** For moves: the path before. */
  fromPath?: string;
  before?: T;
  after?: T;
  fields: F[];
}

/**
 * File-level changes between two lists of files named by their ids (the
 * changed files of each side are enough; unchanged ones pair up with no
 * fields and are dropped). Pairs by path, then by id across paths (a move
 * between scopes keeps the id in the file name). An edit that changes no
 * field (comments, layout) is not reported.
 */
export function diffIdFiles<T extends { id: string; path: string }, F>(
  before: readonly T[],
  after: readonly T[],
  fieldsOf: (before: T, after: T) => F[],
): IdFileChange<T, F>[] {
  const afterByPath = new Map(after.map((i) => [i.path, i]));
  const beforeByPath = new Map(before.map((i) => [i.path, i]));
  const out: IdFileChange<T, F>[] = [];
  const goneById = new Map<string, T[]>();
  const newById = new Map<string, T[]>();
  for (const b of before) {
    const a = afterByPath.get(b.path);
    if (a) {
      const fields = fieldsOf(b, a);
      if (fields.length > 0) out.push({ change: 'edited', id: a.id, path: a.path, before: b, after: a, fields });
    } else {
      const list = goneById.get(b.id) ?? [];
      list.push(b);
      goneById.set(b.id, list);
    }
  }
  for (const a of after) {
    if (beforeByPath.has(a.path)) continue;
    const list = newById.get(a.id) ?? [];
    list.push(a);
    newById.set(a.id, list);
  }
  for (const [id, added] of newById) {
    const removed = goneById.get(id) ?? [];
    for (const a of added) {
      const b = removed.shift();
      if (b) out.push({ change: 'moved', id, path: a.path, fromPath: b.path, before: b, after: a, fields: fieldsOf(b, a) });
      else out.push({ change: 'added', id, path: a.path, after: a, fields: [] });
    }
  }
  for (const removed of goneById.values()) {
    for (const b of removed) out.push({ change: 'removed', id: b.id, path: b.path, before: b, fields: [] });
  }
  return out.sort(byPath);
}
