// The files below the folders a scope's listing holds that the layout has no place for (`global/sub/`): a listing
// that stops at the scope's own level would never see an invariant put there by hand, which the readers say
// (read-plan.ts, nestedYamlMeant) rather than leave out of the set in silence.
import type { Diagnostic } from '../core/diagnostics.ts';
import { badId, classifyPath, isHiddenName, isKnownFolder, type PathKind } from '../core/layout.ts';
import { readFailure, strayFinding, unlistedFolder } from './read-plan.ts';
import type { TreeEntry, TreeSource } from './tree-source.ts';

/**
 * The files below each folder of `listed` that fits no place in the store (hidden folders are the user's, and left alone),
 * and the folders below it that cannot be listed.
 */
export async function filesBelowUnknownFolders(source: TreeSource, listed: readonly TreeEntry[]): Promise<TreeEntry[]> {
  const below: TreeEntry[] = [];
  for (const entry of listed) {
    if (entry.type !== 'dir' || isKnownFolder(entry.path) || isHiddenName(entry.path.slice(entry.path.lastIndexOf('/') + 1))) continue;
    // A folder below that cannot be listed may hold such a file: kept for planReads to refuse, as a whole-store read does.
    for (const e of await source.list(entry.path, { recursive: true })) if (e.type === 'file' || e.unreadable !== undefined) below.push(e);
  }
  return below;
}

/**
 * The files of `kind` (records or waivers) in `folder`, classified, as their reader takes them. What no reader would
 * take is said in `diagnostics` instead, as validate says it: a file written as `.yml` or put in a sub-folder (a
 * violation would vanish from the gate), a name of no valid id, a link or special file at a record's name.
 */
export async function filesOfKind<K extends 'record' | 'waiver'>(
  source: TreeSource,
  folder: string,
  kind: K,
  diagnostics: Diagnostic[],
): Promise<{ path: string; c: Extract<PathKind, { kind: K }> }[]> {
  const listed = await source.list(folder, { recursive: false });
  const paths = new Set(listed.map((e) => e.path));
  const out: { path: string; c: Extract<PathKind, { kind: K }> }[] = [];
  for (const entry of [...listed, ...(await filesBelowUnknownFolders(source, listed))]) {
    if (entry.unreadable !== undefined) {
      const refused = unlistedFolder(entry.path, entry.unreadable);
      if (refused) diagnostics.push(refused);
      continue;
    }
    const stray = strayFinding(
      entry,
      classifyPath,
      (k) => k.kind === kind,
      () => paths,
    );
    if (stray) diagnostics.push(stray);
    if (!entry.path.endsWith('.yaml')) continue;
    const c = classifyPath(entry.path);
    if (c.kind === 'bad-id') {
      diagnostics.push(badId(entry.path, c));
      continue;
    }
    if (c.kind !== kind) continue;
    if (entry.type !== 'file') {
      diagnostics.push(
        readFailure(
          entry.path,
          entry.type === 'symlink'
            ? { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' }
            : { ok: false, code: 'not-a-file', message: 'is not a regular file' },
        ),
      );
      continue;
    }
    out.push({ path: entry.path, c: c as Extract<PathKind, { kind: K }> });
  }
  return out;
}
