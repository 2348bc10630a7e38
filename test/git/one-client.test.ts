import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

/** Every source file under src/, relative to the repository. */
function sources(dir = join(REPO, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sources(join(dir, d.name)) : [join(dir, d.name)]));
}

describe('one git client (docs/adr/0400-one-git-client.md)', () => {
  it('starts git from src/git/runner.ts only, and through no git library', () => {
    const starting: string[] = [];
    const libraries: string[] = [];
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      const rel = relative(REPO, file);
      // A process named git, started by any of node:child_process's functions.
      if (/\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\(\s*['"`]git\b/.test(text) && rel !== 'src/git/runner.ts')
        starting.push(rel);
      if (/from ['"](?:simple-git|isomorphic-git|nodegit)['"]|import\(['"](?:simple-git|isomorphic-git|nodegit)['"]\)/.test(text))
        libraries.push(rel);
    }
    expect(starting).toEqual([]);
    expect(libraries).toEqual([]);
    expect(readFileSync(join(REPO, 'src/git/runner.ts'), 'utf8')).toMatch(/spawn\('git'/);
  });

  it('is not a dependency of the package', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const all = { ...pkg.dependencies, ...pkg.devDependencies };
    expect(Object.keys(all).filter((name) => /(^|\/)(simple-git|isomorphic-git|nodegit)$/.test(name))).toEqual([]);
  });
});
