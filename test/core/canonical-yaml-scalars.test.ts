import { parseAllDocuments } from 'yaml';
import { describe, expect, test } from 'vitest';
import { parseCanonicalYaml } from '../../src/core/canonical-yaml.ts';

/** What `yaml` gives for a one-key document: its value, or 'refused' when it reports an error. */
function reference(source: string): unknown {
  const docs = parseAllDocuments(source, { prettyErrors: false, uniqueKeys: true, schema: 'core', version: '1.2' });
  if (!Array.isArray(docs) || docs.length !== 1) return 'refused';
  const doc = docs[0]!;
  if (doc.errors.length > 0 || doc.contents === null) return 'refused';
  return (doc.toJS() as { text: unknown }).text;
}

// Quoted scalars written by hand: the tool never writes these forms, so the
// generated differential test does not reach them. Each row gives the scalar
// as written after `text: `, and what it means (yaml agrees, checked below).
describe('parseCanonicalYaml: quoted scalars it reads', () => {
  const read: [string, string][] = [
    ['"a\\/b"', 'a/b'],
    ['"a\\bb"', 'a\bb'],
    ['"a\\fb"', 'a\fb'],
    ['"a\\\\b"', 'a\\b'],
    ['"say \\"hi\\""', 'say "hi"'],
    ['"a\\nb\\tc\\rd"', 'a\nb\tc\rd'],
    ['"nul\\0"', 'nul\0'],
    ['"caf\\u00e9"', 'café'],
    ['"caf\\u00E9!"', 'café!'],
    ['"\\x41\\x42"', 'AB'],
    ['"\\u00a0"', '\u00a0'],
    ['"plain inside"', 'plain inside'],
    ['""', ''],
    ["'single'", 'single'],
    ["'it''s'", "it's"],
    ["''''", "'"],
    ["''", ''],
    ['\'a "b" \\n\'', 'a "b" \\n'],
  ];
  test.each(read)('text: %s', (scalar, value) => {
    const source = `text: ${scalar}\n`;
    expect(reference(source)).toBe(value);
    expect(parseCanonicalYaml(source)).toEqual({ text: value });
  });
});

describe('parseCanonicalYaml: scalars it leaves to yaml', () => {
  const declined: string[] = [
    // Unterminated, or ended early.
    '"abc',
    '"',
    '"a\\"',
    '"a"b"',
    '"a\\',
    "'abc",
    "'",
    "'a'b'",
    "'it's'",
    // Escapes it does not read itself: unknown, short, not hex, controls, surrogates, 8 digits.
    '"\\q"',
    '"\\x4"',
    '"\\xg1"',
    '"\\u00e"',
    '"\\u12g4"',
    '"\\x01"',
    '"\\u001f"',
    '"\\x7f"',
    '"\\u0085"',
    '"\\ud800"',
    '"\\udfff"',
    '"\\U0001F600"',
    '"\\e"',
    '"\\ "',
  ];
  test.each(declined)('text: %s', (scalar) => {
    expect(parseCanonicalYaml(`text: ${scalar}\n`)).toBeUndefined();
  });

  test('at the edges of the ranges it declines, it reads', () => {
    // 0x20 (space), 0xa0 (after the C1 controls), 0xe000 (after the surrogates): read.
    for (const [scalar, value] of [
      ['"\\x20"', ' '],
      ['"\\u00a0"', '\u00a0'],
      ['"\\ue000"', '\ue000'],
      ['"\\x7e"', '~'],
      ['"\\ud7ff"', '\ud7ff'],
    ] as const) {
      const source = `text: ${scalar}\n`;
      expect(reference(source)).toBe(value);
      expect(parseCanonicalYaml(source)).toEqual({ text: value });
    }
  });
});
