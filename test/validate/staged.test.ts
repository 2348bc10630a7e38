import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catFileBatch } from '../../src/git/object-reader.ts';
import { MAX_FILE_BYTES } from '../../src/core/limits.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const ga = `global/${A}.yaml`;
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const good = ML + invariantYaml(A, 'Never delete production data');
const bad = `${ML}id: ${A}\ntext: Never delete production data\nseverity: fatal\n`;

interface Out {
  ok: boolean;
  source: string;
  diagnostics: { code: string; file: string; line: number; col: number }[];
}

function repoWithStore(tree: Record<string, string>): { repo: string; store: string } {
  const store = testStore(tree);
  const repo = dirname(store);
  gitInit(repo);
  commitAll(repo, 'store');
  return { repo, store };
}

async function validate(repo: string, ...args: string[]): Promise<{ code: number; out: Out }> {
  const r = await runAgents(['validate', '--format', 'json', ...args], { cwd: repo });
  expect(r.stderr).toBe('');
  return { code: r.code, out: JSON.parse(r.stdout) as Out };
}

describe('validate --staged', () => {
  it('refuses a store reached through a link out of the repository (whose index holds the link), exit 2, for --changed too', async () => {
    const shared = testStore();
    const repo = tempDir();
    gitInit(repo);
    symlinkSync(shared, join(repo, '.agents'));
    git(repo, 'add', '-A');
    for (const flag of ['--staged', '--changed']) {
      const r = await runAgents(['--format', 'json', 'validate', flag, '--store', '.agents'], { cwd: repo });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'usage', message: expect.stringContaining(`is a link to ${shared}`) });
    }
  });

  it('checks a store named through a link inside the repository where the link leads, --changed as --staged', async () => {
    const store = testStore({ [ga]: good });
    const repo = dirname(store);
    // The store kept in tools/agents, and named by a committed link .agents.
    mkdirSync(join(repo, 'tools'));
    renameSync(store, join(repo, 'tools', 'agents'));
    symlinkSync(join('tools', 'agents'), store);
    gitInit(repo);
    commitAll(repo, 'store');
    expect((await validate(repo, '--changed', '--store', '.agents')).code).toBe(0);
    writeFileSync(join(repo, 'tools', 'agents', ga), bad);
    expect((await validate(repo, '--changed', '--store', '.agents')).code).toBe(1);
    git(repo, 'add', '-A');
    expect((await validate(repo, '--staged', '--store', '.agents')).code).toBe(1);
  });

  it('leaves out an intent-to-add entry of a store named through a link, as of the store named where it is', async () => {
    const store = testStore({ [ga]: good });
    const repo = dirname(store);
    mkdirSync(join(repo, 'tools'));
    renameSync(store, join(repo, 'tools', 'agents'));
    symlinkSync(join('tools', 'agents'), store);
    gitInit(repo);
    commitAll(repo, 'store');
    writeFileSync(join(repo, 'tools', 'agents', `global/${B}.yaml`), '');
    git(repo, 'add', '-N', `tools/agents/global/${B}.yaml`);
    for (const named of ['tools/agents', '.agents'])
      expect((await validate(repo, '--staged', '--all-files', '--store', named)).code).toBe(0);
  });

  it('fails on a bad file in the index even when the working tree is fixed', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    writeFileSync(join(store, ga), bad);
    git(repo, 'add', '-A');
    writeFileSync(join(store, ga), good); // fixed on disk, not staged
    const staged = await validate(repo, '--staged');
    expect(staged.code).toBe(1);
    expect(staged.out.source).toBe('index');
    expect(staged.out.diagnostics.map((d) => [d.code, d.file, d.line, d.col])).toEqual([['schema', ga, 4, 11]]);
    const worktree = await validate(repo);
    expect(worktree.code).toBe(0);
    expect(worktree.out.source).toBe('working tree');
  });

  it('passes a good index while the working tree is broken', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    writeFileSync(join(store, ga), bad); // broken on disk, not staged
    writeFileSync(join(store, `global/${B}.yaml`), 'id: [\n'); // untracked: not in the index
    expect((await validate(repo, '--staged')).code).toBe(0);
    const worktree = await validate(repo);
    expect(worktree.code).toBe(1);
    expect(worktree.out.diagnostics.map((d) => d.code).sort()).toEqual(['schema', 'yaml-syntax']);
  });

  it('sees a file that is staged but deleted from the working tree, and a staged duplicate', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    writeFileSync(join(store, `global/${B}.yaml`), ML + invariantYaml(B, 'never delete  PRODUCTION data'));
    git(repo, 'add', '-A');
    rmSync(join(store, `global/${B}.yaml`));
    const staged = await validate(repo, '--staged');
    expect(staged.code).toBe(1);
    expect(staged.out.diagnostics.map((d) => [d.code, d.file, d.line, d.col])).toEqual([['duplicate-text', `global/${B}.yaml`, 3, 7]]);
    expect((await validate(repo)).code).toBe(0);
  });

  it('reads the whole index (--all-files) with one ls-files and one cat-file --batch process', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const id = `01JDQ6X5Z8W4N3B2C1D0E9F${String(i).padStart(3, '0')}`;
      tree[`projects/p${i % 4}/${id}.yaml`] =
        `# yaml-language-server: $schema=../../schemas/invariant.schema.json\n${invariantYaml(id, `Rule number ${i}`)}`;
    }
    const { repo, store } = repoWithStore(tree);
    // Changed on disk since committed (not staged): the staged bytes come from git, all in one process.
    for (const file of Object.keys(tree)) writeFileSync(join(store, file), `${tree[file]}# edited, not staged\n`);
    // A git on PATH that logs each call, then runs the real one.
    const shims = tempDir();
    const log = join(shims, 'calls.log');
    const realGit = join(git(repo, '--exec-path').trim(), 'git');
    writeFileSync(join(shims, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
    chmodSync(join(shims, 'git'), 0o755);
    // git is found on the run's PATH: the shim sees every git the CLI starts.
    const r = await runAgents(['validate', '--staged', '--all-files', '--format', 'json'], {
      cwd: repo,
      env: { PATH: `${shims}:${process.env.PATH}` },
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { files: number }).files).toBe(40);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls.sort()).toEqual(['cat-file --batch', 'ls-files -s -z -- .']);
    // Again: every blob is known to the cache, so nothing is read from git.
    writeFileSync(log, '');
    const again = await runAgents(['validate', '--staged', '--all-files', '--format', 'json'], {
      cwd: repo,
      env: { PATH: `${shims}:${process.env.PATH}` },
    });
    expect(again.stdout).toBe(r.stdout);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['ls-files -s -z -- .']);
  });

  it('reads a staged file from disk when its bytes are the staged ones (no cat-file), and from git once they differ', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    const shims = tempDir();
    const log = join(shims, 'calls.log');
    const realGit = join(git(repo, '--exec-path').trim(), 'git');
    writeFileSync(join(shims, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
    chmodSync(join(shims, 'git'), 0o755);
    const env = { PATH: `${shims}:${process.env.PATH}`, AGENTS_NO_CACHE: '1' };
    writeFileSync(join(store, ga), bad);
    git(repo, 'add', '-A');
    writeFileSync(log, '');
    const staged = await runAgents(['validate', '--staged', '--format', 'json'], { cwd: repo, env });
    expect(staged.code).toBe(1);
    expect((JSON.parse(staged.stdout) as Out).diagnostics.map((d) => d.code)).toContain('schema');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'diff --cached --name-only -z --no-renames --relative -- .',
      'ls-files -s -z -- .',
    ]);
    // Fixed on disk but not staged: the staged (bad) bytes are read from git.
    writeFileSync(join(store, ga), good);
    writeFileSync(log, '');
    const again = await runAgents(['validate', '--staged', '--format', 'json'], { cwd: repo, env });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe(staged.stdout);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toContain('cat-file --batch');
  });

  it('refuses a file in conflict (no stage of it is what is staged), listed once', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    git(repo, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(store, ga), ML + invariantYaml(A, 'Never delete production data, ever'));
    commitAll(repo, 'other side');
    git(repo, 'checkout', '-q', '-');
    writeFileSync(join(store, ga), bad);
    commitAll(repo, 'this side');
    expect(() => git(repo, 'merge', '-q', 'other')).toThrow();
    expect(git(repo, 'ls-files', '-u').trim().split('\n')).toHaveLength(3);
    const staged = await validate(repo, '--staged');
    expect(staged.out.source).toBe('index');
    expect((staged.out as unknown as { files: number }).files).toBe(1);
    // Stage 1, the common ancestor, is valid: it is not taken for what the commit will hold.
    expect(staged.out.diagnostics.map((d) => [d.code, d.file])).toEqual([['merge-conflict', ga]]);
    expect(staged.code).toBe(1);
  });

  it('says which stages of a conflict git holds: a file both sides deleted (a rename on each to two names) is for git rm, and uses no id', async () => {
    const { repo } = repoWithStore({ [ga]: good });
    // The index a merge of two moves of one invariant leaves: its old name at the base alone, each new name on one side.
    const sha = git(repo, 'rev-parse', `:.agents/${ga}`).trim();
    const [alpha, beta] = [`projects/alpha/${A}.yaml`, `projects/beta/${A}.yaml`];
    execFileSync('git', ['update-index', '--index-info'], {
      cwd: repo,
      input: [
        `0 ${'0'.repeat(40)}\t.agents/${ga}`,
        `100644 ${sha} 1\t.agents/${ga}`,
        `100644 ${sha} 2\t.agents/${beta}`,
        `100644 ${sha} 3\t.agents/${alpha}`,
      ].join('\n'),
    });
    const r = await runAgents(['validate', '--staged', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { diagnostics: (Out['diagnostics'][number] & { hint: string; related?: { file: string }[] })[] })
      .diagnostics;
    const conflicts = new Map(found.filter((d) => d.code === 'merge-conflict').map((d) => [d.file, d.hint]));
    expect([...conflicts.keys()].sort()).toEqual([ga, alpha, beta]);
    expect(conflicts.get(ga)).toMatch(/`git rm`/);
    expect(conflicts.get(ga)).not.toMatch(/`git add`/);
    for (const side of [alpha, beta]) expect(conflicts.get(side)).toMatch(/`git add`.*`git rm`/);
    // The two new names share the id; the old one, in neither side of the merge, is no use of it.
    const reused = found.filter((d) => d.code === 'id-reused');
    expect(reused.map((d) => [d.file, d.related?.[0]?.file])).toEqual([[beta, alpha]]);
    // Neither side can be read while unmerged, but git holds one blob for both: copies of one invariant, not two.
    expect(reused[0]!.hint).toMatch(/copies of one invariant/);
    // invariant diff --staged refuses the index alike: the deleted name is no use of the id there either.
    const diff = await runAgents(['--format', 'json', 'invariant', 'diff', '--staged'], { cwd: repo });
    expect(diff.code).toBe(3);
    const refused = (JSON.parse(diff.stdout) as { error: { detail: { diagnostics: typeof found } } }).error.detail.diagnostics;
    const diffReused = refused.filter((d) => d.code === 'id-reused');
    expect(diffReused.map((d) => [d.file, d.related?.[0]?.file])).toEqual([[beta, alpha]]);
    expect(diffReused[0]!.hint).toMatch(/copies of one invariant/);
  });

  it('is a usage error outside a git repository, and with --fix', async () => {
    const store = testStore({ [ga]: good });
    const outside = await runAgents(['--store', store, 'validate', '--staged'], { cwd: dirname(store) });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--staged needs a git repository/);
    const outsideJson = await runAgents(['--store', store, 'validate', '--staged', '--format', 'json'], { cwd: dirname(store) });
    expect(JSON.parse(outsideJson.stdout).error.code).toBe('not-a-repository');
    mkdirSync(join(dirname(store), '.git'));
    const { repo } = repoWithStore({ [ga]: good });
    const withFix = await runAgents(['validate', '--staged', '--fix'], { cwd: repo });
    expect(withFix.code).toBe(2);
    expect(withFix.stderr).toMatch(/--fix cannot be combined with --staged/);
  });
});

describe('validate --staged where there is no store', () => {
  it('passes in silence in a repository without a store, and where the commit removes it; the other forms still refuse', async () => {
    const repo = tempDir();
    gitInit(repo);
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    const text = await runAgents(['validate', '--staged'], { cwd: repo });
    expect([text.code, text.stdout, text.stderr]).toEqual([0, '', '']);
    const json = await runAgents(['validate', '--staged', '--format', 'json'], { cwd: repo });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, files: 0, diagnostics: [] });
    // A subfolder store named by the hook (--store), absent on this branch.
    expect((await runAgents(['--store', 'sub/.agents', 'validate', '--staged'], { cwd: repo })).code).toBe(0);
    for (const args of [['validate'], ['validate', '--staged', '--all-files']]) {
      const r = await runAgents(args, { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
    }
    const { repo: withStore, store } = repoWithStore({ [ga]: good });
    git(withStore, 'rm', '-rq', '.agents');
    expect((await runAgents(['validate', '--staged'], { cwd: withStore })).code).toBe(0);
    // The index still holds the store while its folder is gone from the working tree: a commit that stages none of it
    // records it as HEAD has it, and passes; one that stages a file of it cannot be checked from here, and is refused.
    git(withStore, 'reset', '-q');
    rmSync(store, { recursive: true, force: true });
    expect((await runAgents(['validate', '--staged'], { cwd: withStore })).code).toBe(0);
    git(withStore, 'checkout', '-q', '--', '.agents');
    writeFileSync(join(store, ga), bad);
    git(withStore, 'add', '.agents');
    rmSync(store, { recursive: true, force: true });
    expect((await runAgents(['validate', '--staged'], { cwd: withStore })).code).toBe(2);
  });
});

describe('validate --staged and intent-to-add entries (git add -N)', () => {
  it('leaves them out, as git commit does: neither validate nor invariant diff reads them as empty files', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    const added = `global/${B}.yaml`;
    writeFileSync(join(store, added), ML + invariantYaml(B, 'Intent to add rule'));
    // A real empty file staged beside it is still one.
    const empty = 'global/01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml';
    writeFileSync(join(store, empty), '');
    git(repo, 'add', join(store, empty));
    git(repo, 'add', '-N', join(store, added));
    const all = await validate(repo, '--staged', '--all-files');
    expect(all.out.diagnostics.map((d) => [d.code, d.file])).toEqual([['file-empty', empty]]);
    expect(all.code).toBe(1);
    git(repo, 'rm', '-q', '--cached', join(store, empty));
    expect((await validate(repo, '--staged', '--all-files')).code).toBe(0);
    const diff = await runAgents(['invariant', 'diff', '--staged', '--format', 'json'], { cwd: repo });
    expect(diff.code, diff.stderr).toBe(0);
  });
});

describe('validate --staged with nothing of the store staged', () => {
  it('still refuses what it cannot take (exit 2): a bad --jobs or AGENTS_JOBS, a path outside the store', async () => {
    const { repo } = repoWithStore({ [ga]: good });
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    expect((await runAgents(['validate', '--staged'], { cwd: repo })).code).toBe(0);
    for (const [args, env, typed] of [
      [['--jobs', '0'], {}, '"0"'],
      [['--jobs', 'abc'], {}, '"abc"'],
      [['--jobs='], {}, '""'],
      [[], { AGENTS_JOBS: 'abc' }, '"abc"'],
      [['extra/path'], {}, 'extra/path'],
      [['/etc/passwd'], {}, '/etc/passwd'],
      [['--', '--foo'], {}, '--foo'],
    ] as const) {
      const r = await runAgents(['validate', '--staged', ...args], { cwd: repo, env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(typed);
    }
  });

  it('refuses a path not in the index as it does with a store file staged, and takes one that is', async () => {
    const { repo, store } = repoWithStore({ [ga]: good });
    const typo = join(store, 'global', 'nope.yaml');
    const verdicts: number[] = [];
    verdicts.push((await runAgents(['validate', '--staged', typo], { cwd: repo })).code);
    writeFileSync(join(store, `global/${B}.yaml`), ML + invariantYaml(B, 'Another rule'));
    git(repo, 'add', '-A');
    verdicts.push((await runAgents(['validate', '--staged', typo], { cwd: repo })).code);
    expect(verdicts).toEqual([2, 2]);
    git(repo, 'reset', '-q');
    for (const named of [join(store, ga), join(store, 'global'), store]) {
      expect((await runAgents(['validate', '--staged', named], { cwd: repo })).code, named).toBe(0);
    }
  });
});

describe('a submodule inside the store', () => {
  it('is one unknown path in the working tree as in the index: the same verdict, never walked into', async () => {
    const other = tempDir();
    gitInit(other);
    mkdirSync(join(other, '.agents/global'), { recursive: true });
    writeFileSync(join(other, '.agents/global/x.yaml'), 'id: nope\n');
    commitAll(other, 'other');
    const { repo } = repoWithStore({ [ga]: good });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', other, '.agents/actions/shared');
    const index = await validate(repo, '--staged', '--all-files');
    const worktree = await validate(repo);
    const found = (r: { out: Out }) => r.out.diagnostics.map((d) => [d.code, d.file]);
    expect(found(index)).toEqual([['unknown-path', 'actions/shared']]);
    expect(found(worktree)).toEqual(found(index));
    expect([worktree.code, index.code]).toEqual([0, 0]);
  });
});

describe('a store partly outside a sparse checkout', () => {
  it('is refused in the working tree (exit 2), by validate and the readers, whose missing files would read as absent; the index is checked whole', async () => {
    const P = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
    const PML = '# yaml-language-server: $schema=../../schemas/invariant.schema.json\n';
    const { repo } = repoWithStore({
      [ga]: good,
      [`projects/app/${P}.yaml`]: PML + invariantYaml(P, 'Never delete production data', { overrides: A }),
      'actions/.gitkeep': '',
    });
    // Only the projects folder is checked out: the global invariant the project copy overrides is not.
    git(repo, 'sparse-checkout', 'set', '--cone', '.agents/projects');
    const worktree = await runAgents(['validate', '--format', 'json'], { cwd: repo });
    expect(worktree.code).toBe(2);
    expect(JSON.parse(worktree.stdout).error).toMatchObject({ code: 'sparse-store', detail: { missing: 1, file: ga } });
    // A reader would give the project's set without the global invariant: refused the same way.
    const list = await runAgents(['invariant', 'list', '--effective', '--project', 'app', '--format', 'json'], { cwd: repo });
    expect(list.code).toBe(2);
    expect(JSON.parse(list.stdout).error.code).toBe('sparse-store');
    // The index holds every file: no overrides-unknown there.
    const staged = await validate(repo, '--staged', '--all-files');
    expect(staged.code).toBe(0);
    expect(staged.out.diagnostics).toEqual([]);
    // A checkout that leaves out only a hidden file (an empty folder's .gitkeep) leaves no store file out.
    git(repo, 'sparse-checkout', 'set', '--cone', '.agents/projects', '.agents/global');
    expect((await validate(repo)).code).toBe(0);
    // Checked out again whole, the working tree is checked as usual.
    git(repo, 'sparse-checkout', 'disable');
    expect((await validate(repo)).code).toBe(0);
    const whole = await runAgents(['invariant', 'list', '--effective', '--project', 'app', '--format', 'json'], { cwd: repo });
    expect(whole.code).toBe(0);
  });

  it('left out whole (a monorepo checkout of other folders): a commit that stages none of it passes validate --staged and the export check; guard check and a staged store file are refused as sparse-store', async () => {
    const gb = `global/${B}.yaml`;
    const { repo } = repoWithStore({ [ga]: good, [gb]: ML + invariantYaml(B, 'Log every change') });
    writeFileSync(join(repo, 'app.txt'), 'a\n');
    commitAll(repo, 'app');
    git(repo, 'sparse-checkout', 'set', '--no-cone', '/app.txt');
    // The empty folders the test store was made with, which git never tracked, are not in a clone's checkout either.
    rmSync(join(repo, '.agents'), { recursive: true, force: true });
    writeFileSync(join(repo, 'app.txt'), 'b\n');
    git(repo, 'add', 'app.txt');
    // Said before as a repository with no store at all ("run agents init"), which stopped every commit.
    expect((await validate(repo, '--staged')).code).toBe(0);
    expect((await runAgents(['export', '--check'], { cwd: repo })).code).toBe(0);
    const refused = async (...args: string[]) => {
      const r = await runAgents(['--format', 'json', ...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      return JSON.parse(r.stdout).error;
    };
    // A reader says the checkout may leave the store out, not only to make one (init would make a second store).
    expect(await refused('invariant', 'list')).toMatchObject({ code: 'usage', detail: { sparse: true } });
    // The guards of the store cannot be read from here: refused, not passed as a commit without guards.
    expect(await refused('guard', 'check', '--staged')).toMatchObject({
      code: 'sparse-store',
      detail: { missing: 2, file: `.agents/${ga}` },
    });
    // init would make a second store where git tracks the repository's own: refused, nothing made.
    expect(await refused('init')).toMatchObject({ code: 'sparse-store', detail: { missing: 2, file: ga } });
    expect(existsSync(join(repo, '.agents'))).toBe(false);
    // A store file staged where the working tree lacks the store: refused, naming the store, never passed unchecked.
    git(repo, 'update-index', '--force-remove', `.agents/${gb}`);
    const staged = await refused('validate', '--staged');
    expect(staged).toMatchObject({ code: 'sparse-store' });
    // What it names brings the store back into this non-cone checkout.
    git(repo, 'sparse-checkout', 'add', staged.detail.add);
    expect(existsSync(join(repo, '.agents', ga))).toBe(true);
  });

  it("names what `git sparse-checkout add` takes to bring it back, in the checkout's mode: running it makes the store whole", async () => {
    const P = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
    const { repo } = repoWithStore({ [ga]: good, [`projects/app/${P}.yaml`]: invariantYaml(P, 'All API changes need tests') });
    const list = () => runAgents(['invariant', 'list', '--format', 'json'], { cwd: repo });
    // A non-cone checkout excluding a folder of the store: `add .agents` appends a pattern the nearer exclusion overrides.
    for (const mode of [
      ['--no-cone', '/*', '!/.agents/projects/'],
      ['--cone', '.agents/global'],
    ]) {
      git(repo, 'sparse-checkout', 'set', ...mode);
      const refused = await list();
      expect(refused.code, mode.join(' ')).toBe(2);
      const { code, detail } = JSON.parse(refused.stdout).error;
      expect(code).toBe('sparse-store');
      git(repo, 'sparse-checkout', 'add', detail.add);
      expect((await list()).code, `${mode.join(' ')}, then add ${detail.add}`).toBe(0);
    }
    expect(git(repo, 'config', '--get', 'core.sparseCheckoutCone').trim()).toBe('true');
  });

  it('a file marked skip-worktree by hand but still on disk is read as usual', async () => {
    const { repo } = repoWithStore({ [ga]: good });
    git(repo, 'sparse-checkout', 'set', '--no-cone', '/*');
    git(repo, 'update-index', '--skip-worktree', `.agents/${ga}`);
    const r = await validate(repo);
    expect(r.code).toBe(0);
  });
});

describe('a staged file over 1 MiB', () => {
  it('is answered by its size, never read into memory; the blobs around it come whole', async () => {
    const repo = tempDir();
    gitInit(repo);
    const small = 'id: x\n';
    const big = 'a'.repeat(MAX_FILE_BYTES + 1);
    writeFileSync(join(repo, 'small.yaml'), small);
    writeFileSync(join(repo, 'big.yaml'), big);
    writeFileSync(join(repo, 'empty.yaml'), '');
    git(repo, 'add', '-A');
    const id = (path: string) => git(repo, 'rev-parse', `:${path}`).trim();
    const missing = '0'.repeat(40);
    const got = await catFileBatch(repo, [id('small.yaml'), id('big.yaml'), missing, id('empty.yaml'), id('small.yaml')], MAX_FILE_BYTES);
    expect(got.get(id('big.yaml'))).toBe(MAX_FILE_BYTES + 1);
    expect(got.get(id('small.yaml'))?.toString()).toBe(small);
    expect(got.get(id('empty.yaml'))?.toString()).toBe('');
    expect(got.get(missing)).toBeNull();
    // validate --staged reports it as too large, as in the working tree.
    mkdirSync(join(repo, '.agents/global'), { recursive: true });
    writeFileSync(join(repo, '.agents', ga), big);
    git(repo, 'add', '-A');
    const staged = await validate(repo, '--staged');
    expect(staged.code).toBe(1);
    expect(staged.out.diagnostics.map((d) => [d.code, d.file])).toEqual([['file-too-large', ga]]);
  });
});
