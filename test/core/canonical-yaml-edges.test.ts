import { parseAllDocuments } from 'yaml';
import { describe, expect, test } from 'vitest';
import { parseCanonicalYaml } from '../../src/core/canonical-yaml.ts';

/** What `yaml` gives for a document, or 'refused' when it reports an error. */
function reference(source: string): unknown {
  const docs = parseAllDocuments(source, { prettyErrors: false, uniqueKeys: true, schema: 'core', version: '1.2' });
  if (!Array.isArray(docs) || docs.length !== 1) return 'refused';
  const doc = docs[0]!;
  if (doc.errors.length > 0) return 'refused';
  return doc.toJS();
}

const KEY64 = 'k'.repeat(64);

// Documents written by hand at the edges of the fast reader's shape. Each is
// either read exactly as yaml reads it, or left to yaml (undefined).
describe('parseCanonicalYaml: documents it must read itself', () => {
  test.each([
    ['keys with z, 0 and 9', 'z: 1\na0: 2\na9: 3\n_z: 4\n'],
    ['a nested key of 64 characters', `a:\n  ${KEY64}: x\n`],
    ['a map item with more keys under it', 'a:\n  - k: v\n    j: w\n  - x\n'],
    ['map items at the left edge', 'a:\n- k: v\n  j: w\n- x\n'],
    ['a blank line after a block', 'a:\n  - x\n\nb: y\n'],
    ['a nested map, then a key', 'a:\n  b: c\n  d: e\nf: g\n'],
    ['small integers, and strings that start like numbers', 'a: 0\nb: 12\nc: 1x\nd: +x\ne: .x\n'],
    ['an escaped quote among escapes', 'a: "x\\"y\\n"\n'],
  ])('%s', (_name, source) => {
    const expected = reference(source);
    expect(expected).not.toBe('refused');
    expect(parseCanonicalYaml(source)).toEqual(expected);
  });
});

describe('parseCanonicalYaml: documents it leaves to yaml, or reads as yaml does', () => {
  test.each([
    ['an empty key', ': x\n'],
    ['a colon inside a word', 'a:b\n'],
    ['a colon inside a word after a key', 'k: v\nab:c: d\n'],
    ['a nested key of 65 characters', `a:\n  ${KEY64}k: x\n`],
    ['a nested line without a colon', 'a:\n  b\n'],
    ['a nested key with no value', 'a:\n  b:\n'],
    ['a nested flow value', 'a:\n  b: [x]\n'],
    ['a map item whose key has no value', 'a:\n  - k:\n'],
    ['three spaces before a nested key', 'a:\n   b: c\n'],
    ['a dash glued to a nested key', 'a:\n  -b: c\n'],
    ['a line less indented after a sequence', 'a:\n  - x\n - y\n'],
    ['a dash line after a nested map', 'a:\n  b: c\n-d\n'],
    ['an anchor as a key', '&a b: x\n'],
    ['a tag as a key', '!t k: x\n'],
    ['a quoted key', '"q": x\n'],
    ['an upper-case key', 'A: x\n'],
    ['a key with a dash', 'a-b: x\n'],
    ['a quote inside a double-quoted scalar with escapes', 'a: "x\\n"y"\n'],
    ['an unknown escape followed by hex digits', 'a: "\\q41"\n'],
    ['a \\u escape with a non-hex digit after two good ones', 'a: "\\u41g0"\n'],
    ['a negative number', 'a: -1\n'],
  ])('%s', (_name, source) => {
    const fast = parseCanonicalYaml(source);
    if (fast !== undefined) expect(fast).toEqual(reference(source));
  });

  test('the ones yaml refuses or reads otherwise are declined', () => {
    for (const source of [
      ': x\n',
      'a:b\n',
      'a:\n  b\n',
      'a:\n  b: {x}\n',
      'a:\n  - x\n - y\n',
      '&a b: x\n',
      'a: "x\\n"y"\n',
      'a: "\\q41"\n',
      'a: "\\u41g0"\n',
      `a:\n  ${KEY64}k: x\n`,
    ]) {
      expect(parseCanonicalYaml(source), source).toBeUndefined();
    }
  });
});

// Plain scalars that yaml's core schema reads as numbers other than small
// integers are left to yaml; those that only look like numbers are strings
// it reads itself.
describe('parseCanonicalYaml: numbers', () => {
  test.each([
    '+1.5',
    '.55',
    '12.5',
    '1.55',
    '1.',
    '1e5',
    '1E5',
    '1e+5',
    '1e-5',
    '1e55',
    '12e5',
    '+.inf',
    '.Inf',
    '.NaN',
    '0x1F',
    '0o17',
    '+12',
  ])('a: %s is left to yaml', (value) => {
    const source = `a: ${value}\n`;
    expect(typeof (reference(source) as { a: unknown }).a).toBe('number');
    expect(parseCanonicalYaml(source)).toBeUndefined();
  });

  test.each(['1ex5', '1e', '1e+', '1.2.3', '0o8', '0xg', '+', '+x', '.', '.x', '.infinity', '1_000', '12a'])(
    'a: %s is a string it reads',
    (value) => {
      const source = `a: ${value}\n`;
      expect(reference(source)).toEqual({ a: value });
      expect(parseCanonicalYaml(source)).toEqual({ a: value });
    },
  );

  test('small integers it reads itself', () => {
    expect(parseCanonicalYaml('a: 7\nb: 12\nc: 0\n')).toEqual({ a: 7, b: 12, c: 0 });
  });
});

describe('parseCanonicalYaml: words and keys at the edges', () => {
  test('a word that only ends like null, True or False is a string it reads', () => {
    const source = 'a: fanull\nb: nTrue\nc: tFALSE\nd: ~Null\n';
    expect(reference(source)).toEqual({ a: 'fanull', b: 'nTrue', c: 'tFALSE', d: '~Null' });
    expect(parseCanonicalYaml(source)).toEqual({ a: 'fanull', b: 'nTrue', c: 'tFALSE', d: '~Null' });
  });

  test('a key starting with a character past z is left to yaml, which refuses it or reads ~ as null', () => {
    for (const source of ['{: x\n', '|: x\n', '}: x\n', '~: x\n']) {
      expect(reference(source), source).not.toEqual({ [source[0]!]: 'x' });
      expect(parseCanonicalYaml(source), source).toBeUndefined();
    }
  });

  test('a colon inside a word is no key, at the top level, in a nested map or in a map item', () => {
    // yaml reads the first two as one string each, and refuses the third.
    expect(reference('ab:cd\n')).toBe('ab:cd');
    expect(reference('a:\n  ab:cd\n')).toEqual({ a: 'ab:cd' });
    for (const source of ['ab:cd\n', 'a:\n  ab:cd\n', 'a:\n- k: v\n  ab:cd\n']) {
      expect(parseCanonicalYaml(source), source).toBeUndefined();
    }
  });

  test('a line without a key in a map item or a nested map declines the document (yaml refuses it)', () => {
    expect(parseCanonicalYaml('a:\n- k: v\n  w\n')).toBeUndefined();
    expect(parseCanonicalYaml('a:\n  - k: v\n    w\nb: c\n')).toBeUndefined();
    expect(parseCanonicalYaml('a:\n  k: v\n  w\nb: c\n')).toBeUndefined();
  });
});

describe('parseCanonicalYaml: empty keys', () => {
  test('an empty key, which yaml reads as null, is left to yaml at every level', () => {
    for (const source of [': x\n', 'a:\n  : x\n', 'a:\n- : x\n', 'a:\n- k: v\n  : x\n']) {
      expect(parseCanonicalYaml(source), source).toBeUndefined();
    }
  });
});
