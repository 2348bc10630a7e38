// What hook mode must look at beyond the changed files (docs/validation.md,
// "What hook mode checks"): some changes are inputs of checks on files the
// commit does not touch. A deleted invariant is the target of another's
// `overrides:`; config.yaml decides whether overlapping project paths are an
// error; the extends lock decides which texts are locked. For such a commit
// the hook's verdict must be a full run's.
import type { TreeSource } from '../store/tree-source.ts';

/** Files whose change is an input of checks across the whole store. */
const STORE_WIDE = new Set(['config.yaml', 'extends.lock.yaml']);

/**
 * Whether the changed paths include a store-wide input: config.yaml, the
 * extends lock, or a file the source no longer holds (deleted). One listing
 * per folder of a changed path, and only when no store-wide file changed.
 */
export async function changesStoreWideInput(source: TreeSource, changed: ReadonlySet<string>): Promise<boolean> {
  for (const p of changed) if (STORE_WIDE.has(p)) return true;
  const byFolder = new Map<string, string[]>();
  for (const p of changed) {
    const slash = p.lastIndexOf('/');
    const dir = slash < 0 ? '' : p.slice(0, slash);
    const list = byFolder.get(dir);
    if (list) list.push(p);
    else byFolder.set(dir, [p]);
  }
  for (const [dir, paths] of byFolder) {
    let present: Set<string>;
    try {
      present = new Set((await source.list(dir, { recursive: false })).map((e) => e.path));
    } catch {
      // The folder itself is gone: its files were deleted.
      return true;
    }
    if (paths.some((p) => !present.has(p))) return true;
  }
  return false;
}
