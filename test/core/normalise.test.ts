import { describe, expect, test, vi } from 'vitest';
import { cleanText, textKey } from '../../src/core/normalise.ts';

describe('textKey', () => {
  test.each([
    ['Log All Changes', 'log all changes'],
    ['  padded  ', 'padded'],
    ['a  b', 'a b'],
    ['a\tb', 'a b'],
    ['a\nb', 'a b'],
    ['a\r\nb', 'a b'],
    ['a\vb', 'a b'],
    ['a\fb', 'a b'],
    ['a \t \n b   c', 'a b c'],
    ['a b c', 'a b c'],
    // Not ASCII: NFKC, and Unicode white space folded too.
    ['ﬁle ＡＢ', 'file ab'],
    ['café  crème', 'café crème'],
    ['x\u00a0\u2003y', 'x y'],
    ['\u3000Ünïcode\u3000', 'ünïcode'],
    ['', ''],
  ])('%j → %j', (text, key) => {
    expect(textKey(text)).toBe(key);
  });

  test('an ASCII text and the same text with one non-ASCII letter fold spacing alike', () => {
    expect(textKey('Never\t\tDelete  data')).toBe('never delete data');
    expect(textKey('Never\t\tDelete  datä')).toBe('never delete datä');
  });
});

describe('textKey on ASCII text (the fast path of docs/performance-log.md, "Text keys")', () => {
  /** Which of the costly steps textKey ran for `text`. */
  function steps(text: string): { normalize: number; replace: number } {
    const normalize = vi.spyOn(String.prototype, 'normalize');
    const replace = vi.spyOn(String.prototype, 'replace');
    try {
      textKey(text);
      return { normalize: normalize.mock.calls.length, replace: replace.mock.calls.length };
    } finally {
      normalize.mockRestore();
      replace.mockRestore();
    }
  }

  test('never normalises: ASCII is its own NFKC form', () => {
    expect(steps('Never delete production data')).toEqual({ normalize: 0, replace: 0 });
    expect(steps('x')).toEqual({ normalize: 0, replace: 0 });
  });

  test('folds only where there is something to fold: a run of spaces, or another white space', () => {
    expect(steps('  Keep single spaces  ')).toEqual({ normalize: 0, replace: 0 });
    expect(steps('Two  spaces')).toEqual({ normalize: 0, replace: 1 });
    expect(steps('A\ttab')).toEqual({ normalize: 0, replace: 1 });
  });

  test('text with a character past ASCII takes the general path', () => {
    expect(steps('Café')).toEqual({ normalize: 1, replace: 1 });
  });
});

describe('cleanText', () => {
  test('trims the ends and keeps inner spacing as written', () => {
    expect(cleanText('  a  b\tc \n')).toBe('a  b\tc');
  });
});
