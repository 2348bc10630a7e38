import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { parseCanonicalYaml } from '../../src/core/canonical-yaml.ts';
import { positionsAgree } from '../helpers/yaml-positions.ts';

const K64 = 'k'.repeat(64);

// Documents in the shapes it reads itself: it must answer (not leave them to
// yaml), and answer what yaml gives.
describe('parseCanonicalYaml: shapes it answers', () => {
  const read: [string, string, unknown][] = [
    ['plain scalars', 'a: b\nc_1: d e\n', { a: 'b', c_1: 'd e' }],
    ['no final newline', 'a: b', { a: 'b' }],
    ['a key of 64 characters', `${K64}: x\n`, { [K64]: 'x' }],
    [
      'booleans, null, integers',
      'a: true\nb: false\nc: null\nd: 0\ne: 12\nf: 123456789012345\n',
      { a: true, b: false, c: null, d: 0, e: 12, f: 123456789012345 },
    ],
    [
      'words that only start like special values',
      'a: nulls\nb: Trueish\nc: ~x\nd: 1a\ne: fa\n',
      { a: 'nulls', b: 'Trueish', c: '~x', d: '1a', e: 'fa' },
    ],
    ['plain text with colons and hashes not followed or preceded by a space', 'a: x:y#z\n', { a: 'x:y#z' }],
    ['comments and blank lines', '# head\n\na: b\n\n# mid\nc: d\n', { a: 'b', c: 'd' }],
    ['a sequence of scalars', 'tags:\n- a\n- b\nnext: x\n', { tags: ['a', 'b'], next: 'x' }],
    ['an indented sequence', 'tags:\n  - a\n  - "b"\n', { tags: ['a', 'b'] }],
    ['a sequence then a blank line', 'tags:\n- a\n\nnext: x\n', { tags: ['a'], next: 'x' }],
    ['a sequence of maps', 'records:\n- id: a\n  ok: true\n- id: b\n', { records: [{ id: 'a', ok: true }, { id: 'b' }] }],
    ['an indented sequence of maps', 'records:\n  - id: a\n    ok: true\n  - id: b\n', { records: [{ id: 'a', ok: true }, { id: 'b' }] }],
    ['a nested map', 'source:\n  kind: action\n  ref: a/b\nnext: x\n', { source: { kind: 'action', ref: 'a/b' }, next: 'x' }],
    ['a folded scalar', 'text: >-\n  one two\n  three\nnext: x\n', { text: 'one two three', next: 'x' }],
    ['a folded scalar at the end', 'text: >-\n  one\n  two', { text: 'one two' }],
    ['a folded scalar in a nested map', 'source:\n  ref: >-\n    a b\n    c\n', { source: { ref: 'a b c' } }],
    ['a folded scalar as a sequence item', 'tags:\n- >-\n  a b\n  c\n- d\n', { tags: ['a b c', 'd'] }],
    ['a folded scalar in a map item', 'records:\n- r: >-\n    a\n    b\n  s: c\n', { records: [{ r: 'a b', s: 'c' }] }],
    ['unicode text', 'text: café ünï 😀\n', { text: 'café ünï 😀' }],
    [
      'comments at any indentation (the config init writes)',
      'reconciliation:\n  # who judges\n  actor: command\n# between\n  timeout_ms: 60000\n    # deeper\n',
      { reconciliation: { actor: 'command', timeout_ms: 60000 } },
    ],
    [
      'a flow sequence of words',
      'command: [node, actors/my-actor.mjs]\nempty: []\n',
      { command: ['node', 'actors/my-actor.mjs'], empty: [] },
    ],
    [
      "a guard's lists (sequences in a nested map)",
      'guard:\n  write:\n    - secrets/**\n  command:\n  - git push .*--force\nnext: x\n',
      { guard: { write: ['secrets/**'], command: ['git push .*--force'] }, next: 'x' },
    ],
    ['an indented # line in a folded scalar, which is text', 'a: >-\n  x\n  # y\n', { a: 'x # y' }],
    ['a sequence in a map item', 'r:\n- tags:\n  - a\n  k: v\n', { r: [{ tags: ['a'], k: 'v' }] }],
  ];
  test.each(read)('%s', (_name, source, data) => {
    expect(parse(source)).toEqual(data);
    expect(parseCanonicalYaml(source)).toEqual(data);
    positionsAgree(source, data);
  });
});

// Shapes it leaves to yaml (which may read them, or report an error).
describe('parseCanonicalYaml: shapes it leaves to yaml', () => {
  const declined: [string, string][] = [
    ['an empty document', ''],
    ['comments only', '# a\n\n'],
    ['a key of 65 characters', `${K64}k: x\n`],
    ['a key starting with a digit', '1a: x\n'],
    ['an upper-case key', 'Text: x\n'],
    ['a key with a dash', 'a-b: x\n'],
    ['no space after the colon', 'a:b\n'],
    ['a key alone at the end', 'a:\n'],
    ['an empty value after the space', 'a: \n'],
    ['a duplicate key', 'a: x\na: y\n'],
    ['a duplicate key in a nested map', 's:\n  a: x\n  a: y\n'],
    ['a duplicate key in a map item', 'r:\n- a: x\n  a: y\n'],
    ['a reserved key', 'null: x\n'],
    ['true as a key', 'true: x\n'],
    ['false as a key', 'false: x\n'],
    ['__proto__ as a key', '__proto__: x\n'],
    ['__proto__ in a nested map', 's:\n  __proto__: x\n'],
    ['a comment after a value', 'a: b # c\n'],
    ['a colon and space inside a value', 'a: b: c\n'],
    ['a value ending in a colon', 'a: b:\n'],
    ['a value ending in a space', 'a: b \n'],
    ['an indicator first', 'a: -x\n'],
    ['a flow sequence of quoted items', "a: ['x']\n"],
    ['a flow sequence without spaces', 'a: [x,y]\n'],
    ['an anchor', 'a: &x y\n'],
    ['other spellings of true', 'a: True\n'],
    ['other spellings of null', 'a: ~\n'],
    ['a float', 'a: 1.5\n'],
    ['a hex number', 'a: 0x1f\n'],
    ['an octal number', 'a: 0o17\n'],
    ['a number with a plus', 'a: +1\n'],
    ['a negative number (a dash first)', 'a: -12\n'],
    ['a number starting with a dot', 'a: .5\n'],
    ['an integer with a leading zero', 'a: 007\n'],
    ['an integer of 16 digits', 'a: 1234567890123456\n'],
    ['infinity', 'a: .inf\n'],
    ['a tab', 'a: b\tc\n'],
    ['a CR', 'a: b\r\n'],
    ['a byte-order mark', '\ufeffa: b\n'],
    ['a key line followed by nothing usable', 'a:\nb: c\n'],
    ['a sequence more indented than two', 'a:\n   - x\n'],
    ['a nested map indented by three', 'a:\n   b: x\n'],
    ['a nested map with a deeper line', 'a:\n  b: x\n    c: y\n'],
    ['a line more indented after a block', 'a:\n- x\n  y: z\n'],
    ['a sequence item that is no scalar', 'a:\n- {x: y}\n'],
    ['a map item with a bad value', 'a:\n- b: {x: y}\n'],
    ['a nested map with a bad value', 'a:\n  b: {x: y}\n'],
    ['a nested map with a key alone', 'a:\n  b:\n'],
    ['a folded scalar with a blank line', 'a: >-\n  x\n\n  y\n'],
    ['a folded scalar with a blank line after it', 'a: >-\n  x\n\nb: c\n'],
    ['a folded scalar with a deeper line', 'a: >-\n  x\n   y\n'],
    ['a folded scalar with a trailing space', 'a: >-\n  x \n'],
    ['a folded scalar with no lines', 'a: >-\nb: c\n'],
    ['a folded scalar of two spaces', 'a: >-\n  \n'],
    ['a folded sequence item with no lines', 'a:\n- >-\nb: c\n'],
    ['a folded nested value with no lines', 'a:\n  b: >-\nc: d\n'],
    ['other block scalars', 'a: |\n  x\n'],
    ['a document marker', '---\na: b\n'],
    ['an indented top-level line', ' a: b\n'],
  ];
  test.each(declined)('%s', (_name, source) => {
    expect(parseCanonicalYaml(source)).toBeUndefined();
  });
});
