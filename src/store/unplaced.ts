// The files below the folders a scope's listing holds that the layout has no place for (`global/sub/`): a listing
// that stops at the scope's own level would never see an invariant put there by hand, which the readers say
// (read-plan.ts, nestedYamlMeant) rather than leave out of the set in silence.
import { isHiddenName, isKnownFolder } from '../core/layout.ts';
import type { TreeEntry, TreeSource } from './tree-source.ts';

/** The files below each folder of `listed` that fits no place in the store (hidden folders are the user's, and left alone). */
export async function filesBelowUnknownFolders(source: TreeSource, listed: readonly TreeEntry[]): Promise<TreeEntry[]> {
  const below: TreeEntry[] = [];
  for (const entry of listed) {
    if (entry.type !== 'dir' || isKnownFolder(entry.path) || isHiddenName(entry.path.slice(entry.path.lastIndexOf('/') + 1))) continue;
    for (const e of await source.list(entry.path, { recursive: true })) if (e.type === 'file') below.push(e);
  }
  return below;
}
