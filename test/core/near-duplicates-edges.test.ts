import { describe, expect, test } from 'vitest';
import type { Plan, Scope } from '../../src/core/model.ts';
import { canMeet, looseKey, NEAR_MAX_LENGTH, NEAR_MIN_LENGTH, nearKind, oneEditApart } from '../../src/core/near-duplicates.ts';

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
    ['a plan and global', planX, g, true],
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
