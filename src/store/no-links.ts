import { lstatSync } from 'node:fs';
import { InvalidStoreError } from '../core/errors.ts';

/**
 * The first folder on the store-relative path `relDir` (the folder itself or
 * one above it, below the store root) that is a symbolic link, or null.
 *
 * `readdir(withFileTypes)` and `O_NOFOLLOW` guard only the last component of
 * a path: the kernel follows links in the folders before it. A scope folder
 * that is a link to somewhere outside the store would therefore be read and
 * written through, so every folder on the way is checked with `lstat`.
 * Folders that do not exist yet end the walk (nothing can be followed there).
 */
export function linkedFolder(root: string, relDir: string): string | null {
  if (relDir === '' || relDir === '.') return null;
  let rel = '';
  for (const part of relDir.split('/')) {
    if (part === '') continue;
    rel = rel === '' ? part : `${rel}/${part}`;
    if (isLinkedFolder(root, rel)) return rel;
  }
  return null;
}

/**
 * Whether the store-relative folder `rel` is itself a symbolic link; false
 * when it does not exist or cannot be looked at (nothing can be followed
 * there, and the read or write that follows says why).
 */
export function isLinkedFolder(root: string, rel: string): boolean {
  try {
    return lstatSync(`${root}/${rel}`, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/** Refuses (exit 3) to write below a folder of the store that is a symbolic link. */
export function assertNoLinkedFolder(root: string, relDir: string, action: string): void {
  const link = linkedFolder(root, relDir);
  if (link === null) return;
  throw new InvalidStoreError(
    `cannot ${action}: ${link} is a symbolic link; a store never follows links`,
    [
      {
        code: 'symlink',
        severity: 'error',
        file: link,
        line: 0,
        col: 0,
        message: `${link} is a symbolic link to a folder; links are never followed inside a store`,
        hint: 'Replace the link with the folder itself.',
      },
    ],
    `Replace ${link} with a real folder; nothing was written.`,
  );
}
