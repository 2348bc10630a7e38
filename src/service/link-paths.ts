import { realpathSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';

/** The separators of a path on this platform: Windows takes both. */
const SEPARATORS = process.platform === 'win32' ? /[\\/]/ : /\//;

/**
 * Where `path` leads, as the operating system finds it: one component after
 * another, each link followed where it stands, so that `..` after a link goes
 * up from the link's target (`lnk/../x` is not `x` when `lnk` is a link),
 * which folding `..` first (path.resolve) gets wrong. The part that does not
 * exist yet (a file about to be created) is appended as named. A relative
 * path is taken from the process's folder.
 */
export function physicalPath(path: string): string {
  const root = parse(path).root;
  let here = root === '' ? resolve('.') : root;
  let exists = true;
  for (const part of path.slice(root.length).split(SEPARATORS)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      // `here` is already where its links lead, so its parent is the one the system would take.
      here = dirname(here);
      continue;
    }
    const next = join(here, part);
    if (exists) {
      try {
        here = realpathSync(next);
        continue;
      } catch {
        exists = false;
      }
    }
    here = next;
  }
  return here;
}
