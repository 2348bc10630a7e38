import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_PLAN, exampleStore, fileList, records } from '../helpers/plans.ts';
import { runAgents, violationAdded } from '../helpers/main.ts';

const NEVER_DELETE = '01M8KJT9G0XNWEM589ZS7FV0VT';
const GLOBAL_LOG = '01M8KJW430VF8WCABSB8RTQ8RY'; // shadowed by the project copy in the example plan
const PROJECT_LOG = '01M8KJZS90J6DRJJ8E264B9DFX'; // that copy

async function run(root: string, ...args: string[]) {
  return await runAgents(['--store', root, ...args]);
}

describe('invariant violation add / list and plan status', () => {
  it('records violations with the invariant text, lists and filters them, and gates plan status', async () => {
    const root = exampleStore();
    // Reconciled first: a plan never reconciled fails the gate on its own (see plan-status.test.ts).
    expect((await run(root, 'plan', 'strategize', EXAMPLE_PLAN)).code).toBe(0);
    const clean = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--format', 'json');
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({
      plan: expect.objectContaining({ id: EXAMPLE_PLAN }),
      effective_count: 4,
      latest_enforcement: expect.objectContaining({ enforced: 4, total: 4, error: null }),
      violations: { error: 0, warning: 0, info: 0 },
      waived_violations: 0,
      resolved_violations: 0,
      waivers: [expect.objectContaining({ id: '01M8KK6RQ0CZ6W1V4TZ2J5X3HB', scope: 'plan', holds: true })],
      failing: false,
      reasons: [],
      unfinished_runs: [],
      allowed: [],
      warnings: [],
    });

    const warn = await run(
      root,
      'invariant',
      'violation',
      'add',
      '--plan',
      EXAMPLE_PLAN,
      '--invariant',
      '01M8KJXY',
      '--severity',
      'warning',
      '--details',
      'one endpoint lacks a test',
      '--format',
      'json',
    );
    expect(warn.code).toBe(0);
    const w = JSON.parse(warn.stdout);
    expect(w).toMatchObject({
      plan: EXAMPLE_PLAN,
      invariant_id: '01M8KJXYP0GVPRF8KRRE9G8474',
      violated_text: 'All API changes need tests',
      severity: 'warning',
      details: 'one endpoint lacks a test',
    });
    expect(w.path).toBe(`plans/${EXAMPLE_PLAN}/violations/${w.id}.yaml`);
    expect(readFileSync(join(root, w.path), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../../schemas/violation.schema.json',
    );
    // Warnings do not fail the plan.
    expect((await run(root, 'plan', 'status', EXAMPLE_PLAN)).code).toBe(0);

    // The severity defaults to the invariant's own (error).
    const err = await run(
      root,
      'invariant',
      'violation',
      'add',
      '--plan',
      EXAMPLE_PLAN.slice(0, 10),
      '--invariant',
      NEVER_DELETE,
      '--details',
      'dropped the users table',
    );
    expect(err.code).toBe(0);
    expect(err.stdout).toContain('recorded error violation');
    const status = await run(root, 'plan', 'status', EXAMPLE_PLAN);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`FAILING  plan ${EXAMPLE_PLAN}`);
    expect(status.stdout).toContain('violations      1 error, 1 warning, 0 info');

    const stored = records(root, EXAMPLE_PLAN, 'violations');
    expect(stored.map((v) => [v.invariant_id, v.violated_text, v.severity])).toEqual([
      ['01M8KJXYP0GVPRF8KRRE9G8474', 'All API changes need tests', 'warning'],
      [NEVER_DELETE, 'Never delete production data', 'error'],
    ]);

    const all = JSON.parse((await run(root, 'invariant', 'violation', 'list', '--format', 'json')).stdout);
    expect(all.map((v: { severity: string }) => v.severity)).toEqual(['warning', 'error']);
    const errors = JSON.parse(
      (await run(root, 'invariant', 'violation', 'list', '--plan', EXAMPLE_PLAN, '--severity', 'error', '--format', 'json')).stdout,
    );
    expect(errors.map((v: { invariant_id: string }) => v.invariant_id)).toEqual([NEVER_DELETE]);
    const yaml = await run(root, 'invariant', 'violation', 'list', '--severity', 'info', '--format', 'yaml');
    expect(yaml.stdout).toBe('[]\n');
    const text = await run(root, 'invariant', 'violation', 'list');
    expect(text.stdout).toContain(`plan ${EXAMPLE_PLAN}`);
    expect(text.stdout).toContain('2 violations');

    // The violation stands until its file is removed (a reviewed change).
    rmSync(join(root, `plans/${EXAMPLE_PLAN}/violations/${stored[1]!.id}.yaml`));
    expect((await run(root, 'plan', 'status', EXAMPLE_PLAN)).code).toBe(0);
  });

  it.each([
    ['a shadowed invariant', ['--invariant', GLOBAL_LOG], /is not in the effective set of plan/],
    ['an unknown invariant', ['--invariant', '7ZZZZZZZZZ'], /no invariant with id prefix 7ZZZZZZZZZ/],
    ['a malformed id', ['--invariant', 'x!'], /is not an invariant id or a prefix of one/],
    ['a bad severity', ['--invariant', NEVER_DELETE, '--severity', 'fatal'], /Invalid values|fatal/],
  ])('refuses %s (exit 2) and writes nothing', async (_name, args, message) => {
    const root = exampleStore();
    const before = fileList(root);
    const r = await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(fileList(root)).toEqual(before);
  });

  it('refuses an invariant id that names nothing in the store as unknown-id (violation add, waive), one outside the set as usage', async () => {
    const root = exampleStore();
    const before = fileList(root);
    const waive = ['--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'];
    const error = async (...args: string[]) => {
      const r = await run(root, '--format', 'json', ...args);
      expect(r.code).toBe(2);
      return (JSON.parse(r.stdout) as { error: { code: string; detail: unknown } }).error;
    };
    // A last character mistyped: the ids of the set that share the most of it are suggested.
    const typo = `${NEVER_DELETE.slice(0, 20)}ZZZZZZ`;
    expect(await error('invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', typo)).toEqual({
      code: 'unknown-id',
      message: expect.any(String),
      hint: expect.any(String),
      detail: { id: typo, suggestions: [NEVER_DELETE] },
    });
    expect((await error('invariant', 'waive', typo, '--plan', EXAMPLE_PLAN, ...waive)).code).toBe('unknown-id');
    // An invariant of the store the set leaves out (shadowed here) is no unknown id; the copy that applies is named.
    expect(await error('invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', GLOBAL_LOG)).toMatchObject({
      code: 'usage',
      detail: { invariant: GLOBAL_LOG, applies: PROJECT_LOG },
    });
    expect(await error('invariant', 'waive', GLOBAL_LOG, '--plan', EXAMPLE_PLAN, ...waive)).toMatchObject({
      code: 'usage',
      detail: { invariant: GLOBAL_LOG, applies: PROJECT_LOG },
    });
    // One of a scope the set never reaches (an action template's the plan was not made from) is named where it lives.
    const template = { invariant: '01M8KK1KW0KPRSWWKENT2QZ1QM', path: 'actions/local/code-coverage/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml' };
    expect(
      await error('invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', template.invariant.slice(0, 12)),
    ).toMatchObject({
      code: 'usage',
      detail: template,
    });
    expect(await error('invariant', 'waive', template.invariant, '--project', 'myapp', ...waive)).toMatchObject({
      code: 'usage',
      detail: template,
    });
    expect(fileList(root)).toEqual(before);
  });

  it('refuses an invariant deactivated since (violation add, waive) saying it is inactive, naming its file, nothing written', async () => {
    const root = exampleStore();
    expect((await run(root, 'invariant', 'edit', NEVER_DELETE, '--deactivate')).code).toBe(0);
    const before = fileList(root);
    const waive = ['--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'];
    const path = `global/${NEVER_DELETE}.yaml`;
    for (const args of [
      ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE.slice(0, 10)],
      ['invariant', 'waive', NEVER_DELETE, '--plan', EXAMPLE_PLAN, ...waive],
      ['invariant', 'waive', NEVER_DELETE, '--project', 'myapp', ...waive],
    ]) {
      const r = await run(root, '--format', 'json', ...args);
      expect(r.code).toBe(2);
      const error = (JSON.parse(r.stdout) as { error: { code: string; message: string; detail: unknown } }).error;
      expect(error.code).toBe('usage');
      expect(error.detail).toEqual({ invariant: NEVER_DELETE, path });
      expect(error.message).toContain('inactive');
    }
    expect(fileList(root)).toEqual(before);
  });

  it('a waiver file broken by hand stops what reads the waivers (plan status), not the recording of a violation or a run', async () => {
    const root = exampleStore();
    const waiver = join(root, `plans/${EXAMPLE_PLAN}/waivers/01M8KK6RQ0CZ6W1V4TZ2J5X3HB.yaml`);
    writeFileSync(waiver, readFileSync(waiver, 'utf8').replace(/^expires: .*$/m, 'expires: "2027-02-30"'));
    const added = await run(root, '--format', 'json', 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE);
    expect(added.code, added.stderr).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    expect(records(root, EXAMPLE_PLAN, 'violations').map((v) => (v as { id: string }).id)).toContain(id);
    expect((await run(root, 'plan', 'strategize', EXAMPLE_PLAN)).code).toBe(0);
    expect(records(root, EXAMPLE_PLAN, 'decisions')).toHaveLength(1);
    // The gate reads the waivers: it stops on the broken one, naming it.
    const status = await run(root, '--format', 'json', 'plan', 'status', EXAMPLE_PLAN);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout).error.detail.diagnostics[0].file).toBe(
      `plans/${EXAMPLE_PLAN}/waivers/01M8KK6RQ0CZ6W1V4TZ2J5X3HB.yaml`,
    );
  });

  it("refuses a violation's or a waiver's id given for the invariant (violation add, waive): exit 2 saying what it names, nothing written", async () => {
    const root = exampleStore();
    const added = await run(root, '--format', 'json', 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE);
    const violation = (JSON.parse(added.stdout) as { id: string }).id;
    const before = fileList(root);
    const waive = ['--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'];
    for (const [args, kind] of [
      [['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', violation.slice(0, 16)], 'violation'],
      [['invariant', 'waive', violation, '--plan', EXAMPLE_PLAN, ...waive], 'violation'],
      [['invariant', 'waive', '01M8KK6RQ0CZ6W1V4TZ2J5X3HB', '--project', 'myapp', ...waive], 'waiver'],
    ] as const) {
      const r = await run(root, '--format', 'json', ...args);
      expect(r.code).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { detail: { names: { kind: string }[] } } }).error.detail.names.map((n) => n.kind)).toEqual([
        kind,
      ]);
    }
    expect(fileList(root)).toEqual(before);
  });

  it('refuses an unknown plan (exit 2)', async () => {
    const root = exampleStore();
    const r = await run(root, 'invariant', 'violation', 'add', '--plan', '01M8KK5920RS6CGAVDFVYYJ0B9', '--invariant', NEVER_DELETE);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no plan with id 01M8KK5920RS6CGAVDFVYYJ0B9');
  });

  it('resolve refuses an id two plans hold (a copied file): exit 2, both named, nothing written', async () => {
    const root = exampleStore();
    const added = await run(root, '--format', 'json', 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const other = (
      JSON.parse((await run(root, '--format', 'json', 'plan', 'use', 'local/code-coverage')).stdout) as { plan: { id: string } }
    ).plan.id;
    mkdirSync(join(root, 'plans', other, 'violations'), { recursive: true });
    copyFileSync(join(root, 'plans', EXAMPLE_PLAN, 'violations', `${id}.yaml`), join(root, 'plans', other, 'violations', `${id}.yaml`));
    const before = fileList(root).map((f) => [f, readFileSync(join(root, f), 'utf8')]);
    const r = await run(root, '--format', 'json', 'invariant', 'violation', 'resolve', id);
    expect(r.code).toBe(2);
    expect(
      (JSON.parse(r.stdout) as { error: { detail: { matches: { plan: string }[] } } }).error.detail.matches.map((m) => m.plan).sort(),
    ).toEqual([EXAMPLE_PLAN, other].sort());
    expect(fileList(root).map((f) => [f, readFileSync(join(root, f), 'utf8')])).toEqual(before);
  });

  it('exits 3 naming the file when a violation file is invalid', async () => {
    const root = exampleStore();
    const add = JSON.parse(
      (await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE, '--format', 'json')).stdout,
    );
    writeFileSync(join(root, add.path), readFileSync(join(root, add.path), 'utf8').replace('severity: error', 'severity: fatal'));
    const r = await run(root, 'plan', 'status', EXAMPLE_PLAN);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`${add.path}:\\d+:11`));
  });

  it('shows the latest enforcement in plan status and plan show', async () => {
    const root = exampleStore();
    expect((await run(root, 'plan', 'strategize', EXAMPLE_PLAN)).code).toBe(0);
    const s = JSON.parse((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--format', 'json')).stdout);
    expect(s.latest_enforcement).toMatchObject({ enforced: 4, total: 4, error: null });
    const show = JSON.parse((await run(root, 'plan', 'show', EXAMPLE_PLAN, '--format', 'json')).stdout);
    expect(show.latest_enforcement.records).toHaveLength(4);
    expect(show.latest_decision.id).toBe(show.latest_enforcement.decision_id);
    expect(show.violations).toEqual([]);
  });

  it('leaves a store that validate finds clean after plan use, strategize and a violation', async () => {
    const root = exampleStore();
    const made = JSON.parse((await run(root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp', '--format', 'json')).stdout);
    expect((await run(root, 'plan', 'strategize', made.plan.id)).code).toBe(0);
    expect((await run(root, 'plan', 'strategize', EXAMPLE_PLAN)).code).toBe(0);
    expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE)).code).toBe(0);
    const v = await run(root, 'validate', '--format', 'json');
    const out = JSON.parse(v.stdout);
    // Only the example's deliberate shadowed copy (the seed's merge example) is reported.
    expect(out.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([
      ['shadowed', 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml'],
    ]);
    expect(v.code).toBe(0);
    // A record edited by hand to break its schema is an error with its position.
    const file = records(root, EXAMPLE_PLAN, 'violations')[0]!;
    const path = `plans/${EXAMPLE_PLAN}/violations/${file.id}.yaml`;
    writeFileSync(join(root, path), readFileSync(join(root, path), 'utf8').replace('severity: error', 'severity: fatal'));
    const bad = JSON.parse((await run(root, 'validate', '--format', 'json')).stdout);
    expect(
      bad.diagnostics
        .filter((d: { severity: string }) => d.severity === 'error')
        .map((d: { code: string; file: string; col: number }) => [d.code, d.file, d.col]),
    ).toEqual([['schema', path, 11]]);
  });
});

describe('invariant violation list and plan show, text', () => {
  it("shows the lines of a violation's details one under another, indented, the JSON keeping the text", async () => {
    const root = exampleStore();
    const details = 'rm -rf data/ ran\n::warning::not a command\n\n  then the backup';
    const added = await violationAdded(root, EXAMPLE_PLAN, NEVER_DELETE, '--details', details);
    expect(added.code, added.stderr).toBe(0);
    const id = added.id!;
    // plan show lists the open one so too.
    const shown = (await run(root, 'plan', 'show', EXAMPLE_PLAN)).stdout.split('\n');
    const from = shown.indexOf('      rm -rf data/ ran');
    expect(shown[from - 1]).toMatch(new RegExp(`${id}  Never delete production data$`));
    expect(shown.slice(from, from + 4)).toEqual([
      '      rm -rf data/ ran',
      '      \\u003a:warning::not a command',
      '      ',
      '        then the backup',
    ]);
    expect((await run(root, 'invariant', 'violation', 'resolve', id, '--note', 'restored')).code).toBe(0);
    const text = await run(root, 'invariant', 'violation', 'list');
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const at = lines.indexOf('      rm -rf data/ ran');
    expect(lines.slice(at, at + 4)).toEqual([
      '      rm -rf data/ ran',
      '      \\u003a:warning::not a command',
      '      ',
      '        then the backup',
    ]);
    expect(lines[at + 4]).toMatch(/^ {4}resolved .*: restored$/);
    expect(text.stdout).not.toContain('\\n');
    const json = JSON.parse((await run(root, '--format', 'json', 'invariant', 'violation', 'list')).stdout);
    expect(json[0].details).toBe(details);
  });
});
