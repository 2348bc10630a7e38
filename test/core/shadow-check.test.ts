import { describe, expect, test } from 'vitest';
import type { Plan, Scope, ScopedInvariant } from '../../src/core/model.ts';
import { invariantPath } from '../../src/core/model.ts';
import { checkNewInvariant } from '../../src/core/shadow.ts';

function inv(id: string, scope: Scope, text: string, active = true): ScopedInvariant {
  return { id, text, severity: 'error', active, tags: [], scope, path: invariantPath(scope, id) };
}

const G = '01M8KJT9G0XNWEM589ZS7FV0VT';
const P = '01M8KJXYP0GVPRF8KRRE9G8474';
const L = '01M8KK3EF09G9ET4TAJAHQWPMN';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const plans = new Map<string, Plan>([[PLAN, { id: PLAN, project: 'myapp' }]]);
const others = [
  inv(G, { kind: 'global' }, 'Log all changes'),
  inv(P, { kind: 'project', project: 'myapp' }, 'Log all changes'),
  inv(L, { kind: 'plan', plan: PLAN }, 'Use Python 3.13 only'),
];
const ids = (xs: ScopedInvariant[]) => xs.map((x) => x.id);

describe('checkNewInvariant', () => {
  test('same scope, same key (case, spaces, NFKC): duplicate', () => {
    const c = checkNewInvariant({ kind: 'global' }, '  LOG  all\tchanges ', others, plans);
    expect(c.duplicate?.id).toBe(G);
    expect(ids(c.shadowedBy)).toEqual([P]);
    expect(ids(c.shadows)).toEqual([]);
  });

  test('a plan of myapp: shadows the project and the global copy', () => {
    const c = checkNewInvariant({ kind: 'plan', plan: PLAN }, 'log all changes', others, plans);
    expect(c.duplicate).toBeUndefined();
    expect(ids(c.shadows).sort()).toEqual([P, G].sort());
    expect(ids(c.shadowedBy)).toEqual([]);
  });

  test('another project: shadows the global copy only', () => {
    const c = checkNewInvariant({ kind: 'project', project: 'web' }, 'Log all changes', others, plans);
    expect(c).toEqual({ shadows: [others[0]], shadowedBy: [] });
  });

  test('an action template shadows nothing; a new text meets nothing; empty text checks nothing', () => {
    expect(checkNewInvariant({ kind: 'action', ns: 'local', name: 'x' }, 'Log all changes', others, plans)).toEqual({
      shadows: [],
      shadowedBy: [],
    });
    expect(checkNewInvariant({ kind: 'global' }, 'Something new', others, plans)).toEqual({ shadows: [], shadowedBy: [] });
    expect(checkNewInvariant({ kind: 'global' }, '   ', others, plans)).toEqual({ shadows: [], shadowedBy: [] });
  });

  test('an inactive copy in the same scope is still a duplicate, but shadows nothing', () => {
    const list = [inv(G, { kind: 'global' }, 'Old rule', false)];
    const c = checkNewInvariant({ kind: 'global' }, 'old rule', list, plans);
    expect(c.duplicate?.id).toBe(G);
    expect(checkNewInvariant({ kind: 'project', project: 'a' }, 'old rule', list, plans)).toEqual({ shadows: [], shadowedBy: [] });
  });
});

describe('checkNewInvariant: a blank text', () => {
  test('meets nothing, not even a blank copy already in the same or another scope', () => {
    const blanks = [inv(G, { kind: 'global' }, '  '), inv(P, { kind: 'project', project: 'myapp' }, '  ')];
    expect(checkNewInvariant({ kind: 'global' }, ' ', blanks, plans)).toEqual({ shadows: [], shadowedBy: [] });
    expect(checkNewInvariant({ kind: 'project', project: 'myapp' }, ' ', blanks, plans)).toEqual({ shadows: [], shadowedBy: [] });
  });
});
