import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import { AgentsError } from '../../src/core/errors.ts';
import { IdAbbreviations, pickId, resolvePrefix, shortestUniquePrefix } from '../../src/core/id-prefix.ts';

/** Ids made in one millisecond, as `plan use` makes them: they share 10+ leading characters. */
function sameMillisecond(n: number): string[] {
  const next = monotonicFactory();
  const t = Date.UTC(2026, 10, 30, 12);
  return Array.from({ length: n }, () => next(t));
}

describe('resolvePrefix', () => {
  const ids = ['01M8PPW4BG0000000000000001', '01M8PPW4BG0000000000000002', '01M8PQ00000000000000000000'];
  it.each([
    ['a full id', '01M8PPW4BG0000000000000001', { kind: 'unique', id: ids[0] }],
    ['a unique prefix, in lower case', '01m8pq', { kind: 'unique', id: ids[2] }],
    ['an ambiguous prefix', '01M8PPW4BG', { kind: 'ambiguous', prefix: '01M8PPW4BG', matches: [ids[0], ids[1]] }],
    ['an unknown prefix', '01M9', { kind: 'unknown', prefix: '01M9' }],
    ['too short', '01M', { kind: 'invalid', prefix: '01M' }],
    ['not base32', '01M8-U', { kind: 'invalid', prefix: '01M8-U' }],
    ['longer than an id', `${ids[0]}0`, { kind: 'invalid', prefix: `${ids[0]}0` }],
  ])('%s', (_name, prefix, expected) => {
    expect(resolvePrefix(prefix, ids)).toEqual(expected);
  });

  it('pickId turns each case into the id or a usage error (exit 2) with the matches', () => {
    expect(pickId('01m8pq', ids, 'plan', '')).toBe(ids[2]);
    for (const bad of ['01M8PPW4BG', '01M9', '01M']) {
      const error = (() => {
        try {
          pickId(bad, ids, 'invariant', 'hint');
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(AgentsError);
      expect((error as AgentsError).exitCode).toBe(2);
    }
    try {
      pickId('01M8PPW4BG', ids, 'invariant', '');
    } catch (e) {
      expect((e as AgentsError).detail).toEqual({ matches: [ids[0], ids[1]] });
    }
  });
});

describe('IdAbbreviations', () => {
  it('gives at least 4 characters, more where ids share a longer prefix', () => {
    const ids = ['01ABCDEF', '01XYZ123', '01XYZ456'];
    const a = new IdAbbreviations(ids);
    expect(ids.map((id) => a.short(id))).toEqual(['01AB', '01XYZ1', '01XYZ4']);
    expect(shortestUniquePrefix('01XYZ999', ids)).toBe('01XYZ9');
  });

  it('round-trips every id made in one millisecond: the abbreviation resolves back to it, and nothing shorter would', () => {
    const ids = sameMillisecond(500);
    expect(ids[0]!.slice(0, 10)).toBe(ids[499]!.slice(0, 10));
    const a = new IdAbbreviations(ids);
    for (const id of ids) {
      const short = a.short(id);
      expect(short.length).toBeGreaterThanOrEqual(11);
      expect(resolvePrefix(short, ids)).toEqual({ kind: 'unique', id });
      expect(resolvePrefix(short.slice(0, -1), ids).kind).toBe(short.length > 4 ? 'ambiguous' : 'invalid');
    }
  });
});
