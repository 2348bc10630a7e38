import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.ts';
import { parseConfig, parseInvariant, parsePlan, parseYaml, type Parsed } from '../../src/core/parse.ts';
import { readStore } from '../../src/store/read.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { testStore } from '../helpers/tmp.ts';
import { scale } from '../helpers/stress.ts';
import { fcRuns } from '../helpers/fc-runs.ts';
import { validateTree } from '../../src/validate/validate-tree.ts';

/** Fixed seed: the same cases on every run; a failure prints its counterexample. */
const SEED = 20261130;
let cases = 0;
let inputs = 0;
afterAll(() => console.log(`fuzz: ${inputs} inputs, ${cases} parser and reader runs`));

const ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const PLAN = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const enc = new TextEncoder();

/** Valid files of each kind, the seeds of the mutations. */
const VALID: string[] = [
  `# yaml-language-server: $schema=../schemas/invariant.schema.json\nid: ${ID}\ntext: Never delete production data\nseverity: error\nactive: true\ntags: [data, safety]\nrationale: Why this exists.\ncreated_at: 2026-11-29T12:00:00Z\ncreated_by: Jane Doe <jane@example.com>\n`,
  `id: ${ID}\ntext: "Quoted: text with # and : inside"\ntags:\n  - a\n  - b\n`,
  `id: ${ID}\ntext: |\n  A block scalar\n  over two lines\nseverity: warning\nactive: false\n`,
  `{id: ${ID}, text: 'flow style', severity: info}\n`,
  `id: ${ID}\ntext: Plan copy\nsource:\n  kind: action\n  ref: local/code-coverage\n  origin_id: ${PLAN}\n`,
];

const lineCount = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8').split('\n').length;

/** Every input gets a value or at least one diagnostic, each with a usable position. */
function checkParsed(p: Parsed<unknown>, file: string, bytes: Uint8Array): void {
  cases++;
  if (p.value !== undefined) {
    expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  } else {
    expect(p.diagnostics.length).toBeGreaterThan(0);
  }
  for (const d of p.diagnostics) checkDiagnostic(d, file, lineCount(bytes));
}

function checkDiagnostic(d: Diagnostic, file: string, lines: number): void {
  expect(d.file).toBe(file);
  expect(typeof d.code).toBe('string');
  expect(d.code.length).toBeGreaterThan(0);
  expect(typeof d.message).toBe('string');
  expect(Number.isInteger(d.line) && Number.isInteger(d.col)).toBe(true);
  if (d.line === 0) {
    expect(d.col).toBe(0);
  } else {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lines + 1);
    expect(d.col).toBeGreaterThanOrEqual(1);
  }
}

function parseAll(bytes: Uint8Array): void {
  inputs++;
  const file = `global/${ID}.yaml`;
  checkParsed(parseYaml(file, bytes), file, bytes);
  checkParsed(parseInvariant(file, bytes, { kind: 'global' }, ID), file, bytes);
  checkParsed(parsePlan(`plans/${PLAN}/plan.yaml`, bytes, PLAN), `plans/${PLAN}/plan.yaml`, bytes);
  checkParsed(parseConfig('config.yaml', bytes), 'config.yaml', bytes);
}

/** Things that break YAML in interesting ways. */
const SNIPPETS = [
  '\t',
  '\0',
  '&a ',
  '*a',
  '*b ',
  '&a [*a, *a]',
  '<<: *a\n',
  '!!binary ',
  '!tag ',
  '%YAML 1.1\n',
  '---\n',
  '...\n',
  '? ',
  ': ',
  '- ',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '|',
  '>',
  '#',
  '\r',
  '\r\n',
  '\uFEFF',
  '\u2028',
  'id: x\n',
  `id: ${ID}\n`,
  'text:\n',
  ' '.repeat(40),
  '\\',
  '\xff',
];

type Mutation =
  | { op: 'flip'; at: number; byte: number }
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'delete'; at: number; length: number }
  | { op: 'nest'; at: number; depth: number; open: string }
  | { op: 'alias-bomb'; levels: number; width: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 8 })),
  }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
  fc.record({
    op: fc.constant('nest' as const),
    at: fc.nat(),
    depth: fc.integer({ min: 1, max: 5000 }),
    open: fc.constantFrom('[', '{', '- ', 'k:\n ', '? '),
  }),
  fc.record({ op: fc.constant('alias-bomb' as const), levels: fc.integer({ min: 1, max: 12 }), width: fc.integer({ min: 2, max: 12 }) }),
);

function applyMutation(input: Uint8Array, m: Mutation): Uint8Array {
  const bytes = Buffer.from(input);
  const at = bytes.length === 0 ? 0 : m.op === 'alias-bomb' ? 0 : m.at % (bytes.length + 1);
  switch (m.op) {
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const out = Buffer.from(bytes);
      out[at % bytes.length] = m.byte;
      return out;
    }
    case 'truncate':
      return bytes.subarray(0, at);
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(m.text, 'latin1'), bytes.subarray(at)]);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
    case 'nest': {
      const close = m.open === '[' ? ']' : m.open === '{' ? '}' : '';
      const nested =
        m.open === 'k:\n '
          ? Array.from({ length: Math.min(m.depth, 400) }, (_, i) => `${' '.repeat(i)}k:`).join('\n')
          : `${m.open.repeat(m.depth)}x${close.repeat(m.depth)}`;
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(nested), bytes.subarray(at)]);
    }
    case 'alias-bomb': {
      let bomb = `a0: &a0 [${Array(m.width).fill('lol').join(', ')}]\n`;
      for (let i = 1; i < m.levels; i++)
        bomb += `a${i}: &a${i} [${Array(m.width)
          .fill(`*a${i - 1}`)
          .join(', ')}]\n`;
      return Buffer.concat([bytes, Buffer.from(bomb)]);
    }
  }
}

/** Generated inputs per property: the full count under `npm run test:stress`, a quarter in `npm test`, same seed. */
const RUNS = { seed: SEED, numRuns: 0 };

describe('fuzz: the parsers never throw, every input gets a value or a located diagnostic', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => parseAll(bytes)),
      { ...RUNS, numRuns: fcRuns(scale(1500, 400)) },
    );
    // Slow by design (a named slow test): thousands of generated inputs.
  }, 300_000);

  it('random strings made of YAML punctuation and snippets', () => {
    const yamlish = fc
      .array(
        fc.oneof(
          fc.constantFrom(...SNIPPETS),
          fc.string({ maxLength: 6 }),
          fc.constantFrom('id', 'text', 'tags', 'severity', 'true', 'null', '1e9', '0x1F', '~'),
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(yamlish, (s) => parseAll(enc.encode(s))),
      { ...RUNS, numRuns: fcRuns(scale(1500, 400)) },
    );
    // Slow by design (a named slow test): thousands of generated inputs.
  }, 300_000);

  it('mutations of valid files: byte flips, truncations, inserted tabs, anchors, aliases, NULs, deep nesting, alias bombs', () => {
    const mutated = fc
      .tuple(fc.constantFrom(...VALID), fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([base, ms]) => ms.reduce<Uint8Array>((b, m) => applyMutation(b, m), enc.encode(base)));
    fc.assert(
      fc.property(mutated, (bytes) => parseAll(bytes)),
      { ...RUNS, numRuns: fcRuns(scale(1500, 400)) },
    );
    // Slow by design (a named slow test): thousands of generated inputs.
  }, 300_000);

  it('the store reader and the validator over a store holding mutated files: no exception, every bad file named', async () => {
    const mutated = fc
      .tuple(fc.constantFrom(...VALID), fc.array(mutation, { minLength: 1, maxLength: 3 }))
      .map(([base, ms]) => ms.reduce<Uint8Array>((b, m) => applyMutation(b, m), enc.encode(base)));
    const store = testStore();
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const source = new WorkingTreeSource(store);
    await fc.assert(
      fc.asyncProperty(fc.array(mutated, { minLength: 1, maxLength: 5 }), async (files) => {
        cases++;
        inputs += files.length;
        const ids = files.map((_, i) => `${ID.slice(0, 24)}${String(10 + i)}`);
        const { rmSync, mkdirSync } = await import('node:fs');
        rmSync(join(store, 'global'), { recursive: true, force: true });
        mkdirSync(join(store, 'global'));
        files.forEach((bytes, i) => writeFileSync(join(store, `global/${ids[i]}.yaml`), bytes));
        const snap = await readStore(source);
        for (let i = 0; i < files.length; i++) {
          const file = `global/${ids[i]}.yaml`;
          const read = snap.invariants.some((inv) => inv.path === file);
          const diagnosed = snap.diagnostics.filter((d) => d.file === file);
          // Each file is either read or named by at least one error.
          expect(read || diagnosed.some((d) => d.severity === 'error')).toBe(true);
          for (const d of diagnosed) checkDiagnostic(d, file, lineCount(files[i]!));
        }
        // The validator over the same store: never throws; each file that did not read is reported as an error.
        cases++;
        const report = await validateTree(source, { lockHolderAlive: () => false });
        for (let i = 0; i < files.length; i++) {
          const file = `global/${ids[i]}.yaml`;
          const found = report.diagnostics.filter((d) => d.file === file);
          if (!snap.invariants.some((inv) => inv.path === file)) expect(found.some((d) => d.severity === 'error')).toBe(true);
          for (const d of found) checkDiagnostic(d, file, lineCount(files[i]!));
        }
      }),
      { ...RUNS, numRuns: fcRuns(scale(300, 80)) },
    );
    // Slow by design (a named slow test): thousands of generated inputs.
  }, 300_000);
});
