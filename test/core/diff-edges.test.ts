import { describe, expect, it } from 'vitest';
import { emptyTargetDiff } from '../helpers/diff.ts';
import {
  affectedTargets,
  allTargets,
  diffInvariantFiles,
  diffPlans,
  diffStores,
  diffTarget,
  hasChanges,
  invariantFieldChanges,
  targetChanged,
  targetFolders,
  targetKey,
  type DiffSide,
  type TargetDiff,
} from '../../src/core/diff.ts';
import { scopeFolder, type Plan, type Scope, type ScopedInvariant } from '../../src/core/model.ts';
import { textKey } from '../../src/core/normalise.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const PLAN2 = '01M8KK5920RS6CGAVDFVYYJ0B5';
const G: Scope = { kind: 'global' };
const APP: Scope = { kind: 'project', project: 'app' };
const WEB: Scope = { kind: 'project', project: 'web' };
const PL: Scope = { kind: 'plan', plan: PLAN };
const INH: Scope = { kind: 'inherited', source: 'corp', order: 0 };

function inv(id: string, text: string, scope: Scope, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return { id, text, severity: 'error', active: true, tags: [], scope, path: `${scopeFolder(scope)}/${id}.yaml`, ...extra };
}
const id = (n: number) => `01J${String(n).padStart(23, '0')}`;
const plans = (...ps: Plan[]) => new Map(ps.map((p) => [p.id, p]));
const side = (invariants: ScopedInvariant[], ps: Plan[] = []): DiffSide => ({ invariants, plans: plans(...ps) });
const shape = (projects: string[], ps: Plan[] = []) => ({ projects: new Set(projects), plans: plans(...ps) });
const project = (p: string) => ({ kind: 'project' as const, project: p });
const planRef = (p: string) => ({ kind: 'plan' as const, plan: p });

const empty = emptyTargetDiff;

describe('invariantFieldChanges', () => {
  it('every field that differs, scope first, absent values as null', () => {
    const before = inv(id(1), 'A', APP, {
      tags: ['x'],
      rationale: 'why',
      created_at: '2026-01-01T00:00:00Z',
      source: { kind: 'plan' },
    });
    const after = inv(id(1), 'B', G, {
      severity: 'warning',
      active: false,
      tags: ['x', 'y'],
      overrides: id(9),
      created_at: '2026-01-02T00:00:00Z',
      created_by: 'me',
      source: { kind: 'action', ref: 'n/x' },
    });
    expect(invariantFieldChanges(before, after)).toEqual([
      { field: 'scope', before: APP, after: G },
      { field: 'text', before: 'A', after: 'B' },
      { field: 'severity', before: 'error', after: 'warning' },
      { field: 'active', before: true, after: false },
      { field: 'tags', before: ['x'], after: ['x', 'y'] },
      { field: 'rationale', before: 'why', after: null },
      { field: 'overrides', before: null, after: id(9) },
      { field: 'created_at', before: '2026-01-01T00:00:00Z', after: '2026-01-02T00:00:00Z' },
      { field: 'created_by', before: null, after: 'me' },
      { field: 'source', before: { kind: 'plan' }, after: { kind: 'action', ref: 'n/x' } },
    ]);
  });

  it('equal lists and maps in other objects are no change; a scope of the same folder is none', () => {
    const a = inv(id(1), 'A', { kind: 'project', project: 'app' }, { tags: ['x'], source: { kind: 'plan' } });
    const b = inv(id(1), 'A', { kind: 'project', project: 'app' }, { tags: ['x'], source: { kind: 'plan' } });
    expect(invariantFieldChanges(a, b)).toEqual([]);
    expect(invariantFieldChanges(a, { ...b, tags: [] })).toEqual([{ field: 'tags', before: ['x'], after: [] }]);
    expect(invariantFieldChanges(a, { ...b, source: undefined })).toEqual([{ field: 'source', before: { kind: 'plan' }, after: null }]);
    expect(invariantFieldChanges({ ...a, rationale: 'r' }, { ...b, rationale: 'R' })).toEqual([
      { field: 'rationale', before: 'r', after: 'R' },
    ]);
  });
});

describe('diffInvariantFiles: whole results', () => {
  it('edited, moved, added and removed, in path order, with both versions', () => {
    const e1 = inv(id(1), 'A', G);
    const e2 = inv(id(1), 'A', G, { text: 'A2' });
    const m1 = inv(id(2), 'M', APP);
    const m2 = inv(id(2), 'M', WEB, { severity: 'info' });
    const r = inv(id(3), 'R', APP);
    const a = inv(id(4), 'N', G);
    const same = inv(id(5), 'S', G);
    expect(diffInvariantFiles([e1, m1, r, same], [e2, m2, a, { ...same }])).toEqual([
      { change: 'edited', id: id(1), path: e2.path, before: e1, after: e2, fields: [{ field: 'text', before: 'A', after: 'A2' }] },
      { change: 'added', id: id(4), path: a.path, after: a, fields: [] },
      { change: 'removed', id: id(3), path: r.path, before: r, fields: [] },
      {
        change: 'moved',
        id: id(2),
        path: m2.path,
        fromPath: m1.path,
        before: m1,
        after: m2,
        fields: [
          { field: 'scope', before: APP, after: WEB },
          { field: 'severity', before: 'error', after: 'info' },
        ],
      },
    ]);
  });

  it('two files of one id: the first gone pairs with the new one, the other is removed; a second new one is added', () => {
    const x1 = inv(id(1), 'X', APP);
    const x2 = inv(id(1), 'X', WEB);
    const y = inv(id(1), 'X', G);
    expect(diffInvariantFiles([x1, x2], [y]).map((c) => [c.change, c.path, c.fromPath])).toEqual([
      ['moved', y.path, x1.path],
      ['removed', x2.path, undefined],
    ]);
    expect(diffInvariantFiles([x1], [x2, y]).map((c) => [c.change, c.path, c.fromPath])).toEqual([
      ['added', y.path, undefined],
      ['moved', x2.path, x1.path],
    ]);
    // A move with no other change still says the scope changed.
    expect(diffInvariantFiles([x1], [x2])).toEqual([
      {
        change: 'moved',
        id: id(1),
        path: x2.path,
        fromPath: x1.path,
        before: x1,
        after: x2,
        fields: [{ field: 'scope', before: APP, after: WEB }],
      },
    ]);
  });
});

describe('diffPlans', () => {
  it('removed, retargeted (to a project, to another, to none) and added, in id order', () => {
    const p = (n: number, project?: string): Plan => (project ? { id: id(n), project } : { id: id(n) });
    expect(
      diffPlans(
        plans(p(5), p(1, 'a'), p(2, 'a'), p(3), p(4, 'a'), p(9, 'a')),
        plans(p(6, 'x'), p(1, 'a'), p(2, 'b'), p(3, 'c'), p(4), p(0)),
      ),
    ).toEqual([
      { change: 'added', plan: id(0), after: p(0) },
      { change: 'retargeted', plan: id(2), before: p(2, 'a'), after: p(2, 'b') },
      { change: 'retargeted', plan: id(3), before: p(3), after: p(3, 'c') },
      { change: 'retargeted', plan: id(4), before: p(4, 'a'), after: p(4) },
      { change: 'removed', plan: id(5), before: p(5) },
      { change: 'added', plan: id(6), after: p(6, 'x') },
      { change: 'removed', plan: id(9), before: p(9, 'a') },
    ]);
    // A plan changed in other fields only is no plan change.
    expect(diffPlans(plans({ id: id(1), goal: 'a' }), plans({ id: id(1), goal: 'b' }))).toEqual([]);
  });
});

describe('targets', () => {
  it('targetKey', () => {
    expect(targetKey(project('app'))).toBe('project:app');
    expect(targetKey(planRef(PLAN))).toBe(`plan:${PLAN}`);
  });

  it('allTargets: projects of either side and those plans name, then plans, each in name order', () => {
    expect(
      allTargets(
        shape(['web', 'app'], [{ id: PLAN2, project: 'zed' }, { id: PLAN }]),
        shape(['app', 'mid'], [{ id: PLAN, project: 'bee' }]),
      ),
    ).toEqual([project('app'), project('bee'), project('mid'), project('web'), project('zed'), planRef(PLAN), planRef(PLAN2)]);
    expect(allTargets(shape([]), shape([]))).toEqual([]);
  });

  it('targetFolders: a project, a plan with a project, a plan without, a plan not on this side', () => {
    const ps = plans({ id: PLAN, project: 'app' }, { id: PLAN2 });
    expect(targetFolders(project('web'), ps)).toEqual(['projects/web', 'global']);
    expect(targetFolders(planRef(PLAN), ps)).toEqual([`plans/${PLAN}`, 'projects/app', 'global']);
    expect(targetFolders(planRef(PLAN2), ps)).toEqual([`plans/${PLAN2}`, 'global']);
    expect(targetFolders(planRef(id(1)), ps)).toEqual([`plans/${id(1)}`, 'global']);
  });
});

describe('affectedTargets: more paths', () => {
  const before = shape(['app', 'web'], [{ id: PLAN, project: 'app' }]);
  const after = shape(['app'], [{ id: PLAN2, project: 'app' }]);
  it.each([
    // An invariant file with a bad name still names its scope.
    [['projects/web/not-a-ulid.yaml'], [project('web')]],
    [['global/not-a-ulid.yaml'], [project('app'), project('web'), planRef(PLAN), planRef(PLAN2)]],
    // A record or waiver with a bad name names no scope.
    [[`plans/${PLAN}/decisions/bad.yaml`, `plans/${PLAN}/waivers/bad.yaml`], []],
    [[`plans/${PLAN}/waivers/${id(1)}.yaml`, 'projects/app/project.yaml', 'config.yaml'], []],
    [['projects/app/x.txt'], []],
    [
      [`plans/${PLAN2}/${id(1)}.yaml`, 'projects/app/01J00000000000000000000001.yaml', `plans/${PLAN}/plan.yaml`],
      [project('app'), planRef(PLAN), planRef(PLAN2)],
    ],
    [['projects/web/01J00000000000000000000001.yaml', 'projects/web/01J00000000000000000000002.yaml'], [project('web')]],
    // A global change reaches everything, whatever comes after it.
    [
      ['global/01J00000000000000000000001.yaml', 'projects/app/x.txt'],
      [project('app'), project('web'), planRef(PLAN), planRef(PLAN2)],
    ],
  ])('%j', (paths, expected) => {
    expect(affectedTargets(paths, before, after)).toEqual(expected);
  });
});

describe('diffTarget: whole results', () => {
  it('a plan retargeted to another project: its projects, and the entries of both', () => {
    const a = inv(id(1), 'App rule', APP);
    const w = inv(id(2), 'Web rule', WEB);
    const p = inv(id(3), 'Plan rule', PL);
    const g = inv(id(4), 'Global rule', G);
    const all = [a, w, p, g];
    const d = diffTarget(planRef(PLAN), side(all, [{ id: PLAN, project: 'app' }]), side(all, [{ id: PLAN, project: 'web' }]), {
      onlyKeys: new Set(),
    });
    expect(d).toEqual(
      empty(planRef(PLAN), { projectBefore: 'app', projectAfter: 'web', countBefore: 3, countAfter: 3, entered: [w], left: [a] }),
    );
    expect(targetChanged(d)).toBe(true);
  });

  it('a plan that targets no project on either side has no project fields', () => {
    const d = diffTarget(planRef(PLAN), side([], [{ id: PLAN }]), side([], [{ id: PLAN }]));
    expect(d).toEqual(empty(planRef(PLAN)));
    expect('projectBefore' in d || 'projectAfter' in d).toBe(false);
    expect(targetChanged(d)).toBe(false);
  });

  it('a plan on neither side (an invariant file under plans/ without plan.yaml)', () => {
    const d = diffTarget(planRef(PLAN), side([inv(id(3), 'Plan rule', PL)]), side([inv(id(3), 'Plan rule', PL)]));
    expect(d).toEqual(empty(planRef(PLAN), { existsBefore: false, existsAfter: false }));
    expect(targetChanged(d)).toBe(false);
  });

  it('a plan removed: every entry left', () => {
    const p = inv(id(3), 'Plan rule', PL);
    const g = inv(id(4), 'Global rule', G);
    const d = diffTarget(planRef(PLAN), side([p, g], [{ id: PLAN, project: 'app' }]), side([g]), { onlyKeys: new Set() });
    expect(d).toEqual(empty(planRef(PLAN), { projectBefore: 'app', existsAfter: false, countBefore: 2, left: [p, g] }));
  });

  it('a project removed: every entry left, none entered or changed by a global change of the same commit; a new one: every entry entered', () => {
    const a = inv(id(3), 'App rule', APP);
    const g = inv(id(4), 'Global rule', G);
    const edited = inv(id(4), 'Global rule, reworded', G);
    const added = inv(id(5), 'New global rule', G);
    const withApp = (invs: ScopedInvariant[]): DiffSide => ({ ...side(invs), projects: new Set(['app']) });
    const without = (invs: ScopedInvariant[]): DiffSide => ({ ...side(invs), projects: new Set() });
    const keys = { onlyKeys: new Set([a, g, edited, added].map((i) => textKey(i.text))) };
    const gone = diffTarget(project('app'), withApp([a, g]), without([edited, added]), keys);
    expect(gone).toEqual(empty(project('app'), { existsAfter: false, countBefore: 2, left: [a, g] }));
    const born = diffTarget(project('app'), without([g]), withApp([a, edited, added]), keys);
    expect(born).toEqual(empty(project('app'), { existsBefore: false, countAfter: 3, entered: [a, edited, added] }));
  });

  it('changed entries report text, severity and scope only, in precedence order; one object on both sides is no change', () => {
    const g1 = inv(id(5), 'First', G);
    const g1b = inv(id(5), 'First', G, { severity: 'info', tags: ['t'], rationale: 'r' });
    const a1 = inv(id(6), 'Second', APP);
    const a1b = inv(id(6), 'second, edited', APP);
    const m1 = inv(id(7), 'Third', G);
    const m1b = inv(id(7), 'Third', APP);
    const tagsOnly = inv(id(8), 'Fourth', APP);
    const tagsOnlyB = inv(id(8), 'Fourth', APP, { tags: ['x'], created_by: 'me' });
    const kept = inv(id(9), 'Fifth', APP);
    const d = diffTarget(project('app'), side([g1, a1, m1, tagsOnly, kept]), side([g1b, a1b, m1b, tagsOnlyB, kept]));
    expect(d).toEqual(
      empty(project('app'), {
        countBefore: 5,
        countAfter: 5,
        changed: [
          { invariant: a1b, fields: [{ field: 'text', before: 'Second', after: 'second, edited' }] },
          { invariant: m1b, fields: [{ field: 'scope', before: G, after: APP }] },
          { invariant: g1b, fields: [{ field: 'severity', before: 'error', after: 'info' }] },
        ],
      }),
    );
    expect(targetChanged(d)).toBe(true);
  });

  it('entered, left, newly shadowed (new or effective before) and no longer shadowed, each in precedence order', () => {
    // Precedence: plan, project, global, inherited; then id; then path.
    const i1 = inv(id(1), 'Inherited rule', INH);
    const g2 = inv(id(2), 'Global two', G);
    const a3 = inv(id(3), 'Project three', APP);
    const g0 = inv(id(0), 'Global zero', G);
    const before = side([i1, g0, inv(id(10), 'Shadow me', G), inv(id(11), 'Hidden', G), inv(id(12), 'Hidden', APP)]);
    const after = side([
      i1,
      g2,
      a3,
      inv(id(10), 'Shadow me', G),
      inv(id(13), 'shadow ME', APP),
      inv(id(14), 'Other copy', G),
      inv(id(15), 'other copy', APP),
      inv(id(11), 'Hidden', G),
    ]);
    const d = diffTarget(project('app'), before, after);
    expect(d).toEqual(
      empty(project('app'), {
        countBefore: 4,
        countAfter: 6,
        entered: [a3, inv(id(13), 'shadow ME', APP), inv(id(15), 'other copy', APP), g2],
        left: [inv(id(12), 'Hidden', APP), g0],
        newlyShadowed: [
          { invariant: inv(id(10), 'Shadow me', G), by: inv(id(13), 'shadow ME', APP), wasEffective: true },
          { invariant: inv(id(14), 'Other copy', G), by: inv(id(15), 'other copy', APP), wasEffective: false },
        ],
        noLongerShadowed: [{ invariant: inv(id(11), 'Hidden', G), by: inv(id(12), 'Hidden', APP) }],
      }),
    );
    // Sorted by scope first, then id: the inherited one comes after every global one.
    const many = diffTarget(project('app'), side([]), side([i1, g2, g0, a3, inv(id(16), 'Plan here', { kind: 'plan', plan: PLAN })]));
    expect(many.entered.map((i) => i.id)).toEqual([id(3), id(0), id(2), id(1)]);
  });

  it('entries of one id in two scopes are one entry: the kept copy counts', () => {
    // id(1) moved from global to the project while a global copy of another id stays: no entry leaves or enters.
    const before = side([inv(id(1), 'Rule', G)]);
    const after = side([inv(id(1), 'Rule', APP), inv(id(1), 'Rule', G, { path: 'global/old/x.yaml' })]);
    const d = diffTarget(project('app'), before, after);
    expect(d.entered).toEqual([]);
    expect(d.left).toEqual([]);
    expect(d.changed).toEqual([{ invariant: inv(id(1), 'Rule', APP), fields: [{ field: 'scope', before: G, after: APP }] }]);
  });

  it('a copy shadowed before and deleted after never left the set', () => {
    const d = diffTarget(project('app'), side([inv(id(1), 'Rule', APP), inv(id(2), 'rule', G)]), side([inv(id(1), 'Rule', APP)]));
    expect(d).toEqual(empty(project('app'), { countBefore: 1, countAfter: 1 }));
  });

  it('newly shadowed copies sort by scope and id, not in the order of the copies hiding them', () => {
    const before = side([inv(id(9), 'Nine', G), inv(id(7), 'Seven', G)]);
    const after = side([inv(id(9), 'Nine', G), inv(id(7), 'Seven', G), inv(id(5), 'nine', APP), inv(id(6), 'seven', APP)]);
    const d = diffTarget(project('app'), before, after);
    expect(d.newlyShadowed.map((x) => [x.invariant.id, x.by.id])).toEqual([
      [id(7), id(6)],
      [id(9), id(5)],
    ]);
    const back = diffTarget(project('app'), after, before);
    expect(back.noLongerShadowed.map((x) => [x.invariant.id, x.by.id])).toEqual([
      [id(7), id(6)],
      [id(9), id(5)],
    ]);
  });

  it('shadowed on both sides is no change', () => {
    const s = side([inv(id(1), 'Rule', APP), inv(id(2), 'rule', G)]);
    const t = side([inv(id(1), 'Rule', APP), inv(id(2), 'rule', G, { severity: 'info' })]);
    const d = diffTarget(project('app'), s, t);
    expect(d).toEqual(empty(project('app'), { countBefore: 1, countAfter: 1 }));
  });
});

describe('targetChanged and hasChanges', () => {
  const t = project('app');
  it.each([
    [{}, false],
    [{ existsBefore: false }, true],
    [{ existsAfter: false }, true],
    [{ projectBefore: 'a', projectAfter: 'a' }, false],
    [{ projectBefore: 'a' }, true],
    [{ projectAfter: 'a' }, true],
    [{ entered: [inv(id(1), 'A', G)] }, true],
    [{ left: [inv(id(1), 'A', G)] }, true],
    [{ newlyShadowed: [{ invariant: inv(id(1), 'A', G), by: inv(id(2), 'A', APP) }] }, true],
    [{ noLongerShadowed: [{ invariant: inv(id(1), 'A', G), by: inv(id(2), 'A', APP) }] }, true],
    [{ changed: [{ invariant: inv(id(1), 'A', G), fields: [] }] }, true],
    [{ countBefore: 1 }, false],
  ] as const)('%j → %s', (extra, expected) => {
    const d = empty(t, extra as Partial<TargetDiff>);
    expect(targetChanged(d)).toBe(expected);
    expect(hasChanges({ invariants: [], plans: [], targets: [empty(project('web')), d], waivers: [], projectPaths: [] })).toBe(expected);
  });

  it('a file or a plan change alone is a change', () => {
    const none = { invariants: [], plans: [], targets: [], waivers: [], projectPaths: [] };
    expect(hasChanges(none)).toBe(false);
    expect(hasChanges({ ...none, invariants: [{ change: 'added', id: id(1), path: 'p', fields: [] }], targets: [empty(t)] })).toBe(true);
    expect(hasChanges({ ...none, plans: [{ change: 'added', plan: PLAN }], targets: [empty(t)] })).toBe(true);
    expect(hasChanges({ ...none, projectPaths: [{ project: 'web', before: null, after: ['web/**'] }] })).toBe(true);
  });

  it("a policy source's pin or the sources' order moved is a change, though no invariant came with it", () => {
    const none = { invariants: [], plans: [], targets: [], waivers: [], projectPaths: [] };
    expect(hasChanges({ ...none, policySources: [] })).toBe(false);
    expect(hasChanges({ ...none, policySources: [{ name: 'policy', entered: [], left: [], edited: [] }] })).toBe(true);
    expect(hasChanges({ ...none, policyOrder: { before: ['a', 'b'], after: ['b', 'a'] } })).toBe(true);
  });
});

describe('diffStores: the whole diff', () => {
  it('file changes, plan changes, and each target from its own folders and the inherited set, targets sorted', () => {
    const g = inv(id(1), 'Global rule', G);
    const i = inv(id(2), 'Inherited rule', INH);
    const iB = inv(id(2), 'Inherited rule', INH, { severity: 'warning' });
    const w = inv(id(3), 'Web rule', WEB);
    const a = inv(id(4), 'App rule', APP);
    const aB = inv(id(4), 'App rule, edited', APP);
    const p = inv(id(5), 'Plan rule', PL);
    const gIgnored = inv(id(6), 'global rule', G, { active: false });
    const before = side([g, i, w, a, p], [{ id: PLAN, project: 'app' }]);
    const after = side(
      [g, iB, w, aB, p, gIgnored],
      [
        { id: PLAN, project: 'app' },
        { id: PLAN2, project: 'web' },
      ],
    );
    const d = diffStores({ before: [i, a], after: [iB, aB, gIgnored] }, before, after, [
      planRef(PLAN2),
      planRef(PLAN),
      project('web'),
      project('app'),
    ]);
    expect(d).toEqual({
      invariants: [
        {
          change: 'edited',
          id: id(2),
          path: iB.path,
          before: i,
          after: iB,
          fields: [{ field: 'severity', before: 'error', after: 'warning' }],
        },
        { change: 'added', id: id(6), path: gIgnored.path, after: gIgnored, fields: [] },
        {
          change: 'edited',
          id: id(4),
          path: aB.path,
          before: a,
          after: aB,
          fields: [{ field: 'text', before: 'App rule', after: 'App rule, edited' }],
        },
      ],
      plans: [{ change: 'added', plan: PLAN2, after: { id: PLAN2, project: 'web' } }],
      waivers: [],
      projectPaths: [],
      targets: [
        empty(project('app'), {
          countBefore: 3,
          countAfter: 3,
          changed: [
            { invariant: aB, fields: [{ field: 'text', before: 'App rule', after: 'App rule, edited' }] },
            { invariant: iB, fields: [{ field: 'severity', before: 'error', after: 'warning' }] },
          ],
        }),
        empty(project('web'), {
          countBefore: 3,
          countAfter: 3,
          changed: [{ invariant: iB, fields: [{ field: 'severity', before: 'error', after: 'warning' }] }],
        }),
        empty(planRef(PLAN), {
          projectBefore: 'app',
          projectAfter: 'app',
          countBefore: 4,
          countAfter: 4,
          changed: [
            { invariant: aB, fields: [{ field: 'text', before: 'App rule', after: 'App rule, edited' }] },
            { invariant: iB, fields: [{ field: 'severity', before: 'error', after: 'warning' }] },
          ],
        }),
        empty(planRef(PLAN2), { existsBefore: false, projectAfter: 'web', countAfter: 3, entered: [w, g, iB] }),
      ],
    });
  });
});

describe('diffTarget: order, plans that appear or go, and the keys compared', () => {
  it('entered and left list the invariants of two policy sources by id, whatever the order of the sources', () => {
    const corp = inv(id(2), 'From corp', { kind: 'inherited', source: 'corp', order: 0 });
    const team = inv(id(1), 'From team', { kind: 'inherited', source: 'team', order: 1 });
    expect(diffTarget(project('app'), side([]), side([corp, team])).entered).toEqual([team, corp]);
    expect(diffTarget(project('app'), side([corp, team]), side([])).left).toEqual([team, corp]);
  });

  it('copies hidden on arrival sort by scope and id, not in the order of the copies hiding them', () => {
    const after = side([inv(id(9), 'Nine', G), inv(id(7), 'Seven', G), inv(id(5), 'nine', APP), inv(id(6), 'seven', APP)]);
    const d = diffTarget(project('app'), side([]), after);
    expect(d.newlyShadowed.map((x) => [x.invariant.id, x.by.id, x.wasEffective])).toEqual([
      [id(7), id(6), false],
      [id(9), id(5), false],
    ]);
  });

  it('a plan without a project that appears or goes: every invariant of its set enters or leaves, not only the changed ones', () => {
    const g = inv(id(1), 'Global rule', G);
    const p = inv(id(3), 'Plan rule', PL);
    const appears = diffStores({ before: [], after: [p] }, side([g]), side([g, p], [{ id: PLAN }]), [planRef(PLAN)]);
    expect(appears.targets).toEqual([empty(planRef(PLAN), { existsBefore: false, countAfter: 2, entered: [p, g] })]);
    const goes = diffStores({ before: [p], after: [] }, side([g, p], [{ id: PLAN }]), side([g]), [planRef(PLAN)]);
    expect(goes.targets).toEqual([empty(planRef(PLAN), { existsAfter: false, countBefore: 2, left: [p, g] })]);
  });

  it('onlyKeys: only the entries of those text keys are compared, for a project and a plan that stays; the counts cover every key', () => {
    const kept = inv(id(1), 'Kept rule', APP);
    const added = inv(id(2), 'New rule', APP);
    const onlyKeys = new Set([textKey('Kept rule')]);
    expect(diffTarget(project('app'), side([kept]), side([kept, added]), { onlyKeys })).toEqual(
      empty(project('app'), { countBefore: 1, countAfter: 2 }),
    );
    const ps: Plan[] = [{ id: PLAN, project: 'app' }];
    expect(diffTarget(planRef(PLAN), side([kept], ps), side([kept, added], ps), { onlyKeys })).toEqual(
      empty(planRef(PLAN), { projectBefore: 'app', projectAfter: 'app', countBefore: 1, countAfter: 2 }),
    );
    // Without onlyKeys every key is compared.
    expect(diffTarget(project('app'), side([kept]), side([kept, added])).entered).toEqual([added]);
  });

  it("a plan that changed project compares every key, and still asks the caller's keyOf for them", () => {
    const g = inv(id(1), 'Global rule', G);
    const a = inv(id(2), 'App rule', APP);
    const asked = new Set<string>();
    const keyOf = (i: ScopedInvariant) => {
      asked.add(i.id);
      return textKey(i.text);
    };
    const d = diffTarget(planRef(PLAN), side([g, a], [{ id: PLAN }]), side([g, a], [{ id: PLAN, project: 'app' }]), {
      onlyKeys: new Set(),
      keyOf,
    });
    expect(d).toEqual(empty(planRef(PLAN), { projectAfter: 'app', countBefore: 1, countAfter: 2, entered: [a] }));
    expect([...asked].sort()).toEqual([id(1), id(2)]);
  });
});
