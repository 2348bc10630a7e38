import { describe, expect, test } from 'vitest';
import { closestNames, didYouMean, editDistance, foldName, isCloseName, someNames } from '../../src/core/closest.ts';

describe('editDistance', () => {
  test.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['a', 'b', 1],
    ['ab', 'ba', 2],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['abc', 'abxc', 1],
  ] as const)('%j to %j: %i edits', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  test('a distance equal to the bound is given exactly; one past it is bound + 1', () => {
    expect(editDistance('abc', 'abd', 1)).toBe(1);
    expect(editDistance('abcd', 'abxy', 2)).toBe(2);
    expect(editDistance('abc', 'abcde', 2)).toBe(2);
    expect(editDistance('abc', 'abd', 0)).toBe(1);
    expect(editDistance('aaaa', 'bbbb', 1)).toBe(2);
    expect(editDistance('abcdef', 'xyz', 1)).toBe(2);
    expect(editDistance('abcdef', 'abcxyz', 2)).toBe(3);
  });
});

describe('foldName', () => {
  test('drops case and runs of -, _, . and white space', () => {
    expect(foldName('Billing_API')).toBe('billingapi');
    expect(foldName('billing-api')).toBe('billingapi');
    expect(foldName('a.b -_c\td')).toBe('abcd');
  });
});

describe('isCloseName', () => {
  test.each([
    ['the same name is not a slip for itself', 'billing', 'billing', false],
    ['equal once case and separators are dropped', 'Billing_API', 'billing-api', true],
    ['folding makes short names close too', 'Q-A', 'qa', true],
    ['two short names a letter apart are not close', 'qa', 'ui', false],
    ['a two-letter name one edit from a longer one is not close', 'ab', 'abc', false],
    ['three letters one edit apart are close', 'abc', 'abd', true],
    ['two edits apart are close', 'abcdef', 'abcdxy', true],
    ['three edits apart are not', 'abcdef', 'abcxyz', false],
    ['edits are counted without case', 'Abcde', 'aBcxy', true],
  ] as const)('%s', (_name, a, b, close) => {
    expect(isCloseName(a, b)).toBe(close);
    expect(isCloseName(b, a)).toBe(close);
  });
});

describe('closestNames', () => {
  test('folded matches first, then by edits, then names it starts or that start it; ties by name', () => {
    const candidates = ['billingservice', 'bill', 'invoices', 'billings', 'biling', 'Billing', 'billing'];
    expect(closestNames('billing', candidates, 10)).toEqual(['Billing', 'biling', 'billings', 'bill', 'billingservice']);
    expect(closestNames('billing', candidates)).toEqual(['Billing', 'biling', 'billings']);
    expect(closestNames('billing', candidates, 1)).toEqual(['Billing']);
  });

  test('the name itself is never suggested, and a candidate given twice appears once', () => {
    expect(closestNames('abcdx', ['abcdx', 'abcdy', 'abcdy'])).toEqual(['abcdy']);
  });

  test('edits allowed: a third of the length, at least one, at most two', () => {
    // Two letters: one edit.
    expect(closestNames('ab', ['xy', 'ax', 'abc'])).toEqual(['abc', 'ax']);
    // Five letters: one edit (not two).
    expect(closestNames('abcde', ['abcxy', 'abcdx'])).toEqual(['abcdx']);
    // Six letters: two edits.
    expect(closestNames('abcdef', ['abcxyz', 'abcdxy'])).toEqual(['abcdxy']);
    // Nine letters: still two (not three).
    expect(closestNames('abcdefghi', ['abcdefxyz', 'abcdefgxy'])).toEqual(['abcdefgxy']);
  });

  test('prefixes count from three letters, either way round, without case', () => {
    expect(closestNames('Bill', ['BILLINGS'])).toEqual(['BILLINGS']);
    expect(closestNames('billingservice', ['billing'])).toEqual(['billing']);
    expect(closestNames('ab', ['abcdef'])).toEqual([]);
    expect(closestNames('abc', ['abcdefg'])).toEqual(['abcdefg']);
  });

  test('two neighbouring letters swapped count as one edit', () => {
    expect(closestNames('sbu', ['sub', 'sbx', 'sob'])).toEqual(['sbx', 'sub']);
    expect(closestNames('sbu', ['sub'])).toEqual(['sub']);
    expect(closestNames('ofo', ['foo'])).toEqual(['foo']);
    expect(closestNames('billnig', ['billing'])).toEqual(['billing']);
    // A swap of letters that are not neighbours is two edits, as before.
    expect(closestNames('bus', ['sub'])).toEqual([]);
  });

  test('edits are counted without case', () => {
    expect(closestNames('BILLING', ['biling'])).toEqual(['biling']);
  });

  test('nothing close: no suggestion', () => {
    expect(closestNames('billing', ['invoices', 'users'])).toEqual([]);
    expect(closestNames('billing', [])).toEqual([]);
  });
});

describe('didYouMean', () => {
  test('none, one, two and three suggestions', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a'])).toBe('did you mean a?');
    expect(didYouMean(['a', 'b'])).toBe('did you mean a or b?');
    expect(didYouMean(['a', 'b', 'c'])).toBe('did you mean a, b or c?');
  });
});

describe('editDistance at its bound', () => {
  test('an empty string against a longer one than the bound allows gives bound + 1', () => {
    expect(editDistance('', 'abcd', 2)).toBe(3);
    expect(editDistance('abcd', '', 2)).toBe(3);
  });

  test('a distance well past the bound, found only in the last cell, still gives bound + 1', () => {
    // Every row holds a value within one edit; the whole strings are three apart.
    expect(editDistance('ab', 'bca')).toBe(3);
    expect(editDistance('ab', 'bca', 1)).toBe(2);
  });
});

describe('closestNames: folding and ties', () => {
  test('a name equal once separators are dropped is suggested however many separators differ', () => {
    expect(closestNames('a-b-c-d', ['abcd'])).toEqual(['abcd']);
    expect(closestNames('billing', ['b.i.l.l.i.n.g'])).toEqual(['b.i.l.l.i.n.g']);
  });

  test('names at the same distance come in name order, whatever order they are given in', () => {
    expect(closestNames('abcd', ['abcy', 'abcx', 'abcz'], 10)).toEqual(['abcx', 'abcy', 'abcz']);
    expect(closestNames('abcd', ['abcx', 'abcz', 'abcy'], 10)).toEqual(['abcx', 'abcy', 'abcz']);
    expect(closestNames('abcd', ['abcz', 'abcy', 'abcx'], 10)).toEqual(['abcx', 'abcy', 'abcz']);
  });
});

describe('someNames', () => {
  test('lists a few names whole, says (none) for none', () => {
    expect(someNames([], { more: 'see the list' })).toBe('(none)');
    expect(someNames(['api', 'web'], { more: 'see the list' })).toBe('api, web');
    const ten = Array.from({ length: 10 }, (_, i) => `p${i}`);
    expect(someNames(ten, { more: 'see the list' })).toBe(ten.join(', '));
  });

  test('lists the first ten of many and counts the rest', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `p${i}`);
    expect(someNames(many, { more: 'see the list' })).toBe(`${many.slice(0, 10).join(', ')} and 990 more (see the list)`);
  });
});
