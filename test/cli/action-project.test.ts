import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { exampleStore, fileList, readYaml } from '../helpers/plans.ts';
import { runAgents } from '../helpers/main.ts';
import type { ImportPlan, PlannedCandidate } from '../../src/core/import-plan.ts';
import { ImportService } from '../../src/service/import-service.ts';
import { InvariantService, ScopeService } from '../../src/index.ts';
import { tempDir } from '../helpers/tmp.ts';

function repoStore(): { root: string; repo: string } {
  const root = exampleStore();
  const repo = dirname(root);
  gitInit(repo);
  commitAll(repo, 'example');
  return { root, repo };
}

async function run(root: string, ...args: string[]) {
  return await runAgents(['--store', root, ...args]);
}

describe('agents action add / list', () => {
  it('creates a template with its description, lists it with counts, and takes invariants and plans', async () => {
    const { root, repo } = repoStore();
    const r = await run(
      root,
      'action',
      'add',
      'ops/db-migration',
      '--description',
      'Schema migrations of production databases',
      '--commit',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      action: 'ops/db-migration',
      path: 'actions/ops/db-migration/action.yaml',
      description: 'Schema migrations of production databases',
    });
    expect(readFileSync(join(root, out.path), 'utf8')).toBe(
      '# yaml-language-server: $schema=../../../schemas/action.schema.json\ndescription: Schema migrations of production databases\n',
    );
    expect(git(repo, 'log', '-1', '--format=%H %s').trim()).toBe(`${out.commit} action: add ops/db-migration`);
    expect((await run(root, 'invariant', 'add', '--action', 'ops/db-migration', 'Take a backup first')).code).toBe(0);
    expect((await run(root, 'plan', 'use', 'ops/db-migration')).code).toBe(0);
    const list = JSON.parse((await run(root, 'action', 'list', '--format', 'json')).stdout);
    expect(list).toEqual([
      {
        action: 'local/code-coverage',
        description: 'Raise test coverage of a project.',
        folder: 'actions/local/code-coverage',
        source: null,
        invariants: 1,
        active: 1,
        plans: 0,
      },
      {
        action: 'ops/db-migration',
        description: 'Schema migrations of production databases',
        folder: 'actions/ops/db-migration',
        source: null,
        invariants: 1,
        active: 1,
        plans: 1,
      },
    ]);
    const text = await run(root, 'action', 'ls');
    expect(text.stdout).toContain('ops/db-migration  1 active of 1 invariant · 1 plan');
    expect(text.stdout).toContain('2 action templates');
    expect((await run(root, 'validate')).code).toBe(0);
    // A named slow test: six commands, one committing through simple-git, and as the first run of this file it loads the command modules.
  }, 60_000);

  it('writes an empty action.yaml without a description, and gives a folder of invariants its action.yaml', async () => {
    const { root } = repoStore();
    expect((await run(root, 'invariant', 'add', '--action', 'web/deploy', 'Deploy on weekdays only')).code).toBe(0);
    const r = await run(root, 'action', 'add', 'web/deploy');
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'actions/web/deploy/action.yaml'), 'utf8')).toBe(
      '# yaml-language-server: $schema=../../../schemas/action.schema.json\n{}\n',
    );
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it.each([
    ['an existing template', ['local/code-coverage'], 'already exists'],
    ['a name without a namespace', ['deploy'], 'ns/name'],
    ['a bad name', ['Ops/DB'], 'action'],
    ['a dot name', ['ops/..'], 'action'],
    ['no name', [], 'needs '],
    ['a description without a value', ['ops/x', '--description'], '--description needs a value'],
  ])('refuses %s: exit 2, nothing written', async (_name, args, message) => {
    const { root, repo } = repoStore();
    const before = fileList(root);
    const r = await run(root, 'action', 'add', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr.toLowerCase()).toContain(message.toLowerCase());
    expect(fileList(root)).toEqual(before);
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
  });

  it('refuses a template folder that is a link (exit 3, the link named), as validate does, rather than leaving it out of the list', async () => {
    const root = exampleStore();
    symlinkSync('code-coverage', join(root, 'actions/local/coverage-link'));
    const r = await run(root, 'action', 'list', '--format', 'json');
    expect(r.code).toBe(3);
    const diagnostics = JSON.parse(r.stdout).error.detail.diagnostics as { code: string; file: string }[];
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([['symlink', 'actions/local/coverage-link']]);
  });

  it('lists nothing in an empty store', async () => {
    const { root } = repoStore();
    const empty = join(root, '..', 'empty');
    expect((await runAgents(['init', '--store', empty])).code).toBe(0);
    expect((await runAgents(['--store', empty, 'action', 'list'])).stdout).toContain('No action templates.');
    expect(JSON.parse((await runAgents(['--store', empty, 'project', 'list', '--format', 'json'])).stdout)).toEqual([]);
  });
});

describe('agents project add / list', () => {
  it('creates an empty project that git keeps and every command knows', async () => {
    const { root, repo } = repoStore();
    const r = await run(root, 'project', 'add', 'web', '--commit', '--format', 'json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ project: 'web', folder: 'projects/web', path: 'projects/web/.gitkeep' });
    expect(fileList(root)).toContain('projects/web/.gitkeep');
    expect(git(repo, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual([
      'project: add web',
      '',
      '.agents/projects/web/.gitkeep',
    ]);
    // The project exists for the commands that need one.
    expect((await run(root, 'plan', 'use', 'local/code-coverage', '--project', 'web')).code).toBe(0);
    expect((await run(root, 'invariant', 'add', '--project', 'web', 'Serve over HTTPS only')).code).toBe(0);
    const list = JSON.parse((await run(root, 'project', 'list', '--format', 'json')).stdout);
    expect(list).toEqual([
      { project: 'myapp', folder: 'projects/myapp', invariants: 2, active: 2, plans: 1 },
      { project: 'web', folder: 'projects/web', invariants: 1, active: 1, plans: 1 },
    ]);
    expect((await run(root, 'project', 'ls')).stdout).toContain('web    1 active of 1 invariant · 1 plan');
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it('refuses a path into a store kept elsewhere than .agents/, in project add (exit 2) and, written by hand, in validate', async () => {
    const repo = tempDir();
    gitInit(repo);
    const store = join(repo, 'config/agents');
    expect((await runAgents(['--store', store, 'init'])).code).toBe(0);
    const add = await run(store, 'project', 'add', 'web', '--path', 'config/agents/**', '--format', 'json');
    expect([add.code, existsSync(join(store, 'projects/web'))]).toEqual([2, false]);
    mkdirSync(join(store, 'projects/web'));
    writeFileSync(join(store, 'projects/web/project.yaml'), 'paths:\n  - web/**\n  - config/agents/global/**\n');
    const v = await run(store, 'validate', '--format', 'json');
    expect(v.code).toBe(1);
    const found = JSON.parse(v.stdout).diagnostics as { code: string; file: string; line: number }[];
    expect(found.filter((d) => d.code === 'project-path-invalid').map((d) => [d.file, d.line])).toEqual([['projects/web/project.yaml', 3]]);
  });

  it('writes the description and paths into project.yaml, which which and validate read', async () => {
    const { root, repo } = repoStore();
    const r = await run(
      root,
      'project',
      'add',
      'billing',
      '--description',
      'The billing service',
      '--path',
      'services/billing/**',
      '--path',
      'libs/money/**',
    );
    expect(r.code).toBe(0);
    expect(readYaml(root, 'projects/billing/project.yaml')).toEqual({
      description: 'The billing service',
      paths: ['services/billing/**', 'libs/money/**'],
    });
    const which = JSON.parse(
      (await runAgents(['--store', root, 'which', join(repo, 'services/billing/api.ts'), '--format', 'json'], { cwd: repo })).stdout,
    );
    expect(which).toEqual([expect.objectContaining({ projects: ['billing'] })]);
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it('gives paths to a project made by adding an invariant to it (a folder without project.yaml), once', async () => {
    const { root } = repoStore();
    expect((await run(root, 'invariant', 'add', '--project', 'billing', 'Amounts are integers of cents')).code).toBe(0);
    expect((await run(root, 'project', 'add', 'billing', '--path', 'services/billing/**')).code).toBe(0);
    expect(readYaml(root, 'projects/billing/project.yaml')).toEqual({ paths: ['services/billing/**'] });
    // With project.yaml now there, or with nothing to give it, the project exists: refused, nothing written.
    const before = fileList(root);
    for (const args of [['billing', '--path', 'libs/money/**'], ['billing']]) {
      const r = await run(root, 'project', 'add', ...args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(fileList(root)).toEqual(before);
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it('refuses paths that overlap another project, as validate would (exit 2, project-paths-overlap), unless allow_overlap', async () => {
    const { root, repo } = repoStore();
    expect((await run(root, 'project', 'add', 'billing', '--path', 'services/billing/**')).code).toBe(0);
    writeFileSync(join(repo, 'README.md'), 'x');
    mkdirSync(join(repo, 'services/billing/api'), { recursive: true });
    writeFileSync(join(repo, 'services/billing/api/main.ts'), 'x');
    const before = fileList(root);
    const cases: [string, string | null][] = [
      ['services/billing/api/**', null],
      ['services/*/api/*.ts', 'services/billing/api/main.ts'],
    ];
    for (const [glob, example] of cases) {
      const r = await run(root, 'project', 'add', 'api', '--path', 'docs/**', '--path', glob, '--format', 'json');
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'project-paths-overlap',
        detail: { project: 'api', path: glob, other: 'billing', other_path: 'services/billing/**', example },
      });
      expect(fileList(root)).toEqual(before);
    }
    // Disjoint paths, and overlapping ones where the store allows them.
    expect((await run(root, 'project', 'add', 'docs', '--path', 'docs/**', '--path', '*.md')).code).toBe(0);
    writeFileSync(join(root, 'config.yaml'), `${readFileSync(join(root, 'config.yaml'), 'utf8')}projects:\n  allow_overlap: true\n`);
    expect((await run(root, 'project', 'add', 'api', '--path', 'services/billing/api/**')).code).toBe(0);
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it("refuses a path that names a folder of the repository's files (exit 2, project-path-folder); its glob is taken", async () => {
    const { root, repo } = repoStore();
    mkdirSync(join(repo, 'apps/site'), { recursive: true });
    writeFileSync(join(repo, 'apps/site/main.ts'), 'x');
    const before = fileList(root);
    const r = await run(root, 'project', 'add', 'site', '--path', 'apps/site', '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'project-path-folder',
      detail: { project: 'site', path: 'apps/site', suggestion: 'apps/site/**' },
    });
    expect(fileList(root)).toEqual(before);
    // A path of a folder not made yet matches nothing either way: taken, as validate only warns of it.
    expect((await run(root, 'project', 'add', 'site', '--path', 'apps/site/**', '--path', 'apps/later')).code).toBe(0);
  });

  it('two project adds at once whose paths overlap: one is written, the other refused (project-paths-overlap), never both', async () => {
    const { root } = repoStore();
    const scopes = new ScopeService(new InvariantService(root, { author: async () => undefined }));
    const adds = await Promise.allSettled(['alpha', 'beta'].map((project) => scopes.addProject({ project, paths: ['services/**'] })));
    expect(adds.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = adds.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'project-paths-overlap', exitCode: 2 });
    expect(['alpha', 'beta'].filter((p) => existsSync(join(root, 'projects', p)))).toHaveLength(1);
  });

  it("an import's new project whose paths a project made meanwhile (during the review) came to overlap: its rules are not imported, said, and the store stays valid", async () => {
    const { root } = repoStore();
    const invariants = new InvariantService(root, { author: async () => undefined });
    const scopes = new ScopeService(invariants);
    const rule: PlannedCandidate = {
      ...{ n: 1, file: 'services/api/AGENTS.md', line: 3, end_line: 3, whole: true, text: 'Always validate input' },
      ...{ tags: [], severity: 'error', scope: { kind: 'project', project: 'api' }, status: 'new', near: [] },
    };
    const plan: ImportPlan = { files: [], projects: [{ name: 'api', paths: ['services/api/**'], exists: false }], candidates: [rule] };
    await scopes.addProject({ project: 'services', paths: ['services/**'] });
    const written = await new ImportService(invariants, scopes).apply(plan, [rule]);
    expect(written).toMatchObject({ invariants: [], projects: [], refused: [{ n: 1 }] });
    expect(written.refused[0]!.why).toContain('overlaps path services/** of project services');
    expect(existsSync(join(root, 'projects/api'))).toBe(false);
  });

  it.each([
    ['a path that is not a glob', ['web', '--path', 'services/[billing/**'], 'path'],
    ['an empty path', ['web', '--path', ''], 'path'],
    ['an existing project', ['myapp'], 'already exists'],
    ['a bad name', ['My App'], 'project'],
    ['a path', ['a/b'], 'project'],
    ['no name', [], 'needs '],
  ])('refuses %s: exit 2, nothing written', async (_name, args, message) => {
    const { root, repo } = repoStore();
    const before = fileList(root);
    const r = await run(root, 'project', 'add', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr.toLowerCase()).toContain(message.toLowerCase());
    expect(fileList(root)).toEqual(before);
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
  });
});
