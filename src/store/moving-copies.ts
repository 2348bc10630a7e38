// A move under way (service/invariants/move.ts) holds an id in two scopes until it removes the old copy, which its
// running writer has marked: readers of the working tree answer the store as the move leaves it.
import { join } from 'node:path';
import type { ScopedInvariant } from '../core/model.ts';
import { fileExists } from './parse-cache.ts';
import { moveMarks } from './stale-temps.ts';
import { type TreeSource, WorkingTreeSource } from './tree-source.ts';

/**
 * The copies among `files` that an `invariant move` still running is taking away: each marked by a link to it under a
 * temporary's name whose writer is this host's and alive, or gone from the working tree since it was read. A mark of
 * a writer gone is a move cut short, which `validate --fix` finishes: those copies are not counted here. None outside
 * the working tree: git's copies are no move's.
 */
export function movingAway(source: TreeSource, files: readonly { path: string }[]): Set<string> {
  if (!(source instanceof WorkingTreeSource)) return new Set();
  const root = source.root;
  // A copy gone from the working tree since it was read is one the move has taken away by now (its mark goes with it).
  const away = (path: string) => !fileExists(join(root, path)) || moveMarks(root, path).some((m) => m.writer === 'running');
  return new Set(files.filter((f) => away(f.path)).map((f) => f.path));
}

/**
 * `snapshot` without the copies a move under way is taking away, where that leaves each id of them once: what a
 * reader finds once the move is done, rather than an id in two scopes refused as an invalid store.
 */
export function withoutMovingCopies<T extends { invariants: ScopedInvariant[] }>(source: TreeSource, snapshot: T): T {
  const seen = new Map<string, number>();
  for (const i of snapshot.invariants) seen.set(i.id, (seen.get(i.id) ?? 0) + 1);
  const twice = snapshot.invariants.filter((i) => seen.get(i.id)! > 1);
  if (twice.length === 0) return snapshot;
  const away = movingAway(source, twice);
  for (const i of twice) if (away.has(i.path)) seen.set(i.id, seen.get(i.id)! - 1);
  // Only where one copy of the id is left: two copies besides a move's are an id-reused error all the same.
  const drop = new Set(twice.filter((i) => away.has(i.path) && seen.get(i.id) === 1).map((i) => i.path));
  return drop.size === 0 ? snapshot : { ...snapshot, invariants: snapshot.invariants.filter((i) => !drop.has(i.path)) };
}
