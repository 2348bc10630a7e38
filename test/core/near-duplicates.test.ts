import { describe, expect, it } from 'vitest';
import type { Plan, Scope, ScopedInvariant } from '../../src/core/model.ts';
import {
  canMeet,
  findNearDuplicates,
  looseKey,
  nearDuplicatesOf,
  nearKind,
  nearPairs,
  nearPairsTouching,
} from '../../src/core/near-duplicates.ts';

function inv(id: string, text: string, scope: Scope = { kind: 'global' }, active = true): ScopedInvariant {
  return { id, text, severity: 'error', active, tags: [], scope, path: `x/${id}.yaml` };
}

describe('near-duplicates', () => {
  it.each([
    ['Never delete production data.', 'Never delete production data', 'punctuation'],
    ['Never delete production data', 'never delete  production data!', 'punctuation'],
    ['Never delete production data', 'Never delete production dta', 'one-edit'],
    ['Never delete production data', 'Never delete productions data', 'one-edit'],
    ['Never delete production data', 'Never delete production date', 'one-edit'],
    // Equal keys are duplicates or shadows, not near ones.
    ['Never delete production data', 'NEVER delete production data', undefined],
    // A digit changed: a different rule.
    ['Use Python 3.12 only', 'Use Python 3.13 only', undefined],
    ['Keep 80% coverage', 'Keep 8% coverage', undefined],
    // Two edits apart, and texts too short to judge.
    ['Never delete production data', 'Never delete prodution dta', undefined],
    ['Log it', 'Log its', undefined],
  ])('%j and %j: %s', (a, b, kind) => {
    expect(nearKind({ text: a }, { text: b })).toBe(kind);
    expect(nearKind({ text: b }, { text: a })).toBe(kind);
  });

  it('turns punctuation into spaces, so numbers never run together', () => {
    expect(looseKey('Use Python 3.13, only!')).toBe('use python 3 13 only');
  });

  it('nearPairs finds exactly the pairs one edit apart among many keys (checked against every pair)', () => {
    const words = ['data', 'date', 'dta', 'datum', 'delete', 'deletes', 'prod', 'prd', 'logs', 'log'];
    const keys: string[] = [];
    for (const a of words) for (const b of words) keys.push(`never ${a} the ${b}`);
    const found = new Set(nearPairs(keys).map(([i, j]) => `${Math.min(i, j)},${Math.max(i, j)}`));
    const expected = new Set<string>();
    for (let i = 0; i < keys.length; i++)
      for (let j = i + 1; j < keys.length; j++) if (nearKind({ text: keys[i]! }, { text: keys[j]! })) expected.add(`${i},${j}`);
    expect(expected.size).toBeGreaterThan(50);
    for (const pair of expected) expect(found.has(pair), pair).toBe(true);
  });

  it('nearPairsTouching finds exactly the pairs of nearPairs that hold a focused key, for small and large focus sets', () => {
    const words = ['data', 'date', 'dta', 'datum', 'delete', 'deletes', 'prod', 'prd', 'logs', 'log'];
    const keys: string[] = [];
    for (const a of words) for (const b of words) keys.push(`never ${a} the ${b}`);
    // Equal keys at two indexes, and a key too short to be a typo of another.
    keys.push('never data the data', 'short', 'shorts');
    const norm = (pairs: [number, number][]) => pairs.map(([i, j]) => `${Math.min(i, j)},${Math.max(i, j)}`).sort();
    const all = nearPairs(keys);
    for (const focus of [[], [0], [0, 1], [100], [3, 17, 42, 100], [101, 102], keys.map((_, i) => i).filter((i) => i % 3 === 0)]) {
      const set = new Set(focus);
      const expected = norm(all.filter(([i, j]) => set.has(i) || set.has(j)));
      const found = norm(nearPairsTouching(keys, set));
      expect(found, `focus ${focus.join(',')}`).toEqual(expected);
      expect(new Set(found).size).toBe(found.length);
    }
    expect(norm(nearPairsTouching(keys, new Set([0])))).toContain('0,100');
  });

  it('pairs only invariants that can meet in one effective set', () => {
    const plans = new Map<string, Plan>([['P1', { id: 'P1', project: 'web' }]]);
    const g = inv('01A', 'Never delete production data.');
    const web = inv('01B', 'Never delete production data', { kind: 'project', project: 'web' });
    const api = inv('01C', 'Never delete production data!', { kind: 'project', project: 'api' });
    const plan = inv('01D', 'never delete production data?', { kind: 'plan', plan: 'P1' });
    const action = inv('01E', 'Never delete production data;', { kind: 'action', ns: 'local', name: 'x' });
    expect(canMeet(web, api, plans)).toBe(false);
    expect(canMeet(web, plan, plans)).toBe(true);
    expect(canMeet(api, plan, plans)).toBe(false);
    expect(canMeet(g, action, plans)).toBe(false);
    const pairs = findNearDuplicates(
      [g, web, api, plan, action, inv('01F', 'Never delete production data...', { kind: 'global' }, false)],
      plans,
    );
    expect(pairs.map((p) => `${p.a.id}-${p.b.id}`)).toEqual(['01A-01B', '01A-01C', '01A-01D', '01B-01D']);
    expect(nearDuplicatesOf('Never delete production data', [{ invariant: g, loose: looseKey(g.text) }]).map((m) => m.kind)).toEqual([
      'punctuation',
    ]);
  });
});
