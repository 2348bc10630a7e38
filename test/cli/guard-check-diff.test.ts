import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { consumer, policyCommit, policyRepo } from '../extends/repos.ts';
import { WORKTREE_LIMIT } from '../../src/git/hidden-edits.ts';
import { commitAll, GIT_ENV, git, gitInit } from '../helpers/git.ts';
import type { AgentsError } from '../../src/core/errors.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { GUARDED, guardedRepo } from '../helpers/guard.ts';
import { exampleStore } from '../helpers/plans.ts';
import { guardedYaml, tempDir } from '../helpers/tmp.ts';

/** A repository with one committed global invariant guarding secrets/ and AWS keys. */
const repo = () => guardedRepo({ write: ['secrets/**'], content: ['AKIA[0-9A-Z]{16}'] }, { commit: true });

/** `guard check ARGS` as JSON: the exit code and each finding's file and line. */
async function findings(dir: string, ...args: string[]): Promise<{ code: number; found: [string, number][] }> {
  const r = await runAgents(['--format', 'json', 'guard', 'check', ...args], { cwd: dir });
  const found = JSON.parse(r.stdout).diagnostics.map((d: { file: string; line: number }) => [d.file, d.line]);
  return { code: r.code, found };
}

const KEY = 'AKIAABCDEFGHIJKLMNOP';

describe('agents guard check in a repository with no commit yet', () => {
  it('takes every file of the working tree as new (staged or not), as the first commit will; a bad revision is still exit 2', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'], content: ['AKIA[0-9A-Z]{16}'] });
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/new.key'), 'k\n');
    writeFileSync(join(dir, 'notes.txt'), `aws=${KEY}\n`);
    git(dir, 'add', 'notes.txt');
    const expected: [string, number][] = [
      ['notes.txt', 1],
      ['secrets/new.key', 0],
    ];
    expect(await findings(dir)).toEqual({ code: 1, found: expected });
    expect(await findings(dir, 'HEAD')).toEqual({ code: 1, found: expected });
    // What was compared is said: no HEAD names a commit yet, so the working tree against the empty tree.
    for (const args of [[], ['HEAD']]) {
      const r = await runAgents(['--format', 'json', 'guard', 'check', ...args], { cwd: dir });
      expect(JSON.parse(r.stdout).source).toBe('working tree against the empty tree, no commit yet');
    }
    const staged = await runAgents(['--format', 'json', 'guard', 'check', '--staged'], { cwd: dir });
    expect(JSON.parse(staged.stdout).source).toBe('index');
    expect((await runAgents(['guard', 'check', 'main'], { cwd: dir })).code).toBe(2);
    // An empty range (an unset variable) is refused as that, by guard check and invariant diff alike, before git runs:
    // read as none, invariant diff compared HEAD with the working tree and passed.
    for (const command of [
      ['guard', 'check'],
      ['invariant', 'diff'],
    ]) {
      // So is a range with no revision on either side ("$BASE..$HEAD" with both unset), which git reads as a path.
      // And one with a third side, which no clone lacks as a revision.
      for (const range of [' ', '..', '...', 'HEAD~2..HEAD~1..HEAD', 'main...HEAD..x']) {
        const r = await runAgents(['--format', 'json', ...command, range], { cwd: dir });
        expect(errorOf(r), `${command.join(' ')} "${range}"`).toEqual({ code: 'usage', exit_code: 2, detail: { argument: 'range' } });
      }
    }
  });
});

describe('agents guard check, a diff larger than it reads', () => {
  it('is refused naming the diff, the limit and the file it went over at, git stopped, nothing judged', async () => {
    const { diffFiles } = await import('../../src/git/diff.ts');
    const dir = tempDir();
    gitInit(dir);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    commitAll(dir, 'one');
    writeFileSync(join(dir, 'small.txt'), 's\n');
    writeFileSync(join(dir, 'big.txt'), 'x\n'.repeat(64 * 1024));
    commitAll(dir, 'two');
    const refused = (what: { range: string } | { staged: true }) =>
      diffFiles(dir, what, 4096).then(
        () => undefined,
        (error: AgentsError) => [error.code, error.exitCode, error.detail],
      );
    expect(await refused({ range: 'HEAD~1..HEAD' })).toEqual(['diff-too-large', 2, { diff: 'HEAD~1..HEAD', limit: 4096, file: 'big.txt' }]);
    writeFileSync(join(dir, 'big.txt'), 'y\n'.repeat(64 * 1024));
    git(dir, 'add', 'big.txt');
    expect(await refused({ staged: true })).toEqual(['diff-too-large', 2, { diff: 'the index', limit: 4096, file: 'big.txt' }]);
    // A name git quotes in the header (one not in ASCII) is named as it is.
    git(dir, 'reset', '-q', '--hard', 'HEAD');
    writeFileSync(join(dir, 'a2.txt'), 's\n');
    writeFileSync(join(dir, 'café.txt'), 'z\n'.repeat(64 * 1024));
    commitAll(dir, 'three');
    expect(await refused({ range: 'HEAD~1..HEAD' })).toEqual([
      'diff-too-large',
      2,
      { diff: 'HEAD~1..HEAD', limit: 4096, file: 'café.txt' },
    ]);
    git(dir, 'reset', '-q', '--hard', 'HEAD~1');
    // Within the limit, the same diff is read whole.
    expect((await diffFiles(dir, { range: 'HEAD~1..HEAD' })).map((f) => [f.path, f.added.length])).toEqual([
      ['big.txt', 64 * 1024],
      ['small.txt', 1],
    ]);
  });
});

describe('agents guard check against the working tree', () => {
  it('sees untracked files git does not ignore: their paths and their lines, by default and with one revision', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/new.key'), 'k\n');
    writeFileSync(join(dir, 'notes.txt'), `one\naws=${KEY}\n`);
    writeFileSync(join(dir, '.gitignore'), 'build/\n');
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build/out.txt'), `${KEY}\n`);
    symlinkSync('nowhere', join(dir, 'link'));
    const expected: [string, number][] = [
      ['notes.txt', 2],
      ['secrets/new.key', 0],
    ];
    expect(await findings(dir)).toEqual({ code: 1, found: expected });
    expect(await findings(dir, 'HEAD')).toEqual({ code: 1, found: expected });
    // A range of two revisions and the index know nothing of the working tree.
    expect(await findings(dir, 'HEAD..HEAD')).toEqual({ code: 0, found: [] });
    expect(await findings(dir, '--staged')).toEqual({ code: 0, found: [] });
    // An untracked file too large to read whole (sparse: nothing of it is written) is refused, never passed unread.
    writeFileSync(join(dir, 'huge.txt'), `${KEY}\n`);
    truncateSync(join(dir, 'huge.txt'), WORKTREE_LIMIT + 1);
    const r = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir });
    expect(errorOf(r)).toEqual({
      code: 'worktree-file-too-large',
      exit_code: 2,
      detail: { file: 'huge.txt', bytes: WORKTREE_LIMIT + 1, limit: WORKTREE_LIMIT },
    });
    // The limit is said with its unit, as the file's size is.
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain(`over the ${WORKTREE_LIMIT} bytes read`);
    rmSync(join(dir, 'huge.txt'));
  });
});

describe('agents guard check of a range with blanks around it', () => {
  it('reads it as invariant diff does, without them (a YAML block scalar ends with a newline), not as a revision git refuses', async () => {
    const dir = await repo();
    writeFileSync(join(dir, 'notes.txt'), `aws=${KEY}\n`);
    commitAll(dir, 'key');
    const expected = { code: 1, found: [['notes.txt', 1]] };
    expect(await findings(dir, 'HEAD~1..HEAD')).toEqual(expected);
    for (const range of [' HEAD~1..HEAD', 'HEAD~1..HEAD\n', '\tHEAD~1...HEAD ']) expect(await findings(dir, range)).toEqual(expected);
    const r = await runAgents(['--format', 'json', 'guard', 'check', 'HEAD~1..HEAD\n'], { cwd: dir });
    expect(JSON.parse(r.stdout).source).toBe('diff HEAD~1..HEAD');
  });
});

describe("agents guard check's JSON document", () => {
  it("is validate's, read for the diff: store the store that judged it, source the side checked, files the files the diff touches", async () => {
    const dir = await repo();
    writeFileSync(join(dir, 'notes.txt'), `aws=${KEY}\n`);
    writeFileSync(join(dir, 'other.txt'), 'x\n');
    const doc = async (...args: string[]) => {
      const r = await runAgents(['--format', 'json', 'guard', 'check', ...args], { cwd: join(dir, '.agents') });
      const d = JSON.parse(r.stdout) as { store: string; source: string; files: number; fixes: unknown[] };
      return [r.code, d.store, d.source, d.files, d.fixes];
    };
    const store = join(dir, '.agents');
    expect(await doc()).toEqual([1, store, 'diff HEAD', 2, []]);
    git(dir, 'add', 'other.txt');
    expect(await doc('--staged')).toEqual([0, store, 'index', 1, []]);
    // A range that removes the store names its place, as the diff judged by no guard: the same key, the same meaning.
    git(dir, 'commit', '-qm', 'other');
    git(dir, 'rm', '-rq', '.agents');
    git(dir, 'commit', '-qm', 'no store', '--no-verify');
    expect(
      await runAgents(['--format', 'json', 'guard', 'check', 'HEAD^1..HEAD'], { cwd: dir }).then((r) => JSON.parse(r.stdout).store),
    ).toBe(store);
  });
});

describe('agents guard check, the way out it names', () => {
  it("a finding's hint is the waive command that lets the change through, once its placeholders are filled in", async () => {
    const dir = await repo();
    expect((await runAgents(['project', 'add', 'web', '--path', 'web/**'], { cwd: dir })).code).toBe(0);
    mkdirSync(join(dir, 'web'));
    writeFileSync(join(dir, 'web/notes.txt'), `aws=${KEY}\n`);
    const r = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir });
    expect(r.code).toBe(1);
    const hint = (JSON.parse(r.stdout).diagnostics as { hint: string }[])[0]!.hint;
    const command = /`agents (invariant waive [^`]*)`/.exec(hint)![1]!.replace(/…/g, 'ops').replace('YYYY-MM-DD', '2099-01-01');
    const argv = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    expect((await runAgents(argv, { cwd: dir })).code).toBe(0);
    expect(await findings(dir)).toEqual({ code: 0, found: [] });
  });
});

describe('agents guard check, the plan its hint makes active', () => {
  /** A change to a file of no project, which only a plan's waiver can let through, and the plan to waive it in. */
  async function unplaced(): Promise<{ dir: string; plan: string }> {
    const dir = await repo();
    const plan = '01JH5G411EVHG9XHQ43X20SSN4';
    mkdirSync(join(dir, '.agents/plans', plan), { recursive: true });
    writeFileSync(join(dir, '.agents/plans', plan, 'plan.yaml'), `id: ${plan}\n`);
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/new.key'), 'k\n');
    return { dir, plan };
  }

  /** The commands a hint names between backticks, `agents` left out and its placeholders filled in. */
  const commands = (hint: string, plan: string) =>
    [...hint.matchAll(/`([^`]*)`/g)].map((m) =>
      m[1]!
        .replace(/^agents /, '')
        .replace(/\bPLAN\b/g, plan)
        .replace(/…/g, 'ops')
        .replace('YYYY-MM-DD', '2099-01-01'),
    );
  const argvOf = (command: string) => [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);

  it('in CI names AGENTS_PLAN, which lets the change through there; `plan activate` would not reach a fresh clone', async () => {
    const { dir, plan } = await unplaced();
    const r = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir, env: { CI: 'true' } });
    expect(r.code).toBe(1);
    const [waive, activate] = commands((JSON.parse(r.stdout).diagnostics as { hint: string }[])[0]!.hint, plan);
    expect(activate).toBe(`AGENTS_PLAN=${plan}`);
    expect((await runAgents(argvOf(waive!), { cwd: dir })).code).toBe(0);
    const [name, value] = activate!.split('=');
    expect(await findings(dir)).toEqual({ code: 1, found: [['secrets/new.key', 0]] });
    const passed = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir, env: { [name!]: value } });
    expect(passed.code).toBe(0);
  });

  it('at a terminal names `plan activate`, which lets the change through in that clone', async () => {
    const { dir, plan } = await unplaced();
    let stdout = '';
    const stdin = new PassThrough();
    stdin.end();
    const code = await main(['--format', 'json', 'guard', 'check'], {
      stdout: { write: (c: string) => (stdout += c), isTTY: true },
      stderr: { write: () => true, isTTY: true },
      stdin,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: undefined, AGENTS_STORE: undefined },
      cwd: dir,
    });
    expect(code).toBe(1);
    const [waive, activate] = commands((JSON.parse(stdout).diagnostics as { hint: string }[])[0]!.hint, plan);
    expect(activate).toBe(`plan activate ${plan}`);
    for (const command of [waive!, activate!]) expect((await runAgents(argvOf(command), { cwd: dir })).code, command).toBe(0);
    expect(await findings(dir)).toEqual({ code: 0, found: [] });
  });
});

describe('agents guard check, files git is told not to look at', () => {
  it('judges a file removed from the index only (git rm --cached) once, by what the working tree holds', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'k'), 'old\n');
    writeFileSync(join(dir, 'notes.txt'), 'one\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'files');
    git(dir, 'rm', '-q', '--cached', 'secrets/k', 'notes.txt');
    // The working tree holds both as HEAD does: nothing written there, though git lists each deleted and untracked.
    expect(await findings(dir)).toEqual({ code: 0, found: [] });
    // The commit records the deletion.
    expect(await findings(dir, '--staged')).toEqual({ code: 1, found: [['secrets/k', 0]] });
    writeFileSync(join(dir, 'secrets', 'k'), 'new\n');
    writeFileSync(join(dir, 'notes.txt'), `one\naws=${KEY}\n`);
    expect(await findings(dir)).toEqual({
      code: 1,
      found: [
        ['notes.txt', 2],
        ['secrets/k', 0],
      ],
    });
  });

  it('sees the edits and deletions of assume-unchanged and skip-worktree files, which git diff leaves out', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    for (const f of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, 'secrets', f), 'old\n');
    writeFileSync(join(dir, 'notes.txt'), 'one\ntwo\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'files');
    git(dir, 'update-index', '--assume-unchanged', 'secrets/a', 'secrets/c', 'notes.txt');
    git(dir, 'update-index', '--skip-worktree', 'secrets/b', 'secrets/d');
    expect(await findings(dir)).toEqual({ code: 0, found: [] });
    writeFileSync(join(dir, 'secrets/a'), 'new\n');
    writeFileSync(join(dir, 'secrets/b'), 'old\nnew\n');
    rmSync(join(dir, 'secrets/c'));
    // A skip-worktree file missing is what a sparse checkout leaves: not a deletion.
    rmSync(join(dir, 'secrets/d'));
    writeFileSync(join(dir, 'notes.txt'), `one\naws=${KEY}\ntwo\n`);
    const expected: [string, number][] = [
      ['notes.txt', 2],
      ['secrets/a', 0],
      ['secrets/b', 0],
      ['secrets/c', 0],
    ];
    expect(await findings(dir)).toEqual({ code: 1, found: expected });
    expect(await findings(dir, 'HEAD')).toEqual({ code: 1, found: expected });
    // The index is what a commit records: the hidden edits are not in it.
    expect(await findings(dir, '--staged')).toEqual({ code: 0, found: [] });
    // One grown too large to read whole is refused, as an untracked one is, instead of taken as deleted, its lines unread.
    truncateSync(join(dir, 'notes.txt'), WORKTREE_LIMIT + 1);
    const r = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir });
    expect(errorOf(r)).toMatchObject({ code: 'worktree-file-too-large', exit_code: 2, detail: { file: 'notes.txt' } });
  });
});

describe('agents guard check, a core.fsmonitor hook that reports no change', () => {
  it('reads the working tree itself: an edit the hook hides is still checked', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/a'), 'old\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'files');
    writeFileSync(join(dir, 'quiet.sh'), "#!/bin/sh\nprintf 'token\\0'\n", { mode: 0o755 });
    git(dir, 'config', 'core.fsmonitor', join(dir, 'quiet.sh'));
    git(dir, 'status', '--short');
    writeFileSync(join(dir, 'secrets/a'), 'new\n');
    expect(git(dir, 'status', '--short', '--untracked-files=no')).toBe('');
    expect(await findings(dir)).toEqual({ code: 1, found: [['secrets/a', 0]] });
  });
});

describe('agents guard check, a clean filter that prints the committed text', () => {
  it('reads the working tree itself: an edit the filter hides from git diff is still checked', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/a'), 'old\n');
    writeFileSync(join(dir, '.gitattributes'), 'secrets/** filter=hide\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'files');
    git(dir, 'config', 'filter.hide.clean', 'git show HEAD:%f');
    git(dir, 'config', 'filter.hide.required', 'true');
    writeFileSync(join(dir, 'secrets/a'), `old\naws=${KEY}\n`);
    expect(git(dir, 'diff', '--name-only', 'HEAD')).toBe('');
    expect(await findings(dir)).toEqual({
      code: 1,
      found: [
        ['secrets/a', 0],
        ['secrets/a', 2],
      ],
    });
  });
});

describe('agents guard check, files git calls binary', () => {
  it('matches the lines they add: a NUL byte, a -diff attribute or a textconv driver hides none', async () => {
    const dir = await repo();
    writeFileSync(join(dir, 'a.env'), `aws=${KEY}\n\0\n`);
    writeFileSync(join(dir, '.gitattributes'), '*.txt -diff\n*.cfg diff=hide\n');
    git(dir, 'config', 'diff.hide.textconv', 'true');
    writeFileSync(join(dir, 'b.txt'), `x\naws=${KEY}\n`);
    writeFileSync(join(dir, 'c.cfg'), `aws=${KEY}\n`);
    git(dir, 'add', '-A');
    const expected: [string, number][] = [
      ['a.env', 1],
      ['b.txt', 2],
      ['c.cfg', 1],
    ];
    expect(await findings(dir, '--staged')).toEqual({ code: 1, found: expected });
    git(dir, 'commit', '-qm', 'binary');
    expect(await findings(dir, 'HEAD~1..HEAD')).toEqual({ code: 1, found: expected });
  });
});

describe("agents guard check, a submodule's new commit", () => {
  it('is a change to its path however the config shows submodules (diff.submodule=log) or ignores them (.gitmodules)', async () => {
    const dir = await repo();
    git(dir, 'config', 'diff.submodule', 'log');
    git(dir, 'config', 'diff.ignoreSubmodules', 'all');
    writeFileSync(join(dir, '.gitmodules'), '[submodule "vault"]\n\tpath = secrets/vault\n\turl = ./vault\n\tignore = all\n');
    git(dir, 'add', '.gitmodules');
    git(dir, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},secrets/vault`);
    expect(await findings(dir, '--staged')).toEqual({ code: 1, found: [['secrets/vault', 0]] });
    // Against the working tree too, though its folder is not there, which git's diff takes for no change at all.
    expect(await findings(dir)).toEqual({ code: 1, found: [['secrets/vault', 0]] });
    git(dir, 'commit', '-qm', 'vault');
    expect(await findings(dir, 'HEAD~1..HEAD')).toEqual({ code: 1, found: [['secrets/vault', 0]] });
    // Marked assume-unchanged, its folder is no deleted file.
    mkdirSync(join(dir, 'secrets/vault'), { recursive: true });
    git(dir, 'update-index', '--assume-unchanged', 'secrets/vault');
    expect(await findings(dir)).toEqual({ code: 0, found: [] });
  });
});

describe('agents guard check, a pull request range', () => {
  it("main...HEAD (the documented form) sees the branch's own changes, not what landed on main since it left", async () => {
    const dir = await repo();
    git(dir, 'checkout', '-qb', 'feature');
    writeFileSync(join(dir, 'feature.txt'), 'x\n');
    git(dir, 'add', 'feature.txt');
    git(dir, 'commit', '-qm', 'feature');
    git(dir, 'checkout', '-q', 'main');
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/rotated.key'), 'k\n');
    git(dir, 'add', 'secrets');
    git(dir, 'commit', '-qm', 'rotate (a person, on main)');
    git(dir, 'checkout', '-q', 'feature');
    expect(await findings(dir, 'main...HEAD')).toEqual({ code: 0, found: [] });
    // Two dots diff the two trees: main's own change is blamed on the branch.
    expect(await findings(dir, 'main..HEAD')).toEqual({ code: 1, found: [['secrets/rotated.key', 0]] });
    // A merge's `A^!` is what it brings to its first parent, as invariant diff reads it: not git's combined diff,
    // which leaves out every file one parent already had.
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge main', 'main');
    expect(await findings(dir, 'HEAD^!')).toEqual({ code: 1, found: [['secrets/rotated.key', 0]] });
    // A clone one commit deep holds no parent of HEAD: said as a revision to fetch, not HEAD against the working tree.
    const shallow = join(tempDir(), 'shallow');
    git(dir, 'clone', '-q', '--depth', '1', `file://${dir}`, shallow);
    for (const range of ['HEAD^!', 'HEAD^@']) {
      const r = await runAgents(['--format', 'json', 'guard', 'check', range], { cwd: shallow });
      expect(r.code, range).toBe(2);
      expect(errorOf(r).code).toBe('usage');
    }
  });

  it('refuses a tree on either side of a range as invariant diff refuses it (one parse), the same error and code', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub/a.txt'), 'a\n');
    commitAll(dir, 'sub');
    for (const range of ['HEAD:sub..HEAD', 'HEAD..HEAD:sub', 'HEAD^{tree}..HEAD', 'HEAD:sub...HEAD']) {
      const [check, diff] = await Promise.all(
        [
          ['guard', 'check'],
          ['invariant', 'diff'],
        ].map((c) => runAgents(['--format', 'json', ...c, range], { cwd: dir })),
      );
      // Before, guard check diffed the tree against HEAD and judged every file of the repository as changed.
      expect([check!.code, errorOf(check!)], range).toEqual([2, errorOf(diff!)]);
      expect(JSON.parse(check!.stdout).error.message, range).toBe(JSON.parse(diff!.stdout).error.message);
    }
  });

  it('judges a range ending at a commit by the guards the store held there, not by those of the working tree', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'secrets/a.key'), 'k\n');
    writeFileSync(join(dir, 'docs/a.md'), 'x\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'B');
    // After B: docs/ is guarded, and secrets/ no longer is.
    const DOCS = '01JGGEBWJTQ6P08NTXZQ7TKM9D';
    writeFileSync(join(dir, `.agents/global/${DOCS}.yaml`), guardedYaml(DOCS, 'Docs are generated', { write: ['docs/**'] }));
    writeFileSync(join(dir, `.agents/global/${GUARDED}.yaml`), guardedYaml(GUARDED, 'Agents never touch secrets', { write: ['x/**'] }));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'guards changed');
    for (const range of ['HEAD~2..HEAD~1', 'HEAD~2...HEAD~1', 'HEAD~1^!'])
      expect(await findings(dir, range), range).toEqual({ code: 1, found: [['secrets/a.key', 0]] });
    // A range that ends at the working tree is judged by the working tree's guards.
    expect(await findings(dir, 'HEAD~2')).toEqual({ code: 1, found: [['docs/a.md', 0]] });
    // An active plan made since B was in force nowhere in the range: B's guards judge it, not an error.
    const PLAN = '01JH5G411EVHG9XHQ43X20SSN4';
    mkdirSync(join(dir, '.agents/plans', PLAN), { recursive: true });
    writeFileSync(join(dir, '.agents/plans', PLAN, 'plan.yaml'), `id: ${PLAN}\n`);
    const planned = await runAgents(['--format', 'json', 'guard', 'check', 'HEAD~2..HEAD~1'], { cwd: dir, env: { AGENTS_PLAN: PLAN } });
    expect([planned.code, JSON.parse(planned.stdout).diagnostics.map((d: { file: string }) => d.file)]).toEqual([1, ['secrets/a.key']]);
  });
});

describe("agents guard check, a range whose end pins a policy source's commit this clone has not fetched", () => {
  it("is exit 2 naming the fetch of that revision, after which the source's guards at the end judge the range", async () => {
    const base = tempDir();
    const policy = policyRepo(base);
    policyCommit(policy, {
      [`.agents/global/${GUARDED}.yaml`]: guardedYaml(GUARDED, 'Agents never touch secrets', { write: ['secrets/**'] }),
    });
    const app = consumer(base, `  - url: ${policy.url}\n    ref: main\n`);
    expect((await runAgents(['extends', 'update'], { cwd: app })).code).toBe(0);
    mkdirSync(join(app, 'secrets'));
    writeFileSync(join(app, 'secrets/a.key'), 'k\n');
    git(app, 'add', '-A');
    git(app, 'commit', '-qm', 'B');
    rmSync(join(policy.work, `.agents/global/${GUARDED}.yaml`));
    policyCommit(policy, {});
    expect((await runAgents(['extends', 'update'], { cwd: app })).code).toBe(0);
    git(app, 'add', '-A');
    git(app, 'commit', '-qm', 'source moved');
    const clone = tempDir();
    git(clone, 'clone', '-q', `file://${app}`, '.');
    expect((await runAgents(['extends', 'fetch'], { cwd: clone })).code).toBe(0);
    const r = await runAgents(['--format', 'json', 'guard', 'check', 'HEAD~1^!'], { cwd: clone });
    expect([r.code, errorOf(r).code]).toEqual([2, 'extends-not-fetched']);
    const rev = /extends fetch --rev (\S+)`/.exec(JSON.parse(r.stdout).error.hint)?.[1];
    expect(rev).toBe(git(clone, 'rev-parse', 'HEAD~1').slice(0, 12));
    expect((await runAgents(['extends', 'fetch', '--rev', rev!], { cwd: clone })).code).toBe(0);
    expect(await findings(clone, 'HEAD~1^!')).toEqual({ code: 1, found: [['secrets/a.key', 0]] });
  });
});

describe('agents guard check --staged, a store the working tree holds otherwise than the index', () => {
  it("judges the commit by the guards it records too: a guard's file removed or emptied only in the working tree still holds", async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/a.key'), 'k\n');
    git(dir, 'add', 'secrets');
    const guard = join(dir, `.agents/global/${GUARDED}.yaml`);
    const kept = readFileSync(guard, 'utf8');
    // Removed by a shell, not staged: the commit still records the guard.
    rmSync(guard);
    expect(await findings(dir, '--staged')).toEqual({ code: 1, found: [['secrets/a.key', 0]] });
    // Its guard taken out in a file git is told not to look at.
    writeFileSync(guard, kept);
    git(dir, 'update-index', '--assume-unchanged', `.agents/global/${GUARDED}.yaml`);
    writeFileSync(guard, guardedYaml(GUARDED, 'Agents never touch secrets', { write: ['x/**'] }));
    expect(await findings(dir, '--staged')).toEqual({ code: 1, found: [['secrets/a.key', 0]] });
    // Removed from both: the commit takes the guard out, as the invariant diff of its review shows.
    git(dir, 'update-index', '--no-assume-unchanged', `.agents/global/${GUARDED}.yaml`);
    git(dir, 'rm', '-qf', `.agents/global/${GUARDED}.yaml`);
    expect(await findings(dir, '--staged')).toEqual({ code: 0, found: [] });
  });
});

describe('agents guard check, a store file invalid only where git holds it', () => {
  it('says which copy is invalid, the index or the commit the range ends at, whose file on disk is valid (exit 3)', async () => {
    const dir = await repo();
    const rel = `.agents/global/${GUARDED}.yaml`;
    const kept = readFileSync(join(dir, rel), 'utf8');
    const message = async (...args: string[]) => {
      const r = await runAgents(['--format', 'json', 'guard', 'check', ...args], { cwd: dir });
      expect(errorOf(r)).toMatchObject({ code: 'invalid-store', exit_code: 3 });
      return JSON.parse(r.stdout).error.message as string;
    };
    // Staged broken, then put right on disk without `git add`: the commit would record the broken copy.
    writeFileSync(join(dir, rel), 'id: [\n');
    git(dir, 'add', rel);
    writeFileSync(join(dir, rel), kept);
    expect(await message('--staged')).toMatch(/:1:5 is invalid in the index$/);
    // Committed broken on a branch, checked from a working tree whose copy is valid.
    git(dir, 'checkout', '-qb', 'broken');
    writeFileSync(join(dir, rel), 'id: [\n');
    git(dir, 'commit', '-qam', 'broken');
    git(dir, 'checkout', '-q', '-');
    expect(await message('HEAD..broken')).toMatch(/:1:5 is invalid in revision broken$/);
    // The working tree's own copy broken: said as before, the file on disk to fix.
    writeFileSync(join(dir, rel), 'id: [\n');
    expect(await message()).toMatch(/:1:5 is invalid$/);
  });
});

describe('agents guard check --format yaml', () => {
  it("prints YAML holding the same data as the JSON, as validate's does", async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/new.key'), 'k\n');
    git(dir, 'add', 'secrets');
    const json = await runAgents(['--format', 'json', 'guard', 'check', '--staged'], { cwd: dir });
    const yaml = await runAgents(['--format', 'yaml', 'guard', 'check', '--staged'], { cwd: dir });
    expect(yaml.code).toBe(1);
    expect(yaml.stdout.trimStart().startsWith('{')).toBe(false);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });
});

describe('agents guard check, a path with control characters', () => {
  it('leaves every format with them escaped, the JSON still naming the file', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    const name = 'secrets/a\u001b[31mred\u202etxt';
    writeFileSync(join(dir, name), 'k\n');
    for (const format of ['text', 'json', 'yaml', 'github', 'sarif']) {
      const r = await runAgents(['guard', 'check', ...(format === 'text' ? [] : ['--format', format])], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
    }
    const json = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir });
    expect(JSON.parse(json.stdout).diagnostics.map((d: { file: string }) => d.file)).toEqual([name]);
  });
});

describe('agents guard check outside git', () => {
  it('is exit 2, not-a-repository, for a range and for --staged alike, as invariant diff and log are', async () => {
    const root = exampleStore();
    for (const args of [
      ['guard', 'check'],
      ['guard', 'check', '--staged'],
      ['invariant', 'diff'],
      ['invariant', 'log', '01M8KJT9G0XNWEM589ZS7FV0VT'],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.code, args.join(' ')).toBe('not-a-repository');
    }
  });
});

describe('agents guard check A..B, the waivers as they held at B', () => {
  it("lets a change through by a waiver that held at B's commit time, ended since; not by one written after it", async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    const waiver = '01JGGEBWJTQ6P08NTXZQ7TKM3R';
    mkdirSync(join(dir, '.agents/projects/vault/waivers'), { recursive: true });
    writeFileSync(join(dir, '.agents/projects/vault/project.yaml'), 'paths: ["secrets/**"]\n');
    writeFileSync(
      join(dir, `.agents/projects/vault/waivers/${waiver}.yaml`),
      `id: ${waiver}\ninvariant_id: ${GUARDED}\nreason: Key rotation\nowner: Ops\nexpires: 2020-06-01\ncreated_at: 2020-01-01T00:00:00Z\n`,
    );
    mkdirSync(join(dir, 'secrets'));
    const commit = (file: string, date: string) => {
      writeFileSync(join(dir, file), 'k\n');
      git(dir, 'add', '-A');
      execFileSync('git', ['commit', '-qm', file], { cwd: dir, env: { ...process.env, ...GIT_ENV, GIT_COMMITTER_DATE: date } });
    };
    commit('notes.txt', '2020-02-01T00:00:00Z');
    commit('secrets/a.key', '2020-03-01T00:00:00Z');
    expect(await findings(dir, 'HEAD^1..HEAD')).toEqual({ code: 0, found: [] });
    // A commit dated before the waiver was written: it was in force nowhere then.
    commit('secrets/b.key', '2019-12-01T00:00:00Z');
    expect(await findings(dir, 'HEAD^1..HEAD')).toEqual({ code: 1, found: [['secrets/b.key', 0]] });
    // Against the working tree, today: the waiver has ended.
    writeFileSync(join(dir, 'secrets/c.key'), 'k\n');
    expect(await findings(dir)).toEqual({ code: 1, found: [['secrets/c.key', 0]] });
  });
});

describe("agents guard check, where a finding's invariant is kept", () => {
  it('names the revision a shallow clone lacks, as invariant diff does, not the range git could not diff', async () => {
    const dir = await repo();
    const shallow = tempDir();
    git(shallow, 'clone', '-q', '--depth', '1', `file://${dir}`, '.');
    // Either end: the commit a range ends at is asked while git diffs, and the missing one is still the one named.
    for (const args of [
      ['guard', 'check', 'HEAD^1..HEAD'],
      ['guard', 'check', 'HEAD..HEAD^1'],
      ['invariant', 'diff', 'HEAD^1..HEAD'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: shallow });
      expect(r.code, args.join(' ')).toBe(2);
      const { message } = JSON.parse(r.stdout).error;
      expect(message, args.join(' ')).toContain('HEAD^1');
      expect(message, args.join(' ')).not.toContain(args[2]);
    }
  });

  it("names the store's file relative to the repository's top, as the changed file is, in JSON and SARIF", async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/new.key'), 'k\n');
    const kept = `.agents/global/${GUARDED}.yaml`;
    const json = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: dir });
    expect(json.code).toBe(1);
    const [d] = JSON.parse(json.stdout).diagnostics as { path: string; related: { file: string; path: string }[] }[];
    expect(d!.path).toBe('secrets/new.key');
    expect(d!.related.map((x) => [x.file, x.path])).toEqual([[kept, kept]]);
    const sarif = await runAgents(['guard', 'check', '--format', 'sarif'], { cwd: dir });
    const [result] = JSON.parse(sarif.stdout).runs[0].results;
    expect(
      result.relatedLocations.map(
        (x: { physicalLocation: { artifactLocation: { uri: string } } }) => x.physicalLocation.artifactLocation.uri,
      ),
    ).toEqual([kept]);
  });

  it('gives path relative to the current folder, and file to the repository top, as validate does', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'secrets/new.key'), 'k\n');
    const json = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: join(dir, 'docs') });
    expect(json.code).toBe(1);
    const [d] = JSON.parse(json.stdout).diagnostics as { file: string; path: string; related: { path: string }[] }[];
    expect([d!.file, d!.path, d!.related[0]!.path]).toEqual(['secrets/new.key', '../secrets/new.key', `../.agents/global/${GUARDED}.yaml`]);
  });

  it("names a policy source's file with its source, never as a file of the repository", async () => {
    const base = tempDir();
    const policy = policyRepo(base);
    policyCommit(policy, {
      [`.agents/global/${GUARDED}.yaml`]: guardedYaml(GUARDED, 'Agents never touch secrets', { write: ['secrets/**'] }),
    });
    const app = consumer(base, `  - url: ${policy.url}\n    ref: main\n`);
    expect((await runAgents(['extends', 'update'], { cwd: app })).code).toBe(0);
    mkdirSync(join(app, 'secrets'));
    writeFileSync(join(app, 'secrets/new.key'), 'k\n');
    const json = await runAgents(['--format', 'json', 'guard', 'check'], { cwd: app });
    expect(json.code, json.stderr).toBe(1);
    const [d] = JSON.parse(json.stdout).diagnostics as { related: { file: string; path: string }[] }[];
    expect(d!.related.map((x) => x.path)).toEqual([`extends/policy/global/${GUARDED}.yaml`]);
    const sarif = await runAgents(['guard', 'check', '--format', 'sarif'], { cwd: app });
    expect(JSON.parse(sarif.stdout).runs[0].results[0].relatedLocations).toBeUndefined();
  });
});

describe('agents guard check --staged where the commit records no store', () => {
  it('passes a commit (and a range) that removes the store and one on a branch without it, as validate --staged does, judges an earlier range by its end; a store named that is not there is still exit 2', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/a.key'), 'k\n');
    git(dir, 'add', 'secrets');
    git(dir, 'commit', '-qm', 'B');
    git(dir, 'rm', '-rq', '.agents');
    expect(await findings(dir, '--staged')).toEqual({ code: 0, found: [] });
    // The pull request that removed it, checked on its last commit as the workflow does: no guard is left to break.
    git(dir, 'commit', '-qm', 'remove the store');
    expect(await findings(dir, 'HEAD^1..HEAD')).toEqual({ code: 0, found: [] });
    // An earlier range, whose end holds the store, is judged by that store's guards, as every range is.
    expect(await findings(dir, 'HEAD~2..HEAD~1')).toEqual({ code: 1, found: [['secrets/a.key', 0]] });
    expect((await runAgents(['guard', 'check', 'HEAD'], { cwd: dir })).code).toBe(2);
    const bare = tempDir();
    git(bare, 'init', '-q');
    writeFileSync(join(bare, 'a.txt'), 'a\n');
    git(bare, 'add', 'a.txt');
    expect(await findings(bare, '--staged')).toEqual({ code: 0, found: [] });
    // Without --staged there is no commit to speak of: the missing store is said.
    expect((await runAgents(['guard', 'check'], { cwd: bare })).code).toBe(2);
    // A store the index still holds, its folder gone from the working tree, is not a removal: said as validate says it.
    const kept = await repo();
    rmSync(join(kept, '.agents'), { recursive: true });
    expect((await runAgents(['guard', 'check', '--staged'], { cwd: kept })).code).toBe(2);
    expect((await runAgents(['guard', 'check', 'HEAD'], { cwd: kept })).code).toBe(2);
  });
});
