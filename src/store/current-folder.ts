import { UsageError } from '../core/errors.ts';

/**
 * The process's current folder. One removed (or moved away) after the shell entered it, by a checkout or another
 * shell, is a usage error: every path and the store's search start from it, so nothing can run there.
 */
export function currentFolder(): string {
  try {
    return process.cwd();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new UsageError(
      'the current folder no longer exists: it was removed or moved away after this shell entered it',
      'Change to a folder that exists (`cd "$PWD"` enters it again if it was made anew), then run the command again.',
    );
  }
}
