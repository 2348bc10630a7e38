import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { G1, P1, PLAN, Repo, ulid } from './repo.ts';

const W1 = ulid('W1');
const W2 = ulid('W2');

function waiverYaml(id: string, invariant: string, reason: string, expires = '2099-12-31'): string {
  return `id: ${id}\ninvariant_id: ${invariant}\nreason: ${reason}\nowner: Ops\nexpires: ${expires}\ncreated_at: 2026-01-01T00:00:00Z\n`;
}

interface WaiverJson {
  change: string;
  id: string;
  path: string;
  from_path: string | null;
  before: { reason: string; scope: string } | null;
  after: { reason: string; scope: string } | null;
  fields: { field: string; before: unknown; after: unknown }[];
  invariant: { id: string; text: string } | null;
}

async function diff(repo: Repo, ...args: string[]) {
  const r = await runAgents(['invariant', 'diff', ...args, '--format', 'json', '--exit-code'], { cwd: repo.dir });
  expect(r.stderr).toBe('');
  return { code: r.code, json: JSON.parse(r.stdout) as Record<string, unknown> & { waivers: WaiverJson[]; project_paths: unknown[] } };
}

function base(): { repo: Repo; c0: string } {
  const repo = new Repo()
    .inv('global', G1, 'Never delete production data')
    .inv('projects/myapp', P1, 'All API changes need tests')
    .write('projects/myapp/project.yaml', 'paths:\n  - services/app/**\n')
    .plan(PLAN, 'myapp');
  return { repo, c0: repo.commit('base') };
}

describe('invariant diff: waivers and project paths', () => {
  it('lists a waiver added, edited, moved and removed between revisions, with the invariant it waives', async () => {
    const { repo, c0 } = base();
    repo.write(`projects/myapp/waivers/${W1}.yaml`, waiverYaml(W1, G1, 'Sandbox only'));
    const c1 = repo.commit('waive');
    const added = await diff(repo, `${c0}..${c1}`);
    expect(added.code).toBe(1);
    expect(added.json.summary).toMatchObject({ waivers_changed: 1, project_paths_changed: 0, targets_changed: 0 });
    expect(added.json.waivers.map((w) => [w.change, w.path, w.invariant?.text])).toEqual([
      ['added', `projects/myapp/waivers/${W1}.yaml`, 'Never delete production data'],
    ]);

    repo.write(`projects/myapp/waivers/${W1}.yaml`, waiverYaml(W1, G1, 'Sandbox only', '2099-06-30'));
    const c2 = repo.commit('shorten');
    expect((await diff(repo, `${c1}..${c2}`)).json.waivers.map((w) => [w.change, w.fields])).toEqual([
      ['edited', [{ field: 'expires', before: '2099-12-31', after: '2099-06-30' }]],
    ]);

    repo
      .rm(`projects/myapp/waivers/${W1}.yaml`)
      .write(`plans/${PLAN}/waivers/${W1}.yaml`, waiverYaml(W1, G1, 'Sandbox only', '2099-06-30'));
    const c3 = repo.commit('to the plan');
    const moved = (await diff(repo, `${c2}..${c3}`)).json.waivers;
    expect(moved.map((w) => [w.change, w.from_path, w.path, w.fields.map((f) => [f.field, f.before, f.after])])).toEqual([
      ['moved', `projects/myapp/waivers/${W1}.yaml`, `plans/${PLAN}/waivers/${W1}.yaml`, [['scope', 'project myapp', `plan ${PLAN}`]]],
    ]);

    repo.rm(`plans/${PLAN}/waivers/${W1}.yaml`);
    const c4 = repo.commit('lift');
    expect((await diff(repo, `${c3}..${c4}`)).json.waivers.map((w) => [w.change, w.before?.reason])).toEqual([['removed', 'Sandbox only']]);
    // Nothing changed: no waiver listed, exit 0.
    expect((await diff(repo, `${c4}..${c4}`)).code).toBe(0);
  });

  it('lists a project whose paths changed, against the working tree and the index too', async () => {
    const { repo, c0 } = base();
    repo.write('projects/myapp/project.yaml', 'description: the app\npaths:\n  - services/**\n');
    repo.write(`projects/myapp/waivers/${W2}.yaml`, waiverYaml(W2, P1, 'Legacy code'));
    const work = await diff(repo);
    expect(work.code).toBe(1);
    expect(work.json.project_paths).toEqual([{ project: 'myapp', before: ['services/app/**'], after: ['services/**'] }]);
    expect(work.json.waivers.map((w) => [w.change, w.invariant?.id])).toEqual([['added', P1]]);
    repo.git('add', '-A');
    expect((await diff(repo, '--staged')).json.project_paths).toHaveLength(1);
    const c1 = repo.commit('widen');
    expect((await diff(repo, `${c0}..${c1}`)).json.project_paths).toEqual([
      { project: 'myapp', before: ['services/app/**'], after: ['services/**'] },
    ]);
    // The description alone, or the same globs in another order, covers the same files: not a paths change.
    repo.write('projects/myapp/project.yaml', 'paths:\n  - services/**\n');
    expect((await diff(repo)).json.project_paths).toEqual([]);
    repo.rm('projects/myapp/project.yaml');
    expect((await diff(repo)).json.project_paths).toEqual([{ project: 'myapp', before: ['services/**'], after: null }]);
  });

  it('shows both in the text and the markdown report', async () => {
    const { repo, c0 } = base();
    repo.write('projects/myapp/project.yaml', 'paths:\n  - services/**\n');
    repo.write(`projects/myapp/waivers/${W1}.yaml`, waiverYaml(W1, G1, 'Sandbox only'));
    const c1 = repo.commit('both');
    const text = await runAgents(['invariant', 'diff', `${c0}..${c1}`], { cwd: repo.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`added    ${W1}  project myapp  waives ${G1} "Never delete production data"`);
    expect(text.stdout).toMatch(/Project paths\n {2}project myapp\n {4}\+ "services\/\*\*"\n {4}- "services\/app\/\*\*"/);
    const md = await runAgents(['invariant', 'diff', `${c0}..${c1}`, '--format', 'markdown'], { cwd: repo.dir });
    expect(md.stdout).toContain(`- **added** \`${W1}\` (project \`myapp\`) waives \`${G1}\``);
    expect(md.stdout).toContain('- project `myapp`: added `services/**`; removed `services/app/**`');
  });

  it('an invalid waiver among the changed files stops the diff (exit 3) naming the file', async () => {
    const { repo } = base();
    repo.write(`projects/myapp/waivers/${W1}.yaml`, 'id: [\n');
    const r = await runAgents(['invariant', 'diff'], { cwd: repo.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot diff: projects/myapp/waivers/${W1}.yaml:1:5`);
  });
});

describe('invariant diff: a file added inactive', () => {
  it('is said to be in no effective set, in JSON, text and markdown, where it would read as one that applies', async () => {
    const { repo, c0 } = base();
    const G2 = ulid('G2');
    repo.inv('global', G2, 'Never use eval', { active: 'false' });
    repo.inv('global', G1, 'Never delete production data', { active: 'false' });
    const c1 = repo.commit('inactive');
    const { json } = await diff(repo, `${c0}..${c1}`);
    const files = json.invariants as { change: string; id: string; after: { active: boolean } }[];
    expect(files.map((f) => [f.change, f.id, f.after.active])).toEqual([
      ['edited', G1, false],
      ['added', G2, false],
    ]);
    const marked = (out: string, mark: string) =>
      out
        .split('\n')
        .filter((l) => l.includes(mark))
        .map((l) => [G1, G2].find((id) => l.includes(id)));
    const text = await runAgents(['invariant', 'diff', `${c0}..${c1}`], { cwd: repo.dir });
    // The deactivated one says so by its changed field; only the one added inactive needs the mark.
    expect(marked(text.stdout, '(inactive')).toEqual([G2]);
    const md = await runAgents(['invariant', 'diff', `${c0}..${c1}`, '--format', 'markdown'], { cwd: repo.dir });
    expect(marked(md.stdout, '| added (inactive) |')).toEqual([G2]);
  });
});
