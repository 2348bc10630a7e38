import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The git folder of the repository holding `dir`, found without a git
 * process: the nearest `.git` above it, a folder, or a file naming the
 * folder (`gitdir: …`, as in linked worktrees and submodules). Undefined
 * outside a repository.
 */
export function gitDirFor(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    let isDir: boolean;
    try {
      isDir = statSync(dotGit).isDirectory();
    } catch {
      if (dirname(d) === d) return undefined;
      continue;
    }
    if (isDir) return dotGit;
    try {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!m) return undefined;
      return isAbsolute(m[1]!) ? m[1]! : resolve(d, m[1]!);
    } catch {
      return undefined;
    }
  }
}
