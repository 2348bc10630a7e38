import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worktreeTops } from '../../src/git/location.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('worktreeTops', () => {
  it('finds the main worktree and each linked one from the common git folder, as git worktree list does', () => {
    const root = tempDir();
    const main = join(root, 'main');
    const common = join(main, '.git');
    for (const name of ['a', 'b', 'gone']) mkdirSync(join(common, 'worktrees', name), { recursive: true });
    // An absolute gitdir, and a relative one (worktree.useRelativePaths), each naming the worktree's `.git` file.
    writeFileSync(join(common, 'worktrees/a/gitdir'), `${join(root, 'a')}/.git\n`);
    writeFileSync(join(common, 'worktrees/b/gitdir'), '../../../../b/.git\n');
    for (const name of ['a', 'b']) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, '.git'), `gitdir: ${join(common, 'worktrees', name)}\n`);
      writeFileSync(join(common, 'worktrees', name, 'commondir'), '../..\n');
    }
    const tops = [main, join(root, 'a'), join(root, 'b')];
    expect(worktreeTops(join(root, 'a')).sort()).toEqual(tops.sort());
    expect(worktreeTops(main).sort()).toEqual(tops.sort());
    expect(worktreeTops(join(root, 'elsewhere'))).toEqual([]);
  });
});
