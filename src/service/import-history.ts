/**
 * The text an invariant imported before the import recorded `imported_from.text_hash` had when it was first
 * committed (docs/import.md, "Rules gone from their files"): its history tells an edit made in the store since from a
 * rule its file dropped, which its text alone cannot.
 */
import { AgentsError } from '../core/errors.ts';
import { GitError } from '../git/repo.ts';
import { importedTextHash, type StaleImport } from '../core/import-stale.ts';
import type { ScopedInvariant } from '../core/model.ts';
import { textKey } from '../core/normalise.ts';
import { invariantLog } from './review/log.ts';

/**
 * The plan `plan` makes of `store`, made again when an invariant it finds gone from its file (`stale`) turns out, by
 * its history, to have been edited in the store since (withImportedTexts): with the store it was made of.
 */
export async function planWithHistory<P extends { stale?: readonly StaleImport[] }>(
  root: string,
  store: readonly ScopedInvariant[],
  plan: (store: readonly ScopedInvariant[]) => P,
): Promise<{ planned: P; store: readonly ScopedInvariant[] }> {
  const planned = plan(store);
  const dated = planned.stale?.length ? await withImportedTexts(root, planned.stale, store) : store;
  return dated === store ? { planned, store } : { planned: plan(dated), store: dated };
}

/**
 * The store with each invariant of `stale` that holds no `text_hash` given one (in memory only) when git's history of
 * its file shows its text changed since its first commit: the store edited it, and that first text is its file's. The
 * store as it is when none was, so that the plan need not be made again.
 */
async function withImportedTexts(
  root: string,
  stale: readonly StaleImport[],
  store: readonly ScopedInvariant[],
): Promise<readonly ScopedInvariant[]> {
  const byId = new Map(store.map((inv) => [inv.id, inv]));
  const first = new Map<string, string>();
  for (const gone of stale) {
    const inv = byId.get(gone.id);
    if (inv?.imported_from === undefined || inv.imported_from.text_hash !== undefined) continue;
    const text = await firstCommittedText(root, inv.id);
    if (text !== undefined && textKey(text) !== textKey(inv.text)) first.set(inv.id, text);
  }
  if (first.size === 0) return store;
  return store.map((inv) => {
    const text = first.get(inv.id);
    return text === undefined ? inv : { ...inv, imported_from: { ...inv.imported_from!, text_hash: importedTextHash(text) } };
  });
}

/** Its text in the oldest commit that holds it; undefined with no history (never committed, or no git repository). */
async function firstCommittedText(root: string, id: string): Promise<string | undefined> {
  try {
    const { events } = await invariantLog(root, id);
    return events.findLast((e) => e.text !== undefined)?.text;
  } catch (error) {
    // No history to read (not a repository, no commit of it, an object git cannot give): its text is taken for its
    // file's, as before.
    if (error instanceof AgentsError || error instanceof GitError) return undefined;
    throw error;
  }
}
