import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SEVERITIES, type Plan, type Scope, type ScopedInvariant, type Target } from '../../src/core/model.ts';
import { resolveEffective } from '../../src/core/resolve.ts';
import { checkNewInvariant, shadowMap } from '../../src/core/shadow.ts';
import { fcRuns } from '../helpers/fc-runs.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const inv = (id: string, scope: Scope, text = 'Log all changes'): ScopedInvariant => scopedInvariant(id, scope, text);

const OLD = '01M8KJT9G0XNWEM589ZS7FV0VT';
const NEW = '01M8KK3EF09G9ET4TAJAHQWPMN';
/** The greatest ULID there is: a valid id, if an unlikely one. */
const LAST = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
const LONE_PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const MISSING_PLAN = '01M8KK9ZZZZZZZZZZZZZZZZZZZ';
/** A plan of no project (its plan.yaml names none). */
const plans = new Map<string, Plan>([[LONE_PLAN, { id: LONE_PLAN }]]);

const action: Scope = { kind: 'action', ns: 'local', name: 'deploy' };
const inherited: Scope = { kind: 'inherited', source: 'org', order: 0 };

describe('shadowMap: a plan of no known project', () => {
  test.each([
    ['a plan naming no project', LONE_PLAN],
    ['a plan whose plan.yaml is missing', MISSING_PLAN],
  ])('%s hides no action template, and hides an inherited copy as its effective set does', (_name, plan) => {
    const all = [inv(NEW, { kind: 'plan', plan }), inv(OLD, action), inv(LAST, inherited)];
    const map = shadowMap(all, plans);
    expect(map.get(OLD)).toEqual({ shadowedBy: [], shadows: [] });
    // An inherited copy applies to every target, the plan's too, where the plan's copy is kept (core/resolve.ts).
    expect(map.get(NEW)).toEqual({ shadowedBy: [], shadows: [all[2]] });
    expect(map.get(LAST)).toEqual({ shadowedBy: [all[0]], shadows: [] });
    const entries = resolveEffective({ kind: 'plan', plan }, all);
    expect(entries.map((e) => [e.invariant.id, e.shadows.map((r) => r.id)])).toEqual([[NEW, [LAST]]]);
  });
});

describe('checkNewInvariant: every copy in another scope counts, whatever its id', () => {
  test('a global copy holding the greatest ULID is still shadowed by a new project copy', () => {
    const global = inv(LAST, { kind: 'global' });
    expect(checkNewInvariant({ kind: 'project', project: 'web' }, 'log all changes', [global], plans)).toEqual({
      shadows: [global],
      shadowedBy: [],
    });
  });

  test('a project copy holding the greatest ULID still shadows a new global copy', () => {
    const project = inv(LAST, { kind: 'project', project: 'web' });
    expect(checkNewInvariant({ kind: 'global' }, 'Log all changes', [project], plans)).toEqual({
      shadows: [],
      shadowedBy: [project],
    });
  });
});

describe('shadowMap: the inherited tier, as the resolver orders it', () => {
  test('a store copy of any scope hides an inherited one, never the other way; of two sources the first listed wins', () => {
    const later: Scope = { kind: 'inherited', source: 'team', order: 1 };
    // The earlier source's copy has the greater id: order decides, not age.
    const all = [inv(OLD, { kind: 'global' }), inv(NEW, { kind: 'project', project: 'web' }), inv(LAST, inherited), inv(LONE_PLAN, later)];
    const map = shadowMap(all, plans);
    expect(map.get(OLD)).toEqual({ shadowedBy: [all[1]], shadows: [all[2], all[3]] });
    expect(map.get(NEW)).toEqual({ shadowedBy: [], shadows: [all[0], all[2], all[3]] });
    expect(map.get(LAST)).toEqual({ shadowedBy: [all[0], all[1]], shadows: [all[3]] });
    expect(map.get(LONE_PLAN)).toEqual({ shadowedBy: [all[0], all[1], all[2]], shadows: [] });
    const entries = resolveEffective({ kind: 'project', project: 'web' }, [all[2]!, all[3]!]);
    expect(entries.map((e) => [e.invariant.id, e.shadows.map((r) => r.id)])).toEqual([[LAST, [LONE_PLAN]]]);
  });
});

describe('shadowMap: a locked floor of a policy source', () => {
  const floor = (severity: 'error' | 'warning') => ({ ...inv(LAST, inherited), locked: true, severity });
  const project = (severity: 'error' | 'warning') => ({ ...inv(OLD, { kind: 'project', project: 'web' }), severity });

  test('hides a weaker copy of a higher scope, as the effective set keeps it; never the other way round', () => {
    const all = [project('warning'), floor('error')];
    const map = shadowMap(all, plans);
    expect(map.get(LAST)).toEqual({ shadowedBy: [], shadows: [all[0]] });
    expect(map.get(OLD)).toEqual({ shadowedBy: [all[1]], shadows: [] });
    const entries = resolveEffective({ kind: 'project', project: 'web' }, all);
    expect(entries.map((e) => [e.invariant.id, e.shadows.map((r) => r.id)])).toEqual([[LAST, [OLD]]]);
  });

  test('a copy as strict as the floor hides it as any higher copy does', () => {
    const all = [project('error'), floor('error')];
    expect(shadowMap(all, plans).get(OLD)).toEqual({ shadowedBy: [], shadows: [all[1]] });
    expect(resolveEffective({ kind: 'project', project: 'web' }, all).map((e) => e.invariant.id)).toEqual([OLD]);
  });

  test('a text not added yet, of no severity, meets the floor as any copy', () => {
    const f = floor('error');
    expect(checkNewInvariant({ kind: 'project', project: 'web' }, 'Log all changes', [f], plans)).toEqual({ shadows: [f], shadowedBy: [] });
  });
});

describe('shadowMap agrees with the effective sets', () => {
  test('every copy a set keeps is said to shadow each copy it hides there, floors and policy sources included', () => {
    const P1 = '01M8KK5920RS6CGAVDFVYYJ0B5';
    const scope = fc.constantFrom<Scope>(
      { kind: 'global' },
      { kind: 'inherited', source: 'org', order: 0 },
      { kind: 'inherited', source: 'team', order: 1 },
      { kind: 'project', project: 'web' },
      { kind: 'project', project: 'api' },
      { kind: 'plan', plan: P1 },
      { kind: 'plan', plan: LONE_PLAN },
    );
    const copy = fc.record({ scope, severity: fc.constantFrom(...SEVERITIES), locked: fc.boolean(), active: fc.boolean() });
    const known = new Map<string, Plan>([...plans, [P1, { id: P1, project: 'web' }]]);
    const targets: Target[] = [
      { kind: 'project', project: 'web' },
      { kind: 'project', project: 'api' },
      { kind: 'plan', plan: P1, project: 'web' },
      { kind: 'plan', plan: LONE_PLAN },
    ];
    fc.assert(
      fc.property(fc.array(copy, { minLength: 1, maxLength: 6 }), (drawn) => {
        const all = drawn.map((c, i) => ({
          ...inv(`01M8KK5920RS6CGAVDFVYYJ0C${i}`, c.scope),
          severity: c.severity,
          locked: c.locked,
          active: c.active,
        }));
        const map = shadowMap(all, known);
        for (const target of targets)
          for (const entry of resolveEffective(target, all)) {
            const info = map.get(entry.invariant.id)!;
            for (const ref of entry.shadows) expect(info.shadows.map((s) => s.id)).toContain(ref.id);
          }
      }),
      { seed: 20261205, numRuns: fcRuns(1000) },
    );
  });
});
