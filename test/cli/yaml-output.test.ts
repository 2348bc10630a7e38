import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { toYaml, yamlDocumentPieces, yamlListPieces } from '../../src/cli/yaml-output.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

/** Entries of the shapes list output holds: nested lists and maps, nulls, long, multi-line and hidden-character text. */
function entries(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `id-${i}`,
    text: i % 7 === 0 ? `line one\nline two ${i}` : i % 11 === 0 ? `hidden\u202echaracter ${i}` : `Rule ${i}: keep it`,
    tags: i % 3 === 0 ? [] : ['a', `t${i}`],
    scope: i % 2 === 0 ? 'global' : { kind: 'project', project: `p${i}` },
    shadowed_by: i % 5 === 0 ? [{ id: `s${i}`, path: `global/s${i}.yaml` }] : [],
    rationale: null,
  }));
}

describe('yamlListPieces', () => {
  for (const n of [0, 1, 6, 7, 20]) {
    it(`joins into the text of the whole list of ${n}, 3 entries a piece`, () => {
      const items = entries(n);
      const pieces = [...yamlListPieces(items, 3)];
      expect(pieces.join('')).toBe(toYaml(items));
      expect(pieces.length).toBe(Math.max(1, Math.ceil(n / 3)));
      expect(parse(pieces.join(''))).toEqual(items);
    });
  }

  it('writes 256 entries a piece by default', () => {
    expect([...yamlListPieces(entries(257))].length).toBe(2);
  });

  it('writes an object met twice as data both times, never as an anchor and alias', () => {
    const shared = { kind: 'project', project: 'web' };
    const items = [
      { id: 'a', scope: shared },
      { id: 'b', scope: shared },
    ];
    const text = [...yamlListPieces(items)].join('');
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text).toBe(toYaml(items));
    expect(parse(text)).toEqual(items);
  });
});

describe('yamlDocumentPieces', () => {
  const docs: [string, object][] = [
    ['an empty document', {}],
    ['scalars, maps and a short list', { version: 1, ok: false, store: '.agents', summary: { errors: 2 }, fixes: [] }],
    ['a long list between scalars', { ok: true, diagnostics: entries(20), files: 20, after: 'x' }],
    ['a list of exactly one slice, and an undefined key', { a: entries(3), skipped: undefined, b: [] }],
    ['two long lists', { files: entries(7), candidates: entries(11) }],
  ];
  for (const [name, doc] of docs) {
    it(`joins into the text of the whole document, 3 entries a piece: ${name}`, () => {
      const text = [...yamlDocumentPieces(doc, 3)].join('');
      expect(text).toBe(toYaml(doc));
      expect(parse(text)).toEqual(JSON.parse(JSON.stringify(doc)));
    });
  }
});

describe('invariant list --format yaml', () => {
  it('writes the same entries as --format json, past one piece', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 260; i++) {
      const id = `01JAAAAAAAAAAAAAAAAAAAA${String(i).padStart(3, '0')}`;
      files[`global/${id}.yaml`] = invariantYaml(id, `Rule number ${i}`, { tags: '[a, b]' });
    }
    const root = testStore(files);
    const yaml = await runAgents(['--store', root, 'invariant', 'list', '--format', 'yaml']);
    const json = await runAgents(['--store', root, 'invariant', 'list', '--format', 'json']);
    expect(yaml.code).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect((parse(yaml.stdout) as unknown[]).length).toBe(260);
  });
});

describe('validate --format yaml', () => {
  it('holds what --format json holds', async () => {
    const files: Record<string, string> = {};
    // The same text in 20 files of one scope: 19 duplicate-text errors.
    for (let i = 0; i < 20; i++) {
      const id = `01JAAAAAAAAAAAAAAAAAAAA${String(i).padStart(3, '0')}`;
      files[`global/${id}.yaml`] = invariantYaml(id, 'Keep the same rule');
    }
    const root = testStore(files);
    const yaml = await runAgents(['--store', root, 'validate', '--format', 'yaml']);
    const json = await runAgents(['--store', root, 'validate', '--format', 'json']);
    expect(yaml.code).toBe(json.code);
    const report = parse(yaml.stdout) as { diagnostics: unknown[] };
    expect(report).toEqual(JSON.parse(json.stdout));
    expect(report.diagnostics.length).toBeGreaterThan(10);
  });
});

describe('lines GitHub Actions would read as workflow commands', () => {
  const command = /^[ \t]*::/m;

  it('a string with a line that starts :: is written on one line, double-quoted, and reads back the same', () => {
    const data = { rationale: 'Because\n::error file=README.md::fake\n  ::stop-commands::x', plain: 'a::b', items: ['::x'] };
    const out = toYaml(data);
    expect(out).not.toMatch(command);
    expect(parse(out)).toEqual(data);
  });
});

describe('strings a YAML 1.1 reader would read as another type', () => {
  it('are double-quoted, as the store writes them, so PyYAML reads the strings --format json gives', () => {
    const data = {
      created_at: '2026-11-29T12:00:00Z',
      expires: '2026-12-31',
      tags: ['yes', 'on', 'N', '0777', '1:20', '1_000', 'ok'],
      on: 'x',
    };
    expect(toYaml(data)).toBe(
      'created_at: "2026-11-29T12:00:00Z"\nexpires: "2026-12-31"\ntags:\n  - "yes"\n  - "on"\n  - "N"\n  - "0777"\n  - "1:20"\n  - "1_000"\n  - ok\n"on": x\n',
    );
    expect(parse(toYaml(data))).toEqual(data);
  });
});

describe('strings holding a tab', () => {
  it('are double-quoted with the tab as \\t, as the store writes them, since PyYAML refuses a raw tab in a plain scalar', () => {
    const data = { text: 'tab\tinside', rationale: 'one\n\ttwo', tags: ['\tlead', 'end\t'] };
    expect(toYaml(data)).toBe('text: "tab\\tinside"\nrationale: "one\\n\\ttwo"\ntags:\n  - "\\tlead"\n  - "end\\t"\n');
    expect(parse(toYaml(data))).toEqual(data);
  });

  it('a line ending in a space is written double-quoted too, so no output line ends in one (yamllint trailing-spaces)', () => {
    const data = { details: 'first line \nsecond line', last: 'one\ntwo ', plain: 'a b' };
    const out = toYaml(data);
    expect(out).not.toMatch(/[ \t]$/m);
    expect(out).toBe('details: "first line\\ \\nsecond line"\nlast: "one\\ntwo "\nplain: a b\n');
    expect(parse(out)).toEqual(data);
  });
});
