// The store's files known by their names alone (nothing parsed): the one listing of invariant files and plan ids
// that id resolution, the shell completion and violation lookup share.
import { classifyPath } from '../core/layout.ts';
import type { Scope } from '../core/model.ts';
import { isUlid } from '../core/names.ts';
import { settledRead } from './settled-read.ts';
import type { TreeEntry, TreeSource } from './tree-source.ts';

/**
 * The invariant files of a tree, known by their names alone (nothing parsed): the id, path and scope of each. Listed
 * again while a writer took a file away during the listing (settled-read.ts): a move made whole between the walk's
 * visits of its two folders would leave the id out, and an existing invariant would be said unknown.
 */
export function invariantFiles(tree: TreeSource): Promise<{ id: string; path: string; scope: Scope }[]> {
  return settledRead(
    tree,
    async () => {
      const found: { id: string; path: string; scope: Scope }[] = [];
      for (const entry of await tree.list('', { recursive: true })) {
        if (entry.type !== 'file' || !entry.path.endsWith('.yaml')) continue;
        const kind = classifyPath(entry.path);
        if (kind.kind === 'invariant') found.push({ id: kind.id, path: entry.path, scope: kind.scope });
      }
      return found;
    },
    // Nothing is read, so nothing vanishes: only the generation says a writer passed.
    () => [],
  );
}

/** The plans of a tree, known by their folders' names alone (nothing parsed): each folder of plans/ named by an id, sorted. */
export async function planIds(tree: TreeSource): Promise<string[]> {
  return planIdsIn(await tree.list('plans', { recursive: false }));
}

/**
 * The plans of a tree that hold their plan.yaml, sorted: the plans there are, as the readers of plans find them. A
 * folder left without one (a plan removed by hand, an interrupted checkout) is no plan: listed as one, it would be
 * offered only to fail when read.
 */
export async function existingPlanIds(tree: TreeSource): Promise<string[]> {
  const ids = await planIds(tree);
  const held = await Promise.all(
    ids.map(async (id) =>
      (await tree.list(`plans/${id}`, { recursive: false })).some((e) => e.path === `plans/${id}/plan.yaml` && e.type === 'file'),
    ),
  );
  return ids.filter((_, i) => held[i]);
}

/** The plan ids of a listing of plans/ (planIds), for a caller that looks at its other entries too. */
export function planIdsIn(entries: readonly TreeEntry[]): string[] {
  return entries
    .filter((e) => e.type === 'dir')
    .map((e) => e.path.slice('plans/'.length))
    .filter(isUlid)
    .sort();
}

/** What an id of the store names, by kind: the words an error uses for a file found where another kind was asked for. */
export type IdKind = 'plan' | 'invariant' | 'decision node' | 'enforcement run' | 'violation' | 'waiver';

const RECORD_WORDS = { decisions: 'decision node', enforcement: 'enforcement run', violations: 'violation' } as const;

/**
 * Every id of the tree that starts with `wanted` (an upper-case prefix), of every kind, known by the names of the
 * files and folders alone: for the error that says an id of another kind was given (an invariant's for a plan's).
 */
export async function idsStartingWith(tree: TreeSource, wanted: string): Promise<{ kind: IdKind; id: string; path: string }[]> {
  return idsAmong(await tree.list('', { recursive: true }), wanted);
}

/** The ids of `entries` (a listing of the store, or the files of a revision) that start with `wanted`, as idsStartingWith. */
export function idsAmong(
  entries: Iterable<Pick<TreeEntry, 'path' | 'type'>>,
  wanted: string,
): { kind: IdKind; id: string; path: string }[] {
  const found: { kind: IdKind; id: string; path: string }[] = [];
  for (const entry of entries) {
    if (entry.type === 'dir') {
      const id = entry.path.slice('plans/'.length);
      if (entry.path.startsWith('plans/') && isUlid(id) && id.startsWith(wanted)) found.push({ kind: 'plan', id, path: entry.path });
      continue;
    }
    if (entry.type !== 'file' || !entry.path.endsWith('.yaml')) continue;
    const kind = classifyPath(entry.path);
    if (kind.kind !== 'invariant' && kind.kind !== 'record' && kind.kind !== 'waiver') continue;
    if (!kind.id.startsWith(wanted)) continue;
    found.push({ kind: kind.kind === 'record' ? RECORD_WORDS[kind.record] : kind.kind, id: kind.id, path: entry.path });
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
