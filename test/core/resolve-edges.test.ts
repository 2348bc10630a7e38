import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEVERITIES, type Scope, type ScopedInvariant, type Target } from '../../src/core/model.ts';
import { appliesTo, resolveEffective, stricter } from '../../src/core/resolve.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

const id = (c: string) => `01JDQ6X5Z8W4N3B2C1D0E9F8G${c}`;
const GLOBAL: Scope = { kind: 'global' };
const MYAPP: Scope = { kind: 'project', project: 'myapp' };
const ORG: Scope = { kind: 'inherited', source: 'org', order: 0 };
const TEAM: Scope = { kind: 'inherited', source: 'team', order: 1 };
const TARGET: Target = { kind: 'project', project: 'myapp' };

function inv(c: string, text: string, scope: Scope, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return { id: id(c), text, severity: 'error', active: true, tags: [], scope, path: `x/${id(c)}.yaml`, ...extra };
}

describe('appliesTo and stricter', () => {
  it('an action-scoped invariant applies to no target (false, not merely falsy)', () => {
    const action = inv('1', 'T', { kind: 'action', ns: 'db', name: 'migrate' });
    expect(appliesTo(action, TARGET)).toBe(false);
    expect(appliesTo(action, { kind: 'plan', plan: id('9'), project: 'myapp' } as Target)).toBe(false);
  });

  it('error is stricter than warning, warning than info; a severity is not stricter than itself', () => {
    expect(stricter({ severity: 'error' }, { severity: 'warning' })).toBe(true);
    expect(stricter({ severity: 'warning' }, { severity: 'info' })).toBe(true);
    expect(stricter({ severity: 'info' }, { severity: 'warning' })).toBe(false);
    expect(stricter({ severity: 'warning' }, { severity: 'error' })).toBe(false);
    expect(stricter({ severity: 'warning' }, { severity: 'warning' })).toBe(false);
  });
});

describe('resolveEffective: order', () => {
  it('orders one scope by id whatever the input order', () => {
    const out = resolveEffective(TARGET, [inv('3', 'c', GLOBAL), inv('1', 'a', GLOBAL), inv('2', 'b', GLOBAL)]);
    expect(out.map((e) => e.invariant.id)).toEqual([id('1'), id('2'), id('3')]);
  });

  it('orders policy sources by their place in extends before their ids', () => {
    const out = resolveEffective(TARGET, [inv('1', 'a', TEAM), inv('2', 'b', ORG), inv('0', 'g', GLOBAL)]);
    expect(out.map((e) => e.invariant.id)).toEqual([id('0'), id('2'), id('1')]);
  });

  it('orders the invariants of one policy source by id', () => {
    const out = resolveEffective(TARGET, [inv('3', 'c', ORG), inv('1', 'a', ORG), inv('2', 'b', ORG)]);
    expect(out.map((e) => e.invariant.id)).toEqual([id('1'), id('2'), id('3')]);
  });
});

describe('resolveEffective: floors set by a policy source', () => {
  it('a locked, stricter inherited copy replaces the weaker project copy and takes its place in the order', () => {
    const out = resolveEffective(TARGET, [
      inv('1', 'Same rule', MYAPP, { severity: 'warning' }),
      inv('2', 'Other rule', GLOBAL),
      inv('3', 'same RULE', ORG, { locked: true }),
    ]);
    // The kept copy is now inherited: it sorts after the global invariant.
    expect(out.map((e) => [e.invariant.id, e.shadows.map((s) => s.id)])).toEqual([
      [id('2'), []],
      [id('3'), [id('1')]],
    ]);
  });

  it("a copy at the floor's severity keeps shadowing the floor where a weaker copy above it gives way", () => {
    const out = resolveEffective(TARGET, [
      inv('1', 'Same rule', MYAPP, { severity: 'warning' }),
      inv('2', 'same rule', GLOBAL),
      inv('3', 'same RULE', ORG, { locked: true }),
    ]);
    expect(out.map((e) => [e.invariant.id, e.shadows.map((s) => s.id)])).toEqual([[id('2'), [id('1'), id('3')]]]);
  });

  it('of copies of one text, the first in precedence order not below the strictest floor is kept; the others are its shadows', () => {
    const scopes = [MYAPP, GLOBAL, ORG, TEAM];
    const copy = fc.record({
      scope: fc.constantFrom(...scopes),
      severity: fc.constantFrom(...SEVERITIES),
      locked: fc.boolean(),
      text: fc.constantFrom('Same rule', 'same  RULE'),
    });
    fc.assert(
      fc.property(fc.array(copy, { minLength: 1, maxLength: 6 }), (drawn) => {
        const copies = drawn.map((c, i) => inv(String.fromCharCode(65 + i), c.text, c.scope, { severity: c.severity, locked: c.locked }));
        const out = resolveEffective(TARGET, copies);
        expect(out).toHaveLength(1);
        const ordered = resolveEffective(
          TARGET,
          copies.map((c) => ({ ...c, locked: false })),
        )[0]!;
        const inOrder = [ordered.invariant.id, ...ordered.shadows.map((s) => s.id)].map((id) => copies.find((c) => c.id === id)!);
        const floors = copies.filter((c) => c.locked && c.scope.kind === 'inherited');
        const kept = inOrder.find((c) => floors.every((f) => !stricter(f, c)))!;
        expect(out[0]!.invariant).toBe(kept);
        expect(out[0]!.shadows.map((s) => s.id)).toEqual(inOrder.filter((c) => c !== kept).map((c) => c.id));
      }),
      { seed: 20261205, numRuns: fcRuns(500) },
    );
  });

  it('an inherited copy that is not locked, or a locked copy that is not inherited, does not replace it', () => {
    const unlocked = resolveEffective(TARGET, [inv('1', 'Same rule', MYAPP, { severity: 'warning' }), inv('3', 'same rule', ORG)]);
    expect(unlocked.map((e) => [e.invariant.id, e.shadows.map((s) => s.id)])).toEqual([[id('1'), [id('3')]]]);
    const global = resolveEffective(TARGET, [
      inv('1', 'Same rule', MYAPP, { severity: 'warning' }),
      inv('3', 'same rule', GLOBAL, { locked: true }),
    ]);
    expect(global.map((e) => [e.invariant.id, e.shadows.map((s) => s.id)])).toEqual([[id('1'), [id('3')]]]);
  });
});

describe('resolveEffective: copies hidden on purpose', () => {
  it('marks as overridden the copies named in overrides by the kept copy or by a copy it hides', () => {
    const out = resolveEffective(TARGET, [
      inv('A', 'T', MYAPP, { overrides: id('C') }),
      inv('B', 't', GLOBAL, { overrides: id('D') }),
      inv('C', 'T ', GLOBAL),
      inv('E', ' t', GLOBAL),
      inv('D', 'T', ORG),
      inv('F', 'Unique', GLOBAL),
    ]);
    expect(out.map((e) => [e.invariant.id, e.shadows.map((s) => [s.id, s.overridden === true])])).toEqual([
      [
        id('A'),
        [
          [id('B'), false],
          [id('C'), true],
          [id('E'), false],
          [id('D'), true],
        ],
      ],
      [id('F'), []],
    ]);
  });
});
