import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexFilesUnder } from '../../src/git/changed.ts';
import { sparseMissing } from '../../src/git/sparse.ts';
import { git, gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('sparseMissing', () => {
  it('takes the folder as a literal path: one named with glob characters is asked for, not the folders its pattern matches', async () => {
    const repo = tempDir();
    gitInit(repo);
    for (const dir of ['po*', 'policy']) {
      mkdirSync(join(repo, dir, 'global'), { recursive: true });
      writeFileSync(join(repo, dir, 'global', 'a.yaml'), 'text: a\n');
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'both');
    // As a sparse checkout leaves them out whole: marked skip-worktree, their folders not on disk (git runs above them).
    for (const dir of ['po*', 'policy']) {
      git(repo, 'update-index', '--skip-worktree', `${dir}/global/a.yaml`);
      rmSync(join(repo, dir), { recursive: true });
    }
    // A pattern, `po*` would match policy/'s file too (read as a path of the folder, cut wrong).
    expect(await sparseMissing(join(repo, 'po*'))).toEqual(['global/a.yaml']);
    expect(await sparseMissing(join(repo, 'policy'))).toEqual(['global/a.yaml']);
  });
});

describe('indexFilesUnder', () => {
  it('lists the files under the folders named, and nothing for no folder (never the whole index)', async () => {
    const repo = tempDir();
    gitInit(repo);
    for (const dir of ['a', 'b']) {
      mkdirSync(join(repo, dir), { recursive: true });
      writeFileSync(join(repo, dir, 'f.txt'), 'x\n');
    }
    git(repo, 'add', '-A');
    expect(await indexFilesUnder(repo, ['a'])).toEqual(['a/f.txt']);
    expect(await indexFilesUnder(repo, 'b')).toEqual(['b/f.txt']);
    expect(await indexFilesUnder(repo, [])).toEqual([]);
  });
});
