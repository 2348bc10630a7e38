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

describe('textKey sees look-alike letters under a mark', () => {
  test('a Cyrillic е or ё with a mark is the Latin letter with it, however the mark is written', () => {
    const cafe = textKey('Keep the café open');
    expect(textKey('Keep the caf\u0435\u0301 open')).toBe(cafe);
    expect(textKey('Keep the caf\u0435\u200b\u0301 open')).toBe(cafe);
    expect(textKey('Keep the caf\u0451 open')).toBe(textKey('Keep the cafë open'));
    // Within Cyrillic the two letters stay distinct.
    expect(textKey('\u0451\u0436')).not.toBe(textKey('\u0435\u0436'));
  });

  test('a key is its own key: keys compare the same however often they are taken', () => {
    const unit = fc.constantFrom(
      ...'aBe \t',
      '\u00a0',
      '\u200b',
      '\u00ad',
      '\u0435',
      '\u0415',
      '\u0451',
      '\u03bf',
      '\u03ac',
      '\u0301',
      '\u0308',
      'é',
      'İ',
      'ß',
      '\ufb01',
      '\u212a',
      '\u3000',
      'Σ',
      'ς',
      '①',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 10 }), (text) => {
        expect(textKey(textKey(text))).toBe(textKey(text));
      }),
      { seed: 20261205, numRuns: fcRuns(2000) },
    );
  });
});

describe('cleanText', () => {
  test('trims the ends and keeps inner spacing as written', () => {
    expect(cleanText('  a  b\tc \n')).toBe('a  b\tc');
  });
});
