import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waivedAt, waiverExpiry, waiverHolds, parseExpiresInput } from '../../src/core/waivers.ts';
import { InvariantService, PlanService } from '../../src/index.ts';
import { runValidate } from '../../src/validate/run.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, readYaml } from '../helpers/plans.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml } from '../helpers/tmp.ts';
import { readResource } from '../../src/mcp/resources.ts';
import { callTool, newToolContext, TOOLS } from '../../src/mcp/tools.ts';

const NEVER_DELETE = '01M8KJT9G0XNWEM589ZS7FV0VT'; // global, in the example plan's set
const API_TESTS = '01M8KJXYP0GVPRF8KRRE9G8474'; // project myapp
const LOG_CHANGES = '01M8KJZS90J6DRJJ8E264B9DFX'; // project myapp; waived for the plan by the example
const ACTION_INV = '01M8KK1KW0KPRSWWKENT2QZ1QM'; // action local/code-coverage: in no effective set

/** The example store in a fresh git repository, committed. */
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

describe('waivers: the rules (pure)', () => {
  it.each([
    ['2026-12-31', Date.UTC(2027, 0, 1)],
    ['2026-12-31T18:00:00Z', Date.UTC(2026, 11, 31, 18)],
    ['2026-12-31T18:00:00+02:00', Date.UTC(2026, 11, 31, 16)],
    ['2026-02-30', Number.NaN],
    ['31/12/2026', Number.NaN],
  ])('%s expires at %s', (expires, at) => {
    expect(waiverExpiry(expires)).toBe(at);
  });

  it('a date holds through that whole day (UTC), and ends at the next midnight', () => {
    const w = { expires: '2026-12-31' };
    expect(waiverHolds(w, new Date('2026-12-31T23:59:59.999Z'))).toBe(true);
    expect(waiverHolds(w, new Date('2027-01-01T00:00:00Z'))).toBe(false);
  });

  it('waivedAt gives the invariants waived at a time, latest expiry first', () => {
    const base = { reason: 'r', owner: 'o', created_at: '2026-01-01T00:00:00Z' };
    const ws = [
      { ...base, id: 'W1', invariant_id: 'I1', expires: '2026-06-30' },
      { ...base, id: 'W2', invariant_id: 'I1', expires: '2026-12-31' },
      { ...base, id: 'W3', invariant_id: 'I2', expires: '2026-03-01' },
    ];
    const at = (t: string) => [...waivedAt(ws, new Date(t))].map(([id, list]) => [id, list.map((w) => w.id)]);
    expect(at('2026-02-01T00:00:00Z')).toEqual([
      ['I1', ['W2', 'W1']],
      ['I2', ['W3']],
    ]);
    expect(at('2026-07-01T00:00:00Z')).toEqual([['I1', ['W2']]]);
    expect(at('2027-01-01T00:00:00Z')).toEqual([]);
  });

  it('refuses an --expires that is not a date or not in the future', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(parseExpiresInput(' 2026-11-30 ', now)).toEqual({ value: '2026-11-30' });
    expect(parseExpiresInput('2026-11-29', now)).toHaveProperty('problem');
    expect(parseExpiresInput('tomorrow', now)).toHaveProperty('problem');
    // RFC 3339's lower-case "t" and "z", kept in the upper case the waiver schema takes.
    expect(parseExpiresInput('2027-01-01t00:00:00z', now)).toEqual({ value: '2027-01-01T00:00:00Z' });
  });
});

describe('invariant waive (CLI, on a git repository)', () => {
  it('records a waiver for a plan: the error violation stops failing plan status until the waiver expires', async () => {
    const { root } = repoStore();
    expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE)).code).toBe(0);
    expect((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run')).code).toBe(1);
    const r = await run(
      root,
      'invariant',
      'waive',
      NEVER_DELETE.slice(0, 8),
      '--plan',
      EXAMPLE_PLAN.slice(0, 8),
      '--reason',
      'Migration window',
      '--owner',
      'Data team',
      '--expires',
      '2999-01-31',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const w = JSON.parse(r.stdout);
    expect(w).toMatchObject({
      invariant_id: NEVER_DELETE,
      scope: 'plan',
      plan: EXAMPLE_PLAN,
      project: null,
      reason: 'Migration window',
      owner: 'Data team',
      expires: '2999-01-31',
      commit: null,
    });
    expect(w.path).toBe(`plans/${EXAMPLE_PLAN}/waivers/${w.id}.yaml`);
    expect(readFileSync(join(root, w.path), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../../schemas/waiver.schema.json',
    );
    expect(readYaml(root, w.path)).toMatchObject({ id: w.id, invariant_id: NEVER_DELETE, expires: '2999-01-31' });
    const status = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run', '--format', 'json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      violations: { error: 0, warning: 0, info: 0 },
      waived_violations: 1,
      resolved_violations: 0,
      failing: false,
    });
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it('a project waiver covers the plans that target the project, and shows in list --effective, plan show and their JSON', async () => {
    const { root } = repoStore();
    const r = await run(
      root,
      'invariant',
      'waive',
      API_TESTS,
      '--project',
      'myapp',
      '--reason',
      'Legacy endpoints',
      '--owner',
      'API team',
      '--expires',
      '2999-12-31T18:00:00Z',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).id as string;
    expect(fileList(root)).toContain(`projects/myapp/waivers/${id}.yaml`);
    const list = JSON.parse((await run(root, 'invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN, '--format', 'json')).stdout) as {
      id: string;
      waivers: { id: string; holds: boolean; scope: string }[];
    }[];
    expect(list.map((e) => [e.id, e.waivers.map((x) => [x.scope, x.holds])])).toEqual([
      ['01M8KK3EF09G9ET4TAJAHQWPMN', []],
      [API_TESTS, [['project', true]]],
      [LOG_CHANGES, [['plan', true]]],
      [NEVER_DELETE, []],
    ]);
    const text = (await run(root, 'invariant', 'list', '--effective', '--project', 'myapp')).stdout;
    expect(text).toContain(`waived until 2999-12-31T18:00:00Z (project myapp, ${id}, owner API team): Legacy endpoints`);
    const show = JSON.parse((await run(root, 'plan', 'show', EXAMPLE_PLAN, '--format', 'json')).stdout) as { waivers: { id: string }[] };
    expect(show.waivers.map((x) => x.id).sort()).toEqual(['01M8KK6RQ0CZ6W1V4TZ2J5X3HB', id].sort());
    expect((await run(root, 'plan', 'show', EXAMPLE_PLAN)).stdout).toContain('Waivers (2)');
  });

  it('a waiver of a copy the plan shadows waives nothing on any surface: not listed, not holding, no violation covered', async () => {
    // No repository: nothing here commits, and a git repository costs processes.
    const root = exampleStore();
    // Recorded and waived while the project's copy applied; then the plan takes a copy of the same text, which shadows it.
    expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', API_TESTS)).code).toBe(0);
    const waive = ['--reason', 'Legacy endpoints', '--owner', 'API team', '--expires', '2999-12-31'];
    expect((await run(root, 'invariant', 'waive', API_TESTS, '--plan', EXAMPLE_PLAN, ...waive)).code).toBe(0);
    const own = '01M8KK5920RS6CGAVDFVYYJ0C0';
    writeFileSync(join(root, `plans/${EXAMPLE_PLAN}/${own}.yaml`), invariantYaml(own, 'All API changes need tests', { severity: 'error' }));
    const example = '01M8KK6RQ0CZ6W1V4TZ2J5X3HB';
    const validate = await runValidate({ store: root, cwd: root }, { processAlive: () => false, hostname: 'h' });
    expect(validate.diagnostics.filter((d) => d.code === 'waiver-not-applicable').map((d) => d.file)).toHaveLength(1);
    const status = JSON.parse((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run', '--format', 'json')).stdout) as {
      waivers: { id: string }[];
      violations: { error: number };
      waived_violations: number;
      reasons: { code: string }[];
    };
    expect(status.waivers.map((w) => w.id)).toEqual([example]);
    expect([status.violations.error, status.waived_violations]).toEqual([1, 0]);
    expect(status.reasons.map((x) => x.code)).toContain('error-violation');
    expect((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run')).stdout).toContain('1 holding, 0 expired');
    const show = JSON.parse((await run(root, 'plan', 'show', EXAMPLE_PLAN, '--format', 'json')).stdout) as { waivers: { id: string }[] };
    expect(show.waivers.map((w) => w.id)).toEqual([example]);
    const service = new InvariantService(root);
    const ctx = newToolContext(service);
    const mcp = await callTool(TOOLS.find((t) => t.name === 'plan_status')!, { plan: EXAMPLE_PLAN }, ctx);
    expect((mcp.data as { waivers: { id: string }[] }).waivers.map((w) => w.id)).toEqual([example]);
    const resource = JSON.parse((await readResource(ctx, `agents://plans/${EXAMPLE_PLAN}/effective.json`)).text) as {
      invariants: { waivers: { id: string }[] }[];
    };
    expect(resource.invariants.flatMap((e) => e.waivers.map((w) => w.id))).toEqual([example]);
    expect((await service.effective({ plan: EXAMPLE_PLAN })).waivers.map((w) => w.id)).toEqual([example]);
  });

  it("an error violation's reason names the invariant waive that covers it, which works once its placeholders are filled", async () => {
    // No repository: nothing here commits.
    const root = exampleStore();
    expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE)).code).toBe(0);
    const failing = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run', '--format', 'json');
    expect(failing.code).toBe(1);
    const { reasons } = JSON.parse(failing.stdout) as { reasons: { code: string; message: string }[] };
    const message = reasons.find((x) => x.code === 'error-violation')!.message;
    const named = [...message.matchAll(/`agents --store (\S+) (invariant waive [^`]*)`/g)];
    expect(named.map((m) => m[1])).toEqual([root]);
    // What only the person can say: the reason, the owner and the date; the id and the plan are the reason's.
    const argv = named[0]![2]!.replaceAll('"…"', 'filled').replace('YYYY-MM-DD', '2999-01-31').split(' ');
    expect(argv.slice(0, 5)).toEqual(['invariant', 'waive', NEVER_DELETE, '--plan', EXAMPLE_PLAN]);
    expect((await run(root, ...argv)).code).toBe(0);
    expect((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run')).code).toBe(0);
  });

  it('an error violation whose waiver expired names the waiver to renew, alike in plan status text, JSON and MCP plan_status', async () => {
    // No repository: nothing here commits, and a git repository costs processes.
    const root = exampleStore();
    expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE)).code).toBe(0);
    const waive = ['--reason', 'Migration window', '--owner', 'Ops', '--expires', '2999-12-31', '--format', 'json'];
    const waived = await run(root, 'invariant', 'waive', NEVER_DELETE, '--plan', EXAMPLE_PLAN, ...waive);
    const { id, path } = JSON.parse(waived.stdout) as { id: string; path: string };
    const file = join(root, path);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^expires: .*$/m, 'expires: 2020-01-31'));
    const r = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run', '--format', 'json');
    expect(r.code).toBe(1);
    const cli = JSON.parse(r.stdout) as { reasons: { code: string; expired_waivers: string[] | null; message: string }[] };
    const reason = cli.reasons.find((x) => x.code === 'error-violation')!;
    expect(reason.expired_waivers).toEqual([id]);
    expect(reason.message).toContain(path);
    expect(reason.message).toContain('2020-01-31');
    expect(cli.reasons.filter((x) => x.code !== 'error-violation').every((x) => x.expired_waivers === null)).toBe(true);
    const text = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run');
    expect(text.stdout).toContain(path);
    // One presenter: MCP's plan_status answers the JSON the CLI prints (here without allow, so the same reasons apart from it).
    const mcp = await callTool(
      TOOLS.find((t) => t.name === 'plan_status')!,
      { plan: EXAMPLE_PLAN },
      newToolContext(new InvariantService(root)),
    );
    const data = mcp.data as typeof cli;
    // The commands it names start as the run names its store (the CLI's --store here); the rest is the same.
    const answered = data.reasons.find((x) => x.code === 'error-violation')!;
    expect({ ...answered, message: '' }).toEqual({ ...reason, message: '' });
    expect(answered.message.replaceAll(`agents --store ${root} `, 'agents ')).toBe(
      reason.message.replaceAll(`agents --store ${root} `, 'agents '),
    );
  });

  it("a project's waiver of an invariant since moved into a plan waives nothing there: not listed, no violation covered, no guard lifted", async () => {
    // No repository: nothing here commits, and a git repository costs processes.
    const root = exampleStore();
    const cwd = dirname(root);
    expect((await run(root, 'invariant', 'edit', API_TESTS, '--guard-write', 'src/legacy/**')).code).toBe(0);
    const waive = ['--reason', 'Legacy endpoints', '--owner', 'API team', '--expires', '2999-12-31'];
    expect((await run(root, 'invariant', 'waive', API_TESTS, '--project', 'myapp', ...waive)).code).toBe(0);
    expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', API_TESTS)).code).toBe(0);
    const guardTry = () =>
      runAgents(['--store', root, 'guard', 'try', '--path', 'src/legacy/a.py'], { cwd, env: { AGENTS_PLAN: EXAMPLE_PLAN } });
    expect((await guardTry()).code).toBe(0);
    expect((await run(root, 'invariant', 'move', API_TESTS, '--plan', EXAMPLE_PLAN)).code).toBe(0);
    const validate = await runValidate({ store: root, cwd: root }, { processAlive: () => false, hostname: 'h' });
    expect(validate.diagnostics.filter((d) => d.code === 'waiver-not-applicable')).toHaveLength(1);
    const r = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run', '--format', 'json');
    const status = JSON.parse(r.stdout) as { waivers: { id: string }[]; violations: { error: number }; waived_violations: number };
    expect(r.code).toBe(1);
    expect(status.waivers.map((w) => w.id)).toEqual(['01M8KK6RQ0CZ6W1V4TZ2J5X3HB']);
    expect([status.violations.error, status.waived_violations]).toEqual([1, 0]);
    const listed = JSON.parse((await run(root, 'invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN, '--format', 'json')).stdout) as {
      id: string;
      waivers: unknown[];
    }[];
    expect(listed.find((e) => e.id === API_TESTS)?.waivers).toEqual([]);
    expect((await guardTry()).code).toBe(1);
  });

  it('plan show and violation list mark the open violations a waiver covers, as plan status counts them', async () => {
    // No repository: nothing here commits, and a git repository costs processes.
    const root = exampleStore();
    for (const id of [NEVER_DELETE, LOG_CHANGES])
      expect((await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', id)).code).toBe(0);
    const status = JSON.parse((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--format', 'json')).stdout) as {
      violations: { error: number; warning: number };
      waived_violations: number;
    };
    expect([status.violations.error + status.violations.warning, status.waived_violations]).toEqual([1, 1]);
    const show = JSON.parse((await run(root, 'plan', 'show', EXAMPLE_PLAN, '--format', 'json')).stdout) as {
      violations: { invariant_id: string; waived: boolean }[];
    };
    expect(show.violations.map((v) => [v.invariant_id, v.waived])).toEqual([
      [NEVER_DELETE, false],
      [LOG_CHANGES, true],
    ]);
    const text = (await run(root, 'plan', 'show', EXAMPLE_PLAN)).stdout;
    expect(text).toContain('Open violations (2; 1 waived)');
    const listed = JSON.parse((await run(root, 'invariant', 'violation', 'list', '--format', 'json')).stdout) as {
      invariant_id: string;
      waived: boolean;
    }[];
    expect(listed.map((v) => [v.invariant_id, v.waived])).toEqual([
      [NEVER_DELETE, false],
      [LOG_CHANGES, true],
    ]);
    expect((await run(root, 'invariant', 'violation', 'list')).stdout.split('\n').filter((l) => l.endsWith('  waived'))).toHaveLength(1);
    expect(text.split('\n').filter((l) => l.includes('(waived) ')).length).toBe(1);
  });

  it('commits the waiver with --commit', async () => {
    const { root, repo } = repoStore();
    const r = await run(
      root,
      'invariant',
      'waive',
      NEVER_DELETE,
      '--project',
      'myapp',
      '--reason',
      'Backfill',
      '--owner',
      'Ops',
      '--expires',
      '2999-01-01',
      '--commit',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const w = JSON.parse(r.stdout);
    expect(git(repo, 'log', '-1', '--format=%H %s').trim()).toBe(
      `${w.commit} invariant: waive ${NEVER_DELETE} for project myapp until 2999-01-01`,
    );
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
  });

  it.each([
    ['no scope', [NEVER_DELETE, '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'], 'exactly one of --plan'],
    [
      'both scopes',
      [NEVER_DELETE, '--plan', EXAMPLE_PLAN, '--project', 'myapp', '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'],
      'cannot be combined',
    ],
    ['no reason', [NEVER_DELETE, '--project', 'myapp', '--owner', 'o', '--expires', '2999-01-01'], 'reason'],
    ['a blank reason', [NEVER_DELETE, '--project', 'myapp', '--reason', '  ', '--owner', 'o', '--expires', '2999-01-01'], '--reason'],
    ['a blank owner', [NEVER_DELETE, '--project', 'myapp', '--reason', 'r', '--owner', ' ', '--expires', '2999-01-01'], '--owner'],
    ['a past date', [NEVER_DELETE, '--project', 'myapp', '--reason', 'r', '--owner', 'o', '--expires', '2020-01-01'], 'not in the future'],
    [
      'a day that does not exist',
      [NEVER_DELETE, '--project', 'myapp', '--reason', 'r', '--owner', 'o', '--expires', '2999-02-30'],
      'is not a date',
    ],
    [
      'an unknown project',
      [NEVER_DELETE, '--project', 'nope', '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'],
      'unknown project nope',
    ],
    ['a bad project name', [NEVER_DELETE, '--project', 'Bad/Name', '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'], 'project'],
    ['an unknown plan', [NEVER_DELETE, '--plan', '01M8ZZZZ', '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'], 'no plan'],
    [
      'an invariant outside the set',
      [ACTION_INV, '--plan', EXAMPLE_PLAN, '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'],
      'not in the effective set',
    ],
    ['a bad id', ['xy', '--plan', EXAMPLE_PLAN, '--reason', 'r', '--owner', 'o', '--expires', '2999-01-01'], 'not an invariant id'],
  ])('refuses %s: exit 2, nothing written', async (_name, args, message) => {
    const { root, repo } = repoStore();
    const before = fileList(root);
    const r = await run(root, 'invariant', 'waive', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fileList(root)).toEqual(before);
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
  });
});

describe('invariant violation resolve (CLI, on a git repository)', () => {
  it('marks the violation resolved, keeps the record, and plan status passes', async () => {
    const { root, repo } = repoStore();
    const added = JSON.parse(
      (
        await run(
          root,
          'invariant',
          'violation',
          'add',
          '--plan',
          EXAMPLE_PLAN,
          '--invariant',
          NEVER_DELETE,
          '--details',
          'dropped a table',
          '--format',
          'json',
        )
      ).stdout,
    );
    commitAll(repo, 'violation');
    expect((await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run')).code).toBe(1);
    const r = await run(
      root,
      'invariant',
      'violation',
      'resolve',
      added.id.slice(0, 10),
      '--note',
      'Restored from backup',
      '--commit',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v).toMatchObject({
      id: added.id,
      plan: EXAMPLE_PLAN,
      invariant_id: NEVER_DELETE,
      details: 'dropped a table',
      resolved: { note: 'Restored from backup', by: 'Test Author <author@example.com>' },
    });
    expect(v.resolved.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(readYaml(root, added.path)).toMatchObject({
      id: added.id,
      violated_text: 'Never delete production data',
      resolved: { note: 'Restored from backup' },
    });
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe(
      `invariant: resolve violation ${added.id} of ${NEVER_DELETE} in plan ${EXAMPLE_PLAN}`,
    );
    const status = await run(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'not-run', '--format', 'json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ violations: { error: 0 }, resolved_violations: 1, failing: false });
    expect((await run(root, 'invariant', 'violation', 'list')).stdout).toContain('resolved');
    expect(JSON.parse((await run(root, 'plan', 'show', EXAMPLE_PLAN, '--format', 'json')).stdout).violations).toEqual([]);
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it.each([
    ['an unknown id', ['01M8ZZZZZZ'], 'no violation'],
    ['a bad id', ['zz'], 'not a violation id'],
    ['no id', [], 'needs an id'],
  ])('refuses %s: exit 2, nothing written', async (_name, args, message) => {
    const { root } = repoStore();
    const before = fileList(root);
    const r = await run(root, 'invariant', 'violation', 'resolve', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(fileList(root)).toEqual(before);
  });

  it('refuses to resolve twice (exit 2, the first resolution kept)', async () => {
    const { root } = repoStore();
    const added = JSON.parse(
      (await run(root, 'invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', NEVER_DELETE, '--format', 'json')).stdout,
    );
    expect((await run(root, 'invariant', 'violation', 'resolve', added.id, '--note', 'first')).code).toBe(0);
    const bytes = readFileSync(join(root, added.path), 'utf8');
    const again = await run(root, 'invariant', 'violation', 'resolve', added.id, '--note', 'second');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already resolved');
    expect(readFileSync(join(root, added.path), 'utf8')).toBe(bytes);
  });
});

describe('waiver expiry with an injected clock', () => {
  it('plan status fails again once the waiver has expired, and validate reports waiver-expired', async () => {
    const root = exampleStore();
    const at = (iso: string) => {
      let n = 0;
      return new PlanService(
        new InvariantService(root, {
          clock: () => new Date(iso),
          newId: () => `01M8KM00000000000000000${String(n++).padStart(3, '0')}`,
          author: async () => 'Jane Doe <jane@example.com>',
        }),
      );
    };
    const early = at('2026-11-30T09:00:00Z');
    await early.addViolation({ plan: EXAMPLE_PLAN, invariant: NEVER_DELETE });
    const { waiver } = await early.waive({
      invariant: NEVER_DELETE,
      project: 'myapp',
      reason: 'Backfill',
      owner: 'Ops',
      expires: '2026-12-31',
    });
    expect(waiver.path).toBe('projects/myapp/waivers/01M8KM00000000000000000001.yaml');
    // The plan was never reconciled: that reason is relaxed here, the waiver is what is under test.
    const allow = { allow: ['not-run' as const] };
    expect((await early.status(EXAMPLE_PLAN, allow)).failing).toBe(false);
    expect((await at('2026-12-31T23:59:59Z').status(EXAMPLE_PLAN, allow)).failing).toBe(false);
    const late = await at('2027-01-01T00:00:00Z').status(EXAMPLE_PLAN);
    expect(late).toMatchObject({ failing: true, violations: { error: 1 }, waivedViolations: 0 });
    expect(late.waivers.map((w) => [w.id, w.holds])).toEqual([
      ['01M8KK6RQ0CZ6W1V4TZ2J5X3HB', true],
      ['01M8KM00000000000000000001', false],
    ]);

    const validateAt = (iso: string) =>
      runValidate({ store: root, cwd: root }, { processAlive: () => false, hostname: 'h', clock: () => new Date(iso) });
    const before = await validateAt('2026-12-31T12:00:00Z');
    expect(before.diagnostics.filter((d) => d.code === 'waiver-expired')).toEqual([]);
    const after = await validateAt('2027-01-01T00:00:00Z');
    expect(after.ok).toBe(false);
    expect(after.diagnostics.filter((d) => d.code === 'waiver-expired').map((d) => [d.file, d.line, d.severity])).toEqual([
      [waiver.path, 6, 'error'],
    ]);
  });
});

describe('renewing an expired waiver', () => {
  it('invariant waive replaces the expired waivers of that invariant there: validate and plan status pass again, the others stay', async () => {
    const root = exampleStore();
    let n = 0;
    const at = (iso: string) =>
      new PlanService(
        new InvariantService(root, {
          clock: () => new Date(iso),
          newId: () => `01M8KM00000000000000000${String(n++).padStart(3, '0')}`,
          author: async () => 'Jane Doe <jane@example.com>',
        }),
      );
    const early = at('2026-11-30T09:00:00Z');
    await early.addViolation({ plan: EXAMPLE_PLAN, invariant: NEVER_DELETE });
    const base = { reason: 'Backfill', owner: 'Ops' };
    const short = (await early.waive({ ...base, invariant: NEVER_DELETE, project: 'myapp', expires: '2026-12-31' })).waiver;
    // Still holding when it is renewed, and another invariant's expired one: neither is this renewal's to remove.
    const long = (await early.waive({ ...base, invariant: NEVER_DELETE, project: 'myapp', expires: '2027-01-01' })).waiver;
    const other = (await early.waive({ ...base, invariant: API_TESTS, project: 'myapp', expires: '2026-12-31' })).waiver;
    const late = at('2027-01-01T12:00:00Z');
    const renewed = await late.waive({ ...base, invariant: NEVER_DELETE, project: 'myapp', expires: '2027-03-31' });
    expect(renewed.replaced).toEqual([{ id: short.id, path: short.path }]);
    expect(existsSync(join(root, short.path))).toBe(false);
    for (const kept of [long, other, renewed.waiver]) expect(existsSync(join(root, kept.path))).toBe(true);
    expect((await late.status(EXAMPLE_PLAN, { allow: ['not-run'] })).failing).toBe(false);
    const report = await runValidate(
      { store: root, cwd: root },
      { processAlive: () => false, hostname: 'h', clock: () => new Date('2027-01-01T12:00:00Z') },
    );
    expect(report.diagnostics.filter((d) => d.code === 'waiver-expired').map((d) => d.file)).toEqual([other.path]);
  });

  it('the CLI names the waiver it replaced, in text and JSON, and --commit records its removal', async () => {
    const { root, repo } = repoStore();
    const waive = ['invariant', 'waive', NEVER_DELETE, '--project', 'myapp', '--reason', 'r', '--owner', 'o'] as const;
    const first = JSON.parse((await run(root, ...waive, '--expires', '2999-01-01', '--format', 'json')).stdout) as {
      id: string;
      path: string;
    };
    const file = join(root, first.path);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^expires: .*$/m, 'expires: 2020-01-31'));
    commitAll(repo, 'an expired waiver');
    const r = await run(root, ...waive, '--expires', '2999-02-01', '--commit', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).replaced).toEqual([{ id: first.id, path: first.path }]);
    expect(existsSync(file)).toBe(false);
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
    expect(git(repo, 'show', '--no-renames', '--name-status', '--format=', 'HEAD').trim().split('\n')).toContain(
      `D\t.agents/${first.path}`,
    );
    const text = await run(root, ...waive, '--expires', '2999-03-01');
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('replaces');
  });
});

describe('a refused --expires', () => {
  it('is told an example date that the same command takes, whenever it runs', async () => {
    const root = exampleStore();
    for (const iso of ['2027-06-01T12:00:00Z', '2031-02-10T00:00:00Z']) {
      const svc = new PlanService(new InvariantService(root, { clock: () => new Date(iso) }));
      const input = { invariant: NEVER_DELETE, plan: EXAMPLE_PLAN, reason: 'Backfill', owner: 'Ops' };
      const refused = await svc.waive({ ...input, expires: '2027-01-01' }).then(
        () => undefined,
        (e: { exitCode: number; hint: string }) => e,
      );
      expect(refused?.exitCode).toBe(2);
      // A library caller is told the field, as it gives it.
      const example = /expires: '(\S+?)'\.$/.exec(refused!.hint)?.[1];
      expect(parseExpiresInput(example!, new Date(iso))).toEqual({ value: example });
    }
  });
});

describe('invariant waive --project of a project removed while it waited', () => {
  // `project remove` takes the project folder's lock; so does waive now, and finds the project gone. Here the wait is
  // on a lock left by a dead writer: the moment waive clears it, the project is removed.
  it('writes no waiver and leaves no folder behind (exit 2)', async () => {
    const { hostname } = await import('node:os');
    const { PassThrough } = await import('node:stream');
    const { existsSync, rmSync, writeFileSync } = await import('node:fs');
    const { main } = await import('../../src/cli/main.ts');
    const root = exampleStore();
    expect((await runAgents(['--store', root, 'project', 'add', 'reports'])).code).toBe(0);
    writeFileSync(join(root, 'projects/reports/.lock'), `999999999 ${hostname()} 2026-11-29T12:00:00Z\n`);
    const stdin = new PassThrough();
    stdin.end();
    let stdout = '';
    const args = ['--store', root, '--format', 'json', 'invariant', 'waive', NEVER_DELETE, '--project', 'reports'];
    const code = await main([...args, '--reason', 'Busy', '--owner', 'Ops', '--expires', '2999-01-01'], {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: {
        write: (c: string) => {
          if (c.includes(`cleared a stale lock ${join(root, 'projects/reports/.lock')}`))
            rmSync(join(root, 'projects/reports'), { recursive: true });
        },
      },
      stdin,
      env: { ...process.env, NO_COLOR: '1', CI: 'true', AGENTS_STORE: undefined },
      cwd: dirname(root),
    });
    expect(code, stdout).toBe(2);
    // As add, move and plan use say it: a script tells a project removed meanwhile from a mistake in what it asked.
    expect(JSON.parse(stdout).error).toMatchObject({ code: 'project-removed', detail: { project: 'reports' } });
    expect(existsSync(join(root, 'projects/reports'))).toBe(false);
  });

  it('an empty project folder made by hand is a project: waived for, as plan use targets it', async () => {
    const { mkdirSync, readdirSync } = await import('node:fs');
    const root = exampleStore();
    mkdirSync(join(root, 'projects/bare'));
    const r = await run(
      root,
      '--format',
      'json',
      'invariant',
      'waive',
      NEVER_DELETE,
      '--project',
      'bare',
      '--reason',
      'Busy',
      '--owner',
      'Ops',
      '--expires',
      '2999-01-01',
    );
    expect(r.code, r.stdout).toBe(0);
    expect(readdirSync(join(root, 'projects/bare/waivers'))).toEqual([`${JSON.parse(r.stdout).id}.yaml`]);
  });
});
