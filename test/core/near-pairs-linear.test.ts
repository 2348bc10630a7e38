import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looseKey, type NearStats, nearPairs, oneEditApart } from '../../src/core/near-duplicates.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

/** The definition nearPairs keeps: every pair of equal non-empty keys, or of keys one edit apart (each once, smaller index first). */
function pairwise(keys: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i++)
    for (let j = i + 1; j < keys.length; j++) {
      const a = keys[i]!;
      const b = keys[j]!;
      if ((a === b && a !== '') || oneEditApart(a, b)) out.push(`${i},${j}`);
    }
  return out.sort();
}

function found(keys: readonly string[], stats?: NearStats): string[] {
  const pairs = nearPairs(keys, stats);
  for (const [a, b] of pairs) expect(a).toBeLessThan(b);
  return pairs.map(([a, b]) => `${a},${b}`).sort();
}

// Texts as stores generated per service are: a subject, a verb, an object and a counter, so many share a half.
const SUBJECTS = ['The deploy pipeline', 'Every public API', 'The billing service', 'Schema migrations', 'The auth module'];
const VERBS = ['must', 'must never', 'should', 'is required to', 'shall'];
const OBJECTS = [
  'validate input before writing to the database',
  'emit a structured audit event',
  'run idempotently when retried',
  'keep p99 latency under 200 ms',
  'redact secrets from error messages',
];

/** A seeded generator (xorshift), so the counted work is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

/** `n` templated texts' loose keys, one in fifty followed by a twin one edit or one full stop away. */
function templated(n: number, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const out: string[] = [];
  for (let k = 0; out.length < n; k++) {
    const text = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} (#${k}).`;
    const key = looseKey(text);
    out.push(key);
    // The twin: a letter of the subject deleted, or replaced.
    if (k % 50 === 0 && out.length < n) out.push(k % 100 === 0 ? key.slice(0, 5) + key.slice(6) : `${key.slice(0, 6)}q${key.slice(7)}`);
  }
  return out;
}

const edit = (s: string, at: number, op: number, ch: string) =>
  op === 0 ? s.slice(0, at) + ch + s.slice(at) : op === 1 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + ch + s.slice(at + 1);

describe('nearPairs (deletion neighbourhood) finds exactly the pairwise definition', () => {
  it('on random keys over a small alphabet (many equal and one-edit pairs, digits, repeated letters)', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', 'a', ' ', '1', 'é'), minLength: 0, maxLength: 11 });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 40 }), (keys) => {
        expect(found(keys)).toEqual(pairwise(keys));
      }),
      { numRuns: fcRuns(300) },
    );
  });

  it('on templated keys with random edits, copies and lengths at the bounds', () => {
    const base = templated(60, 3);
    const long = `${'x'.repeat(396)}abcd`;
    const arb = fc.array(
      fc.record({
        from: fc.nat(base.length + 1),
        at: fc.nat(500),
        op: fc.nat(3),
        ch: fc.constantFrom('e', '1', ' ', 'x', 'é'),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(arb, (edits) => {
        const keys = [...base, long, `${long.slice(0, 399)}`, 'abcdefg', 'abcdefgh'];
        for (const e of edits) {
          const s = keys[e.from % keys.length]!;
          // op 3: an exact copy (a duplicate text in another scope).
          keys.push(e.op === 3 ? s : edit(s, e.at % (s.length + 1), e.op, e.ch));
        }
        expect(found(keys)).toEqual(pairwise(keys));
      }),
      { numRuns: fcRuns(60) },
    );
  });
});

describe('nearPairs counts its work, not its time', () => {
  it('examines at most 15 times the pairs and hashes on 20,000 templated texts as on 2,000 (linear is 10)', () => {
    const small: NearStats = { examined: 0, hashes: 0 };
    const large: NearStats = { examined: 0, hashes: 0 };
    const smallPairs = nearPairs(templated(2_000, 5), small).length;
    const largePairs = nearPairs(templated(20_000, 5), large).length;
    // The planted twins are found at both sizes, so the counts are not both nothing.
    expect(smallPairs).toBeGreaterThanOrEqual(38);
    expect(largePairs).toBeGreaterThanOrEqual(380);
    expect(small.examined).toBeGreaterThan(0);
    expect(large.examined).toBeLessThanOrEqual(15 * small.examined);
    expect(large.hashes).toBeLessThanOrEqual(15 * small.hashes);
  });
});
