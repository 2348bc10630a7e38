// Writers never write what the reader rejects (docs/guarantees.md): every
// document is checked against its own JSON Schema before a byte is written.
import { describe, expect, it } from 'vitest';
import { InvariantService, PlanService, ScopeService, UsageError } from '../../src/index.ts';
import { runAgents, runMain, violationAdded } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { storeState } from '../helpers/store-state.ts';

const long = (n: number) => 'a'.repeat(n);

/** `invariant violation add` of the example plan's first invariant, in JSON, with `extra` options. */
const violationAdd = (root: string, ...extra: string[]) => violationAdded(root, EXAMPLE_PLAN, '01M8KJT9G0XNWEM589ZS7FV0VT', ...extra);

describe('a value over its schema limit is refused before anything is written', () => {
  it.each([
    [
      'invariant add --rationale',
      ['invariant', 'add', '--project', 'myapp', '--rationale', long(10_001), 'Keep the changelog current'],
      'rationale',
      10_000,
    ],
    [
      'invariant add --rationale (a new project)',
      ['invariant', 'add', '--project', 'reports', '--new-project', '--rationale', long(10_001), 'Keep the changelog current'],
      'rationale',
      10_000,
    ],
    ['plan use --goal', ['plan', 'use', 'local/code-coverage', '--project', 'myapp', '--goal', long(10_001)], 'goal', 10_000],
    [
      'violation add --details',
      ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', '01M8KJT9G0XNWEM589ZS7FV0VT', '--details', long(10_001)],
      'details',
      10_000,
    ],
  ])('%s: exit 2 naming the field and the limit, the store unchanged', async (_name, args, field, limit) => {
    const root = exampleStore();
    const before = storeState(root);
    const r = await runMain(['--store', root, ...args], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${field} is 10001 characters long`);
    expect(r.stderr).toContain(`the limit is ${limit}`);
    expect(storeState(root)).toEqual(before);
    // The reader still takes the whole store.
    expect((await runMain(['--store', root, 'invariant', 'list', '--effective', '--project', 'myapp'], { cwd: root })).code).toBe(0);
  });

  it('reports the field, limit and length under --format json (code value-too-long)', async () => {
    const root = exampleStore();
    const r = await violationAdd(root, '--details', long(10_001));
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      ok: false,
      exit_code: 2,
      error: {
        code: 'value-too-long',
        message: 'details is 10001 characters long; the limit is 10000 (violation.schema.json)',
        hint: 'Shorten --details to at most 10000 characters. Nothing was written.',
        detail: { field: 'details', limit: 10_000, length: 10_001, schema: 'violation.schema.json' },
      },
    });
    expect(doc.error.detail.file).toMatch(new RegExp(`^plans/${EXAMPLE_PLAN}/violations/[0-7][0-9A-HJKMNP-TV-Z]{25}\\.yaml$`));
  });

  it('a git author name too long for created_by: every writer refuses, nothing written', async () => {
    const root = exampleStore();
    const before = storeState(root);
    const env = { GIT_AUTHOR_NAME: long(600) };
    for (const args of [
      ['invariant', 'add', '--global', 'Never read secrets'],
      ['plan', 'use', 'local/code-coverage', '--project', 'myapp'],
      ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', '01M8KJT9G0XNWEM589ZS7FV0VT'],
    ]) {
      const r = await runAgents(['--store', root, ...args], { cwd: root, env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/created_by is \d+ characters long .*; the limit is 512/);
      expect(r.stderr).not.toContain('    at ');
    }
    expect(storeState(root)).toEqual(before);
    expect((await runAgents(['--store', root, 'validate'], { cwd: root })).code).toBe(0);
  });

  it('values at the limit are written and read back', async () => {
    const root = exampleStore();
    const r = await runMain(['--store', root, 'invariant', 'add', '--global', '--rationale', long(10_000), 'Never read secrets'], {
      cwd: root,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((await runMain(['--store', root, 'invariant', 'list', '--effective', '--project', 'myapp'], { cwd: root })).code).toBe(0);
  });
});

describe('every value over its limit is `value-too-long` under --format json (docs/json-output.md), nothing written', () => {
  const G1 = '01M8KJT9G0XNWEM589ZS7FV0VT';
  it.each([
    [
      'invariant add --rationale',
      ['invariant', 'add', '--project', 'myapp', '--rationale', long(10_001), 'Keep the changelog current'],
      { file: 'projects/myapp/', field: 'rationale', limit: 10_000, length: 10_001, schema: 'invariant.schema.json' },
    ],
    [
      'invariant add TEXT',
      ['invariant', 'add', '--global', long(2_001)],
      { file: 'global/', field: 'text', limit: 2_000, length: 2_001, schema: 'invariant.schema.json' },
    ],
    [
      'invariant edit --rationale',
      ['invariant', 'edit', G1, '--rationale', long(10_001)],
      { file: `global/${G1}.yaml`, field: 'rationale', limit: 10_000, length: 10_001, schema: 'invariant.schema.json' },
    ],
    [
      'invariant edit --text',
      ['invariant', 'edit', G1, '--text', long(2_001)],
      { file: `global/${G1}.yaml`, field: 'text', limit: 2_000, length: 2_001, schema: 'invariant.schema.json' },
    ],
    [
      'project add --description',
      ['project', 'add', 'reports', '--description', long(10_001)],
      { file: 'projects/reports/project.yaml', field: 'description', limit: 10_000, length: 10_001, schema: 'project.schema.json' },
    ],
    [
      'action add --description',
      ['action', 'add', 'local/lint', '--description', long(10_001)],
      { file: 'actions/local/lint/action.yaml', field: 'description', limit: 10_000, length: 10_001, schema: 'action.schema.json' },
    ],
    [
      'invariant waive --reason',
      ['invariant', 'waive', G1, '--project', 'myapp', '--owner', 'Ops', '--expires', '2999-01-01', '--reason', long(2_001)],
      { file: 'projects/myapp/waivers/', field: 'reason', limit: 2_000, length: 2_001, schema: 'waiver.schema.json' },
    ],
    [
      'invariant waive --owner',
      ['invariant', 'waive', G1, '--project', 'myapp', '--reason', 'Busy', '--expires', '2999-01-01', '--owner', long(513)],
      { file: 'projects/myapp/waivers/', field: 'owner', limit: 512, length: 513, schema: 'waiver.schema.json' },
    ],
  ])('%s', async (_name, args, detail) => {
    const root = exampleStore();
    const before = storeState(root);
    const r = await runMain(['--store', root, '--format', 'json', ...args], { cwd: root });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.exit_code).toBe(2);
    expect(doc.error.code).toBe('value-too-long');
    expect(doc.error.detail).toEqual(detail);
    expect(storeState(root)).toEqual(before);
  });
});

describe('invariant violation resolve --note over its limit', () => {
  it('is value-too-long naming the violation file (exit 2), and the violation stays open', async () => {
    const root = exampleStore();
    const added = await violationAdd(root);
    const { id, path } = JSON.parse(added.stdout) as { id: string; path: string };
    const before = storeState(root);
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'violation', 'resolve', id, '--note', long(10_001)], {
      cwd: root,
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'value-too-long',
      detail: { file: path, field: 'resolved.note', limit: 10_000, length: 10_001, schema: 'violation.schema.json' },
    });
    expect(storeState(root)).toEqual(before);
  });
});

describe("the library's refusal of a value over its limit names the method's field, not the command line's flag", () => {
  it('plan use goal, addViolation details, addProject and addAction description', async () => {
    const root = exampleStore();
    const before = storeState(root);
    const plans = new PlanService(new InvariantService(root, { author: async () => undefined }));
    const refused = async (write: Promise<unknown>) => {
      const e = await write.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(e).toBeInstanceOf(UsageError);
      return e as UsageError;
    };
    const goal = await refused(plans.use({ action: 'local/code-coverage', project: 'myapp', goal: long(10_001) }));
    expect([goal.code, (goal.detail as { field: string }).field]).toEqual(['value-too-long', 'goal']);
    expect(goal.hint).toMatch(/^Shorten goal /);
    const details = await refused(
      plans.addViolation({ plan: EXAMPLE_PLAN, invariant: '01M8KJT9G0XNWEM589ZS7FV0VT', details: long(10_001) }),
    );
    expect([details.code, (details.detail as { field: string }).field]).toEqual(['value-too-long', 'details']);
    expect(details.hint).toMatch(/^Shorten details /);
    const scopes = new ScopeService(plans.invariants);
    for (const write of [
      scopes.addProject({ project: 'reports', description: long(10_001) }),
      scopes.addAction({ action: 'local/lint', description: long(10_001) }),
    ]) {
      const description = await refused(write);
      expect([description.code, (description.detail as { field: string }).field]).toEqual(['value-too-long', 'description']);
      expect(description.hint).toMatch(/^Shorten description /);
    }
    expect(storeState(root)).toEqual(before);
  });
});
