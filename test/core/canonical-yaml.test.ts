import fc from 'fast-check';
import { fcRuns } from '../helpers/fc-runs.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Document, LineCounter, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { canonicalPositions, parseCanonicalYaml } from '../../src/core/canonical-yaml.ts';
import { positionsAgree } from '../helpers/yaml-positions.ts';
import { parseInvariant, parseYaml } from '../../src/core/parse.ts';
import { formatInvariantFile, formatPlanFile, invariantFields, yamlDocument } from '../../src/core/serialize.ts';
import type { Invariant, Scope } from '../../src/core/model.ts';

/** What `yaml` gives for a store file: its data, or 'refused' when it reports an error or is not one document. */
function reference(source: string): unknown {
  return parsedByYaml(source).data;
}

/** `reference`'s data, with the document and line counter it came from (for the positions). */
function parsedByYaml(source: string): { data: unknown; doc?: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  const docs = parseAllDocuments(source, { prettyErrors: false, uniqueKeys: true, schema: 'core', version: '1.2', lineCounter: lines });
  if (!Array.isArray(docs) || docs.length !== 1) return { data: 'refused', lines };
  const doc = docs[0]!;
  if (doc.errors.length > 0 || doc.contents === null) return { data: 'refused', lines };
  return { data: doc.toJS({ maxAliasCount: 100 }), doc, lines };
}

const answered = { yes: 0, no: 0 };

/** The property: whenever the fast path answers, it answers exactly what yaml gives, positions included. */
function agrees(source: string): void {
  const fast = parseCanonicalYaml(source);
  answered[fast === undefined ? 'no' : 'yes']++;
  if (fast === undefined) {
    if (canonicalPositions(source) !== undefined)
      expect.fail(`canonicalPositions answered a document the reader declines: ${JSON.stringify(source)}`);
    return;
  }
  const yaml = parsedByYaml(source);
  expect({ source, data: fast }).toStrictEqual({ source, data: yaml.data });
  positionsAgree(source, fast, yaml.doc && { doc: yaml.doc, lines: yaml.lines });
}

/** Fixed by default (deterministic); FUZZ_SEED and FUZZ_SCALE run a longer, different search locally. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulidArb = fc
  .tuple(fc.constantFrom(...'01234567'), fc.string({ unit: fc.constantFrom(...CROCKFORD), minLength: 25, maxLength: 25 }))
  .map(([a, b]) => a + b);
/** Characters that matter to YAML, and some that matter to Unicode. */
const SPECIAL = [
  ...':#-?,[]{}&*!|>\'"%@`\\ \t\r\n~.+0123456789eExo_',
  'é',
  '–',
  '\u00a0',
  '\u0085',
  '\u2028',
  '\ufeff',
  '😀',
  '\u0000',
  '\u007f',
];
/** The characters of SPECIAL a folded long value can hold (controls and separators send a file to yaml anyway). */
const PRINTABLE = SPECIAL.filter((c) => !/[\u0000-\u001f\u007f-\u009f\u2028\ufeff]/.test(c));
/**
 * The writer refuses control and bidirectional characters, and newlines inside
 * one-line fields (docs/store-format.md, "Plain text only"), so generated texts
 * drop them; the random edits below still put them into written documents.
 */
const writable = (s: string) =>
  s.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '');
const textArb = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: fc.constantFrom(...SPECIAL, 'a', 'b', 'Z', ' '), maxLength: 20 }),
    // Long values, which the writer folds: words of YAML-significant characters, runs of spaces, one-word lines.
    fc
      .array(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(...PRINTABLE, 'a', 'b', 'Z'), maxLength: 12 }),
          fc.constantFrom('word', 'Never', '#', '# c', 'a: b', '"q"', "it's", 'é', '😀', '', ' ', 'x'.repeat(90), '>-', '- x', '|'),
        ),
        { minLength: 10, maxLength: 40 },
      )
      .map((ws) => ws.join(' ')),
    fc
      .array(
        fc.constantFrom(
          'Never',
          'delete',
          'production',
          'data',
          'see: the',
          '#runbook',
          '"quoted"',
          "it's",
          'naïve',
          '日本語',
          'https://example.com/a/very/long/path/that/does/not/break/anywhere/at/all/in/the/url',
        ),
        { minLength: 12, maxLength: 40 },
      )
      .map((ws) => ws.join(' ')),
    fc.constantFrom(
      'true',
      'False',
      'null',
      '~',
      '1',
      '-1',
      '0x1F',
      '0o17',
      '1e3',
      '.inf',
      '.NaN',
      '1.5',
      '+2',
      '2026-11-29T12:00:00Z',
      'y',
      'no',
      '<<',
      '- x',
      'a: b',
      'a #b',
      'a#b',
      "it's",
      'say "hi"',
      ' lead',
      'trail ',
      '',
    ),
  )
  .map(writable);
const invariantArb: fc.Arbitrary<Invariant> = fc.record(
  {
    id: ulidArb,
    text: textArb,
    severity: fc.constantFrom('error', 'warning', 'info'),
    active: fc.boolean(),
    tags: fc.array(textArb, { maxLength: 3 }),
    rationale: textArb,
    created_at: fc.constant('2026-11-29T12:00:00Z'),
    created_by: textArb,
    source: fc.record({ kind: fc.constantFrom('plan', 'action'), ref: textArb, origin_id: ulidArb }, { requiredKeys: ['kind'] }),
  },
  { requiredKeys: ['id', 'text', 'severity', 'active', 'tags'] },
) as fc.Arbitrary<Invariant>;

/** Plan records as a writer would write them: scalars, null, integers and lists of small maps. */
const recordArb = fc.record({
  id: ulidArb,
  type: fc.constantFrom('invariant_enforced', 'note'),
  parent_id: fc.option(ulidArb, { nil: null }),
  exit_code: fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }).map(Number), fc.double()),
  summary: textArb,
  records: fc.array(
    fc.record(
      { invariant_id: ulidArb, enforced: fc.boolean(), actor_response: textArb, decision_id: fc.option(ulidArb, { nil: null }) },
      { requiredKeys: ['invariant_id'] },
    ),
    { maxLength: 3 },
  ),
});
// The writers' YAML layer with any values (the schema check in front of it would refuse many of these).
const writtenArb = fc.oneof(
  invariantArb.map((inv) => yamlDocument(`global/${inv.id}.yaml`, 'invariant.schema.json', invariantFields(inv))),
  recordArb.map((r) => yamlDocument(`plans/${r.id}/decisions/${r.id}.yaml`, 'decision.schema.json', r)),
);

describe('parseCanonicalYaml', () => {
  it('reads every file of the example store, as yaml does', () => {
    const root = join(import.meta.dirname, '../../.agents.example');
    const files = [
      'global',
      'projects/myapp',
      'plans/01M8KK5920RS6CGAVDFVYYJ0B4',
      'plans/01M8KK5920RS6CGAVDFVYYJ0B4/waivers',
      'actions/local/code-coverage',
    ].flatMap((d) =>
      readdirSync(join(root, d))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join(root, d, f)),
    );
    expect(files.length).toBeGreaterThan(6);
    for (const f of files) {
      const source = readFileSync(f, 'utf8');
      expect(parseCanonicalYaml(source), f).toStrictEqual(reference(source));
    }
  });

  it('reads what the writer writes for ordinary invariants (so the fast path is really taken)', () => {
    const inv: Invariant = {
      id: '01M8KJT9G0XNWEM589ZS7FV0VT',
      text: 'Never delete production data (see the runbook) [ops]',
      severity: 'warning',
      active: false,
      tags: ['data', 'two words'],
      rationale: 'It\'s "quoted": and #hashed',
      created_at: '2026-11-29T12:00:00Z',
      created_by: 'Jane Doe <jane@example.com>',
      source: { kind: 'action', ref: 'local/code-coverage', origin_id: '01M8KK1KW0KPRSWWKENT2QZ1QM' },
    };
    const text = formatInvariantFile('plans/01M8KK5920RS6CGAVDFVYYJ0B4/01M8KJT9G0XNWEM589ZS7FV0VT.yaml', inv);
    expect(parseCanonicalYaml(text)).toStrictEqual({ ...inv });
    const plan = formatPlanFile('plans/01M8KK5920RS6CGAVDFVYYJ0B4/plan.yaml', {
      id: '01M8KK5920RS6CGAVDFVYYJ0B4',
      project: 'myapp',
      goal: 'Ship: it',
      created_at: '2026-11-29T12:00:00Z',
    });
    expect(parseCanonicalYaml(plan)).toStrictEqual({
      id: '01M8KK5920RS6CGAVDFVYYJ0B4',
      project: 'myapp',
      goal: 'Ship: it',
      created_at: '2026-11-29T12:00:00Z',
    });
  });

  it('reads the folded form the writer gives long values, as yaml does', () => {
    const long =
      'Never delete production data # not a comment: "quoted" it\'s naïve 日本語 😀 — see the runbook at https://example.com/runbooks/data/deletion before you act';
    const values = [
      long,
      `${long} ${'x'.repeat(100)} end`,
      `${'y'.repeat(120)}`,
      `a  b ${long}`,
      `${long}: ${long}`,
      `- ${long}`,
      `>- ${long}`,
    ];
    for (const value of values) {
      const data = {
        id: '01M8KJT9G0XNWEM589ZS7FV0VT',
        text: value,
        tags: ['short', value],
        source: { kind: 'action', ref: value },
        records: [{ invariant_id: 'x', actor_response: value, decision_id: null }],
        rationale: value,
      };
      const text = yamlDocument('global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml', 'invariant.schema.json', data);
      expect(text).toContain('text: >-\n  ');
      for (const line of text.split('\n')) if (line.length > 80) expect(line.trim(), text).not.toContain(' ');
      expect(parseCanonicalYaml(text), text).toStrictEqual(data);
      expect(reference(text)).toStrictEqual(data);
    }
  });

  it('leaves long values with leading or trailing spaces, several lines or controls to yaml, escaped in double quotes across lines', () => {
    const long = 'Never delete production data without a reviewed backup plan, a second approver and a rollback';
    for (const value of [`${long}   `, `  ${long}`, `${long}\n\n  indented "q"`, `x\u0085y "q"`, `${long}\u0001\t${long}`]) {
      const data = { id: 'x', text: value };
      const text = yamlDocument('global/x.yaml', 'invariant.schema.json', data);
      expect(text.split('\n').every((l) => (l.length <= 80 && !l.endsWith(' ')) || l.endsWith('"'))).toBe(true);
      expect(parseCanonicalYaml(text)).toBeUndefined();
      expect(reference(text)).toStrictEqual(data);
    }
  });

  it.each([
    ['a folded scalar with a more-indented line', 'text: >-\n  a\n    b\n'],
    ['a folded scalar with a blank line', 'text: >-\n  a\n\n  b\n'],
    ['a folded scalar with a trailing space', 'text: >-\n  a \n  b\n'],
    ['a folded scalar with no lines', 'text: >-\nid: x\n'],
    ['a folded scalar indented further than the writer does', 'text: >-\n    a\n    b\n'],
    ['a folded scalar followed by a blank line', 'text: >-\n  a\n\nid: x\n'],
    ['a folded scalar that keeps its final line break', 'text: >\n  a\n'],
    ['a flow sequence with a quoted item', 'tags: [a, "b"]\n'],
    ['a block scalar', 'text: |\n  a\n  b\n'],
    ['a float', 'version: 1.5\n'],
    ['a large integer', 'n: 12345678901234567890\n'],
    ['an octal-looking integer', 'n: 007\n'],
    ['null spelt ~', 'text: ~\n'],
    ['null spelt Null', 'text: Null\n'],
    ['a tab', 'text: a\tb\n'],
    ['CRLF', 'text: a\r\n'],
    ['a continued plain scalar', 'text: a\n  b\n'],
    ['a trailing comment', 'text: a # note\n'],
    ['an anchor', 'text: &x a\n'],
    ['a duplicate key', 'text: a\ntext: b\n'],
    ['a second document', 'text: a\n---\ntext: b\n'],
    ['a map nested in a sequence item', 'tags:\n  - a:\n      b: c\n'],
    ['a sequence item continued at the wrong indentation', 'records:\n  - a: b\n   c: d\n'],
    ['an empty value', 'text:\n'],
    ['an empty file', ''],
    ['only comments', '# a\n'],
  ])('leaves %s to yaml', (_name, source) => {
    expect(parseCanonicalYaml(source)).toBeUndefined();
  });

  it('agrees with yaml on every document the writer produces', () => {
    const runs1000 = fcRuns(1000 * SCALE);
    fc.assert(
      fc.property(writtenArb, (text) => {
        agrees(text);
      }),
      { seed: SEED, numRuns: runs1000 },
    );
    // Not vacuous: most of what the writer writes takes the fast path.
    expect(answered.yes).toBeGreaterThan(runs1000 * 0.3);
    answered.yes = 0;
  });

  it('writes documents yaml reads back exactly, within 80 columns and with no trailing space', () => {
    const multiline = fc.array(fc.oneof(textArb, fc.constant('')), { minLength: 2, maxLength: 4 }).map((ls) => ls.join('\n'));
    const data = fc.record({
      id: ulidArb,
      text: fc.oneof(textArb, multiline),
      tags: fc.array(fc.oneof(textArb, multiline), { maxLength: 2 }),
      records: fc.array(fc.record({ actor_response: fc.oneof(textArb, multiline) }), { maxLength: 2 }),
      source: fc.record({ ref: fc.oneof(textArb, multiline) }),
    });
    fc.assert(
      fc.property(data, (generated) => {
        const d = JSON.parse(JSON.stringify(generated)) as typeof generated; // plain objects, as yaml gives
        const text = yamlDocument(`global/${d.id}.yaml`, 'invariant.schema.json', d);
        expect({ text, data: reference(text) }).toStrictEqual({ text, data: d });
        for (const line of text.split('\n')) {
          expect({ text, line, trailing: / $/.test(line) }).toStrictEqual({ text, line, trailing: false });
          // yamllint's line-length forgives a line that is one word.
          if (line.length > 80) expect({ text, line, words: line.trim().includes(' ') }).toStrictEqual({ text, line, words: false });
        }
      }),
      { seed: SEED, numRuns: fcRuns(500 * SCALE) },
    );
  });

  it('agrees with yaml on documents edited at random (inserted, deleted and replaced characters, lines and indentation)', () => {
    const before = answered.yes;
    const base = fc.tuple(
      writtenArb,
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.constantFrom('insert', 'delete', 'replace', 'indent', 'dedent', 'dup-line'),
          fc.constantFrom(...SPECIAL, '  ', '\n  ', '\n- ', '\n', ': ', ' #', "''", '\\"', '\\u00e9', '\\x41', '\\q'),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    );
    const runs3000 = fcRuns(3000 * SCALE);
    fc.assert(
      fc.property(base, ([written, edits]) => {
        let text = written;
        for (const [at, op, s] of edits) {
          const i = at % (text.length + 1);
          if (op === 'insert') text = text.slice(0, i) + s + text.slice(i);
          else if (op === 'delete') text = text.slice(0, i) + text.slice(i + 1);
          else if (op === 'replace') text = text.slice(0, i) + s + text.slice(i + s.length);
          else {
            const lines = text.split('\n');
            const n = at % lines.length;
            if (op === 'indent') lines[n] = `  ${lines[n]}`;
            else if (op === 'dedent') lines[n] = lines[n]!.replace(/^ {1,2}/, '');
            else lines.splice(n, 0, lines[n]!);
            text = lines.join('\n');
          }
        }
        agrees(text);
      }),
      { seed: SEED, numRuns: runs3000 },
    );
    expect(answered.yes - before).toBeGreaterThan(runs3000 / 15);
  });

  it('agrees with yaml on documents assembled from YAML-shaped lines', () => {
    const goodKey = fc.constantFrom(
      'id',
      'text',
      'tags',
      'source',
      'kind',
      'ref',
      'a_b',
      'x1',
      'severity',
      'active',
      'rationale',
      'created_by',
      'origin_id',
    );
    const key = fc.oneof(
      { weight: 8, arbitrary: goodKey },
      { weight: 1, arbitrary: fc.constantFrom('null', 'true', 'Text', '__proto__', '-', '? x', '"q"', 'a b') },
    );
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .,()/<>@-]{0,20}[A-Za-z0-9)]$/);
    const value = fc.oneof({ weight: 6, arbitrary: word }, { weight: 3, arbitrary: textArb }, { weight: 1, arbitrary: fc.constant('') });
    const quoted = fc.oneof(
      value.map((v) => JSON.stringify(v)),
      value.map((v) => `'${v.replace(/'/g, "''")}'`),
      value.map((v) => `'${v}'`),
      value.map((v) => `"${v}"`),
    );
    const anyValue = fc.oneof({ weight: 4, arbitrary: value }, { weight: 2, arbitrary: quoted });
    const block = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(key, anyValue).map(([k, v]) => [`${k}: ${v}`]) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(key, fc.constantFrom('', '  ', ' ', '    '), fc.array(anyValue, { maxLength: 3 }))
          .map(([k, ind, vs]) => [`${k}:`, ...vs.map((v) => `${ind}- ${v}`)]),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(key, fc.constantFrom('  ', ' ', '   '), fc.array(fc.tuple(key, anyValue), { maxLength: 3 }))
          .map(([k, ind, kvs]) => [`${k}:`, ...kvs.map(([kk, v]) => `${ind}${kk}: ${v}`)]),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            key,
            fc.constantFrom('  ', ' ', '   '),
            fc.array(fc.tuple(key, fc.constantFrom('', '  ', ' ', '   '), fc.array(anyValue, { maxLength: 3 })), { maxLength: 3 }),
          )
          .map(([k, ind, kvs]) => [`${k}:`, ...kvs.flatMap(([kk, ind2, vs]) => [`${ind}${kk}:`, ...vs.map((v) => `${ind}${ind2}- ${v}`)])]),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(key, fc.constantFrom(', ', ',', ' , ', ',  '), fc.array(fc.oneof(word, anyValue), { maxLength: 3 }))
          .map(([k, sep, vs]) => [`${k}: [${vs.join(sep)}]`]),
      },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(
            '',
            '# comment',
            '  # indented comment',
            '    # deeper comment',
            ' #x',
            '#',
            '  #',
            '---',
            '...',
            '%YAML 1.2',
            '  continued',
            '- item',
          )
          .map((l) => [l]),
      },
    );
    const before = answered.yes;
    const runs4000 = fcRuns(4000 * SCALE);
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), fc.boolean(), (blocks, newline) => {
        agrees(blocks.flat().join('\n') + (newline ? '\n' : ''));
      }),
      { seed: SEED, numRuns: runs4000 },
    );
    expect(answered.yes - before).toBeGreaterThan(runs4000 * 0.1);
  });
});

describe('parseYaml with the fast path', () => {
  const G: Scope = { kind: 'global' };
  const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
  const enc = (s: string) => new TextEncoder().encode(s);

  it('still positions diagnostics with yaml when a canonical file breaks the schema', () => {
    const text = `# yaml-language-server: $schema=../schemas/invariant.schema.json\nid: ${ID}\ntext: Never\nseverity: fatal\ntags:\n  - ok\n  - ok\n`;
    expect(parseCanonicalYaml(text)).toBeDefined();
    const r = parseInvariant(`global/${ID}.yaml`, enc(text), G, ID);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.col, d.lineText])).toEqual([
      ['schema', 4, 11, 'severity: fatal'],
      ['schema', 7, 5, '  - ok'],
    ]);
  });

  it('gives the same YamlFile data and positions as the full parse', () => {
    const text = `id: ${ID}\ntext: "a: b"\ntags:\n  - x\n`;
    const y = parseYaml('f.yaml', enc(text)).value!;
    expect(y.data).toStrictEqual(reference(text));
    expect(y.lines.linePos(text.indexOf('tags'))).toEqual({ line: 3, col: 1 });
    expect(y.doc.errors).toEqual([]);
  });
});
