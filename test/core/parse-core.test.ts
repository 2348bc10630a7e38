import { describe, expect, it } from 'vitest';
import type { Scope } from '../../src/core/model.ts';
import { DEFAULT_CONFIG } from '../../src/core/model.ts';
import { badId, classifyPath, type PathKind } from '../../src/core/layout.ts';
import * as core from '../../src/core/parse-core.ts';
import { SCHEMAS } from '../../src/core/schemas.ts';
import { patternWords } from '../../src/core/schema-words.ts';
import {
  checkSchema,
  diag,
  diagAt,
  diagAtOffset,
  fileIdMismatch,
  MAX_FILE_BYTES,
  offsetAt,
  ownCopy,
  parseActionMeta,
  parseConfig,
  parseInvariant,
  parsePlan,
  parseProjectMeta,
  parseYaml,
  plainTextDiagnostics,
  YAML_SYNTAX,
  YamlSyntaxNotLoaded,
} from '../../src/core/parse.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const OTHER = '01M8KJW430VF8WCABSB8RTQ8RY';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const G: Scope = { kind: 'global' };
const enc = (s: string) => new TextEncoder().encode(s);
const yamlOf = (text: string) => parseYaml('f.yaml', enc(text)).value!;

describe('diag, diagAt and diagAtOffset', () => {
  it('diag leaves out the hint and the line text it is not given', () => {
    expect(diag('f.yaml', 'schema', 'm')).toStrictEqual({
      code: 'schema',
      severity: 'error',
      file: 'f.yaml',
      line: 0,
      col: 0,
      message: 'm',
    });
    expect(diag('f.yaml', 'schema', 'm', 'h', 2, 3, 'text')).toStrictEqual({
      code: 'schema',
      severity: 'error',
      file: 'f.yaml',
      line: 2,
      col: 3,
      message: 'm',
      hint: 'h',
      lineText: 'text',
    });
  });

  it('diagAtOffset: the line and column of a character offset, and its line (CR dropped, a window of 200 characters of a long one)', () => {
    const source = `first\r\nsecond line\n\nfourth\n${'x'.repeat(250)}`;
    const at = (offset: number) => {
      const d = diagAtOffset('f.yaml', source, offset, 'yaml-syntax', 'm', 'h');
      return [d.line, d.col, d.lineText];
    };
    expect([at(0), at(3), at(5), at(6), at(7), at(12), at(19), at(20), at(21), at(27), at(30)]).toStrictEqual([
      [1, 1, 'first'],
      [1, 4, 'first'],
      [1, 6, 'first'],
      [1, 7, 'first'],
      [2, 1, 'second line'],
      [2, 6, 'second line'],
      [3, 1, ''],
      [4, 1, 'fourth'],
      [4, 2, 'fourth'],
      [5, 1, `${'x'.repeat(200)}…`],
      [5, 4, `${'x'.repeat(200)}…`],
    ]);
    // A text that starts with a line end.
    const lead = (offset: number) => {
      const d = diagAtOffset('f.yaml', '\nabc\n', offset, 'yaml-syntax', 'm', 'h');
      return [d.line, d.col, d.lineText];
    };
    expect([lead(0), lead(2)]).toStrictEqual([
      [1, 1, ''],
      [2, 2, 'abc'],
    ]);
    // Only a CR that ends the line is dropped.
    expect(diagAtOffset('f.yaml', 'a\rb\r\nc', 0, 'yaml-syntax', 'm', 'h').lineText).toBe('a\rb');
    expect(diagAtOffset('f.yaml', 'abc', 1, 'yaml-syntax', 'm', 'h')).toStrictEqual({
      code: 'yaml-syntax',
      severity: 'error',
      file: 'f.yaml',
      line: 1,
      col: 2,
      message: 'm',
      hint: 'h',
      lineText: 'abc',
    });
  });

  it('diagAt: the line text of the offset, the last line too, without its line end', () => {
    const y = yamlOf('a: 1\r\nb: [x,\n  y]\nc: 3');
    expect([0, 3, 6, 14, 18, 22].map((o) => diagAt(y, o, 'schema', 'm'))).toStrictEqual([
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 1,
        col: 1,
        message: 'm',
        lineText: 'a: 1',
      },
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 1,
        col: 4,
        message: 'm',
        lineText: 'a: 1',
      },
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 2,
        col: 1,
        message: 'm',
        lineText: 'b: [x,',
      },
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 3,
        col: 2,
        message: 'm',
        lineText: '  y]',
      },
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 4,
        col: 1,
        message: 'm',
        lineText: 'c: 3',
      },
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 4,
        col: 5,
        message: 'm',
        lineText: 'c: 3',
      },
    ]);
    expect(diagAt(y, 0, 'schema', 'm', 'h').hint).toBe('h');
  });
});

describe('parseYaml', () => {
  it('takes a file of exactly 1 MiB and refuses one byte more; refuses NUL bytes and invalid UTF-8, each with its message', () => {
    const big = new Uint8Array(MAX_FILE_BYTES).fill(0x20);
    big.set(enc('a: b'), 0);
    expect(parseYaml('f.yaml', big).diagnostics).toStrictEqual([]);
    const tooBig = new Uint8Array(MAX_FILE_BYTES + 1).fill(0x20);
    expect([
      parseYaml('f.yaml', tooBig),
      parseYaml('f.yaml', new Uint8Array([0x61, 0x3a, 0x20, 0])),
      parseYaml('f.yaml', new Uint8Array([0x74, 0x3a, 0x20, 0xc3, 0x28])),
    ]).toStrictEqual([
      {
        diagnostics: [
          {
            code: 'file-too-large',
            severity: 'error',
            file: 'f.yaml',
            line: 0,
            col: 0,
            message: 'file is 1048577 bytes; the limit is 1048576 (1 MiB)',
            hint: 'An invariant file holds one short document; split or shorten it.',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'file-binary',
            severity: 'error',
            file: 'f.yaml',
            // At the NUL, with its line.
            line: 1,
            col: 4,
            message: 'file holds binary content (a NUL byte), not YAML text',
            hint: 'Replace it with a UTF-8 YAML file, or move it out of the store.',
            lineText: 'a: \u0000',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'file-not-utf8',
            severity: 'error',
            file: 'f.yaml',
            // At the lead byte of the sequence `(` cuts short, with the line as far as it can be shown.
            line: 1,
            col: 4,
            message: 'file is not valid UTF-8',
            hint: 'Save the file as UTF-8.',
            lineText: 't: \uFFFD(',
          },
        ],
      },
    ]);
  });

  it('places a first byte that is not UTF-8 on line 1, with that line, in a file of several lines', () => {
    // A Latin-1 "é" opening the first of three lines.
    const d = parseYaml('f.yaml', new Uint8Array([0xe9, ...enc('t: a\nb: c\nd: e\n')])).diagnostics[0]!;
    expect([d.code, d.line, d.col, d.lineText]).toStrictEqual(['file-not-utf8', 1, 1, '\uFFFDt: a']);
  });

  it('places a byte that is not UTF-8 in the same column as the parser places a YAML error there, after an emoji', () => {
    // The byte 0xff, and an escape the parser refuses, at the same place: after `a: "`, an emoji and a space.
    const notUtf8 = parseYaml('f.yaml', new Uint8Array([...enc('a: "\u{1F642} '), 0xff, ...enc('"')])).diagnostics[0]!;
    const syntax = parseYaml('f.yaml', enc('a: "\u{1F642} \\q"')).diagnostics[0]!;
    expect([notUtf8.code, syntax.code]).toStrictEqual(['file-not-utf8', 'yaml-syntax']);
    expect([notUtf8.line, notUtf8.col]).toStrictEqual([syntax.line, syntax.col]);
    expect(notUtf8.col).toBe(8);
  });

  it('places the first NUL byte at its line and column, counted as a byte that is not UTF-8 is, after a byte order mark and an emoji', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('id: x\ntext: "\u{1F642} '), 0, ...enc('"\n'), 0]);
    const d = parseYaml('f.yaml', bytes).diagnostics;
    expect(d.map((x) => [x.code, x.line, x.col])).toStrictEqual([['file-binary', 2, 11]]);
    // On the first line, the byte order mark is not a column.
    const first = parseYaml('f.yaml', new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0])).diagnostics;
    expect(first.map((x) => [x.code, x.line, x.col])).toStrictEqual([['file-binary', 1, 2]]);
    // The first byte, in a file of several lines: its line is the first.
    const start = parseYaml('f.yaml', new Uint8Array([0, ...enc('\nid: x\n')])).diagnostics;
    expect(start.map((x) => [x.code, x.line, x.col])).toStrictEqual([['file-binary', 1, 1]]);
  });

  it('reads and places the canonical shape without the parser, and builds the tree once, on first use', () => {
    const text = `id: ${ID}\ntext: Never delete data\n`;
    const lazy = core.parseYaml('f.yaml', enc(text), YAML_SYNTAX);
    expect(lazy.diagnostics).toStrictEqual([]);
    const y = lazy.value!;
    expect([y.file, y.source, y.data, y.syntax]).toStrictEqual(['f.yaml', text, { id: ID, text: 'Never delete data' }, YAML_SYNTAX]);
    const doc = y.doc;
    expect(y.doc).toBe(doc);
    expect(y.lines.lineStarts).toStrictEqual([0, 31, 55]);
    expect(doc.toJS()).toStrictEqual({ id: ID, text: 'Never delete data' });
    // Without the parser: the value is read and a diagnostic placed (from the file's own lines); only the tree is refused.
    const bare = core.parseYaml('f.yaml', enc(text)).value!;
    expect(bare.data).toStrictEqual({ id: ID, text: 'Never delete data' });
    expect(bare.syntax).toBe(undefined);
    expect(bare.lines.lineStarts).toStrictEqual([0, 31, 55]);
    const placed = core.diagAt(bare, core.offsetAt(bare, ['text']), 'shadowed', 'm');
    expect([placed.line, placed.col, placed.lineText]).toStrictEqual([2, 7, 'text: Never delete data']);
    expect(() => bare.doc).toThrow(new YamlSyntaxNotLoaded('yaml'));
    expect(new YamlSyntaxNotLoaded('yaml').part).toBe('yaml');
    // A file off the fast path needs the parser at once.
    expect(() => core.parseYaml('f.yaml', enc('a: b  # comment\n'))).toThrow(YamlSyntaxNotLoaded);
    // A parser that refuses what the fast path took is a bug, said as one.
    const refusing: core.YamlSyntax = { yaml: { ...YAML_SYNTAX.yaml!, parseFull: () => ({ diagnostics: [] }) } };
    const odd = core.parseYaml('g.yaml', enc(text), refusing).value!;
    expect(() => odd.doc).toThrow(new Error('g.yaml: the fast YAML path accepted a document that yaml refuses'));
  });
});

describe('checkSchema', () => {
  const schemaOf = (text: string) => checkSchema(yamlOf(text), 'invariant.schema.json');
  it('says each kind of schema error at its key or value', () => {
    expect([
      schemaOf(`id: ${ID}\ntext: T\nseverty: error\n`),
      schemaOf(`id: ${ID}\ntext: T\nsource:\n  kind: plan\n  color: red\n`),
      schemaOf(`id: ${ID}\n`),
      schemaOf(`id: ${ID}\ntext: T\nsource:\n  kind: action\n`),
      schemaOf(`id: ${ID}\ntext: T\nseverity: fatal\n`),
      schemaOf(`id: ${ID}\ntext: 3\n`),
      schemaOf(`id: not-a-ulid\ntext: T\n`),
      schemaOf(`id: ${ID}\ntext: T\noverrides: nope\n`),
      schemaOf(`id: ${ID}\ntext: T\ncreated_at: yesterday\n`),
      schemaOf(`id: ${ID}\ntext: T\ntags: [a, a]\n`),
      schemaOf('- a\n'),
      checkSchema(yamlOf(`id: ${ID}\ntext: T\n`), 'invariant.schema.json'),
    ]).toStrictEqual([
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 3,
          col: 1,
          message: 'unknown key "severty"',
          hint: 'Did you mean severity? Remove "severty" or fix its spelling; invariant.schema.json lists the allowed keys.',
          lineText: 'severty: error',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 5,
          col: 3,
          message: 'unknown key "color" in source',
          hint: 'Remove "color" or fix its spelling; invariant.schema.json lists the allowed keys.',
          lineText: '  color: red',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 1,
          col: 1,
          message: 'missing required key "text"',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: `id: ${ID}`,
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 4,
          col: 3,
          message: 'missing required key "ref" in source',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: '  kind: action',
        },
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 4,
          col: 3,
          message: 'missing required key "origin_id" in source',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: '  kind: action',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 3,
          col: 11,
          message: 'severity must be one of "error", "warning", "info"',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: 'severity: fatal',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 2,
          col: 7,
          message: 'text must be of type string: 3 is a number in YAML 1.2',
          hint: 'Quote it ("3") to write it as text.',
          lineText: 'text: 3',
        },
      ],
      [
        {
          code: 'id-invalid',
          severity: 'error',
          file: 'f.yaml',
          line: 1,
          col: 5,
          message: 'id "not-a-ulid" is not a ULID (26 characters of Crockford base32, upper case)',
          hint: 'Ids are made by the CLI; copy a valid one or run `agents invariant add`.',
          lineText: 'id: not-a-ulid',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 3,
          col: 12,
          message: 'overrides "nope" is not a ULID (26 characters of Crockford base32, upper case)',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: 'overrides: nope',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 3,
          col: 13,
          message: 'created_at must be a date-time (RFC 3339, e.g. 2026-11-29T12:00:00Z)',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: 'created_at: yesterday',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 3,
          col: 11,
          message: 'tags holds "a" twice (items 0 and 1)',
          hint: 'Remove one of the two; each of tags is listed once.',
          lineText: 'tags: [a, a]',
        },
      ],
      [
        {
          code: 'schema',
          severity: 'error',
          file: 'f.yaml',
          line: 1,
          col: 1,
          message: 'document must be of type object',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: '- a',
        },
      ],
      [],
    ]);
  });
});

describe('checkSchema: a source without its kind', () => {
  const said = (text: string) => checkSchema(yamlOf(`id: ${ID}\ntext: T\n${text}`), 'invariant.schema.json').map((d) => d.message);

  it('is told once that kind is missing, and not asked for the ref and origin_id only a kind action needs', () => {
    expect(said('source:\n  knd: plan\n')).toStrictEqual(['missing required key "kind" in source', 'unknown key "knd" in source']);
    expect(said('source: {}\n')).toStrictEqual(['missing required key "kind" in source']);
  });

  it('a kind action still needs its ref and origin_id; a kind plan needs neither', () => {
    expect(said('source:\n  kind: action\n')).toStrictEqual([
      'missing required key "ref" in source',
      'missing required key "origin_id" in source',
    ]);
    expect(said('source:\n  kind: plan\n')).toStrictEqual([]);
  });
});

describe('checkSchema: an unknown key', () => {
  const hints = (text: string, schema: Parameters<typeof checkSchema>[1]) =>
    checkSchema(yamlOf(text), schema)
      .filter((d) => d.message.startsWith('unknown key'))
      .map((d) => [d.line, d.col, d.hint!.startsWith('Did you mean') ? d.hint!.slice(0, d.hint!.indexOf('?') + 1) : '']);

  it('names the closest key the schema allows there, at the top and nested', () => {
    expect(hints(`id: ${ID}\ntext: T\nseverty: error\nguard:\n  writes: [a]\n`, 'invariant.schema.json')).toStrictEqual([
      [3, 1, 'Did you mean severity?'],
      [5, 3, 'Did you mean write?'],
    ]);
    expect(
      hints('exports: {}\nprojects:\n  allow_overlaps: true\nextends:\n  - url: x\n    ref: v1\n    nme: y\n', 'config.schema.json'),
    ).toStrictEqual([
      [1, 1, 'Did you mean export?'],
      [3, 3, 'Did you mean allow_overlap?'],
      [7, 5, 'Did you mean name?'],
    ]);
  });

  it('suggests nothing when no allowed key is close', () => {
    expect(hints(`id: ${ID}\ntext: T\ncolour: red\n`, 'invariant.schema.json')).toStrictEqual([[3, 1, '']]);
  });
});

describe('an invariant written by hand without an id', () => {
  it('is told that validate --fix gives it one, for its missing key and for its name; a record or waiver is not', () => {
    const missing = checkSchema(yamlOf('text: T\n'), 'invariant.schema.json');
    expect(missing.map((d) => [d.code, d.message])).toStrictEqual([['schema', 'missing required key "id"']]);
    expect(missing[0]!.hint).toContain('agents validate --fix');
    const name = badId('global/my-rule.yaml', classifyPath('global/my-rule.yaml') as Extract<PathKind, { kind: 'bad-id' }>);
    expect([name.code, name.hint!.includes('agents validate --fix')]).toStrictEqual(['id-invalid', true]);
    // --fix names and gives ids to invariants alone.
    const waiver = checkSchema(yamlOf('invariant_id: x\n'), 'waiver.schema.json').find((d) => d.message === 'missing required key "id"');
    expect(waiver!.hint).not.toContain('--fix');
    const record = 'plans/01M8KK5920RS6CGAVDFVYYJ0B4/violations/v.yaml';
    expect(badId(record, classifyPath(record) as Extract<PathKind, { kind: 'bad-id' }>).hint).not.toContain('--fix');
  });
});

describe('checkSchema: a value YAML 1.2 reads as another type than the one the key takes', () => {
  const said = (text: string, schema: Parameters<typeof checkSchema>[1] = 'invariant.schema.json') =>
    checkSchema(yamlOf(text), schema).map((d) => [d.line, d.col, d.message, d.hint]);

  it('a plain number, boolean or null where text goes says what YAML read and how to quote it', () => {
    expect(said(`id: ${ID}\ntext: 1e3\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [2, 7, 'text must be of type string: 1e3 is a number in YAML 1.2'],
    ]);
    expect(said(`id: ${ID}\ntext: T\ntags: [.inf, 0777, true, ~]\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [3, 8, 'tags.0 must be of type string: .inf is a number in YAML 1.2'],
      [3, 14, 'tags.1 must be of type string: 0777 is a number in YAML 1.2'],
      [3, 20, 'tags.2 must be of type string: true is a boolean in YAML 1.2'],
      [3, 26, 'tags.3 must be of type string: ~ is null in YAML 1.2'],
    ]);
    expect(said(`id: ${ID}\ntext:\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [2, 6, 'text must be of type string: the value is missing'],
    ]);
    // So where a mapping, a list or a boolean goes: the key is written, its value not yet.
    expect(said(`id: ${ID}\ntext: T\nactive:\ntags:\nguard:\n`).map((d) => d.slice(0, 4))).toStrictEqual([
      [3, 8, 'active must be of type boolean: the value is missing', 'Write the value, or remove the line.'],
      [4, 6, 'tags must be of type array: the value is missing', 'Write the value, or remove the line.'],
      [5, 7, 'guard must be of type object: the value is missing', 'Write the value, or remove the line.'],
    ]);
  });

  it('a quoted value where a boolean goes is said to be quoted, not to be a YAML 1.2 string', () => {
    expect(said(`id: ${ID}\ntext: T\nactive: "false"\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [3, 9, 'active must be of type boolean: "false" is quoted, so it is a string'],
    ]);
    // Unquoted, the YAML 1.1 spelling is the cause.
    expect(said(`id: ${ID}\ntext: T\nactive: off\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [3, 9, 'active must be of type boolean: "off" is a string in YAML 1.2, which store files are written in'],
    ]);
  });

  it('an item listed twice is named, at its later copy', () => {
    expect(said(`id: ${ID}\ntext: T\ntags:\n  - a\n  - b\n  - a\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [6, 5, 'tags holds "a" twice (items 0 and 2, lines 4 and 6)'],
    ]);
    expect(said('paths: [src/**, lib/**, src/**]\n', 'project.schema.json').map((d) => d.slice(0, 3))).toStrictEqual([
      [1, 25, 'paths holds "src/**" twice (items 0 and 2)'],
    ]);
    // A list whose items are an enum is walked pairwise by the validator, which names the later copy first.
    expect(
      said('version: 1\nexport:\n  targets: [agents-md, claude-md, agents-md]\n', 'config.schema.json').map((d) => d.slice(0, 3)),
    ).toStrictEqual([[3, 35, 'export.targets holds "agents-md" twice (items 0 and 2)']]);
  });

  it('a value that breaks a pattern a hand edit meets is said in words, not as the regular expression', () => {
    const messages = (text: string, schema: Parameters<typeof checkSchema>[1] = 'invariant.schema.json') =>
      said(text, schema).map((d) => d[2] as string);
    const all = [
      ...messages(`id: ${ID}\ntext: " \\t "\n`),
      ...messages(`id: ${ID}\ntext: T\ntags: ["a,b"]\noverrides: abc\n`),
      ...messages(
        `id: ${ID}\ninvariant_id: ${ID}\nreason: r\nowner: o\nexpires: tomorrow\ncreated_at: 2026-01-01T00:00:00Z\n`,
        'waiver.schema.json',
      ),
      ...messages(`id: ${ID}\ngoal: g\ncreated_at: 2026-01-01T00:00:00Z\nproject: Web\n`, 'plan.schema.json'),
    ];
    // The blank text, the tag, the override, the date and the project name: each says what the value must be.
    expect(all).toHaveLength(5);
    for (const m of all) expect(m).not.toContain('must match');
    expect(messages(`id: ${ID}\ntext: T\noverrides: abc\n`)).toStrictEqual([
      'overrides "abc" is not a ULID (26 characters of Crockford base32, upper case)',
    ]);
  });

  it("a value that is a slip for one of an enum's is guessed, as a misspelt key is", () => {
    expect(said(`id: ${ID}\ntext: T\nseverity: warn\n`).map((d) => d.slice(0, 4))).toStrictEqual([
      [
        3,
        11,
        'severity must be one of "error", "warning", "info"',
        'Did you mean warning? Correct the value; invariant.schema.json (in schemas/) describes every key.',
      ],
    ]);
    expect(said('export:\n  targets: [claude]\nguard:\n  on_error: allw\n', 'config.schema.json').map((d) => d[3])).toStrictEqual([
      'Did you mean claude-md? Correct the value; config.schema.json (in schemas/) describes every key.',
      'Did you mean allow? Correct the value; config.schema.json (in schemas/) describes every key.',
    ]);
    // Nothing close: no guess.
    expect(said(`id: ${ID}\ntext: T\nseverity: fatal\n`).map((d) => d[3])).toStrictEqual([
      'Correct the value; invariant.schema.json (in schemas/) describes every key.',
    ]);
  });

  it('a long key or value is quoted cut, as the excerpt under the message is: a megabyte on one line is said, not printed', () => {
    const long = (c: string) => c.repeat(5000);
    const found = said(`id: ${ID}\ntext: T\noverrides: ${long('o')}\ntags: ["${long('t,')}"]\n? ${long('k')}\n: 1\n`);
    expect(found.map((d) => (d[2] as string).replace(/(.)\1{20,}/g, '$1…'))).toStrictEqual([
      'unknown key "k……"',
      'tags.0 "t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t,t…" must be 1 to 64 characters, hold no comma and start with no white space',
      'overrides "o……" is not a ULID (26 characters of Crockford base32, upper case)',
    ]);
    for (const d of found) expect([(d[2] as string).length, (d[3] as string).length].every((n) => n < 300)).toBe(true);
  });

  it('a key spelt right but written at another level is told where it belongs, not to fix its spelling', () => {
    const hints = (text: string, schema: Parameters<typeof checkSchema>[1]) => said(text, schema).map((d) => d.slice(0, 4));
    expect(hints('version: 1\nallow_overlap: true\n', 'config.schema.json')).toStrictEqual([
      [2, 1, 'unknown key "allow_overlap"', '"allow_overlap" belongs under projects, not at the top level: move it there.'],
    ]);
    expect(hints('extends:\n  - url: x\n    ref: v3\n    on_error: deny\n', 'config.schema.json')).toStrictEqual([
      [4, 5, 'unknown key "on_error" in extends.0', '"on_error" belongs under guard, not in an entry of extends: move it there.'],
    ]);
    expect(hints(`id: ${ID}\ntext: T\nguard:\n  severity: info\nref: local/x\n`, 'invariant.schema.json')).toStrictEqual([
      [5, 1, 'unknown key "ref"', '"ref" belongs under source, not at the top level: move it there.'],
      [4, 3, 'unknown key "severity" in guard', '"severity" belongs at the top level, not under guard: move it there.'],
    ]);
    // A close name at its own level is the likelier slip: it is guessed first.
    expect(hints(`id: ${ID}\ntext: T\nwrites: [a]\n`, 'invariant.schema.json').map((d) => d[3])).toStrictEqual([
      'Remove "writes" or fix its spelling; invariant.schema.json lists the allowed keys.',
    ]);
  });

  it("every pattern of a store file's schema has its words, and a mapping with too few keys names the keys it takes", () => {
    const patterns = new Set<string>();
    const walk = (node: unknown, key?: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'pattern' && typeof v === 'string' && key !== 'properties') patterns.add(v);
        else walk(v, k);
      }
    };
    for (const [name, schema] of Object.entries(SCHEMAS)) if (!name.startsWith('actor-')) walk(schema);
    // extends' url, ref and path in config.yaml are said by sourceKeyProblem (extends-config.ts), before these words.
    const config = (
      SCHEMAS['config.schema.json'] as { properties: { extends: { items: { properties: Record<string, { pattern?: string }> } } } }
    ).properties.extends.items.properties;
    for (const key of ['url', 'ref', 'path']) patterns.delete(config[key]!.pattern!);
    // The words quote the value: an api_key_env or base_url off its pattern may hold a key or a password, never quoted.
    const actor = (
      SCHEMAS['config.schema.json'] as { properties: { reconciliation: { properties: Record<string, { pattern?: string }> } } }
    ).properties.reconciliation.properties;
    for (const key of ['api_key_env', 'base_url']) patterns.delete(actor[key]!.pattern!);
    expect([...patterns].filter((p) => patternWords(p, 'x') === undefined)).toStrictEqual([]);
    expect(said(`id: ${ID}\ntext: T\nguard: {}\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [3, 8, 'guard holds no key; give at least 1 of write, command, content, tool, or remove it'],
    ]);
    expect(said(`id: ${ID}\ntext: T\nguard: {tool: ["a b"]}\n`).map((d) => d[2])).toStrictEqual([
      'guard.tool.0 "a b" is not a tool name (1 to 200 characters, no white space)',
    ]);
  });

  it('a length, count or number out of bounds says what the value has and the bound', () => {
    const messages = (text: string, schema: Parameters<typeof checkSchema>[1]) => said(text, schema).map((d) => d[2]);
    expect(messages(`id: ${ID}\ntext: "${'\u{1F600}'.repeat(2001)}"\n`, 'invariant.schema.json')).toStrictEqual([
      'text is 2001 characters long; at most 2000',
    ]);
    expect(messages('paths: []\n', 'project.schema.json')).toStrictEqual([
      'paths is an empty list; give at least 1 item, or remove the key',
    ]);
    expect(messages(`paths: [${Array.from({ length: 101 }, (_, i) => `a${i}`).join(', ')}]\n`, 'project.schema.json')).toStrictEqual([
      'paths holds 101 items; at most 100',
    ]);
    expect(messages('reconciliation:\n  timeout_ms: 0\n', 'config.schema.json')).toStrictEqual([
      'reconciliation.timeout_ms is 0; at least 1',
    ]);
    expect(
      messages(
        `id: ${ID}\ninvariant_id: ${ID}\nreason: ""\nowner: o\nexpires: 2027-01-01\ncreated_at: 2026-01-01T00:00:00Z\n`,
        'waiver.schema.json',
      ),
    ).toStrictEqual(['reason is empty']);
  });

  it('one value where a list goes is said to be one value, not a list', () => {
    expect(said('paths: src/**\n', 'project.schema.json').map((d) => d.slice(0, 3))).toStrictEqual([
      [1, 8, 'paths must be of type array: src/** is one value, not a list'],
    ]);
    expect(said(`id: ${ID}\ntext: T\ntags: data\n`).map((d) => d.slice(0, 3))).toStrictEqual([
      [3, 7, 'tags must be of type array: data is one value, not a list'],
    ]);
  });

  it("the actor's command written as one line is answered with the argv list, which pasted runs the same program", () => {
    const text = (command: string) => `reconciliation:\n  actor: command\n  command: ${command}\n`;
    const [hint] = said(text('node  actors/my-actor.mjs --level 3 true'), 'config.schema.json').map((d) => String(d[3]));
    const list = /\[.*\]/.exec(hint ?? '')![0];
    const r = parseConfig('config.yaml', enc(text(list)));
    expect(r.diagnostics).toStrictEqual([]);
    expect(r.value!.reconciliation.command).toStrictEqual(['node', 'actors/my-actor.mjs', '--level', '3', 'true']);
  });

  it("the actor's argv list hint quotes each word YAML would not read back as that text (@scope, .inf, a flow indicator)", () => {
    const text = (command: string) => `reconciliation:\n  actor: command\n  command: ${command}\n`;
    const [hint] = said(text('npx @acme/actor .inf -.NaN a,b {x} %y'), 'config.schema.json').map((d) => String(d[3]));
    const list = /\[.*\]/.exec(hint ?? '')![0];
    const r = parseConfig('config.yaml', enc(text(list)));
    expect(r.diagnostics).toStrictEqual([]);
    expect(r.value!.reconciliation.command).toStrictEqual(['npx', '@acme/actor', '.inf', '-.NaN', 'a,b', '{x}', '%y']);
  });

  it('a constant (config.yaml version) names the value it must be', () => {
    expect(said('version: 2\n', 'config.schema.json').map((d) => d.slice(0, 3))).toStrictEqual([[1, 10, 'version must be 1, not 2']]);
    expect(said('version: 1\n', 'config.schema.json')).toStrictEqual([]);
  });

  it('a value of another shape than a scalar keeps the plain type message', () => {
    expect(said(`id: ${ID}\ntext: [a]\n`).map((d) => d.slice(0, 3))).toStrictEqual([[2, 7, 'text must be of type string']]);
  });
});

describe('offsetAt, plainTextDiagnostics, fileIdMismatch', () => {
  it('offsetAt falls back to the nearest existing ancestor, then to 0', () => {
    const y = yamlOf(`id: ${ID}\ntags:\n  - a\n  - b\n`);
    expect([['tags', '1'], ['tags', '5'], ['tags'], ['nope', 'x'], []].map((p) => offsetAt(y, p))).toStrictEqual([47, 39, 39, 0, 0]);
    expect(offsetAt(yamlOf('[]\n'), ['a'])).toBe(0);
    // After a comment the document itself starts later: a missing top-level key is placed there.
    expect(offsetAt(yamlOf('# note\na: 1\n'), ['nope'])).toBe(7);
  });

  it('plainTextDiagnostics and fileIdMismatch say where and what', () => {
    expect(plainTextDiagnostics(yamlOf(`id: ${ID}\ntext: "a\\u202Eb"\ntags: [x, "y\\u0007"]\n`), 'invariant.schema.json')).toStrictEqual([
      {
        code: 'control-character',
        severity: 'error',
        file: 'f.yaml',
        line: 2,
        col: 7,
        message:
          'text holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
        hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
        lineText: 'text: "a\\u202Eb"',
      },
      {
        code: 'control-character',
        severity: 'error',
        file: 'f.yaml',
        line: 3,
        col: 11,
        message:
          'tags.1 holds U+0007 (BEL) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
        hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
        lineText: 'tags: [x, "y\\u0007"]',
      },
    ]);
    expect(plainTextDiagnostics(yamlOf(`id: ${ID}\ntext: "a\\tb"\n`), 'invariant.schema.json')).toStrictEqual([]);
    expect(fileIdMismatch(yamlOf(`text: T\nid: ${ID}\n`), ID, OTHER)).toStrictEqual({
      code: 'id-mismatch',
      severity: 'error',
      file: 'f.yaml',
      line: 2,
      col: 5,
      message: `id ${ID} differs from the file name ${OTHER}.yaml`,
      hint: `Rename the file to ${ID}.yaml or correct the id.`,
      lineText: `id: ${ID}`,
    });
  });
});

describe('parseInvariant', () => {
  const P: Scope = { kind: 'plan', plan: PLAN };
  it('keeps every key it is given, with flat copies or without', () => {
    const text = `id: ${ID}\ntext: "  Never delete production data, not even in a test environment  "\nseverity: warning\nactive: false\ntags: [data, safety]\nrationale: Backups are slow\noverrides: ${OTHER}\nlocked: true\ncreated_at: 2026-11-29T12:00:00Z\ncreated_by: someone@example.com\nsource:\n  kind: action\n  ref: ns/n\n  origin_id: ${OTHER}\n`;
    const full = {
      id: ID,
      // Trimmed, as the writers store it.
      text: 'Never delete production data, not even in a test environment',
      severity: 'warning',
      active: false,
      tags: ['data', 'safety'],
      scope: P,
      path: 'p.yaml',
      rationale: 'Backups are slow',
      overrides: OTHER,
      locked: true,
      created_at: '2026-11-29T12:00:00Z',
      created_by: 'someone@example.com',
      source: { kind: 'action', ref: 'ns/n', origin_id: OTHER },
    };
    expect(core.parseInvariant('p.yaml', enc(text), P, ID, true, YAML_SYNTAX)).toStrictEqual({ value: full, diagnostics: [] });
    expect(core.parseInvariant('p.yaml', enc(text), P, ID, false, YAML_SYNTAX)).toStrictEqual({ value: full, diagnostics: [] });
    expect(parseInvariant('p.yaml', enc(`id: ${ID}\ntext: T\nlocked: false\n`), G, ID)).toStrictEqual({
      value: { id: ID, text: 'T', severity: 'error', active: true, tags: [], scope: G, path: 'p.yaml' },
      diagnostics: [],
    });
  });

  it('the schema bounds the text: not blank, at most 2000 code points', () => {
    const len = (text: string) =>
      parseInvariant('p.yaml', enc(`id: ${ID}\ntext: ${JSON.stringify(text)}\n`), G, ID).diagnostics.map((d) => d.code);
    expect(len('😀'.repeat(2000))).toStrictEqual([]);
    expect(len(`${'a'.repeat(1999)}😀`)).toStrictEqual([]);
    expect(len('😀'.repeat(2001))).toStrictEqual(['schema']);
    expect(len(' \t ')).toStrictEqual(['schema']);
  });

  it('reports every rule a file breaks, each at its key', () => {
    expect(parseInvariant('p.yaml', enc(`id: ${OTHER}\ntext: T\nsource:\n  kind: plan\n  origin_id: ${ID}\n`), G, ID)).toStrictEqual({
      diagnostics: [
        {
          code: 'id-mismatch',
          severity: 'error',
          file: 'p.yaml',
          line: 1,
          col: 5,
          message: `id ${OTHER} differs from the file name ${ID}.yaml`,
          hint: `Rename the file to ${OTHER}.yaml (\`agents validate --fix\` does it when no other file has that name) or correct the id.`,
          lineText: `id: ${OTHER}`,
        },
        {
          code: 'source-not-in-plan',
          severity: 'error',
          file: 'p.yaml',
          line: 3,
          col: 1,
          message: '"source" is only allowed on invariants in a plan\'s scope',
          hint: 'Remove the source key.',
          lineText: 'source:',
        },
      ],
    });
    expect(parseInvariant('p.yaml', enc(`id: ${ID}\ntext: "a\\u0007"\n`), G, ID)).toStrictEqual({
      diagnostics: [
        {
          code: 'control-character',
          severity: 'error',
          file: 'p.yaml',
          line: 2,
          col: 7,
          message:
            'text holds U+0007 (BEL) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
          hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
          lineText: 'text: "a\\u0007"',
        },
      ],
    });
    expect(parseInvariant('p.yaml', enc(`id: ${OTHER}\ntext: T\nseverity: x\n`), G, ID)).toStrictEqual({
      diagnostics: [
        {
          code: 'schema',
          severity: 'error',
          file: 'p.yaml',
          line: 3,
          col: 11,
          message: 'severity must be one of "error", "warning", "info"',
          hint: 'Correct the value; invariant.schema.json (in schemas/) describes every key.',
          lineText: 'severity: x',
        },
      ],
    });
    expect(parseInvariant('p.yaml', enc(''), G, ID)).toStrictEqual({
      diagnostics: [
        {
          code: 'file-empty',
          severity: 'error',
          file: 'p.yaml',
          line: 0,
          col: 0,
          message: 'file holds no YAML document',
          hint: 'Write the document, or delete the file.',
        },
      ],
    });
  });
});

describe('parsePlan', () => {
  it('the plan, or the id against its folder, schema errors and unsafe text', () => {
    const f = `plans/${PLAN}/plan.yaml`;
    expect([
      parsePlan(f, enc(`id: ${PLAN}\ngoal: Ship it\n`), PLAN),
      parsePlan(f, enc(`id: ${ID}\ngoal: Ship it\n`), PLAN),
      parsePlan(f, enc(`id: ${PLAN}\ngoal: "a\\u0007"\n`), PLAN),
      parsePlan(f, enc(`id: ${PLAN}\ngoal: 3\n`), PLAN),
      parsePlan(f, enc('- x\n'), PLAN),
      parsePlan(f, enc(''), PLAN),
    ]).toStrictEqual([
      {
        value: {
          id: `${PLAN}`,
          goal: 'Ship it',
        },
        diagnostics: [],
      },
      {
        diagnostics: [
          {
            code: 'id-mismatch',
            severity: 'error',
            file: `plans/${PLAN}/plan.yaml`,
            line: 1,
            col: 5,
            message: `plan id ${ID} differs from its folder plans/${PLAN}/`,
            hint: 'Correct the id in plan.yaml.',
            lineText: `id: ${ID}`,
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'control-character',
            severity: 'error',
            file: `plans/${PLAN}/plan.yaml`,
            line: 2,
            col: 7,
            message:
              'goal holds U+0007 (BEL) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
            hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
            lineText: 'goal: "a\\u0007"',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'schema',
            severity: 'error',
            file: `plans/${PLAN}/plan.yaml`,
            line: 2,
            col: 7,
            message: 'goal must be of type string: 3 is a number in YAML 1.2',
            hint: 'Quote it ("3") to write it as text.',
            lineText: 'goal: 3',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'schema',
            severity: 'error',
            file: `plans/${PLAN}/plan.yaml`,
            line: 1,
            col: 1,
            message: 'document must be of type object',
            hint: 'Correct the value; plan.schema.json (in schemas/) describes every key.',
            lineText: '- x',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'file-empty',
            severity: 'error',
            file: `plans/${PLAN}/plan.yaml`,
            line: 0,
            col: 0,
            message: 'file holds no YAML document',
            hint: 'Write the document, or delete the file.',
          },
        ],
      },
    ]);
  });
});

describe('parseConfig', () => {
  it('an empty file is a fresh copy of the defaults', () => {
    for (const text of ['', '# nothing\n']) {
      const r = parseConfig('config.yaml', enc(text));
      expect(r).toStrictEqual({ value: { ...DEFAULT_CONFIG }, diagnostics: [] });
      expect(Object.isFrozen(r.value)).toBe(false);
      expect(Object.isFrozen(r.value!.export.severities)).toBe(false);
    }
  });

  it('fills every section from the defaults', () => {
    expect(
      parseConfig(
        'config.yaml',
        enc(
          'version: 1\ncommit: true\nreconciliation:\n  timeout_ms: 5\nextends:\n  - url: https://example.com/org/policy.git\n    ref: main\n',
        ),
      ),
    ).toStrictEqual({
      value: {
        version: 1,
        commit: true,
        reconciliation: { actor: 'command', timeout_ms: 5 },
        projects: { allow_overlap: false },
        export: { severities: ['error', 'warning', 'info'], nested: true },
        mcp: { allow_write: false },
        extends: [
          {
            name: 'policy',
            url: 'https://example.com/org/policy.git',
            ref: 'main',
            path: '.agents',
            // Where the entry and its keys are, for the errors raised about the source after the parse.
            at: {
              file: 'config.yaml',
              entry: { line: 6, col: 5 },
              url: { line: 6, col: 10 },
              ref: { line: 7, col: 10 },
              path: { line: 6, col: 5 },
            },
          },
        ],
        guard: { on_error: 'deny' },
      },
      diagnostics: [],
    });
  });

  it('a base_url the schema lets through but no request can use (no URL, a query, a fragment, the endpoint itself) is a schema error at its place', () => {
    for (const url of [
      'http://127.0.0.1:99999/v1',
      'http://[bad/v1',
      'http://%zz/v1',
      'http://h/v1?api-version=1',
      'http://h/v1#x',
      'http://h/v1?',
      'https://api.openai.com/v1/chat/completions',
      'https://api.anthropic.com/v1/messages/',
      // Ports fetch never connects to (the Fetch standard's bad ports): every request would fail.
      'http://localhost:6000/v1',
      'https://models.internal:10080',
    ]) {
      const r = parseConfig('config.yaml', enc(`reconciliation:\n  actor: llm\n  base_url: "${url}"\n`));
      expect(r.value).toBeUndefined();
      expect(r.diagnostics).toMatchObject([{ code: 'schema', file: 'config.yaml', line: 3, col: 13 }]);
    }
    for (const url of ['http://localhost:11434/v1', 'http://localhost:8000/v1', 'https://localhost:443/v1', 'http://h:60000/v1'])
      expect(parseConfig('config.yaml', enc(`reconciliation:\n  base_url: ${url}\n`)).diagnostics).toEqual([]);
  });

  it('an api_key_env that is the key itself is an error at its place that never shows the line holding it', () => {
    // A Hugging Face token is hf_ and letters only: no digits to tell it from a name by.
    for (const key of [
      'gsk_4kQ9zXv2Lm8PwR7tYb3NcJ5hGf6Ds1Ae0UiOpZxWqVbNm3Kl',
      'sk-proj-4kQ9zXv2Lm8PwR7t',
      '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',
    ]) {
      const r = parseConfig('config.yaml', enc(`reconciliation:\n  actor: llm\n  api_key_env: ${key}\n`));
      expect(r.value).toBeUndefined();
      expect(r.diagnostics).toMatchObject([{ code: 'schema', file: 'config.yaml', line: 3, col: 16 }]);
      expect(JSON.stringify(r.diagnostics)).not.toContain(key.slice(4, 20));
    }
    for (const name of [
      'OPENAI_API_KEY',
      'MyCompanyOpenAIKey2024',
      'GROQ_API_KEY_2',
      'azure_openai_key_eu_west_1',
      'HF_TOKEN',
      'ci_HuggingFaceInferenceTokenForNightly',
    ]) {
      expect(parseConfig('config.yaml', enc(`reconciliation:\n  api_key_env: ${name}\n`)).diagnostics).toEqual([]);
    }
  });

  it('a key written in config.yaml under a key of its own, refused as unknown, is said at its place without the line holding it', () => {
    const key = 'sk-proj-4kQ9zXv2Lm8PwR7tYb3NcJ5h';
    for (const text of [
      `reconciliation:\n  actor: llm\n  api_key: ${key}\n`,
      `reconciliation:\n  openai_token: "${key}"\n`,
      `reconciliation:\n  auth: ${key}\n`,
      `apiKey: ${key}\n`,
    ]) {
      const r = parseConfig('config.yaml', enc(text));
      expect(r.value).toBeUndefined();
      expect(r.diagnostics).toMatchObject([{ code: 'schema', file: 'config.yaml', line: text.split('\n').length - 1 }]);
      expect(JSON.stringify(r.diagnostics)).not.toContain(key.slice(8));
    }
    // Any other unknown key keeps its line, to see the typo in.
    expect(parseConfig('config.yaml', enc('reconciliation:\n  timout_ms: 5\n')).diagnostics).toMatchObject([
      { line: 2, lineText: '  timout_ms: 5' },
    ]);
  });

  it('an actor without a key it needs is one actor-incomplete error at the actor, the config still read', () => {
    const llm = parseConfig('config.yaml', enc('reconciliation:\n  actor: llm\n'));
    expect(llm.value?.reconciliation.actor).toBe('llm');
    expect(llm.diagnostics).toMatchObject([{ code: 'actor-incomplete', line: 2, col: 10 }]);
    expect(llm.diagnostics[0]!.message).toContain('reconciliation.provider and reconciliation.model');
    expect(parseConfig('config.yaml', enc('reconciliation:\n  actor: agent\n  model: m\n')).diagnostics).toMatchObject([
      { code: 'actor-incomplete', line: 2, col: 10 },
    ]);
    for (const text of [
      'reconciliation:\n  actor: agent\n  agent: codex\n',
      'reconciliation:\n  actor: command\n',
      'reconciliation:\n  actor: interactive\n',
    ]) {
      expect(parseConfig('config.yaml', enc(text)).diagnostics).toEqual([]);
    }
  });

  it('a value that breaks two rules of the schema is one diagnostic', () => {
    // Empty, and off model's pattern: one mistake.
    expect(parseConfig('config.yaml', enc('reconciliation:\n  actor: llm\n  provider: openai\n  model: ""\n')).diagnostics).toMatchObject([
      { code: 'schema', line: 4, col: 10 },
    ]);
  });

  it('schema errors, then unsafe text, then the extends sources', () => {
    expect([
      parseConfig('config.yaml', enc('commit: "a\\u0007"\n')),
      parseConfig('config.yaml', enc('reconciliation:\n  command: ["a\\u0007"]\n')),
      parseConfig(
        'config.yaml',
        enc('extends:\n  - { name: a, url: https://x/a.git, ref: main }\n  - { name: a, url: https://x/b.git, ref: main }\n'),
      ),
      parseConfig('config.yaml', enc('a: [\n')),
      parseConfig('config.yaml', enc('- a\n---\n- b\n')),
    ]).toStrictEqual([
      {
        diagnostics: [
          {
            code: 'schema',
            severity: 'error',
            file: 'config.yaml',
            line: 1,
            col: 9,
            message: 'commit must be of type boolean',
            hint: 'Correct the value; config.schema.json (in schemas/) describes every key.',
            lineText: 'commit: "a\\u0007"',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'control-character',
            severity: 'error',
            file: 'config.yaml',
            line: 2,
            col: 13,
            message:
              'reconciliation.command.0 holds U+0007 (BEL) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
            hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
            lineText: '  command: ["a\\u0007"]',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'schema',
            severity: 'error',
            file: 'config.yaml',
            // The second entry of the name, where the name is.
            line: 3,
            col: 13,
            lineText: '  - { name: a, url: https://x/b.git, ref: main }',
            message: 'extends[1]: two sources are named a',
            hint: 'Give one of them another `name:`; names address their invariants and actions.',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'yaml-syntax',
            severity: 'error',
            file: 'config.yaml',
            line: 1,
            col: 4,
            message: 'Flow sequence in block collection must be sufficiently indented and end with a ] (BAD_INDENT)',
            hint: 'Fix the YAML here: close quotes and brackets, indent with spaces, quote text that holds ": " or starts with a special character.',
            lineText: 'a: [',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'yaml-multi-document',
            severity: 'error',
            file: 'config.yaml',
            line: 2,
            col: 1,
            message: 'file holds 2 YAML documents; a store file holds exactly one',
            hint: 'Keep one document: config.yaml is one mapping, so merge the keys of the documents into one and remove the `---` line between them.',
            lineText: '---',
          },
        ],
      },
    ]);
  });
});

describe('parseProjectMeta and parseActionMeta', () => {
  it('project.yaml: its paths, each glob checked at its position', () => {
    const f = 'projects/web/project.yaml';
    expect([
      parseProjectMeta(f, enc('description: Web\npaths: [web/**, "api/*.ts"]\n')),
      parseProjectMeta(f, enc('paths:\n  - web/**\n  - /abs\n  - ../up\n')),
      parseProjectMeta(f, enc('description: 3\n')),
      parseProjectMeta(f, enc('description: "a\\u0007"\n')),
      parseProjectMeta(f, enc('')),
      parseProjectMeta(f, enc('a: [\n')),
      parseProjectMeta(f, enc('{}\n')),
    ]).toStrictEqual([
      {
        value: {
          description: 'Web',
          paths: ['web/**', 'api/*.ts'],
        },
        diagnostics: [],
      },
      {
        diagnostics: [
          {
            code: 'project-path-invalid',
            severity: 'error',
            file: 'projects/web/project.yaml',
            line: 3,
            col: 5,
            message: 'paths.1 "/abs" is absolute; paths are relative to the top of the repository',
            hint: 'Paths are globs relative to the top of the repository, e.g. services/billing/**.',
            lineText: '  - /abs',
          },
          {
            code: 'project-path-invalid',
            severity: 'error',
            file: 'projects/web/project.yaml',
            line: 4,
            col: 5,
            message: 'paths.2 "../up" escapes the repository ("..")',
            hint: 'Paths are globs relative to the top of the repository, e.g. services/billing/**.',
            lineText: '  - ../up',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'schema',
            severity: 'error',
            file: 'projects/web/project.yaml',
            line: 1,
            col: 14,
            message: 'description must be of type string: 3 is a number in YAML 1.2',
            hint: 'Quote it ("3") to write it as text.',
            lineText: 'description: 3',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'control-character',
            severity: 'error',
            file: 'projects/web/project.yaml',
            line: 1,
            col: 14,
            message:
              'description holds U+0007 (BEL) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
            hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
            lineText: 'description: "a\\u0007"',
          },
        ],
      },
      {
        value: {},
        diagnostics: [],
      },
      {
        diagnostics: [
          {
            code: 'yaml-syntax',
            severity: 'error',
            file: 'projects/web/project.yaml',
            line: 1,
            col: 4,
            message: 'Flow sequence in block collection must be sufficiently indented and end with a ] (BAD_INDENT)',
            hint: 'Fix the YAML here: close quotes and brackets, indent with spaces, quote text that holds ": " or starts with a special character.',
            lineText: 'a: [',
          },
        ],
      },
      {
        value: {},
        diagnostics: [],
      },
    ]);
  });

  it('action.yaml', () => {
    const f = 'actions/ns/n/action.yaml';
    expect([
      parseActionMeta(f, enc('description: Migrations\n')),
      parseActionMeta(f, enc('description: "a\\u0007"\n')),
      parseActionMeta(f, enc('descr: x\n')),
      parseActionMeta(f, enc('')),
      parseActionMeta(f, enc('a: [\n')),
    ]).toStrictEqual([
      {
        value: {
          description: 'Migrations',
        },
        diagnostics: [],
      },
      {
        diagnostics: [
          {
            code: 'control-character',
            severity: 'error',
            file: 'actions/ns/n/action.yaml',
            line: 1,
            col: 14,
            message:
              'description holds U+0007 (BEL) at character 2; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
            hint: 'Remove the character (tab is allowed, and a newline only in rationale, goal, details and descriptions); write the text in plain characters.',
            lineText: 'description: "a\\u0007"',
          },
        ],
      },
      {
        diagnostics: [
          {
            code: 'schema',
            severity: 'error',
            file: 'actions/ns/n/action.yaml',
            line: 1,
            col: 1,
            message: 'unknown key "descr"',
            hint: 'Did you mean description? Remove "descr" or fix its spelling; action.schema.json lists the allowed keys.',
            lineText: 'descr: x',
          },
        ],
      },
      {
        value: {},
        diagnostics: [],
      },
      {
        diagnostics: [
          {
            code: 'yaml-syntax',
            severity: 'error',
            file: 'actions/ns/n/action.yaml',
            line: 1,
            col: 4,
            message: 'Flow sequence in block collection must be sufficiently indented and end with a ] (BAD_INDENT)',
            hint: 'Fix the YAML here: close quotes and brackets, indent with spaces, quote text that holds ": " or starts with a special character.',
            lineText: 'a: [',
          },
        ],
      },
    ]);
  });
});

describe('the document each parser names to the plain-text check', () => {
  it('allows a newline in the one field of its kind that may hold one', () => {
    expect([
      parseInvariant('p.yaml', enc(`id: ${ID}\ntext: T\nrationale: "a\\nb"\n`), G, ID).diagnostics,
      parsePlan(`plans/${PLAN}/plan.yaml`, enc(`id: ${PLAN}\ngoal: "a\\nb"\n`), PLAN).diagnostics,
      parseActionMeta('a.yaml', enc('description: "a\\nb"\n')).diagnostics,
      parseProjectMeta('p.yaml', enc('description: "a\\nb"\n')).diagnostics,
    ]).toStrictEqual([[], [], [], []]);
  });

  it('stops at schema errors: no glob is read from paths of the wrong type, no text is checked in a refused action.yaml', () => {
    expect(parseProjectMeta('p.yaml', enc('paths: 3\n')).diagnostics.map((d) => d.message)).toStrictEqual([
      'paths must be of type array: 3 is one value, not a list',
    ]);
    expect(parseActionMeta('a.yaml', enc('descr: "a\\u0007"\n')).diagnostics.map((d) => d.message)).toStrictEqual(['unknown key "descr"']);
  });

  it('a nested path is said with dots', () => {
    expect(checkSchema(yamlOf(`id: ${ID}\ntext: T\ntags: [a, 3]\n`), 'invariant.schema.json')).toStrictEqual([
      {
        code: 'schema',
        severity: 'error',
        file: 'f.yaml',
        line: 3,
        col: 11,
        message: 'tags.1 must be of type string: 3 is a number in YAML 1.2',
        hint: 'Quote it ("3") to write it as text.',
        lineText: 'tags: [a, 3]',
      },
    ]);
  });
});

describe('ownCopy', () => {
  it('gives an equal string', () => {
    expect(['', 'short', 'a string of more than twelve characters', 'ünïcödé text ✓ and more'].map(ownCopy)).toStrictEqual([
      '',
      'short',
      'a string of more than twelve characters',
      'ünïcödé text ✓ and more',
    ]);
  });
});
