// The full YAML parser's half of parsing (src/core/yaml-syntax.ts): every
// refusal with its code, message, hint and position, and the tree walkers.
// Most tests of these messages run the built CLI; these run the module itself.
import { describe, expect, it } from 'vitest';
import { isScalar, type Node } from 'yaml';
import { keyNodeOf, nodeAt, parseFullYaml, YAML_SYNTAX } from '../../src/core/yaml-syntax.ts';

const F = 'global/x.yaml';
const SYNTAX_HINT =
  'Fix the YAML here: close quotes and brackets, indent with spaces, quote text that holds ": " or starts with a special character.';

describe('parseFullYaml refuses', () => {
  it('nesting past the limit before the parser runs: yaml-too-deep at the level that passes it', () => {
    const deep = `${'['.repeat(70)}${']'.repeat(70)}\n`;
    const r = parseFullYaml(F, deep);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({
      code: 'yaml-too-deep',
      severity: 'error',
      file: F,
      line: 1,
      hint: 'Store files need only a few levels; write the value flat.',
    });
  });

  it('too many tokens before the parser runs: yaml-too-large', () => {
    const many = `[${Array.from({ length: 60_000 }, () => '1').join(',')}]\n`;
    const r = parseFullYaml(F, many);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.hint])).toEqual([
      ['yaml-too-large', 1, 'A store file holds one short document; split or shorten it.'],
    ]);
  });

  it('a file with no document, and one with only comments: file-empty, with what it holds', () => {
    expect(parseFullYaml(F, '').diagnostics).toEqual([
      {
        code: 'file-empty',
        severity: 'error',
        file: F,
        line: 0,
        col: 0,
        message: 'file holds no YAML document',
        hint: 'Write the document, or delete the file.',
      },
    ]);
    expect(parseFullYaml(F, '# only a comment\n\n').diagnostics.map((d) => d.message)).toEqual(['file holds no YAML document']);
    // A document marker and nothing else: a document with no value (the parser gives an empty null scalar).
    for (const source of ['---\n', '---\n# only a comment\n', '# a comment\n---\n...\n'])
      expect(parseFullYaml(F, source).diagnostics.map((d) => d.message)).toEqual([
        'file holds no YAML document (only comments or white space)',
      ]);
    // A null written out is a value (the schema then says what it must be instead).
    for (const source of ['~\n', 'null\n', '--- !!null\n', '--- &a\n']) expect(parseFullYaml(F, source).diagnostics).toEqual([]);
    expect(parseFullYaml(F, '---\n').diagnostics).toEqual([
      {
        code: 'file-empty',
        severity: 'error',
        file: F,
        line: 0,
        col: 0,
        message: 'file holds no YAML document (only comments or white space)',
        hint: 'Write the document, or delete the file.',
      },
    ]);
  });

  it("a syntax error: yaml-syntax with the parser code, its position and the line, without the parser's own position text", () => {
    const r = parseFullYaml(F, 'id: x\ntext: a: b\nseverity: error\n');
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d).toMatchObject({
      code: 'yaml-syntax',
      severity: 'error',
      file: F,
      line: 2,
      col: 7,
      lineText: 'text: a: b',
      hint: SYNTAX_HINT,
    });
    expect(d.message).toBe('Nested mappings are not allowed in compact mappings (BLOCK_AS_IMPLICIT_KEY)');
    // The message is the parser's own, without a position (the diagnostic has it, and the line).
    expect(parseFullYaml(F, 'id: x\ntext: "never closed\n').diagnostics.map((x) => [x.message, x.line, x.col])).toEqual([
      ['Missing closing "quote (MISSING_CHAR)', 2, 7],
    ]);
  });

  it.each([
    [
      'a double quote left open to the end of the file: at the quote',
      'id: x\ntext: "never closed\nseverity: error\nrationale: |\n  more\n',
      2,
      7,
    ],
    ['a single quote left open to the end of the file: at the quote', "id: x\ntext: 'never closed\n\n", 2, 7],
    ['a flow sequence left open to the end of the file: at its [', 'id: x\ntags: [a,\n  b\n', 2, 7],
    ['a flow mapping left open to the end of the file: at its {', 'id: x\nguard: {write: [a]\n', 2, 8],
    ['a quote left open inside flow collections: at the quote', "id: x\nguard: {write: [a, 'b\n", 2, 20],
    // Not left open to the end: the line the parser names says what is wrong (b below the key's indentation).
    ['a flow sequence closed on a line indented too little: at that line', 'id: x\ntags: [a,\nb]\nseverity: error\n', 3, 1],
  ])('yaml-syntax for %s', (_, text, line, col) => {
    const d = parseFullYaml(F, text).diagnostics;
    expect(d.map((x) => [x.code, x.line, x.col])).toEqual([['yaml-syntax', line, col]]);
  });

  it('a key given twice: yaml-duplicate-key at the second, with its hint', () => {
    const r = parseFullYaml(F, 'id: x\ntext: a\ntext: b\n');
    expect(r.diagnostics).toEqual([
      {
        code: 'yaml-duplicate-key',
        severity: 'error',
        file: F,
        line: 3,
        col: 1,
        lineText: 'text: b',
        message: 'key "text" appears twice in one mapping (first on line 2)',
        hint: 'Keep one of the two keys.',
      },
    ]);
  });

  it.each([
    [
      'a nested mapping',
      'id: x\nguard:\n  write: [a]\n  command: [b]\n  write: [c]\n',
      'key "write" appears twice in one mapping (first on line 3)',
    ],
    ['a key of another mapping between', 'a:\n  k: 1\nb:\n  k: 2\n  k: 3\n', 'key "k" appears twice in one mapping (first on line 4)'],
    ['quoted keys', '"text": a\n\'text\': b\n', 'key "text" appears twice in one mapping'],
    ['a flow mapping', '{a: 1, a: 2}\n', 'key "a" appears twice in one mapping'],
    ['explicit form after a plain key', 'id: x\ntext: a\n? text\n: b\n', 'key "text" appears twice in one mapping (first on line 2)'],
    ['explicit form twice', 'id: x\n? text\n: a\n? text\n: b\n', 'key "text" appears twice in one mapping (first on line 2)'],
    ['a plain key after the explicit form', 'id: x\n? text\n: a\ntext: b\n', 'key "text" appears twice in one mapping (first on line 2)'],
    [
      'explicit form, nested, a comment after the key',
      'a:\n  ? k # c\n  : 1\n  ? k\n  : 2\n',
      'key "k" appears twice in one mapping (first on line 2)',
    ],
    ['explicit form, quoted', '? "k"\n: 1\n? \'k\'\n: 2\n', 'key "k" appears twice in one mapping'],
  ])('a key given twice in %s is named, with the line of the first where it has one', (_, text, message) => {
    expect(parseFullYaml(F, text).diagnostics).toMatchObject([{ code: 'yaml-duplicate-key', message }]);
  });

  it('an explicit key given twice is found at the second key, as a plain one is', () => {
    const [d] = parseFullYaml(F, 'id: x\n? text\n: a\n  # note\n? text\n: b\n').diagnostics;
    expect([d?.code, d?.line, d?.col, d?.lineText]).toEqual(['yaml-duplicate-key', 5, 3, '? text']);
  });

  // A null key is one however it is written (~, null, nothing before the colon); `: v` under `? k` is k's value.
  it.each([
    ['~ then null', 'a: 1\n~: 2\nnull: 3\n', 3, 2],
    ['nothing then ~', ': 1\n~: 2\n', 2, 1],
    ['an explicit ~ then ~', '? ~\n: 1\n~: 2\n', 3, 1],
    ['an explicit key then ~, then ~', '? a\n: 1\n~: 2\n~: 3\n', 4, 3],
  ])('a null key given twice (%s): at the second, with the line of the first', (_, text, line, first) => {
    const [d] = parseFullYaml(F, text).diagnostics;
    expect([d?.code, d?.line, d?.col, d?.message.match(/first on line (\d+)/)?.[1]]).toEqual([
      'yaml-duplicate-key',
      line,
      1,
      String(first),
    ]);
  });

  it('one diagnostic per position, and each position of several', () => {
    const r = parseFullYaml(F, 'a: 1\na: 2\nb: 1\nb: 2\n');
    expect(r.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([
      ['yaml-duplicate-key', 2, 1],
      ['yaml-duplicate-key', 4, 1],
    ]);
  });

  it('an unknown tag, named as written: a yaml.org tag as !!name, any other as it is', () => {
    const r = parseFullYaml(F, 'a: !!js/function x\nb: !secret y\n');
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.line, d.col, d.message, d.hint])).toEqual([
      [
        'yaml-unknown-tag',
        1,
        4,
        'unknown YAML tag !!js/function: store files use plain YAML 1.2 values',
        'Remove the tag (or quote the value if the "!" belongs to the text).',
      ],
      [
        'yaml-unknown-tag',
        2,
        4,
        'unknown YAML tag !secret: store files use plain YAML 1.2 values',
        'Remove the tag (or quote the value if the "!" belongs to the text).',
      ],
    ]);
  });

  it('the YAML 1.1 tags yaml would read all the same (a Map, Set, bytes or Date: an empty object to a schema)', () => {
    for (const [tag, value] of [
      ['!!omap', '[allow_overlap: true]'],
      ['!!set', '{allow_overlap}'],
      ['!!pairs', '[allow_overlap: true]'],
      ['!!binary', 'aGVsbG8='],
      ['!!timestamp', '2026-01-01'],
    ] as const) {
      const r = parseFullYaml(F, `version: 1\nprojects: ${tag} ${value}\n`);
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([
        ['yaml-unknown-tag', 2, 11, `unknown YAML tag ${tag}: store files use plain YAML 1.2 values`],
      ]);
    }
  });

  it('more than one document: yaml-multi-document at the second', () => {
    const r = parseFullYaml(F, 'a: 1\n---\nb: 2\n---\nc: 3\n');
    expect(r.diagnostics).toEqual([
      {
        code: 'yaml-multi-document',
        severity: 'error',
        file: F,
        line: 2,
        col: 1,
        lineText: '---',
        message: 'file holds 3 YAML documents; a store file holds exactly one',
        hint: 'Keep one document per file: one invariant, one file (another invariant goes in a file of its own).',
      },
    ]);
  });

  it("a second document's hint says what the file's kind holds: an invariant or a waiver a file, a settings file one mapping", () => {
    const hint = (file: string) => parseFullYaml(file, 'a: 1\n---\nb: 2\n').diagnostics.map((d) => [d.code, d.hint]);
    const ULID = '01M8KJT9G0XNWEM589ZS7FV0VT';
    expect(hint(`projects/web/${ULID}.yaml`)).toEqual([['yaml-multi-document', expect.stringMatching(/invariant/)]]);
    expect(hint(`projects/web/waivers/${ULID}.yaml`)).toEqual([['yaml-multi-document', expect.stringMatching(/waiver/)]]);
    for (const file of [
      'config.yaml',
      'extends.lock.yaml',
      'projects/web/project.yaml',
      'actions/ops/deploy/action.yaml',
      `plans/${ULID}/plan.yaml`,
    ]) {
      const [[code, h]] = hint(file) as [[string, string]];
      expect([code, h]).toEqual(['yaml-multi-document', expect.stringContaining(file.slice(file.lastIndexOf('/') + 1))]);
      expect(h).not.toMatch(/invariant/);
    }
  });

  it.each([
    ['a lone CR', '\r', 'U+000D'],
    ['NEL', '\u0085', 'U+0085'],
    ['a line separator', '\u2028', 'U+2028'],
    ['a paragraph separator', '\u2029', 'U+2029'],
  ])(
    'a comment holding %s, which PyYAML reads as a line break: control-character there, not a file whose rest is comment',
    (_name, mark, named) => {
      // PyYAML reads `active: false` after the mark; yaml reads it as the comment's text.
      const r = parseFullYaml(F, `id: x\r\ntext: hi # note${mark}active: false\r\n`);
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['control-character', 2, 16]]);
      expect(r.diagnostics[0]!.message).toContain(named);
    },
  );

  it.each([
    ['after a comment', '# c\n\uFEFFid: x\ntext: hi\n', 2],
    ['after the first one, taken off before parsing', '\uFEFFid: x\ntext: hi\n', 1],
    ['before a later key', 'id: x\n\uFEFFtext: hi\n', 2],
  ])(
    'a U+FEFF at the start of a line %s, which yaml skips and PyYAML reads as part of the key: control-character there',
    (_, text, line) => {
      const r = parseFullYaml(F, text);
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['control-character', line, 1]]);
    },
  );

  it("a CRLF file with comments, and a lone CR inside a quoted value, are not a comment's line break", () => {
    expect(parseFullYaml(F, '# c\r\nid: x # d\r\ntext: hi\r\n').value?.data).toEqual({ id: 'x', text: 'hi' });
    // The value's CR is the value's own control-character error, found once the file is read.
    expect(parseFullYaml(F, 'id: x\ntext: "a\rb" # c\n').value?.data).toEqual({ id: 'x', text: 'a\rb' });
  });

  it.each(['1.1', '1.3', '2.0'])(
    'a %%YAML %s directive: yaml-syntax at the directive, not a file read as YAML 1.2 all the same',
    (version) => {
      const r = parseFullYaml(F, `# c\n%YAML ${version}\n---\nid: x\ntext: "on"\ntags: [yes, on]\n`);
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['yaml-syntax', 2, 1]]);
      expect(parseFullYaml(F, '%YAML 1.2\n---\nid: x\ntags: [yes]\n').value?.data).toEqual({ id: 'x', tags: ['yes'] });
    },
  );

  it('a file whose lines end with CR alone: yaml-syntax at the first line end, not the slip it makes', () => {
    const at = (source: string) => parseFullYaml(F, source).diagnostics.map((d) => [d.code, d.line, d.col]);
    expect(at('# c\rid: x\rtext: hi\r')).toEqual([['yaml-syntax', 1, 4]]);
    expect(at('id: x\rtext: hi\r')).toEqual([['yaml-syntax', 1, 6]]);
  });

  it('an alias with no anchor before it: yaml-syntax at the alias', () => {
    const r = parseFullYaml(F, 'id: x\ntext: *nowhere\n');
    expect(r.diagnostics).toEqual([
      {
        code: 'yaml-syntax',
        severity: 'error',
        file: F,
        line: 2,
        col: 7,
        lineText: 'text: *nowhere',
        message: 'alias *nowhere names no anchor defined before it',
        hint: 'Store files need no YAML aliases; write the value out.',
      },
    ]);
  });

  it('aliases past the limit: yaml-alias-limit at the alias that crossed it', () => {
    const anchors =
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n';
    const r = parseFullYaml(F, anchors);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({
      code: 'yaml-alias-limit',
      line: 3,
      col: 40,
      lineText: 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      hint: 'Store files need no YAML aliases; write values out.',
    });
    expect(r.diagnostics[0]!.message).toMatch(/^file refused: Excessive alias count/);
  });
});

describe('parseFullYaml reads', () => {
  it('one document into its data, keeping the document, its lines and the parser', () => {
    const source = 'id: x\ntags: [a, b]\n';
    const r = parseFullYaml(F, source);
    expect(r.diagnostics).toEqual([]);
    expect(r.value?.data).toEqual({ id: 'x', tags: ['a', 'b'] });
    expect(r.value?.file).toBe(F);
    expect(r.value?.source).toBe(source);
    expect(r.value?.syntax).toBe(YAML_SYNTAX);
    expect(r.value?.lines.linePos(6)).toEqual({ line: 2, col: 1 });
  });

  it('YAML 1.2 core values: yes stays a string, 0o10 is eight, a warning of another kind is no refusal', () => {
    expect(parseFullYaml(F, 'a: yes\nb: 0o10\nc: ~\n').value?.data).toEqual({ a: 'yes', b: 8, c: null });
    // The parser warns of an unknown directive and reads on: only unknown tags are refused.
    const directive = parseFullYaml(F, '%FOO bar\n---\na: 1\n');
    expect(directive.diagnostics).toEqual([]);
    expect(directive.value?.data).toEqual({ a: 1 });
  });
});

describe('nodeAt and keyNodeOf', () => {
  const doc = parseFullYaml(F, 'id: x\nsource:\n  kind: plan\nlist: [a, {k: v}]\n7: seven\n').value!.doc;

  it('walk maps by key and sequences by index', () => {
    const kind = nodeAt(doc, ['source', 'kind']);
    expect(isScalar(kind) && kind.value).toBe('plan');
    const k = nodeAt(doc, ['list', '1', 'k']);
    expect(isScalar(k) && k.value).toBe('v');
    const seven = nodeAt(doc, ['7']);
    expect(isScalar(seven) && seven.value).toBe('seven');
  });

  it('answer undefined past a scalar, for a missing key and for a missing index', () => {
    expect(nodeAt(doc, ['id', 'more'])).toBeUndefined();
    expect(nodeAt(doc, ['nope'])).toBeUndefined();
    expect(nodeAt(doc, ['nope', 'deeper'])).toBeUndefined();
    expect(nodeAt(doc, ['list', '5'])).toBeUndefined();
  });

  it('keyNodeOf gives the key node of a map, and undefined for a missing key or a node that is no map', () => {
    const source = nodeAt(doc, ['source']);
    const key = keyNodeOf(source, 'kind');
    expect(isScalar(key) && key.value).toBe('kind');
    expect(key?.range?.[0]).toBe(16);
    expect(keyNodeOf(source, 'ref')).toBeUndefined();
    expect(keyNodeOf(nodeAt(doc, ['list']), '0')).toBeUndefined();
    expect(keyNodeOf(undefined, 'kind')).toBeUndefined();
  });
});

describe('parseFullYaml: one diagnostic per position', () => {
  it('keeps the first of the errors the parser gives at one position', () => {
    // The parser explains this slip twice at offset 3 (BLOCK_AS_IMPLICIT_KEY, MULTILINE_IMPLICIT_KEY).
    expect(parseFullYaml(F, 'a: x\n  b: y\n').diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([
      ['yaml-syntax', 1, 4, 'Nested mappings are not allowed in compact mappings (BLOCK_AS_IMPLICIT_KEY)'],
    ]);
  });
});

describe('nodeAt and keyNodeOf: keys that are no scalar', () => {
  it('a collection key matches no path, whatever its text would be', () => {
    const doc = parseFullYaml(F, '? [a]\n: x\nundefined: y\n').value!.doc;
    const y = nodeAt(doc, ['undefined']);
    expect(isScalar(y) && y.value).toBe('y');
    expect(nodeAt(doc, ['a'])).toBeUndefined();
    const key = keyNodeOf(doc.contents as Node, 'undefined');
    expect(isScalar(key) && key.value).toBe('undefined');
    expect(keyNodeOf(doc.contents as Node, 'a')).toBeUndefined();
  });
});
