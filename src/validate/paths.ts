// PATHS of `agents validate`, checked apart from the run: hook mode stops
// before the validation code loads when no store file is staged, and must
// still refuse a path outside the store (docs/validation.md).
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { shellPath } from '../core/shell-word.ts';
import { pathFromCwd } from '../store/current-folder.ts';

/** PATHS → store-relative paths ("" is the whole store); undefined for none; refuses paths outside the store. */
export function storePaths(store: string, cwd: string, paths: readonly string[] | undefined): string[] | undefined {
  if (!paths || paths.length === 0) return undefined;
  return paths.map((p) => {
    // An empty path (an unset shell variable) names nothing: read as the current folder, it names no file of the store.
    if (p.trim() === '')
      throw new UsageError('an empty path was given', 'Name a file or folder of the store, or none to report on all of it.');
    const abs = resolve(cwd, p);
    let rel = relative(resolve(store), abs).split(sep).join('/');
    // The store is found by its real path; a path written through a linked folder (`/tmp` on macOS, a linked checkout)
    // names the same file: compared again by the real path of its folder (never of the file: a link in the store is its own).
    if (outside(rel))
      rel = relative(realFolderPath(store), join(realFolderPath(dirname(abs)), basename(abs)))
        .split(sep)
        .join('/');
    if (outside(rel)) {
      // A path written from the folder holding the store (`.agents/global/…`, as a report run there names it), given in
      // a folder below it: not outside the store, only read from elsewhere; the path from here is named.
      const fromTop = isAbsolute(p) ? undefined : resolve(dirname(resolve(store)), p);
      if (fromTop !== undefined && !outside(relative(resolve(store), fromTop)) && existsSync(fromTop))
        throw new UsageError(
          `${p} is not in the current folder`,
          `Paths are read from the current folder; from here that file of the store is ${shellPath(pathFromCwd(cwd, dirname(resolve(store)), p))}.`,
        );
      throw new UsageError(`${p} is outside the store ${store}`, 'Name files inside the store, or choose the store with --store DIR.');
    }
    return rel;
  });
}

/**
 * Refuses (exit 2) a store-relative path with no file below it in the index, as a full `--staged` run refuses it
 * once it has read the index: `given` are the paths as the user wrote them.
 */
export async function requireIndexed(store: string, paths: readonly string[], given: readonly string[]): Promise<void> {
  const { lsIndex } = await import('../git/file-listing.ts');
  refuseUnlisted(
    paths,
    (await lsIndex(store)).map((e) => e.path),
    given,
    'index',
  );
}

/**
 * Refuses (exit 2) a store-relative path with nothing at or below it in the working tree, as a full run refuses it
 * once it has listed the store: `--changed` with nothing changed stops before that listing.
 */
export async function requireInWorkingTree(store: string, paths: readonly string[], given: readonly string[]): Promise<void> {
  const { WorkingTreeSource } = await import('../store/tree-source.ts');
  const listed = await new WorkingTreeSource(store).list('', { recursive: true });
  refuseUnlisted(
    paths,
    listed.map((e) => e.path),
    given,
    'working tree',
  );
}

/** Refuses (exit 2) the first of `paths` (store-relative; "" is the whole store) with no path of `listed` at or below it. */
export function refuseUnlisted(
  paths: readonly string[],
  listed: readonly string[],
  given: readonly string[],
  where: 'index' | 'working tree',
): void {
  for (const [i, p] of paths.entries()) {
    if (p !== '' && !listed.some((e) => e === p || e.startsWith(`${p}/`))) {
      throw new UsageError(`${given[i]} is not in the store's ${where}`, 'Check the path; with --staged, name files that are staged.');
    }
  }
}

function outside(rel: string): boolean {
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);
}

/** The real path of a folder, through its nearest existing ancestor when it does not exist (the path is refused later). */
function realFolderPath(dir: string): string {
  for (let d = dir, rest = ''; ; ) {
    try {
      return join(realpathSync(d), rest);
    } catch {
      const up = dirname(d);
      if (up === d) return dir;
      rest = join(basename(d), rest);
      d = up;
    }
  }
}
