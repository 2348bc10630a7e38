import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cleanText, textKey } from '../../src/core/normalise.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

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

describe('textKey on ASCII text (its fast path)', () => {
  /** The definition, applied in full: what the fast path must give for every ASCII text. */
  const definition = (text: string) => text.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();

  test('gives what the full definition gives, for any ASCII text (white space of every kind included)', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...' \t\n\r\v\fAbz09.-'.split(''), 'x', 'Y'), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: 'binary-ascii', maxLength: 40 })), (text) => {
        expect(textKey(text)).toBe(definition(text));
      }),
      { seed: 20261202, numRuns: fcRuns(2000) },
    );
  });
});

describe('cleanText', () => {
  test('trims the ends and keeps inner spacing as written', () => {
    expect(cleanText('  a  b\tc \n')).toBe('a  b\tc');
  });
});
