import { skeleton } from '../../src/core/skeleton.ts';
import fc from 'fast-check';
import { fcRuns } from '../helpers/fc-runs.ts';
import { describe, expect, it } from 'vitest';
import { precedence, type Scope, type ScopedInvariant, type Target } from '../../src/core/model.ts';
import { textKey } from '../../src/core/normalise.ts';
import { resolveEffective } from '../../src/core/resolve.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

function inv(id: string, text: string, scope: Scope, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return scopedInvariant(id, scope, text, extra);
}

const G: Scope = { kind: 'global' };
const MYAPP: Scope = { kind: 'project', project: 'myapp' };
const P: Scope = { kind: 'plan', plan: PLAN };

// The seed's merge example (seed/invariants.md, "Merge Example").
const seed = [
  inv('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data', G),
  inv('01M8KJW430VF8WCABSB8RTQ8RY', 'Log all changes', G),
  inv('01M8KJXYP0GVPRF8KRRE9G8474', 'All API changes need tests', MYAPP),
  inv('01M8KJZS90J6DRJJ8E264B9DFX', 'Log all changes', MYAPP),
  inv('01M8KK3EF09G9ET4TAJAHQWPMN', 'Use Python 3.13 only', P),
  inv('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage', { kind: 'action', ns: 'local', name: 'code-coverage' }),
];

describe('resolveEffective', () => {
  it('gives the seed merge example exactly as the seed lists it', () => {
    const out = resolveEffective({ kind: 'plan', plan: PLAN, project: 'myapp' }, seed);
    expect(out.map((e) => [e.invariant.text, e.invariant.scope.kind])).toEqual([
      ['Use Python 3.13 only', 'plan'],
      ['All API changes need tests', 'project'],
      ['Log all changes', 'project'],
      ['Never delete production data', 'global'],
    ]);
    expect(out[2]!.shadows).toEqual([
      { id: '01M8KJW430VF8WCABSB8RTQ8RY', scope: 'global', path: 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml' },
    ]);
    expect(out.filter((e) => e !== out[2]).every((e) => e.shadows.length === 0)).toBe(true);
  });

  it('resolves a project without plan invariants and never applies action invariants', () => {
    const out = resolveEffective({ kind: 'project', project: 'myapp' }, seed);
    expect(out.map((e) => e.invariant.id)).toEqual([
      '01M8KJXYP0GVPRF8KRRE9G8474',
      '01M8KJZS90J6DRJJ8E264B9DFX',
      '01M8KJT9G0XNWEM589ZS7FV0VT',
    ]);
  });

  it('gives another project only the global invariants', () => {
    const out = resolveEffective({ kind: 'project', project: 'other' }, seed);
    expect(out.map((e) => e.invariant.text)).toEqual(['Never delete production data', 'Log all changes']);
  });

  it.each([
    ['case', 'LOG ALL CHANGES'],
    ['surrounding and inner white space', '  Log\tall \n changes  '],
    ['NFKC compatibility forms', 'Ｌｏｇ all changes'],
    ['fullwidth letters', 'ＬＯＧ ａｌｌ ｃｈａｎｇｅｓ'],
  ])('de-duplicates %s variants', (_name, variant) => {
    const out = resolveEffective({ kind: 'project', project: 'myapp' }, [
      inv('01M8KJW430VF8WCABSB8RTQ8RY', 'Log all changes', G),
      inv('01M8KJZS90J6DRJJ8E264B9DFX', variant, MYAPP),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.invariant.scope.kind).toBe('project');
    expect(out[0]!.shadows.map((s) => s.id)).toEqual(['01M8KJW430VF8WCABSB8RTQ8RY']);
  });

  it('keeps the oldest id of a same-scope duplicate', () => {
    const out = resolveEffective({ kind: 'project', project: 'x' }, [
      inv('01M8KJZS90J6DRJJ8E264B9DFX', 'Same', G),
      inv('01M8KJW430VF8WCABSB8RTQ8RY', 'same', G),
    ]);
    expect(out.map((e) => e.invariant.id)).toEqual(['01M8KJW430VF8WCABSB8RTQ8RY']);
    expect(out[0]!.shadows).toEqual([
      { id: '01M8KJZS90J6DRJJ8E264B9DFX', scope: 'global', path: 'global/01M8KJZS90J6DRJJ8E264B9DFX.yaml' },
    ]);
  });

  it('leaves inactive invariants out, so they shadow nothing', () => {
    const out = resolveEffective({ kind: 'project', project: 'myapp' }, [
      inv('01M8KJW430VF8WCABSB8RTQ8RY', 'Log all changes', G),
      inv('01M8KJZS90J6DRJJ8E264B9DFX', 'Log all changes', MYAPP, { active: false }),
    ]);
    expect(out.map((e) => [e.invariant.id, e.shadows.length])).toEqual([['01M8KJW430VF8WCABSB8RTQ8RY', 0]]);
  });

  it('keys on NFKC, trimmed, folded, lower-cased text', () => {
    expect(textKey('  Ｎever\u00a0delete\n\nPROD  ')).toBe('never delete prod');
    expect(textKey('Proﬁle changes')).toBe(textKey('profile CHANGES'));
  });
});

describe('resolveEffective properties', () => {
  const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const ulidArb = fc
    .tuple(fc.constantFrom(...'01234567'), fc.string({ unit: fc.constantFrom(...CROCKFORD), minLength: 25, maxLength: 25 }))
    .map(([a, b]) => a + b);
  const scopeArb: fc.Arbitrary<Scope> = fc.oneof(
    fc.constant<Scope>(G),
    fc.constantFrom('a', 'b').map((project): Scope => ({ kind: 'project', project })),
    fc.constantFrom(PLAN, '01M8KK5920RS6CGAVDFVYYJ0B5').map((plan): Scope => ({ kind: 'plan', plan })),
    fc.constant<Scope>({ kind: 'action', ns: 'n', name: 'x' }),
  );
  // Few distinct texts with case and space variants, so keys collide often.
  const textArb = fc
    .tuple(fc.constantFrom('Log all changes', 'Never delete data', 'Ａ b'), fc.boolean(), fc.boolean())
    .map(([t, upper, pad]) => (pad ? `  ${upper ? t.toUpperCase() : t} ` : upper ? t.toUpperCase() : t));
  const invArb = fc
    .record({ id: ulidArb, text: textArb, scope: scopeArb, active: fc.boolean() })
    .map((r) => inv(r.id, r.text, r.scope, { active: r.active }));
  const targetArb: fc.Arbitrary<Target> = fc.oneof(
    fc.constantFrom('a', 'b').map((project): Target => ({ kind: 'project', project })),
    fc
      .tuple(fc.constantFrom(PLAN, '01M8KK5920RS6CGAVDFVYYJ0B5'), fc.option(fc.constantFrom('a', 'b'), { nil: undefined }))
      .map(([plan, project]): Target => (project ? { kind: 'plan', plan, project } : { kind: 'plan', plan })),
  );
  const applies = (i: ScopedInvariant, t: Target) =>
    i.active &&
    (i.scope.kind === 'global' ||
      (i.scope.kind === 'project' && i.scope.project === t.project) ||
      (i.scope.kind === 'plan' && t.kind === 'plan' && i.scope.plan === t.plan));

  it('never holds two equal keys, and every applicable input is kept or shadowed by an equal-or-higher scope', () => {
    fc.assert(
      fc.property(fc.uniqueArray(invArb, { selector: (i) => i.id, maxLength: 30 }), targetArb, (invs, target) => {
        const out = resolveEffective(target, invs);
        const keys = out.map((e) => textKey(e.invariant.text));
        expect(new Set(keys).size).toBe(keys.length);
        const kept = new Map(out.map((e) => [e.invariant.id, e]));
        for (const i of invs.filter((x) => applies(x, target))) {
          if (kept.has(i.id)) continue;
          const by = out.find((e) => e.shadows.some((s) => s.id === i.id));
          expect(by, `${i.id} is neither kept nor shadowed`).toBeDefined();
          expect(textKey(by!.invariant.text)).toBe(textKey(i.text));
          expect(precedence(by!.invariant.scope.kind)).toBeLessThanOrEqual(precedence(i.scope.kind));
        }
        for (const e of out) expect(applies(e.invariant, target)).toBe(true);
      }),
      { numRuns: fcRuns(500) },
    );
  });

  it('orders by precedence, then id', () => {
    fc.assert(
      fc.property(fc.uniqueArray(invArb, { selector: (i) => i.id, maxLength: 30 }), targetArb, (invs, target) => {
        const out = resolveEffective(target, invs).map((e) => e.invariant);
        for (let k = 1; k < out.length; k++) {
          const a = out[k - 1]!;
          const b = out[k]!;
          const d = precedence(a.scope.kind) - precedence(b.scope.kind);
          expect(d < 0 || (d === 0 && a.id < b.id)).toBe(true);
        }
      }),
      { numRuns: fcRuns(300) },
    );
  });
});

describe('textKey', () => {
  it('equals NFKC, lower-cased, its skeleton, trimmed, white space folded, for any text (the ASCII shortcut included)', () => {
    const reference = (t: string) => skeleton(t.normalize('NFKC').toLowerCase()).trim().replace(/\s+/gu, ' ');
    const ws = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u3000', 'A', 'b', 'ﬁ', 'Ⅸ', 'é', 'e\u0301');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: ws }), fc.string({ unit: 'grapheme' })), (t) => {
        expect(textKey(t)).toBe(reference(t));
      }),
      { seed: 20261130, numRuns: fcRuns(3000) },
    );
  });
});
