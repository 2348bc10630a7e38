// A write that takes an invariant out of the set a waiver names it in (a move, a deactivation, a plan sync that
// removes the plan's copy) says so at once, naming each waiver it left behind: before, plan status went from passing
// to failing with nothing said until validate's waiver-not-applicable.
import { describe, expect, it } from 'vitest';
import { strandedBy } from '../../src/core/waivers.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { runAgents } from '../helpers/main.ts';

const API_TESTS = '01M8KJXYP0GVPRF8KRRE9G8474'; // project myapp
const LOG_CHANGES = '01M8KJZS90J6DRJJ8E264B9DFX'; // project myapp; waived for the example plan by the example
const EXAMPLE_WAIVER = '01M8KK6RQ0CZ6W1V4TZ2J5X3HB';
const ACTION_INV = '01M8KK1KW0KPRSWWKENT2QZ1QM'; // action local/code-coverage
const WAIVE = ['--reason', 'Legacy endpoints', '--owner', 'API team', '--expires', '2999-12-31', '--format', 'json'];

type Stranded = { stranded_waivers: { id: string; invariant_id: string; path: string }[] };

async function run(root: string, ...args: string[]) {
  return await runAgents(['--store', root, ...args]);
}

describe('strandedBy (pure)', () => {
  const w = (scope: { kind: 'plan'; plan: string } | { kind: 'project'; project: string }) => ({ invariant_id: 'I', scope });
  const project = w({ kind: 'project', project: 'app' });
  const plan = w({ kind: 'plan', plan: 'P' });
  const other = w({ kind: 'plan', plan: 'Q' });
  const at = (scope: object, active = true) => ({ id: 'I', scope: scope as { kind: 'global' }, active });
  const planProject = (p: string) => (p === 'P' ? 'app' : undefined);

  it('strands the waivers whose set the invariant left, and only those', () => {
    const all = [project, plan, other];
    // Project into the plan: the project's waiver no longer reaches it; the plan's still does.
    expect(strandedBy(all, at({ kind: 'project', project: 'app' }), at({ kind: 'plan', plan: 'P' }), planProject)).toEqual([project]);
    // To global: every set holds it, nothing stranded; a waiver that did not apply before is not stranded by the move.
    expect(strandedBy(all, at({ kind: 'project', project: 'app' }), at({ kind: 'global' }), planProject)).toEqual([]);
    // Made inactive, or removed: every waiver that applied.
    expect(strandedBy(all, at({ kind: 'global' }), at({ kind: 'global' }, false), planProject)).toEqual(all);
    expect(strandedBy(all, at({ kind: 'plan', plan: 'P' }), undefined, planProject)).toEqual([plan]);
    // Another invariant's waivers are not its.
    expect(strandedBy([{ ...plan, invariant_id: 'J' }], at({ kind: 'plan', plan: 'P' }), undefined, planProject)).toEqual([]);
  });
});

describe('a write that strands waivers says so', () => {
  it('invariant move: the project waiver of an invariant moved into a plan is named, in JSON and on stderr', async () => {
    // No repository: nothing here commits, and a git repository costs processes.
    const root = exampleStore();
    const waived = JSON.parse((await run(root, 'invariant', 'waive', API_TESTS, '--project', 'myapp', ...WAIVE)).stdout) as {
      id: string;
      path: string;
    };
    const moved = await run(root, 'invariant', 'move', API_TESTS, '--plan', EXAMPLE_PLAN, '--format', 'json');
    expect(moved.code).toBe(0);
    expect((JSON.parse(moved.stdout) as Stranded).stranded_waivers).toEqual([
      { id: waived.id, invariant_id: API_TESTS, path: waived.path },
    ]);
    expect(moved.stderr).toContain(waived.path);
    // Back in the project, the waiver applies again: nothing stranded, nothing said.
    const back = await run(root, 'invariant', 'move', API_TESTS, '--project', 'myapp', '--format', 'json');
    expect((JSON.parse(back.stdout) as Stranded).stranded_waivers).toEqual([]);
    expect(back.stderr).not.toContain(waived.id);
    // To global it stays in the project's set: the waiver still applies.
    const global = await run(root, 'invariant', 'move', API_TESTS, '--global', '--format', 'json');
    expect((JSON.parse(global.stdout) as Stranded).stranded_waivers).toEqual([]);
  });

  it('invariant edit --deactivate: the waivers of the invariant are named; another edit strands none', async () => {
    const root = exampleStore();
    const path = `plans/${EXAMPLE_PLAN}/waivers/${EXAMPLE_WAIVER}.yaml`;
    const tagged = await run(root, 'invariant', 'edit', LOG_CHANGES, '--tag', 'audit', '--format', 'json');
    expect((JSON.parse(tagged.stdout) as Stranded).stranded_waivers).toEqual([]);
    const off = await run(root, 'invariant', 'edit', LOG_CHANGES, '--deactivate', '--format', 'json');
    expect(off.code).toBe(0);
    expect((JSON.parse(off.stdout) as Stranded).stranded_waivers).toEqual([{ id: EXAMPLE_WAIVER, invariant_id: LOG_CHANGES, path }]);
    expect(off.stderr).toContain(path);
    const text = await run(root, 'invariant', 'edit', LOG_CHANGES, '--activate');
    expect(text.stderr).not.toContain(path);
  });

  it('invariant remove: the waivers of the invariant removed are named; a removal of one nothing waives strands none', async () => {
    const root = exampleStore();
    const path = `plans/${EXAMPLE_PLAN}/waivers/${EXAMPLE_WAIVER}.yaml`;
    const plain = await run(root, 'invariant', 'remove', API_TESTS, '--yes', '--format', 'json');
    expect((JSON.parse(plain.stdout) as Stranded).stranded_waivers).toEqual([]);
    const gone = await run(root, 'invariant', 'remove', LOG_CHANGES, '--yes', '--format', 'json');
    expect(gone.code).toBe(0);
    expect((JSON.parse(gone.stdout) as Stranded).stranded_waivers).toEqual([{ id: EXAMPLE_WAIVER, invariant_id: LOG_CHANGES, path }]);
    expect(gone.stderr).toContain(path);
  });

  it("plan sync: the plan's waiver of a copy the sync removed is named", async () => {
    const root = exampleStore();
    const use = await run(root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp', '--goal', 'Cover', '--format', 'json');
    const used = JSON.parse(use.stdout) as { plan: { id: string }; promoted: { id: string }[] };
    const plan = used.plan.id;
    const copy = used.promoted[0]!.id;
    const waived = JSON.parse((await run(root, 'invariant', 'waive', copy, '--plan', plan, ...WAIVE)).stdout) as {
      id: string;
      path: string;
    };
    expect((await run(root, 'invariant', 'remove', ACTION_INV, '--yes')).code).toBe(0);
    const synced = await run(root, 'plan', 'sync', plan, '--yes', '--format', 'json');
    expect(synced.code).toBe(0);
    expect((JSON.parse(synced.stdout) as Stranded).stranded_waivers).toEqual([{ id: waived.id, invariant_id: copy, path: waived.path }]);
    expect(synced.stderr).toContain(waived.path);
  });
});
