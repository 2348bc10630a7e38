import { describe, expect, test } from 'vitest';
import type { Plan, Scope, ScopedInvariant } from '../../src/core/model.ts';
import {
  canMeet,
  findNearDuplicates,
  looseKey,
  NEAR_MAX_LENGTH,
  NEAR_MIN_LENGTH,
  nearDuplicatesOf,
  nearKind,
  nearPairs,
  nearPairsTouching,
  oneEditApart,
} from '../../src/core/near-duplicates.ts';

function inv(id: string, text: string): ScopedInvariant {
  return { id, text, severity: 'error', active: true, tags: [], scope: { kind: 'global' }, path: `global/${id}.yaml` };
}

describe('oneEditApart', () => {
  test.each([
    ['the same key is no edit', 'abcdefgh', 'abcdefgh', false],
    ['one letter changed', 'abcdefgh', 'abcxefgh', true],
    ['the first letter changed', 'abcdefgh', 'xbcdefgh', true],
    ['the last letter changed', 'abcdefgh', 'abcdefgx', true],
    ['two letters changed', 'abcdefgh', 'xbcdefgy', false],
    ['two letters side by side changed', 'abcdefgh', 'abcxyfgh', false],
    ['a digit changed is a different number, not a slip', 'abcd5fgh', 'abcd6fgh', false],
    ['a letter changed into a digit', 'abcdxfgh', 'abcd5fgh', false],
    ['a digit changed into a letter', 'abcd5fgh', 'abcdxfgh', false],
    ['a 9 changed', 'abcd9fgh', 'abcdxfgh', false],
    ['a 0 changed', 'abcd0fgh', 'abcdxfgh', false],
    ['a space changed into a letter (a space sorts before the digits)', 'abcd efgh', 'abcdxefgh', true],
    ['a + added', 'abcdefgh', 'abcd+efgh', true],
    ['a : changed (it sorts just after the digits)', 'abcd:fgh', 'abcdxfgh', true],
    ['one letter added at the end', 'abcdefgh', 'abcdefghi', true],
    ['one letter added inside', 'abcdefgh', 'abcdxefgh', true],
    ['one letter added at the start', 'abcdefgh', 'xabcdefgh', true],
    ['either order', 'abcdefghi', 'abcdefgh', true],
    ['a digit added', 'abcdefgh', 'abcd1efgh', false],
    ['a letter added and one changed', 'abcdefgh', 'abcdxzfgh', false],
    ['a letter added and the last changed', 'abcdefgh', 'abcdxefgz', false],
    ['two letters added', 'abcdefgh', 'abcdefghij', false],
    ['seven letters are too short to compare', 'abcdefg', 'abcdefx', false],
    ['seven and eight letters: too short', 'abcdefg', 'abcdefgh', false],
  ] as const)('%s', (_name, a, b, near) => {
    expect(oneEditApart(a, b)).toBe(near);
  });

  test('the length bounds', () => {
    expect([NEAR_MIN_LENGTH, NEAR_MAX_LENGTH]).toEqual([8, 400]);
    const long = 'a'.repeat(NEAR_MAX_LENGTH - 1);
    expect(oneEditApart(`${long}b`, `${long}c`)).toBe(true);
    expect(oneEditApart(`${long}b`, `${long}bc`)).toBe(false);
    expect(oneEditApart(`${long}bc`, `${long}bd`)).toBe(false);
  });
});

describe('looseKey', () => {
  test.each([
    ['Never, ever!', 'never ever'],
    ['abc.', 'abc'],
    ['...abc', 'abc'],
    [' - a - b - ', 'a b'],
    ['a..b', 'a b'],
    ['a_b', 'a b'],
    ['a—b', 'a b'],
    ['«quoted»', 'quoted'],
    ['a+b $5', 'a+b $5'],
    // Letters beyond ASCII are kept, with or without punctuation to drop.
    ['Naïve café', 'naïve café'],
    ['Naïve café — déjà vu!', 'naïve café déjà vu'],
    ['日本語のテキスト。', '日本語のテキスト'],
    ['plain words', 'plain words'],
    ['x', 'x'],
    ['!!!', ''],
    ['a\u00a0b!', 'a b'],
  ])('%j → %j', (text, key) => {
    expect(looseKey(text)).toBe(key);
  });
});

describe('nearKind', () => {
  test('equal keys are duplicates, not near ones; punctuation alone; one edit; nothing', () => {
    expect(nearKind({ text: 'Log ALL changes' }, { text: 'log all changes' })).toBeUndefined();
    expect(nearKind({ text: 'Log all changes.' }, { text: 'log all changes' })).toBe('punctuation');
    expect(nearKind({ text: '!!!' }, { text: '???' })).toBeUndefined();
    expect(nearKind({ text: 'Log all changes' }, { text: 'Log all chnges' })).toBe('one-edit');
    expect(nearKind({ text: 'Log all changes' }, { text: 'Keep every backup' })).toBeUndefined();
  });
  test('loose keys given are used as they are', () => {
    expect(nearKind({ text: 'one', loose: 'same' }, { text: 'two', loose: 'same' })).toBe('punctuation');
  });
});

describe('canMeet', () => {
  const PLAN_A = '01M8KK5920RS6CGAVDFVYYJ0B4';
  const plans = new Map<string, Plan>([[PLAN_A, { id: PLAN_A, project: 'alpha' }]]);
  const g: Scope = { kind: 'global' };
  const alpha: Scope = { kind: 'project', project: 'alpha' };
  const beta: Scope = { kind: 'project', project: 'beta' };
  const planA: Scope = { kind: 'plan', plan: PLAN_A };
  const planX: Scope = { kind: 'plan', plan: '01M8KK7W00HBN1G5Q8TJ4Z2VXC' };
  const act = (ns: string, name: string): Scope => ({ kind: 'action', ns, name });
  test.each([
    ['one action template', act('n', 'x'), act('n', 'x'), true],
    ['two action names', act('n', 'x'), act('n', 'y'), false],
    ['two action namespaces', act('n', 'x'), act('m', 'x'), false],
    ['an action and the global scope', act('n', 'x'), g, false],
    ['the global scope and an action', g, act('n', 'x'), false],
    ['global and a project', g, beta, true],
    ['a project and global', beta, g, true],
    ['a plan and global', planX, g, true],
    ['a plan of a known project and global', planA, g, true],
    ['one project', alpha, alpha, true],
    ['two projects', alpha, beta, false],
    ['one plan', planA, planA, true],
    ['two plans', planA, planX, false],
    ['a plan and its project', planA, alpha, true],
    ['a project and its plan', alpha, planA, true],
    ['a plan and another project', planA, beta, false],
    ['a plan whose plan file is missing', planX, alpha, false],
  ] as const)('%s', (_name, x, y, meet) => {
    expect(canMeet({ scope: x }, { scope: y }, plans)).toBe(meet);
  });
});

describe('nearPairs and nearPairsTouching: the exact pairs, in their order', () => {
  const keys = [
    'never delete production data',
    'never delete production date',
    'never delete prod data',
    'nver delete production data',
    'never delete production data',
    'never delete production dataset',
    'keep every backup',
    'keep every backups',
    // Shares its first half with 0 and 4 (so a hash), four edits from them.
    'never delete production xyzw',
  ];

  test('nearPairs: every pair once, smaller index first, no pair that is not near, sorted', () => {
    expect(nearPairs(keys)).toEqual([
      [0, 1],
      [0, 3],
      [0, 4],
      [1, 4],
      [3, 4],
      [6, 7],
    ]);
  });

  test('nearPairs: empty keys are never paired, not even with each other', () => {
    expect(nearPairs(['', '', 'abcdefgh', ''])).toEqual([]);
  });

  test('nearPairs: the shortest and longest lengths compared, as the shorter and as the longer of a pair', () => {
    expect(nearPairs(['abcdefgh', 'abcdefghi'])).toEqual([[0, 1]]);
    expect(nearPairs(['abcdefghi', 'abcdefgh'])).toEqual([[0, 1]]);
    expect(nearPairs(['xbcdefgh', 'abcdefghi'])).toEqual([]);
    const long = 'a'.repeat(NEAR_MAX_LENGTH - 1);
    expect(nearPairs([long, `${long}b`])).toEqual([[0, 1]]);
    expect(nearPairs([`${long}b`, `${long}bc`])).toEqual([]);
  });

  test('nearPairsTouching: a small focus is checked against keys of a near length, in the order of the lengths', () => {
    // One focused key of eight (exactly one in eight: still the direct search), then of nine: its
    // pairs by length (27, then 28), not in the order nearPairs finds them.
    expect(nearPairsTouching(keys.slice(0, 8), new Set([0]))).toEqual([
      [0, 3],
      [0, 1],
      [0, 4],
    ]);
    expect(nearPairsTouching(keys, new Set([0]))).toEqual([
      [0, 3],
      [0, 1],
      [0, 4],
    ]);
    expect(nearPairsTouching(keys, new Set([7]))).toEqual([[6, 7]]);
    expect(nearPairsTouching(keys, new Set())).toEqual([]);
  });

  test('nearPairsTouching: a focus of more than one key in eight falls back to nearPairs, in its order', () => {
    expect(nearPairsTouching(keys, new Set([1, 0]))).toEqual([
      [0, 1],
      [0, 3],
      [0, 4],
      [1, 4],
    ]);
  });

  test('nearPairsTouching: an empty focused key meets nothing, not even another empty key', () => {
    expect(nearPairsTouching(['', 'a', '', ...keys], new Set([0]))).toEqual([]);
  });
});

describe('findNearDuplicates: each pair older first, sorted', () => {
  test('by the older id first, then by the newer, whichever pair is found first', () => {
    const texts = ['Keep every backup', 'Keep every backups', 'Never delete production data', 'Never delete production data.'];
    const pairs = (ids: string[]) =>
      findNearDuplicates(
        texts.map((t, i) => inv(ids[i]!, t)),
        new Map(),
      ).map((p) => [p.a.id, p.b.id]);
    // The two pairs cross: one has the older first id, the other the older second id.
    expect(pairs(['A', 'D', 'B', 'C'])).toEqual([
      ['A', 'D'],
      ['B', 'C'],
    ]);
    expect(pairs(['B', 'C', 'A', 'D'])).toEqual([
      ['A', 'D'],
      ['B', 'C'],
    ]);
  });

  test('whatever the order of the invariants and of the pairs found', () => {
    const found = findNearDuplicates(
      [
        inv('C', 'Never delete production data.'),
        inv('A', 'Never delete production data'),
        inv('B', 'Never delete production dta'),
        inv('E', 'Keep every backups!'),
        inv('D', 'Keep every backup'),
      ],
      new Map(),
    );
    expect(found.map((p) => [p.a.id, p.b.id, p.kind])).toEqual([
      ['A', 'B', 'one-edit'],
      ['A', 'C', 'punctuation'],
      ['B', 'C', 'one-edit'],
      ['D', 'E', 'one-edit'],
    ]);
  });
});

describe('nearDuplicatesOf', () => {
  test('the near ones among others one character longer, shorter or of the same length, in their order', () => {
    const others = ['Log all chnges', 'log all changes!!', 'Keep every backup', 'Log all changed', 'Log all chairs', 'Log all changes'].map(
      (t, i) => ({ invariant: inv(String(i), t), loose: looseKey(t) }),
    );
    expect(nearDuplicatesOf('Log all changes', others).map((m) => [m.invariant.id, m.kind])).toEqual([
      ['0', 'one-edit'],
      ['1', 'punctuation'],
      ['3', 'one-edit'],
    ]);
  });

  test('a text of punctuation alone has none', () => {
    const others = ['???', 'x', '!!!'].map((t, i) => ({ invariant: inv(String(i), t), loose: looseKey(t) }));
    expect(nearDuplicatesOf('!!!', others)).toEqual([]);
  });
});
