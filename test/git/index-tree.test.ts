import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexFileGitlinks, stagesNothingUnder } from '../../src/git/index-tree.ts';
import { indexGitlinksAmong } from '../../src/git/gitlinks.ts';
import { withRunEnvironment } from '../../src/git/run-environment.ts';
import { GIT_ENV, git, gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';

/** Runs git in `cwd` with the hook's variables `env` on top of the tests' own. */
const gitWith = (cwd: string, env: Record<string, string>, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV, ...env }, encoding: 'utf8' });

/** What git itself says: the files under `folder` that the next commit changes. */
const gitStaged = (folder: string, env: Record<string, string> = {}) =>
  gitWith(folder, env, 'diff', '--cached', '--name-only', '--relative', '--', '.')
    .split('\n')
    .filter((l) => l !== '');

/** The reader's answer, run as a hook is (the caller's variables given). */
const fast = (folder: string, env: Record<string, string> = {}, cwd = folder) =>
  withRunEnvironment({ env: { ...process.env, ...env }, cwd }, () => stagesNothingUnder(folder));

function repoWithStore(store = '.agents'): { top: string; store: string } {
  const top = tempDir();
  gitInit(top);
  const dir = join(top, store);
  mkdirSync(join(dir, 'global'), { recursive: true });
  writeFileSync(join(dir, 'global', 'a.yaml'), 'id: A\ntext: Never delete production data\n');
  writeFileSync(join(top, 'README.md'), 'hello\n');
  git(top, 'add', '-A');
  git(top, 'commit', '-q', '-m', 'store');
  return { top, store: dir };
}

describe('whether a commit stages nothing under the store, from git’s files', () => {
  it('says so after a commit, with other files staged, and not once a store file is staged', () => {
    const { top, store } = repoWithStore();
    writeFileSync(join(top, 'README.md'), 'changed\n');
    git(top, 'add', 'README.md');
    expect(fast(store)).toBe(true);
    writeFileSync(join(store, 'global', 'a.yaml'), 'id: A\ntext: Never delete any data\n');
    git(top, 'add', '-A');
    expect(gitStaged(store)).toEqual(['global/a.yaml']);
    expect(fast(store)).toBe(false);
    // Staged back to HEAD's content: git answers, and the reader only says what it can be sure of.
    git(top, 'reset', '-q', '--', '.agents');
    expect(gitStaged(store)).toEqual([]);
  });

  it('follows a store in a sub-folder, index versions 3 and 4, packed refs and a detached HEAD', () => {
    const { top, store } = repoWithStore('apps/web/.agents');
    expect(fast(store)).toBe(true);
    // Intent-to-add entries carry the extended flags of version 3.
    writeFileSync(join(top, 'new.txt'), 'n\n');
    git(top, 'add', '-N', 'new.txt');
    expect(git(top, 'ls-files', '--debug', 'new.txt')).toContain('flags');
    expect(fast(store)).toBe(true);
    git(top, 'update-index', '--index-version', '4');
    expect(fast(store)).toBe(true);
    git(top, 'pack-refs', '--all');
    expect(fast(store)).toBe(true);
    git(top, 'checkout', '-q', '--detach');
    expect(fast(store)).toBe(true);
  });

  it('uses the index a hook is given (a linked worktree, `git commit FILE`), and leaves what it cannot read to git', () => {
    const { top, store } = repoWithStore();
    const wt = join(tempDir(), 'wt');
    git(top, 'worktree', 'add', '-q', wt);
    const gitDir = git(wt, 'rev-parse', '--absolute-git-dir').trim();
    // What git gives the pre-commit hook of a commit in the worktree.
    const hookEnv = { GIT_DIR: gitDir, GIT_INDEX_FILE: join(gitDir, 'index') };
    expect(fast(join(wt, '.agents'), hookEnv, wt)).toBe(true);
    // A temporary index that stages a store file, as `git commit .agents/global/a.yaml` makes: that one is read.
    writeFileSync(join(wt, '.agents', 'global', 'a.yaml'), 'id: A\ntext: Changed in the worktree\n');
    const temporary = join(gitDir, 'next-index.lock');
    const tempEnv = { GIT_DIR: gitDir, GIT_INDEX_FILE: temporary };
    git(wt, 'read-tree', `--index-output=${temporary}`, 'HEAD');
    gitWith(wt, tempEnv, 'add', '.agents');
    expect(gitStaged(join(wt, '.agents'), { GIT_INDEX_FILE: temporary })).toEqual(['global/a.yaml']);
    expect(fast(join(wt, '.agents'), tempEnv, wt)).toBe(false);
    expect(fast(join(wt, '.agents'), hookEnv, wt)).toBe(true);
    // Objects elsewhere, packed objects, an unborn branch: git answers.
    expect(fast(store, { GIT_OBJECT_DIRECTORY: join(top, '.git', 'objects') }, top)).toBe(false);
    git(top, 'gc', '-q');
    expect(fast(store)).toBe(false);
    const unborn = tempDir();
    gitInit(unborn);
    mkdirSync(join(unborn, '.agents'));
    expect(fast(join(unborn, '.agents'))).toBe(false);
    // A configuration that may move the working tree elsewhere.
    const moved = repoWithStore();
    appendFileSync(join(moved.top, '.git', 'config'), '[include]\n\tpath = other\n');
    expect(fast(moved.store)).toBe(false);
  });

  it('answers for the folder a link leads to, as git started there does, not for the folder the index holds at the link', () => {
    const { top, store } = repoWithStore();
    mkdirSync(join(top, 'real', 'global'), { recursive: true });
    writeFileSync(join(top, 'real', 'global', 'b.yaml'), 'id: B\n');
    git(top, 'add', '-A');
    git(top, 'commit', '-q', '-m', 'real');
    // The store folder replaced by a link (not staged: the index still holds .agents/ as HEAD has it), and a file
    // staged where the link leads.
    renameSync(store, join(top, 'old'));
    symlinkSync('real', store);
    writeFileSync(join(top, 'real', 'global', 'b.yaml'), 'broken: [\n');
    git(top, 'add', 'real');
    expect(gitStaged(store)).toEqual(['global/b.yaml']);
    expect(fast(store)).toBe(false);
  });

  it('leaves a repository that replaces objects to git, which compares the index with the replacements', () => {
    const { top, store } = repoWithStore();
    writeFileSync(join(store, 'global', 'a.yaml'), 'id: A\ntext: Never delete any data\n');
    git(top, 'commit', '-q', '-a', '-m', 'edit');
    expect(fast(store)).toBe(true);
    git(top, 'replace', 'HEAD', 'HEAD~1');
    expect(gitStaged(store)).toEqual(['global/a.yaml']);
    expect(fast(store)).toBe(false);
    git(top, 'pack-refs', '--all');
    expect(fast(store)).toBe(false);
  });

  it('never says nothing is staged when git lists a store file (a seeded walk of edits, stages and commits)', () => {
    const { top, store } = repoWithStore();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed >>> 16) % n;
    };
    const files = ['.agents/global/a.yaml', '.agents/global/b.yaml', '.agents/projects/x/c.yaml', 'src/app.ts', 'README.md'];
    let said = 0;
    for (let step = 0; step < 40; step++) {
      const file = files[random(files.length)]!;
      const action = random(6);
      if (action <= 1) {
        mkdirSync(join(top, file, '..'), { recursive: true });
        writeFileSync(join(top, file), `step ${step}\n`);
        git(top, 'add', '-A', '--', file);
      } else if (action === 2) git(top, 'reset', '-q', '--', file);
      else if (action === 3) git(top, 'commit', '-q', '--allow-empty', '-m', `step ${step}`);
      else if (action === 4) {
        git(top, 'rm', '-q', '-f', '--ignore-unmatch', '--', file);
        rmSync(join(top, file), { force: true });
      } else git(top, 'commit', '-q', '--amend', '--allow-empty', '--no-edit');
      const answer = fast(store);
      if (answer) {
        said++;
        expect(gitStaged(store), `step ${step}`).toEqual([]);
      }
    }
    expect(said).toBeGreaterThan(5);
  });
});

describe("the index's gitlinks, from git's index file", () => {
  it('are those git lists, in index versions 2, 3 (an intent-to-add entry) and 4; a split index is left to git', () => {
    const { top } = repoWithStore();
    const links = ['vendor/x', 'vendor/y-long-name', 'zz/deep/link'];
    for (const [i, path] of links.entries()) git(top, 'update-index', '--add', '--cacheinfo', `160000,${String(i + 1).repeat(40)},${path}`);
    writeFileSync(join(top, 'vendor-notes.md'), 'n\n');
    git(top, 'add', '-N', 'vendor-notes.md');
    const read = () => withRunEnvironment({ env: process.env, cwd: top }, () => indexFileGitlinks(top));
    for (const version of ['2', '3', '4']) {
      git(top, 'update-index', '--index-version', version);
      expect([version, read()], version).toEqual([version, new Set(links)]);
    }
    git(top, 'update-index', '--split-index');
    expect(read()).toBeUndefined();
    // No index at all (nothing staged yet): no gitlink.
    const empty = tempDir();
    gitInit(empty);
    expect(withRunEnvironment({ env: process.env, cwd: empty }, () => indexFileGitlinks(empty))).toEqual(new Set());
  });
  it("are asked of the index the run's GIT_INDEX_FILE names, in a repository with no index of its own yet", () => {
    const top = tempDir();
    gitInit(top);
    const other = join(tempDir(), 'index');
    execFileSync('git', ['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/x`], {
      cwd: top,
      env: { ...process.env, ...GIT_ENV, GIT_INDEX_FILE: other },
    });
    // The run's environment, not the process's: a command run in-process (the MCP server, a test) is given its own.
    const env = { ...process.env, GIT_INDEX_FILE: other };
    expect(withRunEnvironment({ env, cwd: top }, () => indexGitlinksAmong(top, ['vendor/x']))).toEqual(new Set(['vendor/x']));
  });
});
