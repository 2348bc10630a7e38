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

describe('pickId: what each refusal says', () => {
  const ids = ['01M8PPW4BG0000000000000001', '01M8PPW4BG0000000000000002', '01M8PQ00000000000000000000'];
  const refusal = (prefix: string, what: string, hint: string, describe?: (id: string) => string) => {
    try {
      pickId(prefix, ids, what, hint, describe);
    } catch (e) {
      const err = e as AgentsError;
      return { message: err.message, hint: err.hint, code: err.exitCode };
    }
    throw new Error('not refused');
  };

  it('not an id: "a" or "an" by the word, and the hint joined or alone', () => {
    expect(refusal('01M', 'plan', 'Run `agents plan list` to see the plans.')).toEqual({
      message: '"01M" is not a plan id or a prefix of one',
      hint: 'Give the full id or at least 4 of its first characters. Run `agents plan list` to see the plans.',
      code: 2,
    });
    expect(refusal('x', 'invariant', '')).toEqual({
      message: '"x" is not an invariant id or a prefix of one',
      hint: 'Give the full id or at least 4 of its first characters.',
      code: 2,
    });
  });

  it('unknown: a prefix is called a prefix, a full id an id', () => {
    expect(refusal('01m9', 'plan', 'h')).toEqual({ message: 'no plan with id prefix 01M9', hint: 'h', code: 2 });
    expect(refusal('01M8PPW4BG0000000000000009', 'plan', 'h').message).toBe('no plan with id 01M8PPW4BG0000000000000009');
  });

  it('unknown: code unknown-id, with the id and the ids sharing the longest start with it', () => {
    const codeOf = (prefix: string) => {
      try {
        pickId(prefix, ids, 'invariant', 'h');
      } catch (e) {
        const err = e as AgentsError;
        return { code: err.code, detail: err.detail };
      }
      throw new Error('not refused');
    };
    expect(codeOf('01M8PPW4BG0000000000000009')).toEqual({
      code: 'unknown-id',
      detail: { id: '01M8PPW4BG0000000000000009', suggestions: [ids[0], ids[1]] },
    });
    expect(codeOf('01m8pq01')).toEqual({ code: 'unknown-id', detail: { id: '01M8PQ01', suggestions: [ids[2]] } });
    expect(codeOf('7ZZZ')).toEqual({ code: 'unknown-id', detail: { id: '7ZZZ', suggestions: [] } });
  });

  it('ambiguous: each match on its own line, described', () => {
    expect(refusal('01M8PPW4BG', 'invariant', 'h', (id) => `${id} (x)`)).toEqual({
      message: `invariant id prefix 01M8PPW4BG is ambiguous; it matches:\n  ${ids[0]} (x)\n  ${ids[1]} (x)`,
      hint: 'Give more characters of the id.',
      code: 2,
    });
  });

  it('a prefix of 26 characters is the most it takes; white space around it is dropped', () => {
    expect(resolvePrefix(` ${ids[2]} `, ids)).toEqual({ kind: 'unique', id: ids[2] });
    expect(resolvePrefix('01M8', ids).kind).toBe('ambiguous');
    expect(resolvePrefix('01M8PQ', ['01M8PQ00000000000000000000', '01M8PQ00000000000000000000'])).toEqual({
      kind: 'unique',
      id: '01M8PQ00000000000000000000',
    });
    // Not base32 anywhere in it, not only at its start or end.
    expect(resolvePrefix('01IL', ids).kind).toBe('invalid');
    expect(resolvePrefix('U01M', ids).kind).toBe('invalid');
  });
});

describe('IdAbbreviations: neighbours on both sides', () => {
  it('an id is told apart from the id before it and the one after it', () => {
    const ids = ['01AAAA1', '01AAAAB2', '01AAAAB3', '01ZZ'];
    const a = new IdAbbreviations(ids);
    expect(ids.map((id) => a.short(id))).toEqual(['01AAAA1', '01AAAAB2', '01AAAAB3', '01ZZ']);
    expect(new IdAbbreviations(['01AB', '01AB']).short('01AB')).toBe('01AB');
    expect(new IdAbbreviations(['01ABCDEF'], 6).short('01ABCDEF')).toBe('01ABCD');
  });

  it('an id not in the set is measured against the ids it would sit between', () => {
    const a = new IdAbbreviations(['01AAAA', '01CCCC', '01CCDD']);
    expect(a.short('01AAAB')).toBe('01AAAB');
    expect(a.short('01BBBB')).toBe('01BB');
    expect(a.short('01CCCE')).toBe('01CCCE');
    expect(a.short('01CCB0')).toBe('01CCB');
    expect(a.short('01ZZZZ')).toBe('01ZZ');
    expect(a.short('00')).toBe('00');
    expect(new IdAbbreviations([]).short('01ABCDEF')).toBe('01AB');
  });

  it('measures ids in any case, as resolvePrefix takes them, and gives the prefix in the case asked', () => {
    const ids = ['01M9300FBS3J3X2W6AWQWFQDYZ', '01M9300FBS3J3X2W6AWQWFQDZ0'];
    const a = new IdAbbreviations(ids);
    const short = a.short(ids[0]!.toLowerCase());
    expect(short).toBe('01m9300fbs3j3x2w6awqwfqdy');
    expect(resolvePrefix(short, ids)).toEqual({ kind: 'unique', id: ids[0] });
    expect(new IdAbbreviations(ids.map((id) => id.toLowerCase())).short(ids[1]!)).toBe('01M9300FBS3J3X2W6AWQWFQDZ');
  });
});

describe('resolvePrefix and pickId: ids in any order', () => {
  it('an id equal to the prefix wins over longer ids that start with it', () => {
    expect(resolvePrefix('01ab', ['01ABC', '01AB', '01ABD'])).toEqual({ kind: 'unique', id: '01AB' });
  });

  it('lists the matches of an ambiguous prefix sorted, whatever the order of the ids', () => {
    expect(resolvePrefix('01AB', ['01ABZ', '01ABC', '01ABM'])).toEqual({
      kind: 'ambiguous',
      prefix: '01AB',
      matches: ['01ABC', '01ABM', '01ABZ'],
    });
  });

  it('an ambiguous prefix of many ids lists the first 20 and counts the others; detail.matches holds them all', () => {
    const many = sameMillisecond(1000);
    let err: AgentsError | undefined;
    try {
      pickId(many[0]!.slice(0, 4), many, 'invariant', 'h');
    } catch (e) {
      err = e as AgentsError;
    }
    expect(err?.detail).toEqual({ matches: [...many].sort() });
    const lines = err!.message.split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines.slice(1, 21)).toEqual(
      [...many]
        .sort()
        .slice(0, 20)
        .map((id) => `  ${id}`),
    );
    expect(lines[21]).toContain('980');
  });

  it('without a describe, an ambiguous prefix lists the matching ids themselves', () => {
    expect(() => pickId('01AB', ['01ABD', '01ABC'], 'plan', 'h')).toThrow(
      'plan id prefix 01AB is ambiguous; it matches:\n  01ABC\n  01ABD',
    );
  });
});

describe('IdAbbreviations: ids in any order', () => {
  it('gives the same abbreviations as for the sorted ids', () => {
    const ids = ['01XYZ456', '01ABCDEF', '01XYZ123'];
    const a = new IdAbbreviations(ids);
    expect(ids.map((id) => a.short(id))).toEqual(['01XYZ4', '01AB', '01XYZ1']);
    expect(a.short('01XYZ999')).toBe('01XYZ9');
  });

  it('an id that is the start of another needs all its characters, and the longer one one more', () => {
    const a = new IdAbbreviations(['01ABCD', '01ABCDEF']);
    expect(a.short('01ABCD')).toBe('01ABCD');
    expect(a.short('01ABCDEF')).toBe('01ABCDE');
  });
});
