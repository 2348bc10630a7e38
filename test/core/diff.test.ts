import fc from 'fast-check';
import { fcRuns } from '../helpers/fc-runs.ts';
import { describe, expect, it } from 'vitest';
import { affectedTargets, diffInvariantFiles, diffTarget, type DiffSide } from '../../src/core/diff.ts';
import { scopeFolder, type Plan, type Scope, type ScopedInvariant } from '../../src/core/model.ts';
import { textKey } from '../../src/core/normalise.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const G: Scope = { kind: 'global' };
const MYAPP: Scope = { kind: 'project', project: 'myapp' };

function inv(id: string, text: string, scope: Scope, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return { id, text, severity: 'error', active: true, tags: [], scope, path: `${scopeFolder(scope)}/${id}.yaml`, ...extra };
}
const id = (n: number) => `01J${String(n).padStart(23, '0')}`;
const side = (invariants: ScopedInvariant[], plans: Plan[] = []): DiffSide => ({ invariants, plans: new Map(plans.map((p) => [p.id, p])) });
const shape = (projects: string[], plans: Plan[] = []) => ({ projects: new Set(projects), plans: new Map(plans.map((p) => [p.id, p])) });

describe('affectedTargets', () => {
  const plans = [{ id: PLAN, project: 'myapp' }];
  it.each([
    [['global/01J00000000000000000000001.yaml'], ['project:myapp', 'project:other', `plan:${PLAN}`]],
    [['projects/myapp/01J00000000000000000000001.yaml'], ['project:myapp', `plan:${PLAN}`]],
    [['projects/other/01J00000000000000000000001.yaml'], ['project:other']],
    [[`plans/${PLAN}/plan.yaml`], [`plan:${PLAN}`]],
    [[`plans/${PLAN}/01J00000000000000000000001.yaml`], [`plan:${PLAN}`]],
    [['actions/local/x/01J00000000000000000000001.yaml', `plans/${PLAN}/decisions/01J00000000000000000000001.yaml`], []],
  ])('%j reaches %j', (paths, expected) => {
    const out = affectedTargets(paths, shape(['myapp', 'other'], plans), shape(['myapp']));
    expect(out.map((t) => (t.kind === 'project' ? `project:${t.project}` : `plan:${t.plan}`))).toEqual(expected);
  });

  it('a project change reaches plans that target it on either side', () => {
    const out = affectedTargets(
      ['projects/new/01J00000000000000000000001.yaml'],
      shape([]),
      shape(['new'], [{ id: PLAN, project: 'new' }]),
    );
    expect(out).toEqual([
      { kind: 'project', project: 'new' },
      { kind: 'plan', plan: PLAN },
    ]);
  });
});

describe('diffInvariantFiles', () => {
  it('pairs by path, then by id across scopes; a change to no field is not reported', () => {
    const before = [inv(id(1), 'A', G), inv(id(2), 'B', G), inv(id(3), 'C', MYAPP), inv(id(4), 'D', G)];
    const after = [inv(id(1), 'A', G, { severity: 'info' }), inv(id(3), 'C', G), inv(id(4), 'D', G), inv(id(5), 'E', G)];
    expect(diffInvariantFiles(before, after).map((c) => [c.change, c.id, c.fields.map((f) => f.field)])).toEqual([
      ['edited', id(1), ['severity']],
      ['removed', id(2), []],
      ['moved', id(3), ['scope']],
      ['added', id(5), []],
    ]);
  });
});

describe('diffTarget', () => {
  const project = { kind: 'project' as const, project: 'myapp' };

  it('an invariant added where a higher copy already hides it is newly shadowed, not effective', () => {
    const d = diffTarget(
      project,
      side([inv(id(1), 'Log all changes', MYAPP)]),
      side([inv(id(1), 'Log all changes', MYAPP), inv(id(2), 'log ALL  changes', G)]),
    );
    expect(d.entered).toEqual([]);
    expect(d.newlyShadowed.map((x) => [x.invariant.id, x.by.id, x.wasEffective])).toEqual([[id(2), id(1), false]]);
    expect([d.countBefore, d.countAfter]).toEqual([1, 1]);
  });

  it('deactivating the copy that shadows brings the lower one back; deactivating a plain one makes it leave', () => {
    const before = side([inv(id(1), 'Log all changes', MYAPP), inv(id(2), 'Log all changes', G), inv(id(3), 'Other', G)]);
    const after = side([
      inv(id(1), 'Log all changes', MYAPP, { active: false }),
      inv(id(2), 'Log all changes', G),
      inv(id(3), 'Other', G, { active: false }),
    ]);
    const d = diffTarget(project, before, after);
    expect(d.left.map((i) => i.id)).toEqual([id(1), id(3)]);
    expect(d.noLongerShadowed.map((x) => [x.invariant.id, x.by.id])).toEqual([[id(2), id(1)]]);
  });

  it('a plan that exists on one side only', () => {
    const plan = { kind: 'plan' as const, plan: PLAN };
    const d = diffTarget(plan, side([inv(id(1), 'A', G)]), side([inv(id(1), 'A', G)], [{ id: PLAN }]));
    expect([d.existsBefore, d.existsAfter, d.countBefore, d.countAfter]).toEqual([false, true, 0, 1]);
    expect(d.entered.map((i) => i.id)).toEqual([id(1)]);
  });
});

describe('diffTarget narrowed to the changed keys', () => {
  it('gives the same result as a full resolution whenever the plan did not change (property)', () => {
    const texts = ['Log all changes', 'log all  CHANGES', 'Never delete data', 'Use tests', 'Keep it small'];
    const scopes: Scope[] = [G, MYAPP, { kind: 'project', project: 'other' }, { kind: 'plan', plan: PLAN }];
    const arbInv = fc.record({
      n: fc.integer({ min: 1, max: 12 }),
      t: fc.integer({ min: 0, max: texts.length - 1 }),
      s: fc.integer({ min: 0, max: scopes.length - 1 }),
      active: fc.boolean(),
      sev: fc.constantFrom('error', 'warning'),
    });
    fc.assert(
      fc.property(fc.array(arbInv, { maxLength: 12 }), fc.array(arbInv, { maxLength: 12 }), (xs, ys) => {
        const build = (list: typeof xs) => {
          const byId = new Map<string, ScopedInvariant>();
          for (const x of list)
            byId.set(id(x.n), inv(id(x.n), texts[x.t]!, scopes[x.s]!, { active: x.active, severity: x.sev as 'error' }));
          return [...byId.values()];
        };
        const before = build(xs);
        // The after side keeps some of the same objects, as the reader does for unchanged files.
        const edits = build(ys);
        const after = [...before.filter((b) => !edits.some((e) => e.id === b.id)), ...edits];
        const afterPaths = new Map(after.map((i) => [i.path, i]));
        const beforePaths = new Map(before.map((i) => [i.path, i]));
        const changed = [...before.filter((b) => afterPaths.get(b.path) !== b), ...after.filter((a) => beforePaths.get(a.path) !== a)];
        const onlyKeys = new Set(changed.map((i) => textKey(i.text)));
        const plans = [{ id: PLAN, project: 'myapp' }];
        for (const t of [
          { kind: 'project' as const, project: 'myapp' },
          { kind: 'project' as const, project: 'other' },
          { kind: 'plan' as const, plan: PLAN },
        ]) {
          const full = diffTarget(t, side(before, plans), side(after, plans));
          const narrow = diffTarget(t, side(before, plans), side(after, plans), { onlyKeys });
          expect(narrow).toEqual(full);
        }
      }),
      { numRuns: fcRuns(300) },
    );
  });
});
