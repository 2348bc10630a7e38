import { relative, sep } from 'node:path';
import type { IgnoredPath } from '../git/commit.ts';

/**
 * The rule by which git ignores files a command wrote into the store (`made`, relative to it), when it lies in a
 * repository that does: the store folder's, else the first of the files (a `config.yaml`, `*.json` or `*.lock.yaml`
 * rule of the repository), with how many more it ignores. A clone without config.yaml reads no export targets,
 * no policy sources and no actor, one without extends.lock.yaml no pins, and neither says anything of it.
 */
export async function ignoredByGit(root: string, made: readonly string[]): Promise<(IgnoredPath & { more: number }) | undefined> {
  const [{ topLevel }, { folderIgnored, ignoredPaths }] = await Promise.all([import('../git/repo.ts'), import('../git/commit.ts')]);
  try {
    const top = await topLevel(root);
    const folder = await folderIgnored(top, root);
    if (folder) return { ...folder, more: 0 };
    const rel = relative(top, root).split(sep).join('/');
    if (rel === '' || rel.startsWith('../')) return undefined;
    // A scope folder is kept by its .gitkeep.
    const files = made.map((m) => `${rel}/${m.endsWith('/') ? `${m}.gitkeep` : m}`);
    const [first, ...rest] = await ignoredPaths(top, files);
    return first ? { ...first, more: rest.length } : undefined;
  } catch {
    // Not in a repository (or git missing): nothing to say.
    return undefined;
  }
}
