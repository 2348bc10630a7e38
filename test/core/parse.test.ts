import { describe, expect, it } from 'vitest';
import { parseActionMeta, parseConfig, parseInvariant, parsePlan, parseProjectMeta, parseWaiver, parseYaml } from '../../src/core/parse.ts';
import { classifyPath, isKnownFolder, schemaRef } from '../../src/core/layout.ts';
import type { Scope } from '../../src/core/model.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const G: Scope = { kind: 'global' };
const enc = (s: string) => new TextEncoder().encode(s);
const parse = (text: string, id = ID) => parseInvariant(`global/${id}.yaml`, enc(text), G, id);
const where = (text: string) => parse(text).diagnostics.map((d) => [d.code, d.line, d.col]);

describe('parseInvariant', () => {
  it('applies defaults and keeps the path and scope', () => {
    expect(
      parse(`# yaml-language-server: $schema=../schemas/invariant.schema.json\nid: ${ID}\ntext: Never delete production data\n`),
    ).toEqual({
      value: {
        id: ID,
        text: 'Never delete production data',
        severity: 'error',
        active: true,
        tags: [],
        scope: G,
        path: `global/${ID}.yaml`,
      },
      diagnostics: [],
    });
  });

  it.each([
    ['an unknown key, at the key', `id: ${ID}\ntext: T\nseverty: error\n`, [['schema', 3, 1]]],
    ['a key left out (a line that starts ": "), at the key', `id: ${ID}\ntext: T\n: oops\n`, [['schema', 3, 1]]],
    ['a null key, at the key', `id: ${ID}\ntext: T\n~: oops\n`, [['schema', 3, 1]]],
    ['a merge key, at the key', `id: ${ID}\ntext: T\n<<: {severity: info}\n`, [['schema', 3, 1]]],
    ['an explicit collection key, at the key', `id: ${ID}\ntext: T\n? [a, b]\n: 1\n`, [['schema', 3, 3]]],
    ['an explicit block collection key, at the key', `id: ${ID}\ntext: T\nguard:\n  ? - a\n    - b\n  : 1\n`, [['schema', 4, 5]]],
    ['a bad enum value, at the value', `id: ${ID}\ntext: T\nseverity: fatal\n`, [['schema', 3, 11]]],
    ['a wrong type, at the value', `id: ${ID}\ntext: T\nactive: "yes"\n`, [['schema', 3, 9]]],
    ['a tag of the wrong type, at the item', `id: ${ID}\ntext: T\ntags:\n  - ok\n  - 3\n`, [['schema', 5, 5]]],
    ['a missing text, at the document', `id: ${ID}\n`, [['schema', 1, 1]]],
    ['an id that differs from the file name', `id: 01M8KJW430VF8WCABSB8RTQ8RY\ntext: T\n`, [['id-mismatch', 1, 5]]],
    ['a text of white space only', `id: ${ID}\ntext: "   "\n`, [['schema', 2, 7]]],
    ['a duplicate key', `id: ${ID}\ntext: A\ntext: B\n`, [['yaml-duplicate-key', 3, 1]]],
    ['a tab used for indentation', `id: ${ID}\ntags:\n\t- a\ntext: T\n`, [['yaml-syntax', 3, 1]]],
    ['two documents', `id: ${ID}\ntext: T\n---\nid: ${ID}\n`, [['yaml-multi-document', 3, 1]]],
    ['an empty file', '', [['file-empty', 0, 0]]],
    ['only a comment', '# nothing here\n', [['file-empty', 0, 0]]],
    ['source outside a plan', `id: ${ID}\ntext: T\nsource:\n  kind: plan\n`, [['source-not-in-plan', 3, 1]]],
    ['an invalid created_at', `id: ${ID}\ntext: T\ncreated_at: yesterday\n`, [['schema', 3, 13]]],
  ])('points at %s', (_name, text, expected) => {
    expect(where(text)).toEqual(expected);
  });

  it("trims the text and tags as the writers do: a block scalar's last line breaks and edge spaces are layout", () => {
    const r = parse(`id: ${ID}\ntext: |+\n  Keep   the logs\n\n\ntags: ["a\\n", "b  ", c]\n`);
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toMatchObject({ text: 'Keep   the logs', tags: ['a', 'b', 'c'] });
    expect(parse(`id: ${ID}\ntext: "\\n  Keep the logs  "\n`).value?.text).toBe('Keep the logs');
    expect(parse(`id: ${ID}\ntext: T\ntags: [a, "a  ", b]\n`).value?.tags).toEqual(['a', 'b']);
  });

  it('a YAML 1.1 boolean or number written where a boolean or number goes: schema at the value, naming it as the string it is', () => {
    for (const [field, written] of [
      ['active', 'no'],
      ['active', 'On'],
      ['imported_from', '{file: a.md, line: 1_000}'],
    ] as const) {
      const r = parse(`id: ${ID}\ntext: T\n${field}: ${written}\n`);
      expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['schema', 3]]);
      expect(r.diagnostics[0]!.message).toMatch(/"(no|On|1_000)" is a string in YAML 1\.2/);
    }
    // Any other string is only of the wrong type.
    expect(parse(`id: ${ID}\ntext: T\nactive: nope\n`).diagnostics[0]!.message).toBe('active must be of type boolean');
  });

  it('a merge key is named as one: YAML 1.2 reads it as a key of its own, not the keys it names', () => {
    const r = parse(`base: &b\n  severity: info\nid: ${ID}\ntext: T\n<<: *b\n`);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([
      ['schema', 1, 1],
      ['schema', 5, 1],
    ]);
    expect(r.diagnostics[1]!.message).toMatch(/^merge key "<<"/);
  });

  it('accepts CRLF line ends and a byte-order mark', () => {
    expect(parse(`\ufeffid: ${ID}\r\ntext: T\r\n`).value?.text).toBe('T');
  });

  it('refuses binary content, invalid UTF-8 and files over 1 MiB without parsing them', () => {
    expect(parseYaml('f', new Uint8Array([105, 100, 0, 58])).diagnostics.map((d) => d.code)).toEqual(['file-binary']);
    expect(parseYaml('f', new Uint8Array([0x74, 0x3a, 0x20, 0xc3, 0x28])).diagnostics.map((d) => d.code)).toEqual(['file-not-utf8']);
    expect(parseYaml('f', new Uint8Array(1024 * 1024 + 1).fill(0x20)).diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
  });

  it('a list past the token limit is yaml-too-large whether written in the canonical shape or not', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `t${i}`);
    const plain = `id: ${ID}\ntext: T\ntags: [${words.join(', ')}]\n`;
    const quoted = `id: ${ID}\ntext: T\ntags: ["t", ${words.join(', ')}]\n`;
    expect(parseYaml('f', enc(plain)).diagnostics.map((d) => d.code)).toEqual(['yaml-too-large']);
    expect(parseYaml('f', enc(quoted)).diagnostics.map((d) => d.code)).toEqual(['yaml-too-large']);
  });

  it('a UTF-16 file (as Windows PowerShell 5 writes one) is file-not-utf8, not binary content', () => {
    const utf16 = (text: string, big: boolean) => {
      const out = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        out.set(big ? [c >> 8, c & 0xff] : [c & 0xff, c >> 8], i * 2);
      }
      return out;
    };
    for (const big of [false, true]) {
      const d = parseYaml('f', utf16(`\ufeffid: ${ID}\r\ntext: T\r\n`, big)).diagnostics;
      expect(d.map((x) => [x.code, x.line, x.col])).toEqual([['file-not-utf8', 1, 1]]);
    }
  });

  it('refuses an alias bomb quickly', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const r = parseYaml('f', enc(lines.join('\n')));
    expect(r.diagnostics.map((d) => d.code)).toEqual(['yaml-alias-limit']);
  });

  it('gives a caret line with each positioned diagnostic', () => {
    const [d] = parse(`id: ${ID}\ntext: T\nseverity: fatal\n`).diagnostics;
    expect(d?.lineText).toBe('severity: fatal');
  });
});

describe('parsePlan and parseConfig', () => {
  it('checks the plan id against its folder', () => {
    const p = parsePlan('plans/01M8KK5920RS6CGAVDFVYYJ0B4/plan.yaml', enc(`id: ${ID}\n`), '01M8KK5920RS6CGAVDFVYYJ0B4');
    expect(p.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['id-mismatch', 1, 5]]);
  });

  it('fills config defaults and treats an empty file as defaults', () => {
    expect(parseConfig('config.yaml', enc('commit: true\n')).value).toEqual({
      version: 1,
      commit: true,
      reconciliation: { actor: 'command', timeout_ms: 60000 },
      projects: { allow_overlap: false },
      export: { severities: ['error', 'warning', 'info'], nested: true },
      mcp: { allow_write: false },
      extends: [],
      guard: { on_error: 'deny' },
    });
    expect(
      parseConfig('config.yaml', enc('export:\n  targets: [cursor, agents-md]\n  nested: false\nprojects:\n  allow_overlap: true\n')).value,
    ).toMatchObject({
      projects: { allow_overlap: true },
      export: { targets: ['cursor', 'agents-md'], severities: ['error', 'warning', 'info'], nested: false },
    });
    expect(parseConfig('config.yaml', enc('export:\n  targets: [vscode]\n')).diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['schema', 2],
    ]);
    expect(parseConfig('config.yaml', enc('mcp:\n  allow_write: true\n')).value?.mcp).toEqual({ allow_write: true });
    expect(parseConfig('config.yaml', enc('mcp:\n  allow_writes: true\n')).diagnostics.map((d) => d.code)).toEqual(['schema']);
    expect(parseConfig('config.yaml', enc('# nothing\n')).value?.commit).toBe(false);
    expect(
      parseConfig('config.yaml', enc('reconciliation:\n  command: sh -c x\n')).diagnostics.map((d) => [d.code, d.line, d.col]),
    ).toEqual([['schema', 2, 12]]);
  });
});

describe('layout', () => {
  it.each([
    ['global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml', { kind: 'invariant', scope: { kind: 'global' }, id: ID }],
    ['projects/myapp/01M8KJT9G0XNWEM589ZS7FV0VT.yaml', { kind: 'invariant', scope: { kind: 'project', project: 'myapp' }, id: ID }],
    [
      'actions/local/code-coverage/01M8KJT9G0XNWEM589ZS7FV0VT.yaml',
      { kind: 'invariant', scope: { kind: 'action', ns: 'local', name: 'code-coverage' }, id: ID },
    ],
    ['actions/local/code-coverage/action.yaml', { kind: 'action-meta', ns: 'local', name: 'code-coverage' }],
    ['projects/myapp/project.yaml', { kind: 'project-meta', project: 'myapp' }],
    ['plans/01M8KK5920RS6CGAVDFVYYJ0B4/plan.yaml', { kind: 'plan', plan: '01M8KK5920RS6CGAVDFVYYJ0B4' }],
    [
      'plans/01M8KK5920RS6CGAVDFVYYJ0B4/decisions/01M8KJT9G0XNWEM589ZS7FV0VT.yaml',
      { kind: 'record', plan: '01M8KK5920RS6CGAVDFVYYJ0B4', record: 'decisions', id: ID },
    ],
    ['global/.01M8KJT9G0XNWEM589ZS7FV0VT.yaml.123.abcd.tmp', { kind: 'temporary' }],
    ['global/.lock', { kind: 'lock' }],
    ['global/README.md', { kind: 'unknown' }],
    ['config.yaml', { kind: 'config' }],
  ])('classifies %s', (path, expected) => {
    expect(classifyPath(path)).toEqual(expected);
  });

  it('flags invariant files with bad names and folders that break the name rules', () => {
    expect(classifyPath('global/no-deletes.yaml')).toMatchObject({ kind: 'bad-id' });
    expect(classifyPath('projects/My App/01M8KJT9G0XNWEM589ZS7FV0VT.yaml')).toMatchObject({ kind: 'bad-name' });
    expect(classifyPath('plans/notaulid/plan.yaml')).toMatchObject({ kind: 'bad-name' });
    expect(isKnownFolder('projects/myapp')).toBe(true);
    expect(isKnownFolder('projects/myapp/nested')).toBe(false);
    expect(isKnownFolder('plans/01M8KK5920RS6CGAVDFVYYJ0B4/decisions')).toBe(true);
  });

  it('points modelines at the store schemas from any depth', () => {
    expect(schemaRef('global/X.yaml', 'invariant.schema.json')).toBe('../schemas/invariant.schema.json');
    expect(schemaRef('actions/a/b/X.yaml', 'invariant.schema.json')).toBe('../../../schemas/invariant.schema.json');
  });
});

describe('the parsers of parse.ts read what the fast reader leaves to yaml', () => {
  // End-of-line comments take each file off the fast reader: only the full parser reads them.
  it('project.yaml, action.yaml and a waiver', () => {
    expect(parseProjectMeta('projects/web/project.yaml', enc('description: The site  # public\n'))).toEqual({
      value: { description: 'The site' },
      diagnostics: [],
    });
    expect(parseActionMeta('actions/db/migrate/action.yaml', enc('description: Migrations  # prod\n'))).toEqual({
      value: { description: 'Migrations' },
      diagnostics: [],
    });
    const INV = '01M8KJXYP0GVPRF8KRRE9G8474';
    const waiver = parseWaiver(
      `plans/01M8KK5920RS6CGAVDFVYYJ0B4/waivers/${ID}.yaml`,
      enc(
        `id: ${ID}  # this waiver\ninvariant_id: ${INV}\nreason: hotfix\nowner: ops\nexpires: "2026-03-01"\ncreated_at: "2026-01-01T00:00:00Z"\n`,
      ),
      ID,
    );
    expect(waiver.diagnostics).toEqual([]);
    expect(waiver.value).toMatchObject({ id: ID, invariant_id: INV, expires: '2026-03-01' });
  });
});
