import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';
import { errorOf, runAgents } from '../helpers/main.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const D = '01JDQ6X5Z8W4N3B2C1D0E9F8GA';
const MLG = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const MLP = '# yaml-language-server: $schema=../../schemas/invariant.schema.json\n';

interface Out {
  ok: boolean;
  files: number;
  diagnostics: { code: string; file: string; severity: string; related: { file: string }[] }[];
}

/** A committed store whose files already carry warnings: a shadowed global and a stray file. */
function noisyRepo(): { repo: string; store: string } {
  const store = testStore({
    [`global/${A}.yaml`]: MLG + invariantYaml(A, 'Never delete production data'),
    [`projects/web/${B}.yaml`]: MLP + invariantYaml(B, 'Never delete production data'),
    'notes.txt': 'not part of the layout\n',
  });
  const repo = dirname(store);
  gitInit(repo);
  writeFileSync(join(repo, 'README.md'), 'hello\n');
  commitAll(repo, 'store');
  return { repo, store };
}

/** A `git` first on PATH that logs each call, then runs the real one. */
function gitShim(repo: string): { env: Record<string, string>; calls: () => string[] } {
  const shims = tempDir();
  const log = join(shims, 'calls.log');
  writeFileSync(log, '');
  const realGit = join(git(repo, '--exec-path').trim(), 'git');
  writeFileSync(join(shims, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shims, 'git'), 0o755);
  return {
    env: { PATH: `${shims}:${process.env.PATH}` },
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
  };
}

async function json(repo: string, ...args: string[]): Promise<{ code: number; out: Out }> {
  const r = await runAgents(['validate', '--format', 'json', ...args], { cwd: repo });
  expect(r.stderr).toBe('');
  return { code: r.code, out: JSON.parse(r.stdout) as Out };
}

const codes = (out: Out) => out.diagnostics.map((d) => [d.code, d.file, d.severity]);

describe('validate in hook mode (--staged, --changed)', () => {
  it("with no store file staged: no git process (one when git's files cannot tell), nothing printed, exit 0", async () => {
    const { repo } = noisyRepo();
    writeFileSync(join(repo, 'README.md'), 'changed\n');
    git(repo, 'add', 'README.md');
    const shim = gitShim(repo);
    // The git on the run's PATH is a counting shim.
    const r = await runAgents(['validate', '--staged'], { cwd: repo, env: shim.env });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(shim.calls()).toEqual([]);
    // Once HEAD's commit is packed, git is asked.
    git(repo, 'gc', '-q');
    const packed = await runAgents(['validate', '--staged'], { cwd: repo, env: shim.env });
    expect([packed.code, packed.stdout, packed.stderr]).toEqual([0, '', '']);
    expect(shim.calls()).toEqual(['diff --cached --name-only -z --no-renames --relative -- .']);
    // The store's own warnings are all still there for a full run.
    expect(codes((await json(repo)).out)).toEqual([
      ['shadowed', `global/${A}.yaml`, 'warning'],
      ['unknown-path', 'notes.txt', 'warning'],
    ]);
  });

  /** The noisy store, with C (no modeline: an info) shadowed by D (a warning on C), both staged. */
  function stagedPair(): string {
    const { repo, store } = noisyRepo();
    writeFileSync(join(store, `global/${C}.yaml`), invariantYaml(C, 'Log all changes'));
    writeFileSync(join(store, 'projects/web', `${D}.yaml`), MLP + invariantYaml(D, 'Log all changes'));
    git(repo, 'add', '-A');
    return repo;
  }

  it('a staged file with warnings shows only its own; infos with --verbose', async () => {
    const repo = stagedPair();
    const hook = await json(repo, '--staged');
    expect(hook.code).toBe(0);
    expect(hook.out.files).toBe(2);
    expect(codes(hook.out)).toEqual([['shadowed', `global/${C}.yaml`, 'warning']]);
    const verbose = await json(repo, '--staged', '--verbose');
    expect(codes(verbose.out)).toEqual([
      ['shadowed', `global/${C}.yaml`, 'warning'],
      ['modeline-missing', `global/${C}.yaml`, 'info'],
    ]);
  });

  it('--all-files reports the whole index, as before hook mode', async () => {
    const repo = stagedPair();
    const whole = await json(repo, '--staged', '--all-files');
    expect(codes(whole.out)).toEqual([
      ['shadowed', `global/${A}.yaml`, 'warning'],
      ['shadowed', `global/${C}.yaml`, 'warning'],
      ['unknown-path', 'notes.txt', 'warning'],
      ['modeline-missing', `global/${C}.yaml`, 'info'],
    ]);
  });

  it("in text, the committed warnings stay out of the hook's output", async () => {
    const repo = stagedPair();
    const text = await runAgents(['validate', '--staged'], { cwd: repo });
    expect(text.stdout).toContain(`global/${C}.yaml`);
    expect(text.stdout).not.toContain('notes.txt');
    expect(text.stdout).not.toContain(`global/${A}.yaml`);
  });

  it('reports a committed file that a staged file makes a problem of', async () => {
    const { repo, store } = noisyRepo();
    // A staged project copy of a committed global text: the warning is on the committed global, the staged file takes part.
    mkdirSync(join(store, 'projects/api'));
    writeFileSync(join(store, 'projects/api', `${C}.yaml`), MLP + invariantYaml(C, 'Never delete production data'));
    git(repo, 'add', '-A');
    const hook = await json(repo, '--staged');
    expect(hook.out.diagnostics.map((d) => d.code)).toEqual(['shadowed']);
    expect(hook.out.diagnostics[0]!.file).toBe(`global/${A}.yaml`);
  });

  it('fails the commit on an error in a staged file', async () => {
    const { repo, store } = noisyRepo();
    writeFileSync(join(store, `global/${C}.yaml`), `${MLG}id: ${C}\ntext: x\nseverity: fatal\n`);
    git(repo, 'add', '-A');
    const hook = await json(repo, '--staged');
    expect(hook.code).toBe(1);
    expect(codes(hook.out)).toEqual([['schema', `global/${C}.yaml`, 'error']]);
  });

  it('counts the files the commit changes that it checked, a deleted one apart, as nothing of it is read', async () => {
    const { repo, store } = noisyRepo();
    git(repo, 'rm', '-q', join(store, `projects/web/${B}.yaml`));
    writeFileSync(join(store, `global/${C}.yaml`), MLG + invariantYaml(C, 'Keep a changelog'));
    git(repo, 'add', '-A');
    expect((await json(repo, '--staged')).out.files).toBe(1);
    git(repo, 'reset', '-q', join(store, `global/${C}.yaml`));
    expect((await json(repo, '--staged')).out.files).toBe(0);
    const text = await runAgents(['validate', '--staged'], { cwd: repo });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/ 0 files \(index; 1 file deleted\)\n$/);
  });

  it('--changed reports on the working tree files changed since HEAD, untracked ones included', async () => {
    const { repo, store } = noisyRepo();
    expect(await runAgents(['validate', '--changed'], { cwd: repo })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    writeFileSync(join(store, `global/${C}.yaml`), `${MLG}id: ${C}\ntext: x\nseverity: fatal\n`); // untracked
    const changed = await json(repo, '--changed');
    expect(changed.code).toBe(1);
    expect(codes(changed.out)).toEqual([['schema', `global/${C}.yaml`, 'error']]);
    // Nothing is staged: the --staged hook passes.
    expect(await runAgents(['validate', '--staged'], { cwd: repo })).toMatchObject({ code: 0, stdout: '' });
  });

  it('--profile with nothing of the store changed: stdout stays empty, the git listing and the total on stderr', async () => {
    const { repo } = noisyRepo();
    for (const flag of ['--staged', '--changed']) {
      const r = await runAgents(['validate', flag, '--profile'], { cwd: repo });
      expect(r.code, flag).toBe(0);
      expect(r.stdout, flag).toBe('');
      const steps = r.stderr
        .split('\n')
        .slice(2)
        .map((line) => /^ {2}(\S+) +\d+\.\d +\d+\.\d +\d+\.\d$/.exec(line)?.[1])
        .filter((name) => name !== undefined);
      expect(steps, flag).toEqual(['changed', 'total']);
    }
  });

  it('--changed refuses a path not in the working tree whether or not a store file changed, and takes one that is', async () => {
    const { repo, store } = noisyRepo();
    const typo = join(store, 'global', 'nope.yaml');
    const verdicts = [(await runAgents(['validate', '--changed', typo], { cwd: repo })).code];
    writeFileSync(join(store, `global/${C}.yaml`), MLG + invariantYaml(C, 'Another rule'));
    verdicts.push((await runAgents(['validate', '--changed', typo], { cwd: repo })).code);
    expect(verdicts).toEqual([2, 2]);
    rmSync(join(store, `global/${C}.yaml`));
    for (const named of [join(store, `global/${A}.yaml`), join(store, 'global'), store]) {
      expect((await runAgents(['validate', '--changed', named], { cwd: repo })).code, named).toBe(0);
    }
  });

  it('--changed reports the edits git is told not to look at: assume-unchanged, skip-worktree, a quiet core.fsmonitor hook', async () => {
    const { repo, store } = noisyRepo();
    const bad = (id: string) => `${MLG}id: ${id}\ntext: x\nseverity: fatal\n`;
    git(repo, 'update-index', '--assume-unchanged', `.agents/global/${A}.yaml`);
    writeFileSync(join(store, `global/${A}.yaml`), bad(A));
    git(repo, 'update-index', '--skip-worktree', `.agents/projects/web/${B}.yaml`);
    writeFileSync(join(store, `projects/web/${B}.yaml`), bad(B).replace('../', '../../'));
    expect(git(repo, 'status', '--porcelain')).toBe('');
    let changed = await json(repo, '--changed');
    expect(changed.code).toBe(1);
    expect(codes(changed.out)).toEqual([
      ['schema', `global/${A}.yaml`, 'error'],
      ['schema', `projects/web/${B}.yaml`, 'error'],
    ]);
    git(repo, 'update-index', '--no-assume-unchanged', `.agents/global/${A}.yaml`);
    git(repo, 'update-index', '--no-skip-worktree', `.agents/projects/web/${B}.yaml`);
    git(repo, 'checkout', '--', '.');
    // A monitor hook that reports no change, once git has marked the index entries as watched.
    writeFileSync(join(repo, '.git/quiet.sh'), "#!/bin/sh\nprintf 'token\\0'\n", { mode: 0o755 });
    git(repo, 'config', 'core.fsmonitor', join(repo, '.git/quiet.sh'));
    git(repo, 'status', '--porcelain');
    writeFileSync(join(store, `global/${A}.yaml`), bad(A));
    expect(git(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    changed = await json(repo, '--changed');
    expect(changed.code).toBe(1);
    expect(codes(changed.out)).toEqual([['schema', `global/${A}.yaml`, 'error']]);
  });

  it('refuses outside a git repository and bad combinations (exit 2)', async () => {
    const store = testStore({});
    for (const flag of ['--staged', '--changed']) {
      const r = await runAgents(['--store', store, 'validate', flag]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag} needs a git repository`);
      // The code the readers of git history give in the same place.
      expect(errorOf(await runAgents(['--store', store, 'validate', flag, '--format', 'json'])).code).toBe('not-a-repository');
    }
    const { repo } = noisyRepo();
    expect((await runAgents(['validate', '--all-files'], { cwd: repo })).code).toBe(2);
    expect((await runAgents(['validate', '--staged', '--changed'], { cwd: repo })).code).toBe(2);
    expect((await runAgents(['validate', '--changed', '--fix'], { cwd: repo })).code).toBe(2);
  });
});

const E = '01JDQ6X5Z8W4N3B2C1D0E9F8GB';
const F = '01JDQ6X5Z8W4N3B2C1D0E9F8GC';
const H = '01JDQ6X5Z8W4N3B2C1D0E9F8GE';

/**
 * What a full run of the index reports that a change takes part in (a
 * diagnostic on a changed path or a folder of one, or naming one as related),
 * against what hook mode reports: equal, diagnostic for diagnostic (docs/validation.md,
 * "What hook mode checks").
 */
async function hookAgainstFull(repo: string, store: string): Promise<Out['diagnostics']> {
  const changed = git(store, 'diff', '--cached', '--name-only', '--no-renames', '--relative', '-z', '--', '.')
    .split('\0')
    .filter((p) => p !== '');
  expect(changed.length).toBeGreaterThan(0);
  const folders = new Set(changed.flatMap((p) => p.split('/').map((_, i, parts) => parts.slice(0, i).join('/'))).filter((f) => f !== ''));
  const touches = (file: string) => changed.includes(file) || folders.has(file);
  const full = await json(repo, '--staged', '--all-files', '--verbose');
  const hook = await json(repo, '--staged', '--verbose');
  const expected = full.out.diagnostics.filter((d) => touches(d.file) || d.related.some((r) => touches(r.file)));
  expect(hook.out.diagnostics).toEqual(expected);
  expect(hook.code).toBe(expected.some((d) => d.severity === 'error') ? 1 : 0);
  return hook.out.diagnostics;
}

describe('hook mode reports what a full validation reports of the change', () => {
  /** A committed store with a near-duplicate pair already in it (E in global, H in project web) and a stray file. */
  function committed(): { repo: string; store: string } {
    const store = testStore({
      [`global/${A}.yaml`]: MLG + invariantYaml(A, 'Never delete production data'),
      [`global/${E}.yaml`]: MLG + invariantYaml(E, 'Archive the audit logs daily'),
      [`projects/web/${B}.yaml`]: MLP + invariantYaml(B, 'Rotate the deploy keys every month'),
      [`projects/web/${H}.yaml`]: MLP + invariantYaml(H, 'Archive the audit logs daily!'),
      'notes.txt': 'not part of the layout\n',
    });
    const repo = dirname(store);
    gitInit(repo);
    commitAll(repo, 'store');
    return { repo, store };
  }

  const stage = (repo: string, store: string, files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(store, path)), { recursive: true });
      writeFileSync(join(store, path), text);
    }
    git(repo, 'add', '-A');
  };
  const summary = (list: Out['diagnostics']) => list.map((d) => [d.code, d.file, d.related.map((r) => r.file)]);

  it('a duplicate id', async () => {
    const { repo, store } = committed();
    stage(repo, store, { [`projects/api/${A}.yaml`]: MLP + invariantYaml(A, 'Keep secrets out of logs') });
    expect(summary(await hookAgainstFull(repo, store))).toEqual([['id-reused', `projects/api/${A}.yaml`, [`global/${A}.yaml`]]]);
  });

  it('a duplicate text in one scope', async () => {
    const { repo, store } = committed();
    stage(repo, store, { [`global/${C}.yaml`]: MLG + invariantYaml(C, 'never delete production  data') });
    expect(summary(await hookAgainstFull(repo, store))).toEqual([['duplicate-text', `global/${C}.yaml`, [`global/${A}.yaml`]]]);
  });

  it('a shadowed copy (the warning sits on the committed file)', async () => {
    const { repo, store } = committed();
    stage(repo, store, { [`projects/api/${C}.yaml`]: MLP + invariantYaml(C, 'Never delete production data') });
    expect(summary(await hookAgainstFull(repo, store))).toEqual([['shadowed', `global/${A}.yaml`, [`projects/api/${C}.yaml`]]]);
  });

  it('a near-duplicate: the committed newer copy names every older one, the unchanged one included', async () => {
    const { repo, store } = committed();
    // F is older than H and newer than E: F nearly repeats E, and H (committed) nearly repeats E and F.
    stage(repo, store, { [`global/${F}.yaml`]: MLG + invariantYaml(F, 'Archive the audit log daily') });
    expect(summary(await hookAgainstFull(repo, store))).toEqual([
      ['near-duplicate', `global/${F}.yaml`, [`global/${E}.yaml`]],
      ['near-duplicate', `projects/web/${H}.yaml`, [`global/${E}.yaml`, `global/${F}.yaml`]],
    ]);
  });

  it('a near-duplicate removed, and a committed one left alone', async () => {
    const { repo, store } = committed();
    stage(repo, store, { [`projects/web/${B}.yaml`]: MLP + invariantYaml(B, 'Rotate the deploy key every month') });
    expect(await hookAgainstFull(repo, store)).toEqual([]);
    rmSync(join(store, `global/${E}.yaml`));
    git(repo, 'add', '-A');
    expect(await hookAgainstFull(repo, store)).toEqual([]);
  });

  it('overlapping project paths: reported when a project.yaml is staged, not when only an invariant is', async () => {
    const { repo, store } = committed();
    const paths = (globs: string[]) => `paths:\n${globs.map((g) => `  - "${g}"\n`).join('')}`;
    // Committed with an overlap already in it: a commit of an invariant hears nothing of it.
    stage(repo, store, { 'projects/web/project.yaml': paths(['web/**']), 'projects/api/project.yaml': paths(['api/**', 'web/src/**']) });
    commitAll(repo, 'projects');
    stage(repo, store, { [`projects/web/${C}.yaml`]: MLP + invariantYaml(C, 'Keep secrets out of logs') });
    expect(await hookAgainstFull(repo, store)).toEqual([]);
    // A project.yaml staged: its overlaps and unmatched globs, as a full run reports them. docs meets api and web
    // both: two overlaps, each said, though web's sits at the place of api's.
    stage(repo, store, { 'projects/docs/project.yaml': paths(['docs/**', 'web/**']) });
    expect(summary(await hookAgainstFull(repo, store))).toEqual([
      ['project-paths-overlap', 'projects/docs/project.yaml', ['projects/api/project.yaml']],
      ['project-paths-overlap', 'projects/web/project.yaml', ['projects/docs/project.yaml']],
      ['project-path-unmatched', 'projects/docs/project.yaml', []],
      ['project-path-unmatched', 'projects/docs/project.yaml', []],
      ['modeline-missing', 'projects/docs/project.yaml', []],
    ]);
  });

  it('a schema error, and layout problems of staged paths', async () => {
    const { repo, store } = committed();
    stage(repo, store, {
      [`global/${C}.yaml`]: `${MLG}id: ${C}\ntext: x\nseverity: fatal\n`,
      'notes-2.txt': 'also not part of the layout\n',
      'projects/Bad Name/x.yaml': 'text: y\n',
      [`plans/${D}/${F}.yaml`]: invariantYaml(F, 'Plan without its plan.yaml'),
    });
    expect(summary(await hookAgainstFull(repo, store)).map(([code, file]) => [code, file])).toEqual([
      ['schema', `global/${C}.yaml`],
      ['bad-name', 'projects/Bad Name'],
      ['unknown-path', 'notes-2.txt'],
      ['modeline-missing', `plans/${D}/${F}.yaml`],
    ]);
  });
});
