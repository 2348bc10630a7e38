import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UsageError } from '../../src/core/errors.ts';
import { ReviewService } from '../../src/service/review-service.ts';
import { git } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';
import { A1, G1, G2, G3, P1, P2, PLAN, Q1, Repo, X1, history, suiteDir } from './repo.ts';
import { runAgents } from '../helpers/main.ts';

interface Ref {
  id: string;
  scope: string;
  path: string;
}
interface TargetJson {
  kind: string;
  project: string | null;
  plan: string | null;
  project_before: string | null;
  project_after: string | null;
  exists_before: boolean;
  exists_after: boolean;
  count_before: number;
  count_after: number;
  entered: Ref[];
  left: Ref[];
  newly_shadowed: (Ref & { by: Ref; was_effective: boolean })[];
  no_longer_shadowed: (Ref & { by: Ref })[];
  changed: (Ref & { fields: { field: string; before: unknown; after: unknown }[] })[];
}
interface DiffJson {
  range: string;
  before: { label: string; kind: string; commit: string | null; merge_base_of: string[] | null; missing_store: string | null };
  after: { label: string; kind: string; commit: string | null; missing_store: string | null };
  summary: Record<string, number>;
  invariants: {
    change: string;
    id: string;
    path: string;
    from_path: string | null;
    fields: { field: string; before: unknown; after: unknown }[];
  }[];
  plans: { change: string; plan: string; project_before: string | null; project_after: string | null }[];
  targets: TargetJson[];
}

async function diff(repo: Repo, ...args: string[]): Promise<DiffJson> {
  const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as DiffJson;
}

/** The effective-set changes of every reported target, as ids. */
function effects(d: DiffJson): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const t of d.targets) {
    const e: Record<string, unknown> = { count: [t.count_before, t.count_after] };
    if (t.entered.length) e.entered = t.entered.map((x) => x.id);
    if (t.left.length) e.left = t.left.map((x) => x.id);
    if (t.newly_shadowed.length) e.newly_shadowed = t.newly_shadowed.map((x) => [x.id, x.by.id, x.was_effective]);
    if (t.no_longer_shadowed.length) e.no_longer_shadowed = t.no_longer_shadowed.map((x) => [x.id, x.by.id]);
    if (t.changed.length) e.changed = t.changed.map((x) => [x.id, x.fields.map((f) => f.field)]);
    out[t.kind === 'project' ? `project ${t.project}` : `plan ${t.plan}`] = e;
  }
  return out;
}

function files(d: DiffJson): [string, string, string | null][] {
  return d.invariants.map((c) => [c.change, c.path, c.from_path]);
}

describe('agents invariant diff between revisions', () => {
  const { repo, c } = history(suiteDir());
  const [c1, c2, c3, c4, c5] = c as [string, string, string, string, string];

  it('reports additions, and a project copy that shadows a global one, in the project and in the plan targeting it', async () => {
    const d = await diff(repo, `${c1}..${c2}`);
    expect(d.before.commit).toBe(c1);
    expect(d.after.commit).toBe(c2);
    expect(files(d)).toEqual([
      ['added', `global/${G3}.yaml`, null],
      ['added', `projects/myapp/${P2}.yaml`, null],
    ]);
    expect(d.summary).toEqual({
      added: 2,
      removed: 0,
      edited: 0,
      moved: 0,
      plans_changed: 0,
      targets_changed: 3,
      waivers_changed: 0,
      project_paths_changed: 0,
    });
    expect(effects(d)).toEqual({
      'project myapp': { count: [3, 4], entered: [P2, G3], newly_shadowed: [[G2, P2, true]] },
      'project other': { count: [3, 4], entered: [G3] },
      [`plan ${PLAN}`]: { count: [4, 5], entered: [P2, G3], newly_shadowed: [[G2, P2, true]] },
    });
  });

  it('reports edits with the text and severity before and after, and removals', async () => {
    const d = await diff(repo, `${c2}..${c3}`);
    expect(files(d)).toEqual([
      ['edited', `global/${G1}.yaml`, null],
      ['removed', `global/${G3}.yaml`, null],
    ]);
    expect(d.invariants[0]!.fields).toEqual([
      { field: 'text', before: 'Never delete production data', after: 'Never delete production data or backups' },
      { field: 'severity', before: 'error', after: 'warning' },
    ]);
    expect(effects(d)['project myapp']).toEqual({ count: [4, 3], left: [G3], changed: [[G1, ['text', 'severity']]] });
  });

  it('reports a deletion that brings a shadowed copy back into effect', async () => {
    const d = await diff(repo, `${c3}..${c4}`);
    expect(files(d)).toEqual([['removed', `projects/myapp/${P2}.yaml`, null]]);
    expect(effects(d)).toEqual({
      'project myapp': { count: [3, 3], left: [P2], no_longer_shadowed: [[G2, P2]] },
      [`plan ${PLAN}`]: { count: [4, 4], left: [P2], no_longer_shadowed: [[G2, P2]] },
    });
  });

  it('reports a move between scopes as one change, reaching the projects that newly see it', async () => {
    const d = await diff(repo, `${c4}..${c5}`);
    expect(files(d)).toEqual([['moved', `global/${P1}.yaml`, `projects/myapp/${P1}.yaml`]]);
    expect(d.invariants[0]!.fields).toEqual([{ field: 'scope', before: 'project myapp', after: 'global' }]);
    expect(effects(d)).toEqual({
      'project myapp': { count: [3, 3], changed: [[P1, ['scope']]] },
      'project other': { count: [3, 4], entered: [P1] },
      [`plan ${PLAN}`]: { count: [4, 4], changed: [[P1, ['scope']]] },
    });
  });

  it('limits the report to one project or one plan, and names unknown ones', async () => {
    expect(Object.keys(effects(await diff(repo, `${c1}..${c2}`, '--project', 'other')))).toEqual(['project other']);
    expect(Object.keys(effects(await diff(repo, `${c1}..${c2}`, '--plan', PLAN.slice(0, 8))))).toEqual([`plan ${PLAN}`]);
    // A target that did not change is still reported when asked for.
    expect(effects(await diff(repo, `${c3}..${c4}`, '--project', 'other'))).toEqual({ 'project other': { count: [3, 3] } });
    const r = await runAgents(['invariant', 'diff', `${c1}..${c2}`, '--project', 'nope', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'unknown-project', detail: { project: 'nope' } });
    // The library's caller is told the library's call that lists them, never a command of the command line.
    for (const [target, code] of [
      [{ project: 'nope' }, 'unknown-project'],
      [{ plan: '01M8ZZZZZZZZZZZZZZZZZZZZZZ' }, 'unknown-id'],
    ] as const) {
      const library = await new ReviewService(repo.store)
        .diff({ range: `${c1}..${c2}`, ...target })
        .catch((error: unknown) => error as UsageError);
      expect(library).toMatchObject({
        code,
        exitCode: 2,
        hint: expect.stringMatching('project' in target ? /ScopeService\.listProjects\(\)/ : /PlanService\.list\(\)/),
      });
      expect((library as UsageError).hint).not.toMatch(/--|`agents /);
    }
    // A plan prefix too short to be one is said to be that, as every command that takes an id says it.
    const short = await runAgents(['invariant', 'diff', `${c1}..${c2}`, '--plan', PLAN.slice(0, 3), '--format', 'json'], { cwd: repo.dir });
    expect(short.code).toBe(2);
    expect(JSON.parse(short.stdout).error.message).toBe(`"${PLAN.slice(0, 3)}" is not a plan id or a prefix of one`);
    // A revision pasted whole is echoed cut, as every value a message names.
    const long = await runAgents(['invariant', 'diff', 'A'.repeat(5000), '--format', 'json'], { cwd: repo.dir });
    expect(long.code).toBe(2);
    expect(JSON.parse(long.stdout).error.message.length).toBeLessThan(200);
    // An invariant's id given for a plan's is said to be one, with where it is, not "unknown plan".
    for (const [id, path] of [
      [G1, `global/${G1}.yaml`],
      [X1, `plans/${PLAN}/${X1}.yaml`],
    ] as const) {
      const other = await runAgents(['invariant', 'diff', `${c1}..${c2}`, '--plan', id, '--format', 'json'], { cwd: repo.dir });
      expect(other.code).toBe(2);
      expect(JSON.parse(other.stdout).error).toMatchObject({ code: 'unknown-id', detail: { names: [{ kind: 'invariant', id, path }] } });
    }
  });

  it('--all-projects reports every project, unchanged ones too', async () => {
    const d = await diff(repo, `${c3}..${c4}`, '--all-projects');
    expect(Object.keys(effects(d))).toEqual(['project myapp', 'project other', `plan ${PLAN}`]);
    expect(effects(d)['project other']).toEqual({ count: [3, 3] });
    // The text says so under the unchanged project's heading, and lists entries under a changed one.
    const text = await runAgents(['invariant', 'diff', `${c3}..${c4}`, '--all-projects'], { cwd: repo.dir });
    expect(text.code).toBe(0);
    const section = (title: string) =>
      text.stdout
        .split('\n\n')
        .find((s) => s.startsWith(`Effective set of ${title}`))
        ?.split('\n') ?? [];
    expect(section('project other').slice(1)).toEqual(['  (unchanged)']);
    expect(section('project myapp').length).toBeGreaterThan(1);
    expect(section('project myapp')).not.toContain('  (unchanged)');
  });

  it('reports nothing when only an action template changed, but lists the file', async () => {
    repo.inv('actions/local/code-coverage', A1, 'Minimum 90% coverage');
    const d = await diff(repo, 'HEAD');
    repo.git('checkout', '--', '.');
    expect(files(d)).toEqual([['edited', `actions/local/code-coverage/${A1}.yaml`, null]]);
    expect(d.targets).toEqual([]);
  });

  it('--exit-code exits 1 when anything changed, 0 when nothing did, printing the same report', async () => {
    const plain = await runAgents(['invariant', 'diff', `${c1}..${c2}`, '--format', 'json'], { cwd: repo.dir });
    const gated = await runAgents(['invariant', 'diff', `${c1}..${c2}`, '--format', 'json', '--exit-code'], { cwd: repo.dir });
    expect([plain.code, gated.code]).toEqual([0, 1]);
    expect(gated.stdout).toBe(plain.stdout);
    expect(gated.stderr).toBe('');
    const same = await runAgents(['invariant', 'diff', `${c2}..${c2}`, '--exit-code'], { cwd: repo.dir });
    expect(same.code).toBe(0);
    // A change no effective set sees still counts: the file is listed.
    repo.inv('actions/local/code-coverage', A1, 'Minimum 95% coverage');
    const actionOnly = await runAgents(['invariant', 'diff', 'HEAD', '--exit-code', '--format', 'markdown'], { cwd: repo.dir });
    repo.git('checkout', '--', '.');
    expect(actionOnly.code).toBe(1);
    expect(actionOnly.stdout).toContain(`${A1}`);
  });

  it('prints a readable text report', async () => {
    const r = await runAgents(['invariant', 'diff', `${c1}..${c2}`], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Invariant changes: ${c1} (${c1.slice(0, 12)}) → ${c2} (${c2.slice(0, 12)})`);
    expect(r.stdout).toContain(`~ newly shadowed     global ${G2}  "Log all changes"`);
    expect(r.stdout).toContain(`by project myapp ${P2}`);
  });

  it('a revision that does not exist is a usage error (exit 2) that mentions shallow clones', async () => {
    const r = await runAgents(['invariant', 'diff', `${c1}..deadbeef`], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('revision deadbeef is not in this repository');
    expect(r.stderr).toContain('shallow clone');
    expect(r.stdout).toBe('');
  });
});

describe('revisions git names in other ways', () => {
  const { repo, c } = history(suiteDir());
  const [c1, c2] = c as [string, string];

  it('a message search (:/text) names its commit; a revision naming a tree is said to be one, not missing (exit 2)', async () => {
    const subject = repo.git('log', '-1', '--format=%s', c2).trim();
    const d = await diff(repo, `${c1}..:/${subject}`);
    expect(d.after.commit).toBe(c2);
    const tree = await runAgents(['invariant', 'diff', `${c1}^{tree}..${c2}`, '--format', 'json'], { cwd: repo.dir });
    expect(tree.code).toBe(2);
    expect(JSON.parse(tree.stdout).error.message).toBe(`revision ${c1}^{tree} names a tree, not a commit`);
  });
});

describe('rev-range forms', () => {
  it('A...B compares B with the merge base; A..B with A itself; A^! with its first parent', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.inv('projects/myapp', P2, 'Feature work needs a flag');
    repo.commit('feature');
    repo.git('checkout', '-q', 'main');
    repo.inv('global', G2, 'Main moved on');
    repo.commit('main moves');
    const three = await diff(repo, 'main...feature');
    expect(three.before.label).toBe('merge base of main and feature');
    expect(three.before.merge_base_of).toEqual(['main', 'feature']);
    expect(files(three)).toEqual([['added', `projects/myapp/${P2}.yaml`, null]]);
    const two = await diff(repo, 'main..feature');
    expect(files(two)).toEqual([
      ['removed', `global/${G2}.yaml`, null],
      ['added', `projects/myapp/${P2}.yaml`, null],
    ]);
    // An empty side is HEAD, as in git.
    expect(files(await diff(repo, 'feature..'))).toEqual(files(await diff(repo, 'feature..main')));
    // A commit against its parent, as git diff reads A^! and A^-N.
    for (const range of ['feature^!', 'feature^-', 'feature^-1']) {
      const one = await diff(repo, range);
      expect([one.before.label, one.after.label]).toEqual(['feature^1', 'feature']);
      expect(files(one)).toEqual([['added', `projects/myapp/${P2}.yaml`, null]]);
    }
    // Unrelated histories in a whole clone: the revisions as given, and no advice to fetch a history that is all there.
    repo.git('checkout', '-q', '--orphan', 'other');
    repo.commit('unrelated');
    const r = await runAgents(['invariant', 'diff', 'main...other', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    const message = JSON.parse(r.stdout).error.message as string;
    expect(message).toContain('main and other have no common ancestor');
    expect(message).not.toContain('shallow');
  });

  it('A alone compares A with the working tree; nothing compares HEAD with the working tree, untracked files included', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data');
    const first = repo.commit('one');
    repo.inv('global', G2, 'Log all changes');
    repo.commit('two');
    repo.inv('global', G3, 'Not committed yet');
    expect(files(await diff(repo))).toEqual([['added', `global/${G3}.yaml`, null]]);
    expect((await diff(repo)).range).toBe('HEAD');
    expect(files(await diff(repo, first))).toEqual([
      ['added', `global/${G2}.yaml`, null],
      ['added', `global/${G3}.yaml`, null],
    ]);
    expect((await diff(repo, first)).after).toEqual({
      label: 'working tree',
      kind: 'working tree',
      commit: null,
      merge_base_of: null,
      missing_store: null,
    });
  });

  it('--staged compares HEAD with the index, leaving unstaged work out', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('global', G2, 'Log all changes');
    repo.commit('one');
    repo.inv('global', G3, 'Staged one');
    repo.git('add', '.agents');
    repo.inv('global', P1, 'Not staged').rm(`global/${G2}.yaml`);
    const d = await diff(repo, '--staged');
    expect(d.after.kind).toBe('index');
    expect(files(d)).toEqual([['added', `global/${G3}.yaml`, null]]);
    expect(files(await diff(repo))).toEqual([
      ['removed', `global/${G2}.yaml`, null],
      ['added', `global/${G3}.yaml`, null],
      ['added', `global/${P1}.yaml`, null],
    ]);
    const r = await runAgents(['invariant', 'diff', 'HEAD..HEAD', '--staged'], { cwd: repo.dir });
    expect(r.code).toBe(2);
  });

  it('A --staged compares A with the index; before the first commit the index is compared with nothing', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    repo.git('add', '.agents');
    const first = await diff(repo, '--staged');
    expect(first.before).toMatchObject({ label: 'no commit yet', commit: null });
    // A range naming HEAD then names no commit: said so, not taken for one a shallow clone lacks.
    for (const range of ['HEAD..', 'HEAD~1..HEAD']) {
      const r = await runAgents(['invariant', 'diff', range, '--format', 'json'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.message).toMatch(/^revision HEAD(~1)? names no commit/);
    }
    expect(files(first)).toEqual([
      ['added', `global/${G1}.yaml`, null],
      ['added', `projects/myapp/${P1}.yaml`, null],
    ]);
    const one = repo.commit('one');
    repo.inv('global', G2, 'Log all changes');
    repo.commit('two');
    repo.inv('global', G3, 'Staged');
    repo.git('add', '.agents');
    expect(files(await diff(repo, one, '--staged'))).toEqual([
      ['added', `global/${G2}.yaml`, null],
      ['added', `global/${G3}.yaml`, null],
    ]);
  });

  it('a plan retargeted to another project changes its effective set', async () => {
    const repo = new Repo();
    repo.inv('projects/myapp', P1, 'All API changes need tests').inv('projects/other', Q1, 'Keep the changelog current');
    repo.plan(PLAN, 'myapp').inv(`plans/${PLAN}`, X1, 'Use Python 3.13 only');
    repo.commit('one');
    repo.plan(PLAN, 'other');
    const d = await diff(repo);
    expect(d.plans).toEqual([{ change: 'retargeted', plan: PLAN, project_before: 'myapp', project_after: 'other' }]);
    expect(effects(d)).toEqual({ [`plan ${PLAN}`]: { count: [2, 2], entered: [Q1], left: [P1] } });
    expect(d.targets[0]).toMatchObject({ project_before: 'myapp', project_after: 'other' });
  });

  it('a project renamed or removed is said to be new on one side and gone on the other, not a set that shrank', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    repo.inv('projects/other', Q1, 'Keep the changelog current').inv('projects/kept', P2, 'Log all changes');
    repo.plan(PLAN, 'kept');
    const base = repo.commit('one');
    repo.git('mv', '.agents/projects/myapp', '.agents/projects/renamed');
    repo.rm(`projects/other/${Q1}.yaml`).rm(`projects/kept/${P2}.yaml`);
    for (const range of [`${base}..${repo.commit('two')}`, base]) {
      const d = await diff(repo, range);
      const exist = Object.fromEntries(d.targets.map((t) => [t.project ?? t.plan, [t.exists_before, t.exists_after]]));
      // A plan still targets `kept`: the project stays, with its own invariant gone.
      expect(exist).toEqual({
        myapp: [true, false],
        renamed: [false, true],
        other: [true, false],
        kept: [true, true],
        [PLAN]: [true, true],
      });
    }
    const text = await runAgents(['invariant', 'diff', base], { cwd: repo.dir });
    expect(text.stdout).toMatch(/Effective set of project myapp: project removed \(had 2\)/);
    expect(text.stdout).toMatch(/Effective set of project renamed: new project, 2 invariants/);
  });
});

describe('invalid files and shallow clones', () => {
  it('an invalid file in a revision stops the diff (exit 3) naming file:line:col and the revision', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    const good = repo.commit('good');
    repo.write(`global/${G2}.yaml`, `id: ${G2}\ntext: Log all changes\nseverity: fatal\n`);
    const bad = repo.commit('bad');
    const r = await runAgents(['invariant', 'diff', `${good}..${bad}`], { cwd: repo.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`global/${G2}.yaml:3:11 is invalid in revision ${bad}`);
    expect(r.stdout).toBe('');
    // The same file, unchanged on both sides, still stops a diff that needs it.
    repo.inv('global', G3, 'Another');
    const r2 = await runAgents(['invariant', 'diff'], { cwd: repo.dir });
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain('in revision HEAD');
  });

  it('two problems in one invalid file are counted as that, not as two invalid files', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data');
    const good = repo.commit('good');
    repo.write(`global/${G2}.yaml`, `id: ${G2}\ntext: Log all changes\nseverity: error\ntext: [\n`);
    const bad = repo.commit('bad');
    const r = await runAgents(['invariant', 'diff', `${good}..${bad}`, '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(3);
    const error = JSON.parse(r.stdout).error;
    expect(new Set(error.detail.diagnostics.map((d: { file: string }) => d.file))).toEqual(new Set([`global/${G2}.yaml`]));
    expect(error.detail.diagnostics.length).toBeGreaterThan(1);
    expect(error.message).toContain(`problems in one store file in revision ${bad}`);
  });

  it('a folder where an invariant file was stops the diff (exit 3, not-a-file) on every side, never read as removed', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    const good = repo.commit('good');
    repo.rm(`global/${G1}.yaml`).write(`global/${G1}.yaml/inner.txt`, 'x\n');
    const sides = [[`${good}..HEAD`], [good]];
    repo.git('add', '-A');
    sides.push(['--staged', good]);
    repo.commit('folder');
    for (const args of sides) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, args.join(' ')).toBe(3);
      const d = JSON.parse(r.stdout).error.detail.diagnostics[0];
      expect([d.code, d.file]).toEqual(['not-a-file', `global/${G1}.yaml`]);
    }
  });

  it('a file in a folder whose name breaks the rules stops the diff (exit 3, bad-name), as every reader refuses it, never left out', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data');
    const good = repo.commit('good');
    repo.inv('projects/MyApp', P1, 'All API changes need tests');
    for (const args of [[good], [`${good}..${repo.commit('bad')}`]]) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, args.join(' ')).toBe(3);
      const d = JSON.parse(r.stdout).error.detail.diagnostics[0];
      expect([d.code, d.file]).toEqual(['bad-name', `projects/MyApp/${P1}.yaml`]);
    }
  });

  it('a scope folder turned into a link stops the diff (exit 3, symlink) on every side, never read as its invariants removed', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    const good = repo.commit('good');
    repo.git('mv', '.agents/projects/myapp', 'elsewhere');
    symlinkSync('../../elsewhere', join(repo.store, 'projects/myapp'));
    const sides = [[good]];
    repo.git('add', '-A');
    sides.push(['--staged', good]);
    sides.push([`${good}..${repo.commit('linked')}`]);
    for (const args of sides) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, args.join(' ')).toBe(3);
      const d = JSON.parse(r.stdout).error.detail.diagnostics[0];
      expect([d.code, d.file]).toEqual(['symlink', 'projects/myapp']);
    }
  });

  it('an invariant written as .yml where its .yaml name would be read stops the diff (exit 3, unknown-path), never left out', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data');
    const good = repo.commit('good');
    repo.write(`global/${G2}.yml`, `id: ${G2}\ntext: Log all changes\n`);
    for (const args of [[good], [`${good}..${repo.commit('yml')}`]]) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, args.join(' ')).toBe(3);
      const d = JSON.parse(r.stdout).error.detail.diagnostics[0];
      expect([d.code, d.file]).toEqual(['unknown-path', `global/${G2}.yml`]);
    }
  });

  it('an invariant put in a sub-folder of its scope stops the diff of the working tree and of the index (exit 3, unknown-path)', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data');
    repo.commit('good');
    repo.write(`global/sub/${G2}.yaml`, `id: ${G2}\ntext: Log all changes\n`);
    repo.git('add', '-A');
    for (const args of [[], ['--staged']]) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, args.join(' ')).toBe(3);
      const d = JSON.parse(r.stdout).error.detail.diagnostics[0];
      expect([d.code, d.file]).toEqual(['unknown-path', `global/sub/${G2}.yaml`]);
    }
    // Committed, it stops a diff between revisions too, however deep the folder: never "no invariant changed".
    repo.write(`global/sub/deeper/${G3}.yaml`, `id: ${G3}\ntext: Tag every release\n`);
    repo.commit('in sub-folders');
    const r = await runAgents(['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).error.detail.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([
      ['unknown-path', `global/sub/${G2}.yaml`],
      ['unknown-path', `global/sub/deeper/${G3}.yaml`],
    ]);
  });

  it('works on a shallow clone when both revisions are present, and says when one is not', async () => {
    const { repo, c } = history();
    const clone = join(tempDir('agents-shallow-'), 'clone');
    git(repo.dir, 'clone', '-q', '--depth', '2', `file://${repo.dir}`, clone);
    expect(git(clone, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    const shallow = new Repo(clone, false);
    expect(files(await diff(shallow, 'HEAD~1..HEAD'))).toEqual([['moved', `global/${P1}.yaml`, `projects/myapp/${P1}.yaml`]]);
    const r = await runAgents(['invariant', 'diff', `${c[0]}..HEAD`], { cwd: clone });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`revision ${c[0]} is not in this repository (a shallow clone may lack it`);
  });

  it('against the working tree of a sparse checkout that leaves store files out: exit 2 sparse-store, not those files removed', async () => {
    const { repo, c } = history();
    repo.git('sparse-checkout', 'set', '--cone', '.agents/global');
    const r = await runAgents(['invariant', 'diff', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'sparse-store', detail: { missing: 4 } });
    expect(JSON.parse(r.stdout).error.hint).toContain('`agents invariant diff --staged`');
    // The library's caller is told its own way to the index: the method's field, not the command line's flag.
    const library = await new ReviewService(repo.store).diff({}).catch((error: unknown) => error as UsageError);
    expect(library).toMatchObject({ code: 'sparse-store', hint: expect.stringContaining('`ReviewService.diff({ staged: true })`') });
    expect((library as UsageError).hint).not.toMatch(/--|`agents /);
    // Against one revision, the hint compares the index with that revision, not with HEAD.
    const one = await runAgents(['invariant', 'diff', 'HEAD~1', '--format', 'json'], { cwd: repo.dir });
    expect(JSON.parse(one.stdout).error).toMatchObject({ code: 'sparse-store' });
    expect(JSON.parse(one.stdout).error.hint).toContain("`agents invariant diff 'HEAD~1' --staged`");
    const stagedOne = await new ReviewService(repo.store).diff({ range: 'HEAD~1' }).catch((error: unknown) => error as UsageError);
    expect((stagedOne as UsageError).hint).toContain('`ReviewService.diff({ range: "HEAD~1", staged: true })`');
    // The index and the revisions hold every file: compared as usual.
    expect((await diff(repo, '--staged')).invariants).toEqual([]);
    expect(files(await diff(repo, `${c[3]}..${c[4]}`))).toEqual([['moved', `global/${P1}.yaml`, `projects/myapp/${P1}.yaml`]]);
    repo.git('sparse-checkout', 'disable');
    expect((await diff(repo)).invariants).toEqual([]);
  });

  it('an upstream git cannot name (none set, HEAD detached), a reflog too short or every parent (C^@) is said so, not as a revision a fetch would bring', async () => {
    const { repo } = history();
    for (const [range, why] of [
      ['@{u}..HEAD', 'no upstream configured'],
      ['HEAD@{999}..HEAD', 'only has'],
      // Every parent of HEAD: no one commit, nor one a fetch would bring.
      ['HEAD^@', 'every parent'],
    ] as const) {
      const r = await runAgents(['invariant', 'diff', range, '--format', 'json'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.message).toContain(why);
      expect(error.message).not.toContain('not in this repository');
      const guard = await runAgents(['guard', 'check', range, '--format', 'json'], { cwd: repo.dir });
      expect(guard.code).toBe(2);
      expect(JSON.parse(guard.stdout).error.message).toContain(why);
    }
  });

  it('a parent the history does not record (before the first commit, a second of a one-parent commit) is said so, not as one a fetch would bring; one a shallow clone cut off, with the fetch that brings it', async () => {
    const { repo, c } = history();
    for (const [range, why] of [
      [`${c[0]}^..HEAD`, 'is the first commit of its history'],
      [`${c[0]}^!`, 'is the first commit of its history'],
      ['HEAD~9..HEAD', `HEAD~4 (${c[0]!.slice(0, 12)}) is the first commit`],
      ['HEAD^2..HEAD', 'has 1 parent, not 2'],
    ] as const) {
      for (const command of [
        ['invariant', 'diff'],
        ['guard', 'check'],
      ]) {
        const r = await runAgents([...command, range, '--format', 'json'], { cwd: repo.dir });
        expect(r.code).toBe(2);
        const error = JSON.parse(r.stdout).error;
        expect(error.message).toContain(why);
        expect(error.message).not.toContain('not in this repository');
      }
    }
    // A shallow clone records the parents it lacks: said where its history stops, and how far to deepen it.
    const clone = join(tempDir('agents-shallow-'), 'clone');
    git(repo.dir, 'clone', '-q', '--depth', '2', `file://${repo.dir}`, clone);
    for (const command of [
      ['invariant', 'diff'],
      ['guard', 'check'],
    ]) {
      const r = await runAgents([...command, 'HEAD~3..HEAD', '--format', 'json'], { cwd: clone });
      expect(r.code).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.message).toBe(`revision HEAD~3 is not in this shallow clone: its history stops at HEAD~1 (${c[3]!.slice(0, 12)})`);
      expect(error.hint).toContain('`git fetch --deepen=2`');
    }
    // A chain of steps past the cut (`HEAD^^^`, two commits past it) is not told that one more commit brings it.
    const chained = await runAgents(['invariant', 'diff', 'HEAD^^^..HEAD', '--format', 'json'], { cwd: clone });
    expect([chained.code, JSON.parse(chained.stdout).error.hint]).toEqual([2, expect.not.stringContaining('--deepen=1')]);
    git(clone, 'fetch', '-q', '--deepen=2');
    expect((await runAgents(['invariant', 'diff', 'HEAD~3..HEAD'], { cwd: clone })).code).toBe(0);
    expect((await runAgents(['invariant', 'diff', 'HEAD^^^..HEAD'], { cwd: clone })).code).toBe(0);
  });

  it('a side that holds no store where the diff reads it (the store folder renamed since) is said so, its invariants all added', async () => {
    const { repo, c } = history();
    repo.git('mv', '.agents', 'policy');
    const moved = repo.commit('store renamed');
    const policy = join(repo.dir, 'policy');
    const r = await runAgents(['--store', policy, 'invariant', 'diff', `${c[4]}..${moved}`, '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as DiffJson;
    expect(d.before.missing_store).toBe('policy');
    expect(d.after.missing_store).toBeNull();
    expect(d.invariants.every((i) => i.change === 'added')).toBe(true);
    // Read where the working tree no longer holds it, the revision after the rename is the side without one.
    const old = JSON.parse(
      (await runAgents(['invariant', 'diff', `${c[4]}..${moved}`, '--format', 'json'], { cwd: repo.dir })).stdout,
    ) as DiffJson;
    expect([old.before.missing_store, old.after.missing_store]).toEqual([null, '.agents']);
    // Against the working tree, the revision is read on its own: the same.
    expect((await diff(new Repo(repo.dir, false), '--store', policy, c[4]!)).before.missing_store).toBe('policy');
    const markdown = await runAgents(['--store', policy, 'invariant', 'diff', `${c[4]}..${moved}`, '--format', 'markdown'], {
      cwd: repo.dir,
    });
    expect(markdown.stdout).toContain('no store at `policy/`');
    // Two revisions from before it, read where it is now: neither holds it, each said so.
    const neither = await diff(new Repo(repo.dir, false), '--store', policy, `${c[3]}..${c[4]}`);
    expect([neither.before.missing_store, neither.after.missing_store, neither.invariants]).toEqual(['policy', 'policy', []]);
  });

  it('outside a git repository the diff is a usage error', async () => {
    const dir = tempDir();
    // A store (it holds config.yaml), but in no git repository.
    writeFileSync(join(dir, 'config.yaml'), 'version: 1\n');
    const r = await runAgents(['--store', dir, 'invariant', 'diff'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a git repository');
  });

  it.each([
    ['a symbolic link', (dir: string) => symlinkSync('kept', join(dir, '.agents'))],
    ['a file', (dir: string) => writeFileSync(join(dir, '.agents'), 'not a store\n')],
  ])('a revision whose store path is %s is exit 2 naming it, not every invariant removed', async (what, replace) => {
    const { repo } = history();
    const before = repo.git('rev-parse', 'HEAD').trim();
    renameSync(repo.store, join(repo.dir, 'kept'));
    replace(repo.dir);
    const odd = repo.commit('store replaced');
    repo.git('rm', '-q', '--cached', '.agents');
    repo.git('rm', '-rq', '--cached', 'kept');
    renameSync(join(repo.dir, '.agents'), join(repo.dir, 'gone'));
    renameSync(join(repo.dir, 'kept'), repo.store);
    repo.commit('store back');
    for (const range of [`${before}..${odd}`, `${odd}..HEAD`, odd]) {
      const r = await runAgents(['invariant', 'diff', range, '--format', 'json'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'usage',
        message: expect.stringContaining(`.agents is ${what} in the revision`),
      });
      expect(JSON.parse(r.stdout).error.hint).toContain('with --store.');
      // The library's caller is told to give ReviewService the store's folder, not the command line's flag.
      const library = await new ReviewService(repo.store).diff({ range }).catch((error: unknown) => error as UsageError);
      expect(library).toMatchObject({ code: 'usage', hint: expect.stringContaining('with new ReviewService(root).') });
      expect((library as UsageError).hint).not.toContain('--');
    }
  });
});

describe('a store the working tree no longer holds', () => {
  it('two revisions are still compared where the store was; a side of the working tree, or no store on either side, is refused', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/myapp', P1, 'All API changes need tests');
    const held = repo.commit('store');
    repo.git('rm', '-qr', '.agents');
    // Staged, the removal is what the commit records: the index holds no store, and all of it is removed.
    expect(files(await diff(repo, '--staged')).sort()).toEqual([
      ['removed', `global/${G1}.yaml`, null],
      ['removed', `projects/myapp/${P1}.yaml`, null],
    ]);
    const gone = repo.commit('remove the store');
    const d = await diff(repo, `${held}..${gone}`);
    expect(files(d).sort()).toEqual([
      ['removed', `global/${G1}.yaml`, null],
      ['removed', `projects/myapp/${P1}.yaml`, null],
    ]);
    expect(effects(d)['project myapp']).toMatchObject({ count: [2, 0] });
    // A store given by --store is read at its place too.
    const named = await runAgents(['invariant', 'diff', `${held}..${gone}`, '--store', '.agents', '--format', 'json'], { cwd: repo.dir });
    expect([named.code, (JSON.parse(named.stdout) as DiffJson).invariants.length]).toEqual([0, 2]);
    // --staged where neither HEAD nor the index holds the store, or where the index still holds it and the disk does not.
    const staged = async () => (await runAgents(['invariant', 'diff', '--staged', '--format', 'json'], { cwd: repo.dir })).code;
    expect(await staged()).toBe(2);
    repo.git('read-tree', held);
    expect(await staged()).toBe(2);
    for (const args of [[`${gone}..${gone}`], [held], []]) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(false);
    }
  });
});

describe('one id in two scope folders (id-reused)', () => {
  it('stops the diff (exit 3) on the side that holds both copies, never reported as added and moved', async () => {
    const repo = new Repo();
    repo.inv('global', G1, 'Never delete production data').inv('projects/api', P1, 'All API changes need tests');
    const one = repo.commit('one copy');
    repo.inv('projects/api', G1, 'Never delete production data');
    for (const args of [[], [`${one}..${repo.commit('two copies')}`]]) {
      const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json'], { cwd: repo.dir });
      expect(r.code).toBe(3);
      const error = (JSON.parse(r.stdout) as { error: { code: string; detail: { diagnostics: { code: string; file: string }[] } } }).error;
      expect(error.code).toBe('invalid-store');
      expect(error.detail.diagnostics.map((d) => [d.code, d.file])).toEqual([['id-reused', `projects/api/${G1}.yaml`]]);
    }
  });
});
