import { statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';

/**
 * The process's current folder. One removed (or moved away) after the shell entered it, by a checkout or another
 * shell, is a usage error: every path and the store's search start from it, so nothing can run there. So is one
 * whose path is not UTF-8 (`caf\xe9`): Node reads it with U+FFFD for those bytes, a path that names another folder,
 * where `init` would make the store beside the repository and the readers read that one.
 */
export function currentFolder(): string {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new UsageError(
      'the current folder no longer exists: it was removed or moved away after this shell entered it',
      'Change to a folder that exists (`cd "$PWD"` enters it again if it was made anew), then run the command again.',
    );
  }
  if (cwd.includes('\uFFFD') && !sameFolder(cwd, '.')) {
    throw new UsageError(
      `the current folder's path is not UTF-8: ${cwd} (shown with U+FFFD for the bytes that are not) names no folder, or another one`,
      'Nothing was done. Rename the folder whose name is not UTF-8 (the one shown with U+FFFD) to a UTF-8 name, then run the command there.',
      { cwd },
      'path-not-utf8',
    );
  }
  return cwd;
}

/**
 * Whether two paths name the same folder. One that cannot be looked at is none: the U+FFFD spelling may run through a
 * file of that name (ENOTDIR) or a folder not searchable, and either is the refusal, never a trace.
 */
function sameFolder(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })];
    return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * `path`, a path from the folder `top` (the repository's top, as reports name files), as a command pasted in `cwd`
 * reads it: from the current folder, `/`-separated, `.` for the folder itself. Every command a hint names with a
 * path is written so: one from the top fails when pasted in a folder below it.
 */
export function pathFromCwd(cwd: string, top: string, path: string): string {
  const rel = relative(cwd, resolve(top, path)).split(sep).join('/');
  return rel === '' ? '.' : rel;
}
