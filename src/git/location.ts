import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The folder holding the nearest `.git` (a folder, or a file as in linked
 * worktrees and submodules) at or above `dir`, found without a git process;
 * undefined outside a repository.
 */
export function repoTop(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The git folder of the repository holding `dir`: the nearest `.git` above
 * it when a folder, or the folder a `.git` file names (`gitdir: …`).
 * Undefined outside a repository, or when `.git` cannot be read.
 */
export function gitDirFor(dir: string): string | undefined {
  const top = repoTop(dir);
  if (top === undefined) return undefined;
  const dotGit = join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m) return undefined;
    return isAbsolute(m[1]!) ? m[1]! : resolve(top, m[1]!);
  } catch {
    return undefined;
  }
}
