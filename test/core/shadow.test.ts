import { describe, expect, test } from 'vitest';
import type { Plan, Scope, ScopedInvariant } from '../../src/core/model.ts';
import { shadowInfo, shadowMap } from '../../src/core/shadow.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const inv = (id: string, scope: Scope, text = 'Log all changes', active = true): ScopedInvariant =>
  scopedInvariant(id, scope, text, { active });

// Ids in creation order: OLD < MID < NEW.
const OLD = '01M8KJT9G0XNWEM589ZS7FV0VT';
const MID = '01M8KJXYP0GVPRF8KRRE9G8474';
const NEW = '01M8KK3EF09G9ET4TAJAHQWPMN';
const PLAN_A = '01M8KK5920RS6CGAVDFVYYJ0B4';
const PLAN_B = '01M8KK7W00HBN1G5Q8TJ4Z2VXC';
const plans = new Map<string, Plan>([
  [PLAN_A, { id: PLAN_A, project: 'alpha' }],
  [PLAN_B, { id: PLAN_B, project: 'beta' }],
]);

const global: Scope = { kind: 'global' };
const alpha: Scope = { kind: 'project', project: 'alpha' };
const beta: Scope = { kind: 'project', project: 'beta' };
const planA: Scope = { kind: 'plan', plan: PLAN_A };
const planB: Scope = { kind: 'plan', plan: PLAN_B };
const action: Scope = { kind: 'action', ns: 'local', name: 'deploy' };

/** Who hides whom, as [hider, hidden] id pairs, from shadowMap's answer. */
function pairs(all: ScopedInvariant[]): { shadowedBy: string[][]; shadows: string[][] } {
  const map = shadowMap(all, plans);
  const shadowedBy: string[][] = [];
  const shadows: string[][] = [];
  for (const x of all) {
    const info = map.get(x.id)!;
    for (const h of info.shadowedBy) shadowedBy.push([h.id, x.id]);
    for (const l of info.shadows) shadows.push([x.id, l.id]);
  }
  return { shadowedBy, shadows };
}

describe('shadowMap: who hides whom', () => {
  // [case, invariants, expected [hider, hidden] pairs]
  const cases: [string, ScopedInvariant[], string[][]][] = [
    ['a plan of project alpha hides a copy in alpha', [inv(NEW, planA), inv(OLD, alpha)], [[NEW, OLD]]],
    ['a plan of project alpha does not hide a copy in project beta', [inv(NEW, planA), inv(OLD, beta)], []],
    ['a plan of beta hides beta, not alpha', [inv(NEW, planB), inv(OLD, alpha), inv(MID, beta)], [[NEW, MID]]],
    [
      'a plan whose plan file is missing hides no project copy',
      [inv(NEW, { kind: 'plan', plan: '01M8KK9ZZZZZZZZZZZZZZZZZZZ' }), inv(OLD, alpha)],
      [],
    ],
    ['a project copy hides the global copy', [inv(NEW, alpha), inv(OLD, global)], [[NEW, OLD]]],
    ['a plan copy hides the global copy', [inv(NEW, planB), inv(OLD, global)], [[NEW, OLD]]],
    ['a lower-precedence copy never hides a higher one, whatever the ids', [inv(OLD, global), inv(NEW, alpha)], [[NEW, OLD]]],
    ['within one scope the older copy hides the newer, never both', [inv(NEW, global), inv(OLD, global)], [[OLD, NEW]]],
    ['within one project the older copy hides the newer', [inv(OLD, alpha), inv(NEW, alpha)], [[OLD, NEW]]],
    ['within one plan the older copy hides the newer', [inv(NEW, planA), inv(OLD, planA)], [[OLD, NEW]]],
    ['two projects at the same precedence do not hide each other', [inv(OLD, alpha), inv(NEW, beta)], []],
    ['two plans do not hide each other', [inv(OLD, planA), inv(NEW, planB)], []],
    ['an inactive higher-precedence copy hides nothing', [inv(NEW, alpha, 'Log all changes', false), inv(OLD, global)], []],
    ['an inactive lower copy is not hidden', [inv(NEW, alpha), inv(OLD, global, 'Log all changes', false)], []],
    ['an inactive older copy in one scope hides nothing', [inv(OLD, global, 'Log all changes', false), inv(NEW, global)], []],
    ['action copies take no part in shadowing', [inv(NEW, action), inv(OLD, global), inv(MID, action)], []],
    ['a different text is no copy', [inv(NEW, alpha, 'Log every change'), inv(OLD, global)], []],
    ['the text key ignores case and spacing', [inv(NEW, alpha, '  LOG all   changes'), inv(OLD, global)], [[NEW, OLD]]],
    [
      'three levels: the plan hides both, the project hides the global copy',
      [inv(OLD, global), inv(MID, alpha), inv(NEW, planA)],
      [
        [MID, OLD],
        [NEW, OLD],
        [NEW, MID],
      ],
    ],
  ];

  test.each(cases)('%s', (_name, all, expected) => {
    const { shadowedBy, shadows } = pairs(all);
    const sort = (xs: string[][]) => [...xs].sort((x, y) => (x.join() < y.join() ? -1 : 1));
    expect(sort(shadowedBy)).toEqual(sort(expected));
    // The two directions agree: `a` hides `b` exactly when `b` is shadowed by `a`.
    expect(sort(shadows)).toEqual(sort(expected));
  });

  test('an invariant with a unique text has no relations', () => {
    const map = shadowMap([inv(OLD, global, 'One'), inv(NEW, alpha, 'Two')], plans);
    expect(map.get(OLD)).toEqual({ shadowedBy: [], shadows: [] });
    expect(map.get(NEW)).toEqual({ shadowedBy: [], shadows: [] });
  });
});

describe('shadowInfo', () => {
  test('compares the subject with the copies of its text only, never with itself', () => {
    const subject = inv(MID, alpha);
    const others = [subject, inv(OLD, global), inv(NEW, planA), inv('01M8KKBBBBBBBBBBBBBBBBBBBB', global, 'Other text')];
    const info = shadowInfo(subject, others, plans);
    expect(info.shadowedBy.map((x) => x.id)).toEqual([NEW]);
    expect(info.shadows.map((x) => x.id)).toEqual([OLD]);
  });

  test('a copy with the same id is not a copy of itself', () => {
    const info = shadowInfo(inv(OLD, alpha), [inv(OLD, global)], plans);
    expect(info).toEqual({ shadowedBy: [], shadows: [] });
  });
});

describe('an id used twice (a store error validate reports)', () => {
  test('shadowMap relates no two invariants with one id', () => {
    const map = shadowMap([inv(OLD, alpha), inv(OLD, global)], plans);
    expect(map.get(OLD)).toEqual({ shadowedBy: [], shadows: [] });
  });
});
