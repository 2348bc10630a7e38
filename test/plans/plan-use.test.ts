import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, REPO } from '../helpers/cli.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, readYaml } from '../helpers/plans.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';
import { errorOf, runAgents } from '../helpers/main.ts';

const ACTION = 'actions/local/code-coverage';
const ORIGIN = '01M8KK1KW0KPRSWWKENT2QZ1QM';

describe('plan use', () => {
  it('promotes the active action invariants with provenance, and writes plan.yaml', async () => {
    const root = exampleStore();
    writeFileSync(
      join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QN.yaml'),
      invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QN', 'Keep the public API stable', {
        severity: 'warning',
        tags: '[api]',
        rationale: 'Clients pin it.',
      }),
    );
    writeFileSync(
      join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QP.yaml'),
      invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QP', 'Switched off', { active: 'false' }),
    );
    const r = await runAgents([
      '--store',
      root,
      'plan',
      'use',
      'local/code-coverage',
      '--project',
      'myapp',
      '--goal',
      'Raise coverage',
      '--format',
      'json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const id: string = out.plan.id;
    expect(id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    expect(out.plan).toMatchObject({ id, action: 'local/code-coverage', project: 'myapp', goal: 'Raise coverage' });
    expect(
      out.promoted.map((p: { text: string; source: unknown; scope: string; plan: string }) => [p.text, p.scope, p.plan, p.source]),
    ).toEqual([
      ['Minimum 80% coverage', 'plan', id, { kind: 'action', ref: 'local/code-coverage', origin_id: ORIGIN }],
      ['Keep the public API stable', 'plan', id, { kind: 'action', ref: 'local/code-coverage', origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QN' }],
    ]);
    const files = readdirSync(join(root, 'plans', id)).sort();
    expect(files).toEqual([...out.promoted.map((p: { id: string }) => `${p.id}.yaml`), 'plan.yaml'].sort());
    // One batch's ids count up in the order they are made (monotonic ULIDs), after the plan's: a scope lists its
    // invariants by id as the order they were made in (docs/resolution.md), here the template's.
    const ids = out.promoted.map((p: { id: string }) => p.id) as string[];
    expect([id, ...ids]).toEqual([id, ...ids].sort());
    const plan = readYaml(root, `plans/${id}/plan.yaml`);
    expect(plan).toMatchObject({ id, action: 'local/code-coverage', project: 'myapp', goal: 'Raise coverage' });
    const second = out.promoted[1].id as string;
    const text = readFileSync(join(root, 'plans', id, `${second}.yaml`), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/invariant.schema.json');
    expect(readYaml(root, `plans/${id}/${second}.yaml`)).toMatchObject({
      id: second,
      text: 'Keep the public API stable',
      severity: 'warning',
      active: true,
      tags: ['api'],
      rationale: 'Clients pin it.',
      source: { kind: 'action', ref: 'local/code-coverage', origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QN' },
    });
    // No temporary folder is left behind.
    expect(readdirSync(join(root, 'plans')).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('says it promoted no invariant, with no list under it, for a template of inactive invariants only', async () => {
    const root = testStore({
      'actions/ns/off/01M8KK1KW0KPRSWWKENT2QZ1QA.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QA', 'Switched off', { active: 'false' }),
    });
    const r = await runAgents(['--store', root, '--no-color', 'plan', 'use', 'ns/off']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[2]).toBe('  promoted no invariant (the template holds no active one)');
    expect(lines[3]).toBe('');
  });

  it('promotes duplicates among the action invariants once (the oldest id)', async () => {
    const root = testStore({
      'actions/ns/dup/01M8KK1KW0KPRSWWKENT2QZ1QA.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QA', 'Run the linter'),
      'actions/ns/dup/01M8KK1KW0KPRSWWKENT2QZ1QB.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QB', '  RUN the   linter '),
      'actions/ns/dup/01M8KK1KW0KPRSWWKENT2QZ1QC.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QC', 'Other'),
    });
    const r = await runAgents(['--store', root, 'plan', 'use', 'ns/dup', '--format', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.promoted.map((p: { source: { origin_id: string } }) => p.source.origin_id)).toEqual([
      '01M8KK1KW0KPRSWWKENT2QZ1QA',
      '01M8KK1KW0KPRSWWKENT2QZ1QC',
    ]);
    expect(out.duplicates).toEqual([
      { origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QB', of: '01M8KK1KW0KPRSWWKENT2QZ1QA', text: 'RUN the   linter' },
    ]);
    expect(out.plan.project).toBeNull();
  });

  it.each([
    [['plan', 'use', 'local/nope'], 2, /unknown action local\/nope/],
    [['plan', 'use', 'local/code-coverage', '--project', 'nope'], 2, /unknown project nope/],
    [['plan', 'use', 'Bad/Name'], 2, /action namespace "Bad"/],
    [['plan', 'use', 'local/code-coverage', '--project', '../x'], 2, /project "..\/x"/],
  ])('refuses %j with exit %i and writes nothing', async (args, code, message) => {
    const root = exampleStore();
    const before = fileList(root);
    const r = await runAgents(['--store', root, ...args]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Nothing was written|must|not allowed/);
    expect(fileList(root)).toEqual(before);
  });

  it('a project removed while plan use waited for its lock gets no plan: exit 2, nothing written', async () => {
    const root = exampleStore();
    // `project remove` at work: it holds the project's lock.
    const folder = join(root, 'projects/leaving');
    mkdirSync(folder);
    writeFileSync(join(folder, '.gitkeep'), '');
    writeFileSync(join(folder, '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const plansBefore = readdirSync(join(root, 'plans')).sort();
    // Once plan use tries the lock (its temporary appears beside it), the removal ends: the files and the folder go.
    let removed = false;
    const watcher = watch(folder, (_event, name) => {
      if (removed || !String(name).startsWith('..lock.')) return;
      removed = true;
      watcher.close();
      rmSync(join(folder, '.gitkeep'));
      rmSync(join(folder, '.lock'));
      for (let i = 0; i < 1000; i++) {
        try {
          rmdirSync(folder);
          return;
        } catch {
          // The waiter's temporary stood there a moment: again.
        }
      }
    });
    try {
      const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'use', 'local/code-coverage', '--project', 'leaving'], {
        env: { AGENTS_LOCK_TIMEOUT_MS: '10000' },
      });
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stdout).ok).toBe(false);
    } finally {
      watcher.close();
    }
    expect(removed).toBe(true);
    expect(readdirSync(join(root, 'plans')).sort()).toEqual(plansBefore);
    expect(existsSync(folder)).toBe(false);
  });

  it('a stop while a plan without a project is written ends the run once the plan is said: exit 143, its id printed', async () => {
    // A template of many invariants: the plan's folder takes a while to write, one file at a time.
    const tree: Record<string, string> = { 'actions/local/big/.gitkeep': '' };
    for (let i = 0; i < 300; i++) {
      const id = `01M8KK2${String(i).padStart(19, '0')}`;
      tree[`actions/local/big/${id}.yaml`] = invariantYaml(id, `Template rule number ${i}`);
    }
    const root = testStore(tree);
    const plans = join(root, 'plans');
    const child = spawn(process.execPath, [BIN, '--store', root, '--format', 'json', 'plan', 'use', 'local/big'], {
      env: { ...process.env, NO_COLOR: '1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    // Sent once the plan's folder is begun (its temporary), however slow a busy machine is to get there.
    for (let i = 0; i < 3000 && readdirSync(plans).length === 0; i++) await new Promise((res) => setTimeout(res, 5));
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    const id = (JSON.parse(stdout) as { plan: { id: string } }).plan.id;
    expect(readdirSync(plans)).toEqual([id]);
    expect(existsSync(join(plans, id, 'plan.yaml'))).toBe(true);
  }, 60_000);

  it('an empty project folder made by hand is a project: plan use targets it', async () => {
    const root = exampleStore();
    mkdirSync(join(root, 'projects/bare'));
    const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'use', 'local/code-coverage', '--project', 'bare']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).plan.project).toBe('bare');
  });

  it('refuses an action holding an invalid file (exit 3) and writes nothing', async () => {
    const root = testStore({ 'actions/ns/bad/01M8KK1KW0KPRSWWKENT2QZ1QA.yaml': 'id: 01M8KK1KW0KPRSWWKENT2QZ1QA\ntext: ok\nbogus: 1\n' });
    const before = fileList(root);
    const r = await runAgents(['--store', root, 'plan', 'use', 'ns/bad']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('actions/ns/bad/01M8KK1KW0KPRSWWKENT2QZ1QA.yaml:3:1');
    expect(fileList(root)).toEqual(before);
  });

  it('refuses a project whose project.yaml is invalid (exit 3, named) and writes nothing: every later plan command would refuse the plan', async () => {
    const root = exampleStore();
    writeFileSync(join(root, 'projects/myapp/project.yaml'), 'paths: [\n');
    const before = fileList(root);
    const r = await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('projects/myapp/project.yaml:1:8');
    // Read as a file of the project's folder and as its project.yaml, the one problem is said once.
    const json = await runAgents(['--store', root, '--format', 'json', 'plan', 'use', 'local/code-coverage', '--project', 'myapp']);
    expect(errorOf(json).detail?.diagnostics).toMatchObject([
      { code: 'yaml-syntax', file: 'projects/myapp/project.yaml', line: 1, col: 8 },
    ]);
    expect(fileList(root)).toEqual(before);
  });

  it('leaves readers blind to an interrupted plan use; validate reports its folder and --fix removes it', async () => {
    const root = exampleStore();
    const dot = 'plans/.01M8KM00000000000000000000.4194000.1a2b3c4d.tmp';
    mkdirSync(join(root, dot));
    writeFileSync(join(root, dot, 'plan.yaml'), 'id: 01M8KM00000000000000000000\n');
    const list = await runAgents(['--store', root, 'plan', 'list', '--format', 'json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id)).toEqual([EXAMPLE_PLAN]);
    const v = JSON.parse((await runAgents(['--store', root, 'validate', '--format', 'json'])).stdout);
    expect(v.diagnostics.filter((d: { code: string }) => d.code === 'temporary-file').map((d: { file: string }) => d.file)).toEqual([dot]);
    const fix = await runAgents(['--store', root, 'validate', '--fix']);
    expect(fix.stdout + fix.stderr).toContain(`removed unfinished plan folder ${dot}/`);
    expect(readdirSync(join(root, 'plans'))).toEqual([EXAMPLE_PLAN]);
  });

  it('lists a goal of several lines under its plan: only plan rows start a line of the list', async () => {
    const root = exampleStore();
    const forged = `Raise coverage\n${EXAMPLE_PLAN.slice(0, 20)}ZZZZZZ  action local/evil`;
    const made = await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--goal', forged, '--format', 'json']);
    expect(made.code).toBe(0);
    const list = await runAgents(['--store', root, 'plan', 'list']);
    expect(list.code).toBe(0);
    const rows = list.stdout.split('\n').filter((l) => /^\S/.test(l) && !/^\d+ plans?$/.test(l));
    expect(rows.map((l) => l.split(' ')[0])).toEqual([EXAMPLE_PLAN, JSON.parse(made.stdout).plan.id]);
  });

  it('plan list --project and --action keep the plans that match; a name that is no project or template is exit 2', async () => {
    const root = exampleStore();
    const use = async (...args: string[]) =>
      JSON.parse((await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', ...args, '--format', 'json'])).stdout).plan.id;
    const alone = await use();
    const forApp = await use('--project', 'myapp');
    const ids = async (...args: string[]) => {
      const r = await runAgents(['--store', root, 'plan', 'list', ...args, '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).map((p: { id: string }) => p.id);
    };
    expect(await ids('--project', 'myapp')).toEqual([EXAMPLE_PLAN, forApp]);
    expect(await ids('--action', 'local/code-coverage')).toEqual([alone, forApp]);
    expect(await ids('--action', 'local/code-coverage', '--project', 'myapp')).toEqual([forApp]);
    // A project that exists and has no plan: an empty list, no refusal.
    mkdirSync(join(root, 'projects/other'));
    expect(await ids('--project', 'other')).toEqual([]);
    const refused = async (...args: string[]) => {
      const r = await runAgents(['--store', root, 'plan', 'list', ...args, '--format', 'json']);
      expect(r.code).toBe(2);
      return errorOf(r);
    };
    expect(await refused('--project', 'myap')).toMatchObject({ code: 'unknown-project', detail: { suggestions: ['myapp'] } });
    expect(await refused('--action', 'local/code-coverag')).toMatchObject({
      code: 'unknown-action',
      detail: { suggestions: ['local/code-coverage'] },
    });
    // A filter without its value is said so, never read as a project named "".
    expect(await refused('--project')).toMatchObject({ code: 'missing-value', detail: { option: 'project' } });
    expect(await refused('--action', '--project', 'myapp')).toMatchObject({ code: 'missing-value', detail: { option: 'action' } });
    // A plan whose project's folder is gone still answers to the name it records.
    rmSync(join(root, 'projects/myapp'), { recursive: true });
    expect(await ids('--project', 'myapp')).toEqual([EXAMPLE_PLAN, forApp]);
  });

  it('lists plans and shows a plan by a unique prefix', async () => {
    const root = exampleStore();
    const made = JSON.parse((await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--format', 'json'])).stdout);
    const list = await runAgents(['--store', root, 'plan', 'list', '--format', 'json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id)).toEqual([EXAMPLE_PLAN, made.plan.id]);
    const yaml = await runAgents(['--store', root, 'plan', 'list', '--format', 'yaml']);
    expect(yaml.stdout).toContain(`- id: ${EXAMPLE_PLAN}`);
    const show = await runAgents(['--store', root, 'plan', 'show', EXAMPLE_PLAN.slice(0, 8), '--format', 'json']);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout).plan.id).toBe(EXAMPLE_PLAN);
    // A second plan whose id shares EXAMPLE_PLAN's first nine characters: the prefix is ambiguous whatever the clock
    // gave the plan made above.
    const twin = `${EXAMPLE_PLAN.slice(0, 9)}M000000000000000Z`;
    cpSync(join(root, 'plans', EXAMPLE_PLAN), join(root, 'plans', twin), { recursive: true });
    writeFileSync(join(root, 'plans', twin, 'plan.yaml'), `id: ${twin}\n`);
    const ambiguous = await runAgents(['--store', root, 'plan', 'show', EXAMPLE_PLAN.slice(0, 9)]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('ambiguous');
    const unknown = await runAgents(['--store', root, 'plan', 'show', '7ZZZZZZZ']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no plan with id prefix 7ZZZZZZZ');
  });
});

describe('the effective set of a plan', () => {
  it('comes out for the seed example exactly as the seed lists it, with source on plan entries', async () => {
    const root = exampleStore();
    const r = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN, '--format', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.map((e: { text: string; scope: string }) => [e.text, e.scope])).toEqual([
      ['Use Python 3.13 only', 'plan'],
      ['All API changes need tests', 'project'],
      ['Log all changes', 'project'],
      ['Never delete production data', 'global'],
    ]);
    expect(out[0].source).toEqual({ kind: 'plan', ref: null, origin_id: null });
    expect(out[2].shadows).toEqual([{ id: '01M8KJW430VF8WCABSB8RTQ8RY', scope: 'global', path: 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml' }]);
    const text = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN]);
    expect(text.stdout).toContain('01M8KK3EF09G9ET4TAJAHQWPMN · error · source: plan');
  });

  it('holds promoted invariants first, showing where they came from', async () => {
    const root = exampleStore();
    const made = JSON.parse(
      (await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp', '--format', 'json'])).stdout,
    );
    const id = made.plan.id as string;
    const r = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--plan', id, '--format', 'json']);
    const out = JSON.parse(r.stdout);
    expect(out.map((e: { text: string }) => e.text)).toEqual([
      'Minimum 80% coverage',
      'All API changes need tests',
      'Log all changes',
      'Never delete production data',
    ]);
    expect(out[0].source).toEqual({ kind: 'action', ref: 'local/code-coverage', origin_id: ORIGIN });
    const text = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--plan', id]);
    expect(text.stdout).toContain(`source: action local/code-coverage (${ORIGIN})`);
    const show = await runAgents(['--store', root, 'plan', 'show', id]);
    expect(show.stdout).toContain(`promoted from action local/code-coverage (${ORIGIN})`);
    // Its entries say what `invariant list --effective` says of each: an inactive copy or a tag is not left out.
    const tests = out.find((e: { text: string }) => e.text === 'All API changes need tests').id as string;
    expect((await runAgents(['--store', root, 'invariant', 'edit', tests, '--tag', 'api', '--tag', 'qa'])).code).toBe(0);
    const tagged = await runAgents(['--store', root, 'plan', 'show', id]);
    expect(tagged.stdout).toContain(`${tests} · error · #api #qa · project · project myapp`);
  });
});

describe('drift', () => {
  it('reports action invariants changed, added and removed since promotion', async () => {
    const root = exampleStore();
    writeFileSync(join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QN.yaml'), invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QN', 'Cover error paths'));
    writeFileSync(
      join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QP.yaml'),
      invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QP', 'Keep fixtures small'),
    );
    const made = JSON.parse((await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--format', 'json'])).stdout);
    const id = made.plan.id as string;
    const promotedQN = made.promoted.find((p: { source: { origin_id: string } }) => p.source.origin_id === '01M8KK1KW0KPRSWWKENT2QZ1QN').id;
    const promotedQP = made.promoted.find((p: { source: { origin_id: string } }) => p.source.origin_id === '01M8KK1KW0KPRSWWKENT2QZ1QP').id;
    const none = JSON.parse((await runAgents(['--store', root, 'plan', 'show', id, '--format', 'json'])).stdout);
    expect(none.drift).toEqual([]);

    // The template moves on: one text edited, one severity changed, one removed, one added.
    writeFileSync(join(root, ACTION, `${ORIGIN}.yaml`), invariantYaml(ORIGIN, 'Minimum 90% coverage'));
    writeFileSync(
      join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QN.yaml'),
      invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QN', 'Cover error paths', { severity: 'info' }),
    );
    rmSync(join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QP.yaml'));
    writeFileSync(
      join(root, ACTION, '01M8KK1KW0KPRSWWKENT2QZ1QR.yaml'),
      invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QR', 'Test the CLI end to end'),
    );
    const r = await runAgents(['--store', root, 'plan', 'show', id, '--format', 'json']);
    expect(r.code).toBe(0);
    const promotedOrigin = made.promoted.find((p: { source: { origin_id: string } }) => p.source.origin_id === ORIGIN).id;
    expect(JSON.parse(r.stdout).drift).toEqual([
      {
        kind: 'changed',
        action: 'local/code-coverage',
        origin_id: ORIGIN,
        plan_invariant_id: promotedOrigin,
        fields: ['text'],
        text: 'Minimum 80% coverage',
        action_text: 'Minimum 90% coverage',
      },
      {
        kind: 'changed',
        action: 'local/code-coverage',
        origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QN',
        plan_invariant_id: promotedQN,
        fields: ['severity'],
        text: 'Cover error paths',
        action_text: 'Cover error paths',
      },
      {
        kind: 'removed',
        action: 'local/code-coverage',
        origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QP',
        plan_invariant_id: promotedQP,
        fields: [],
        text: 'Keep fixtures small',
        action_text: null,
      },
      {
        kind: 'added',
        action: 'local/code-coverage',
        origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QR',
        plan_invariant_id: null,
        fields: [],
        text: 'Test the CLI end to end',
        action_text: null,
      },
    ]);
    const text = (await runAgents(['--store', root, 'plan', 'show', id])).stdout;
    expect(text).toContain('Drift from the action template (4)');
    expect(text).toContain('changed  01M8KK1KW0KPRSWWKENT2QZ1QM in local/code-coverage (text)');
    // The plan itself is untouched: promotion is a copy.
    expect(readYaml(root, `plans/${id}/${promotedOrigin}.yaml`)).toMatchObject({ text: 'Minimum 80% coverage' });
  });
});

describe('plan use --commit', () => {
  function repoWithExample(): string {
    const dir = tempDir();
    gitInit(dir);
    cpSync(join(REPO, '.agents.example'), join(dir, '.agents'), { recursive: true });
    writeFileSync(join(dir, 'README.md'), 'hello\n');
    commitAll(dir, 'base');
    return dir;
  }

  it('commits exactly the new plan folder, with a clear message', async () => {
    const dir = repoWithExample();
    writeFileSync(join(dir, 'README.md'), 'edited, not staged\n');
    const r = await runAgents(
      ['plan', 'use', 'local/code-coverage', '--project', 'myapp', '--goal', 'Raise coverage', '--commit', '--format', 'json'],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const id = out.plan.id as string;
    const promoted = out.promoted[0].id as string;
    expect(out.commit).toBe(git(dir, 'rev-parse', 'HEAD').trim());
    expect(git(dir, 'log', '-1', '--format=%B', 'HEAD').trim()).toBe(
      `plan: use local/code-coverage as ${id} for project myapp (1 invariant promoted)\n\nRaise coverage`,
    );
    expect(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(
      [`A\t.agents/plans/${id}/${promoted}.yaml`, `A\t.agents/plans/${id}/plan.yaml`].sort(),
    );
    expect(git(dir, 'status', '--porcelain').trim()).toBe('M README.md');
  });

  it('leaves out of the commit a lock a writer of the new plan takes in its folder before the commit', async () => {
    const dir = repoWithExample();
    // git asks its fsmonitor program what changed when the commit stages the plan, after the plan was written: the
    // program stands for a writer of the new plan (a violation add, say) that takes its lock meanwhile.
    const monitor = join(tempDir(), 'monitor.sh');
    writeFileSync(
      monitor,
      `#!/bin/sh\nfor d in .agents/plans/*/; do [ -f "$d/plan.yaml" ] && [ "$d" != ".agents/plans/${EXAMPLE_PLAN}/" ] && echo "1 host 2026-01-01T00:00:00Z" > "$d/.lock"; done\nexit 1\n`,
      { mode: 0o755 },
    );
    git(dir, 'config', 'core.fsmonitor', monitor);
    const r = await runAgents(['plan', 'use', 'local/code-coverage', '--project', 'myapp', '--commit', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const id = out.plan.id as string;
    expect(existsSync(join(dir, '.agents', 'plans', id, '.lock'))).toBe(true);
    expect(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(
      [`A\t.agents/plans/${id}/${out.promoted[0].id}.yaml`, `A\t.agents/plans/${id}/plan.yaml`].sort(),
    );
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all').trim()).toBe(`?? .agents/plans/${id}/.lock`);
  });

  it('refuses before writing anything when other changes are staged', async () => {
    const dir = repoWithExample();
    writeFileSync(join(dir, 'README.md'), 'staged\n');
    git(dir, 'add', 'README.md');
    const r = await runAgents(['plan', 'use', 'local/code-coverage', '--commit'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('other changes are already staged');
    expect(readdirSync(join(dir, '.agents', 'plans'))).toEqual(['01M8KK5920RS6CGAVDFVYYJ0B4']);
  });
});

describe("an action template's guard", () => {
  it('goes with the plan copy, so the hook guards the plan; plan sync carries a changed guard over', async () => {
    const dir = tempDir();
    gitInit(dir);
    cpSync(join(REPO, '.agents.example'), join(dir, '.agents'), { recursive: true });
    const cli = (...args: string[]) => runAgents(args, { cwd: dir });
    const added = await cli(
      'invariant',
      'add',
      '--action',
      'local/code-coverage',
      'Never touch secrets',
      '--guard-write',
      'secrets/**',
      '--format',
      'json',
    );
    expect(added.code).toBe(0);
    const origin = JSON.parse(added.stdout).id as string;
    const used = await cli('plan', 'use', 'local/code-coverage', '--project', 'myapp', '--format', 'json');
    expect(used.code).toBe(0);
    const out = JSON.parse(used.stdout);
    const plan = out.plan.id as string;
    const copy = out.promoted.find((p: { source: { origin_id: string } }) => p.source.origin_id === origin).id as string;
    expect(readYaml(join(dir, '.agents'), `plans/${plan}/${copy}.yaml`)).toMatchObject({ guard: { write: ['secrets/**'] } });
    const tryWrite = (path: string) => runAgents(['guard', 'try', '--path', path], { cwd: dir, env: { AGENTS_PLAN: plan } });
    expect((await tryWrite('secrets/key.pem')).code).toBe(1);
    expect((await tryWrite('keys/key.pem')).code).toBe(0);

    expect((await cli('invariant', 'edit', origin, '--guard-write', 'keys/**')).code).toBe(0);
    const sync = await cli('plan', 'sync', plan, '--yes', '--format', 'json');
    expect(sync.code).toBe(0);
    expect(
      JSON.parse(sync.stdout).changes.map((c: { plan_invariant_id: string; fields: string[] }) => [c.plan_invariant_id, c.fields]),
    ).toEqual([[copy, ['guard']]]);
    expect((await tryWrite('keys/key.pem')).code).toBe(1);
  });
});
