import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { commitAll, git, GIT_ENV, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

/**
 * Every git call of the tool gives the same answer whether or not the
 * variables git sets for hooks (GIT_DIR in a linked worktree, GIT_INDEX_FILE,
 * GIT_PREFIX) are set, in a normal repository and in a linked worktree
 * (docs/guarantees.md; docs/adr/0046-one-git-runner-one-environment.md).
 */

const G1 = '01JG1000000000000000000000';
const G2 = '01JG2000000000000000000000';
const BAD = '01JBAD00000000000000000000';
const A1 = '01JA1000000000000000000000';

type Where = 'normal repository' | 'linked worktree';

/** A repository with two commits of a store; `top` is where we work: the repository itself or a linked worktree of it. */
function setup(where: Where): { top: string; main: string } {
  const main = join(tempDir('agents-gitenv-'), 'repo');
  mkdirSync(main);
  gitInit(main);
  writeTree(join(main, '.agents'), {
    'projects/': null,
    'plans/': null,
    [`global/${G1}.yaml`]: invariantYaml(G1, 'Never delete production data'),
    [`actions/ops/deploy/${A1}.yaml`]: invariantYaml(A1, 'Deploy only from main'),
  });
  commitAll(main, 'first');
  writeFileSync(join(main, `.agents/global/${G1}.yaml`), invariantYaml(G1, 'Never delete production data or backups'));
  writeFileSync(join(main, `.agents/global/${G2}.yaml`), invariantYaml(G2, 'Log every change'));
  commitAll(main, 'second');
  if (where === 'normal repository') return { top: main, main };
  const top = join(main, '..', 'linked');
  git(main, 'worktree', 'add', '-q', '-b', 'feature', top);
  return { top, main };
}

/**
 * The GIT_* variables git gives a pre-commit hook of `git commit` in `top`,
 * as git really sets them: a hook that records its environment and refuses,
 * so nothing is committed.
 */
function hookEnv(top: string): Record<string, string> {
  const hooks = tempDir('agents-hooks-');
  const dump = join(hooks, 'env');
  writeFileSync(join(hooks, 'pre-commit'), `#!/bin/sh\nenv -0 > '${dump}'\nexit 1\n`);
  chmodSync(join(hooks, 'pre-commit'), 0o755);
  spawnSync('git', ['-c', `core.hooksPath=${hooks}`, 'commit', '-q', '--allow-empty', '-m', 'probe'], {
    cwd: top,
    env: { ...process.env, ...GIT_ENV },
  });
  const env: Record<string, string> = {};
  for (const entry of readFileSync(dump, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    const [k, v] = [entry.slice(0, eq), entry.slice(eq + 1)];
    if (k.startsWith('GIT_') && (GIT_ENV[k] === undefined || GIT_ENV[k] !== v) && process.env[k] !== v) env[k] = v;
  }
  return env;
}

function json(r: { code: number; stdout: string; stderr: string }): unknown {
  expect(r.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  return JSON.parse(r.stdout);
}

const CASES = (['normal repository', 'linked worktree'] as const).flatMap((where) =>
  (['as in a hook', 'clean'] as const).map((env) => [where, env] as const),
);

describe('git calls in {normal repository, linked worktree} × {environment as git sets it for hooks, clean}', () => {
  it('git sets GIT_DIR for hooks in a linked worktree, and GIT_INDEX_FILE in both (what this table tests)', () => {
    const normal = hookEnv(setup('normal repository').top);
    expect(normal.GIT_INDEX_FILE).toBeDefined();
    const linked = setup('linked worktree');
    const env = hookEnv(linked.top);
    expect(env.GIT_DIR).toBe(join(linked.main, '.git/worktrees/linked'));
    expect(env.GIT_INDEX_FILE).toBeDefined();
  });

  it.each(CASES)(
    '%s, environment %s: validate --staged, invariant diff, invariant log, the cache folder',
    async (where, envKind) => {
      const { top } = setup(where);
      const hook = envKind === 'as in a hook' ? hookEnv(top) : {};
      const run = (args: string[]) => runAgents(args, { cwd: top, env: hook });
      const gitDir = git(top, 'rev-parse', '--absolute-git-dir').trim();

      // A broken invariant staged: --staged sees it, in the store's own paths.
      writeFileSync(join(top, `.agents/global/${BAD}.yaml`), `id: ${BAD}\ntext: Never run as root\nseverity: fatal\n`);
      git(top, 'add', '-A');
      const staged = await run(['validate', '--staged', '--format', 'json']);
      expect(staged.code).toBe(1);
      const report = json(staged) as { ok: boolean; source: string; files: number; diagnostics: { severity: string }[] };
      expect({ ...report, diagnostics: report.diagnostics.filter((x) => x.severity === 'error') }).toMatchObject({
        ok: false,
        source: 'index',
        files: 1,
        diagnostics: [
          { code: 'schema', severity: 'error', file: `global/${BAD}.yaml`, path: `.agents/global/${BAD}.yaml`, line: 3, col: 11 },
        ],
      });
      const stagedDiff = await run(['invariant', 'diff', '--staged', '--format', 'json']);
      expect(stagedDiff.code).toBe(3);
      expect(json(stagedDiff)).toMatchObject({
        ok: false,
        exit_code: 3,
        error: { code: 'invalid-store', detail: { diagnostics: [{ code: 'schema', file: `global/${BAD}.yaml`, line: 3, col: 11 }] } },
      });
      git(top, 'rm', '-q', '--cached', `.agents/global/${BAD}.yaml`);
      rmSync(join(top, `.agents/global/${BAD}.yaml`));

      // Revisions: the store's trees, not the repository's top read as the store.
      const diff = await run(['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json']);
      expect(diff.code).toBe(0);
      const d = json(diff) as { summary: unknown; invariants: { change: string; id: string; path: string }[] };
      expect(d.summary).toEqual({
        added: 1,
        removed: 0,
        edited: 1,
        moved: 0,
        plans_changed: 0,
        targets_changed: 0,
        waivers_changed: 0,
        project_paths_changed: 0,
      });
      expect(d.invariants.map((i) => [i.change, i.id, i.path])).toEqual([
        ['edited', G1, `global/${G1}.yaml`],
        ['added', G2, `global/${G2}.yaml`],
      ]);
      const log = await run(['invariant', 'log', G1, '--format', 'json']);
      expect(log.code).toBe(0);
      const l = json(log) as { path: string; events: { subject: string; change: string; path: string }[] };
      expect(l.path).toBe(`global/${G1}.yaml`);
      expect(l.events.map((e) => [e.subject, e.change, e.path])).toEqual([
        ['second', 'edited', `global/${G1}.yaml`],
        ['first', 'added', `global/${G1}.yaml`],
      ]);

      // The cache lives in this working tree's git folder.
      expect((await run(['validate', '--format', 'json'])).code).toBe(0);
      expect(existsSync(join(gitDir, 'agents/validate-worktree.cache'))).toBe(true);
    },
    120_000,
  );

  it.each(CASES)(
    '%s, environment %s: init --hooks, then invariant add --commit and plan use --commit through that hook',
    async (where, envKind) => {
      const { top, main } = setup(where);
      const hook = envKind === 'as in a hook' ? hookEnv(top) : {};
      // `agents` on PATH: the hook `init --hooks` installs runs inside the `--commit` runs below.
      const path = agentsOnPath();
      const run = (args: string[]) => runAgents(args, { cwd: top, env: { ...hook, PATH: path } });

      // init --hooks: the repository's hooks folder (shared by its worktrees).
      const init = await run(['init', '--hooks', '--format', 'json']);
      expect(init.code).toBe(0);
      expect((json(init) as { hook: { path: string } }).hook.path).toBe(join(main, '.git/hooks/pre-commit'));

      // --commit: exactly the new file, on this working tree's branch.
      const add = await run(['invariant', 'add', '--global', 'Rotate keys every quarter', '--commit', '--format', 'json']);
      expect(add.code).toBe(0);
      const added = json(add) as { id: string; commit: string };
      expect(added.commit).toBe(git(top, 'rev-parse', 'HEAD').trim());
      expect(git(top, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual([
        `invariant: add ${added.id} to global`,
        '',
        `.agents/global/${added.id}.yaml`,
      ]);
      const use = await run(['plan', 'use', 'ops/deploy', '--commit', '--format', 'json']);
      expect(use.code).toBe(0);
      const plan = json(use) as { plan: { id: string }; commit: string };
      expect(plan.commit).toBe(git(top, 'rev-parse', 'HEAD').trim());
      expect(
        git(top, 'show', '--name-only', '--format=', 'HEAD')
          .trim()
          .split('\n')
          .every((p) => p.startsWith(`.agents/plans/${plan.plan.id}/`)),
      ).toBe(true);
      expect(git(top, 'status', '--porcelain')).toBe('');
    },
    120_000,
  );
});

function agentsOnPath(): string {
  const bin = tempDir();
  symlinkSync(BIN, join(bin, 'agents'));
  return `${bin}:${process.env.PATH}`;
}

describe('the hook from `agents init --hooks` in a linked worktree', () => {
  it.each([
    ['git commit', [] as string[]],
    ['git commit -a', ['-a']],
    ['git commit FILE', ['FILE']],
  ])(
    '%s of a broken invariant is blocked; fixed, it goes through',
    async (_name, extra) => {
      const { top } = setup('linked worktree');
      expect((await runAgents(['init', '--hooks'], { cwd: top })).code).toBe(0);
      const path = agentsOnPath();
      const file = `.agents/global/${G2}.yaml`;
      const before = git(top, 'rev-parse', 'HEAD').trim();
      const commit = (message: string) => {
        const args = ['commit', '-m', message, ...extra.map((a) => (a === 'FILE' ? file : a))];
        const r = spawnSync('git', args, { cwd: top, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, PATH: path, NO_COLOR: '1' } });
        return { code: r.status ?? -1, out: r.stdout + r.stderr };
      };
      writeFileSync(join(top, file), `id: ${G2}\ntext: Log every change\nseverity: fatal\n`);
      if (extra.length === 0) git(top, 'add', file);
      const blocked = commit('bad');
      expect(blocked.out).toContain(`.agents/global/${G2}.yaml:3:11  error  schema`);
      expect(blocked.code).toBe(1);
      expect(git(top, 'rev-parse', 'HEAD').trim()).toBe(before);
      writeFileSync(join(top, file), invariantYaml(G2, 'Log every change', { severity: 'warning' }));
      if (extra.length === 0) git(top, 'add', file);
      const passed = commit('good');
      expect(passed.out).toMatch(/ok {2}no problems in 1 file \(index\)/);
      expect(passed.code).toBe(0);
      expect(git(top, 'log', '-1', '--format=%s').trim()).toBe('good');
    },
    30_000,
  );
});

describe('no git on PATH', () => {
  it('a command that needs git says git is missing (exit 2, git-not-found), never "not a git repository"; others still work', async () => {
    const { top } = setup('normal repository');
    const env = { PATH: tempDir('agents-no-git-') };
    const errorOf = (r: { stdout: string }) => JSON.parse(r.stdout).error;
    // A commit that stages no store file is told from git's own files (docs/adr/0512-the-commit-hook-bundle.md):
    // the hook passes without git; one that stages a store file needs git to list them.
    expect((await runAgents(['validate', '--staged'], { cwd: top, env })).code).toBe(0);
    writeFileSync(join(top, `.agents/global/${G2}.yaml`), invariantYaml(G2, 'Log every change twice'));
    git(top, 'add', '.agents');
    for (const args of [
      ['invariant', 'diff'],
      ['validate', '--staged'],
      ['guard', 'check'],
      ['init', '--hooks'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: top, env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(errorOf(r).code, args.join(' ')).toBe('git-not-found');
    }
    const before = readdirSync(join(top, '.agents/global')).sort();
    const add = await runAgents(['--format', 'json', 'invariant', 'add', '--global', 'Committed without git', '--commit'], {
      cwd: top,
      env,
    });
    expect(errorOf(add).code).toBe('git-not-found');
    expect(readdirSync(join(top, '.agents/global')).sort()).toEqual(before);
    // Reading the working tree needs no git.
    expect((await runAgents(['validate'], { cwd: top, env })).code).toBe(0);
  });
});

describe('a work tree reached only through GIT_DIR and GIT_WORK_TREE (a bare repository with a separate work tree)', () => {
  it('the commands that need git say those variables are not followed (not-a-repository), never to run git init there; nothing written', async () => {
    const { main } = setup('normal repository');
    const bare = join(tempDir('agents-bare-'), 'repo.git');
    git(main, 'clone', '-q', '--bare', main, bare);
    const work = tempDir('agents-work-');
    git(work, `--git-dir=${bare}`, `--work-tree=${work}`, 'checkout', '-q', '-f', 'main');
    const env = { GIT_DIR: bare, GIT_WORK_TREE: work };
    const before = readdirSync(join(work, '.agents/global')).sort();
    for (const args of [
      ['validate', '--staged'],
      ['invariant', 'diff', 'HEAD~1..HEAD'],
      ['guard', 'check', '--staged'],
      ['invariant', 'add', '--global', 'Committed through GIT_DIR', '--commit'],
      ['init', '--hooks'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: work, env });
      const { code, hint } = JSON.parse(r.stdout).error;
      expect({ args, code, exit: r.code }).toEqual({ args, code: 'not-a-repository', exit: 2 });
      expect(hint, args.join(' ')).toContain('GIT_DIR and GIT_WORK_TREE');
      expect(hint, args.join(' ')).not.toContain('Run `git init`');
    }
    expect(readdirSync(join(work, '.agents/global')).sort()).toEqual(before);
    // A store that extends a policy source is read from the cache under the git folder, which there is none of either.
    const commit = 'a'.repeat(40);
    appendFileSync(
      join(work, '.agents/config.yaml'),
      `extends:\n  - name: acme\n    url: https://example.com/acme.git\n    ref: ${commit}\n`,
    );
    writeFileSync(
      join(work, '.agents/extends.lock.yaml'),
      `version: 1\nsources:\n  - name: acme\n    url: https://example.com/acme.git\n    ref: ${commit}\n    kind: commit\n    commit: ${commit}\n`,
    );
    for (const args of [['validate'], ['extends', 'fetch']]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: work, env });
      const { code, hint } = JSON.parse(r.stdout).error;
      expect({ args, code, exit: r.code }).toEqual({ args, code: 'not-a-repository', exit: 2 });
      expect(hint, args.join(' ')).toContain('GIT_DIR and GIT_WORK_TREE');
    }
    expect(existsSync(join(work, '.git'))).toBe(false);
  });
});

describe('a repository whose folder name ends in a space', () => {
  it('is found as it is named: init, --commit, diff, log and the hooks folder work there, and nothing is made beside it', async () => {
    const parent = tempDir('agents-space-');
    const top = join(parent, 'repo ');
    mkdirSync(top);
    gitInit(top);
    git(top, 'commit', '-q', '--allow-empty', '-m', 'first');
    const run = async (...args: string[]) => {
      const r = await runAgents(['--format', 'json', ...args], { cwd: top });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout);
    };
    // git prints the top as `…/repo \n`: trimmed, it named `…/repo`, which does not exist (an internal error).
    await run('init', '--actor', 'none');
    commitAll(top, 'store');
    await run('invariant', 'add', '--global', 'Never delete production data', '--commit');
    const diff = await run('invariant', 'diff', 'HEAD~1..HEAD');
    expect(diff.invariants.map((i: { change: string }) => i.change)).toEqual(['added']);
    const id = readdirSync(join(top, '.agents/global')).find((f) => f.endsWith('.yaml'))!;
    const log = await run('invariant', 'log', id.replace('.yaml', ''));
    expect(log.events.map((e: { change: string }) => e.change)).toEqual(['added']);
    await run('init', '--hooks');
    expect(existsSync(join(top, '.git/hooks/pre-commit'))).toBe(true);
    expect(readdirSync(parent)).toEqual(['repo ']);
  });

  it('a git folder named so, behind a `.git` file (--separate-git-dir), is found: a sparse checkout there is refused, not read as a store without the files it leaves out', async () => {
    const parent = tempDir('agents-space-');
    const top = join(parent, 'repo');
    git(parent, 'init', '-q', '-b', 'main', `--separate-git-dir=${join(parent, 'git ')}`, top);
    writeTree(join(top, '.agents'), {
      [`global/${G1}.yaml`]: invariantYaml(G1, 'Never delete production data'),
      [`actions/ops/deploy/${A1}.yaml`]: invariantYaml(A1, 'Deploy only from main'),
    });
    commitAll(top, 'store');
    git(top, 'sparse-checkout', 'set', '--no-cone', '/*', '!/.agents/global/');
    const r = await runAgents(['--format', 'json', 'invariant', 'list'], { cwd: top });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'sparse-store', detail: { missing: 1 } });
  });
});

describe("a library caller's open({env})", () => {
  it("ScopeService.pathOverlaps lists the repository's files by git in that env, as addProject's check does", async () => {
    const { InvariantService } = await import('../../src/service/invariant-service.ts');
    const { ScopeService } = await import('../../src/service/scope-service.ts');
    const top = tempDir('agents-open-env-');
    gitInit(top);
    writeTree(top, {
      '.agents/global/': null,
      '.agents/projects/web/project.yaml': 'paths:\n  - apps/web/**\n',
      'apps/web/x.ts': 'x',
      '.gitignore': 'apps/\n',
    });
    // Tracked though ignored: an index without it (the caller's GIT_INDEX_FILE) leaves it out of the repository's files.
    git(top, 'add', '-f', 'apps/web/x.ts');
    const env = { ...process.env, GIT_DIR: join(top, '.git'), GIT_INDEX_FILE: join(top, '.git/other-index') };
    const store = join(top, '.agents');
    const own = new ScopeService(InvariantService.open({ store }));
    const given = new ScopeService(InvariantService.open({ store, env }));
    const overlap = [{ project: 'app', paths: ['apps/*/x.ts'] }];
    expect((await own.pathOverlaps(overlap)).get('app')?.code).toBe('project-paths-overlap');
    expect([...(await given.pathOverlaps(overlap)).keys()]).toEqual([]);
  });
});
