import { describe, expect, it, test } from 'vitest';
import {
  agentsHints,
  byPosition,
  caretExcerpt,
  countBySeverity,
  type Diagnostic,
  lineExcerpt,
  location,
  sortDiagnostics,
  uniqueDiagnostics,
} from '../../src/core/diagnostics.ts';
import {
  AgentsError,
  CancelledError,
  CheckFailedError,
  defaultErrorCode,
  EXIT_CODES,
  InvalidStoreError,
  UsageError,
} from '../../src/core/errors.ts';

function d(over: Partial<Diagnostic>): Diagnostic {
  return { code: 'schema', severity: 'error', file: 'a.yaml', line: 1, col: 1, message: 'm', ...over };
}

describe('sortDiagnostics', () => {
  test('by severity, then file, line, column and code', () => {
    const list = [
      d({ severity: 'info', file: 'a' }),
      d({ severity: 'warning', file: 'a' }),
      d({ file: 'b', line: 1 }),
      d({ file: 'a', line: 3, col: 1 }),
      d({ file: 'a', line: 2, col: 5 }),
      d({ file: 'a', line: 2, col: 4, code: 'yaml-syntax' }),
      d({ file: 'a', line: 2, col: 4, code: 'bad-name' }),
      d({ file: 'a', line: 2, col: 4, code: 'shadowed' }),
    ];
    const key = (x: Diagnostic) => `${x.severity} ${x.file}:${x.line}:${x.col} ${x.code}`;
    const want = [
      'error a:2:4 bad-name',
      'error a:2:4 shadowed',
      'error a:2:4 yaml-syntax',
      'error a:2:5 schema',
      'error a:3:1 schema',
      'error b:1:1 schema',
      'warning a:1:1 schema',
      'info a:1:1 schema',
    ];
    expect(sortDiagnostics(list).map(key)).toEqual(want);
    expect(sortDiagnostics([...list].reverse()).map(key)).toEqual(want);
    // The input is left as it was.
    expect(list.map(key)[0]).toBe('info a:1:1 schema');
  });
});

describe('uniqueDiagnostics', () => {
  test('drops a problem met twice, never two problems at one place', () => {
    const missing = d({ message: 'missing required key "id"' });
    const unknown = d({ message: 'unknown key "idd"' });
    expect(uniqueDiagnostics([missing, unknown, { ...missing }, d({ file: 'b.yaml' })])).toStrictEqual([
      missing,
      unknown,
      d({ file: 'b.yaml' }),
    ]);
  });
});

describe('byPosition', () => {
  test('by file, line and column only, whatever the severity', () => {
    const list = [
      d({ file: 'b' }),
      d({ severity: 'info', file: 'a', line: 2, col: 2 }),
      d({ file: 'a', line: 2, col: 1 }),
      d({ file: 'a', line: 1, col: 9 }),
    ];
    const key = (x: Diagnostic) => `${x.file}:${x.line}:${x.col}`;
    const want = ['a:1:9', 'a:2:1', 'a:2:2', 'b:1:1'];
    expect(byPosition(list).map(key)).toEqual(want);
    expect(byPosition([...list].reverse()).map(key)).toEqual(want);
  });
});

describe('countBySeverity', () => {
  test('counts each severity, zero for those absent', () => {
    expect(countBySeverity([d({}), d({ severity: 'info' }), d({})])).toEqual({ error: 2, warning: 0, info: 1 });
    expect(countBySeverity([])).toEqual({ error: 0, warning: 0, info: 0 });
  });
});

describe('location', () => {
  test('file:line:col, or the file alone when the line is unknown', () => {
    expect(location({ file: 'g/x.yaml', line: 3, col: 7 })).toBe('g/x.yaml:3:7');
    expect(location({ file: 'g/x.yaml', line: 1, col: 1 }, '.agents/')).toBe('.agents/g/x.yaml:1:1');
    expect(location({ file: 'g/x.yaml', line: 0, col: 0 })).toBe('g/x.yaml');
  });
  test('a file name with a control character is shown escaped', () => {
    expect(location({ file: 'a\u001bb', line: 0, col: 0 })).not.toContain('\u001b');
  });
});

describe('caretExcerpt', () => {
  test('the line, and a caret under the column', () => {
    expect(caretExcerpt(d({ line: 12, col: 3, lineText: 'abcdef' }))).toBe('12 | abcdef\n   |   ^');
    expect(caretExcerpt(d({ line: 1, col: 1, lineText: 'abc' }))).toBe('1 | abc\n  | ^');
  });
  test('tabs shown as one space each', () => {
    expect(caretExcerpt(d({ line: 1, col: 3, lineText: '\t\tx' }))).toBe('1 |   x\n  |   ^');
  });
  test('the caret stays between the first column and one past the end', () => {
    expect(caretExcerpt(d({ line: 1, col: 0, lineText: 'abc' }))).toBe('1 | abc\n  | ^');
    expect(caretExcerpt(d({ line: 1, col: 99, lineText: 'abc' }))).toBe('1 | abc\n  |    ^');
    expect(caretExcerpt(d({ line: 1, col: 4, lineText: 'abc' }))).toBe('1 | abc\n  |    ^');
  });
  test('the caret moves right by what the escapes before it added', () => {
    const shown = caretExcerpt(d({ line: 1, col: 2, lineText: '\u001bx' }));
    const [text, caret] = shown.split('\n') as [string, string];
    expect(text.indexOf('x')).toBe(caret.indexOf('^'));
  });
  test('the caret is placed by the columns a terminal draws: two for CJK and emoji, none for a combining accent', () => {
    expect(caretExcerpt(d({ line: 1, col: 5, lineText: '日本語 x' }))).toBe('1 | 日本語 x\n  |        ^');
    expect(caretExcerpt(d({ line: 1, col: 4, lineText: '😀 x' }))).toBe('1 | 😀 x\n  |    ^');
    expect(caretExcerpt(d({ line: 1, col: 5, lineText: 'e\u0301e\u0301x' }))).toBe('1 | e\u0301e\u0301x\n  |   ^');
  });
  test('a long line: a window around the column, the caret under it', () => {
    const line = `${'a'.repeat(5000)}X${'b'.repeat(5000)}`;
    const w = lineExcerpt(line, 5001);
    expect(w.lineText!.length).toBeLessThanOrEqual(202);
    expect(w.lineText!.startsWith('…') && w.lineText!.endsWith('…')).toBe(true);
    const [text, caret] = caretExcerpt(d({ line: 1, col: 5001, ...w })).split('\n') as [string, string];
    expect(text[caret.indexOf('^')]).toBe('X');
    // Near either end, the window holds that end, uncut.
    expect(lineExcerpt(line, 3)).toStrictEqual({ lineText: `${line.slice(0, 200)}…` });
    const end = lineExcerpt(line, 10_001);
    expect(end.lineText).toBe(`…${line.slice(-200)}`);
    const [t, c] = caretExcerpt(d({ line: 1, col: 10_001, ...end })).split('\n') as [string, string];
    expect(c.indexOf('^')).toBe(t.length - 1);
    expect(lineExcerpt('short', 3)).toStrictEqual({ lineText: 'short' });
  });
  test('a window never cuts a surrogate pair in half', () => {
    const line = '😀'.repeat(300);
    for (const col of [1, 100, 101, 300, 301, 599]) {
      const { lineText } = lineExcerpt(line, col);
      expect(lineText!.replace(/…/g, '')).toMatch(/^(?:😀)+$/u);
    }
  });
  test('nothing without a source line or a line number', () => {
    expect(caretExcerpt(d({ line: 1, col: 1 }))).toBe('');
    expect(caretExcerpt(d({ line: 0, col: 1, lineText: 'abc' }))).toBe('');
  });
});

describe('errors', () => {
  test('each class carries its exit code, name and default code', () => {
    const cases: [AgentsError, number, string, string][] = [
      [new UsageError('u'), 2, 'UsageError', 'usage'],
      [new CheckFailedError('c'), 1, 'CheckFailedError', 'check-failed'],
      [new InvalidStoreError('i', []), 3, 'InvalidStoreError', 'invalid-store'],
      [new CancelledError(), 130, 'CancelledError', 'cancelled'],
      [new AgentsError('a', EXIT_CODES.internal), 70, 'AgentsError', 'internal'],
      [new AgentsError('a', EXIT_CODES.ok), 0, 'AgentsError', 'internal'],
    ];
    for (const [e, exit, name, code] of cases) {
      expect([e.exitCode, e.name, e.code, e instanceof Error]).toEqual([exit, name, code, true]);
    }
  });
  test('a named code, hint, detail and diagnostics are kept', () => {
    const u = new UsageError('bad', 'do this', { x: 1 }, 'unknown-project');
    expect([u.message, u.hint, u.detail, u.code, u.diagnostics]).toEqual(['bad', 'do this', { x: 1 }, 'unknown-project', []]);
    const c = new CheckFailedError('dup', 'h', { id: 'X' }, 'duplicate');
    expect([c.hint, c.detail, c.code]).toEqual(['h', { id: 'X' }, 'duplicate']);
    expect(new CheckFailedError('c').hint).toBeUndefined();
    const diag = d({});
    const i = new InvalidStoreError('broken', [diag]);
    expect(i.diagnostics).toEqual([diag]);
    expect(i.hint).toBe('Fix the file, then run `agents validate` to check the store.');
    expect(new InvalidStoreError('broken', [], 'other').hint).toBe('other');
    expect(new CancelledError().message).toBe('Cancelled.');
    expect(new CancelledError('Stopped.').message).toBe('Stopped.');
    expect(new AgentsError('a', 2, { code: 'x' }).code).toBe('x');
  });
  test('defaultErrorCode for every exit code', () => {
    expect(Object.values(EXIT_CODES).map(defaultErrorCode)).toEqual([
      'internal',
      'check-failed',
      'usage',
      'invalid-store',
      'internal',
      'cancelled',
    ]);
    expect(EXIT_CODES).toEqual({ ok: 0, checkFailed: 1, usage: 2, invalidStore: 3, internal: 70, cancelled: 130 });
  });
});

describe('sortDiagnostics: diagnostics alike in everything it compares', () => {
  test('keep the order they came in', () => {
    const first = d({ message: 'first' });
    const second = d({ message: 'second' });
    expect(sortDiagnostics([first, second]).map((x) => x.message)).toEqual(['first', 'second']);
    expect(sortDiagnostics([second, first]).map((x) => x.message)).toEqual(['second', 'first']);
  });
});

describe('agentsHints', () => {
  const d = (hint?: string) => ({ file: 'global/x.yaml', line: 1, col: 1, ...(hint !== undefined ? { hint } : {}) });

  it("starts each command a hint names with the run's agents, once per distinct hint, and passes the rest on as they are", () => {
    const withRun = agentsHints("agents --store 'tools/my agents'");
    const plain = d('Rename the file.');
    expect(withRun(plain)).toBe(plain);
    expect(withRun(d())).toEqual(d());
    expect(withRun(d('Run `agents validate --fix`, then `agents export`.')).hint).toBe(
      "Run `agents --store 'tools/my agents' validate --fix`, then `agents --store 'tools/my agents' export`.",
    );
    // A command given its store already keeps it.
    expect(withRun(d('Run `agents --store x validate`.')).hint).toBe('Run `agents --store x validate`.');
    const hinted = d('Run `agents validate`.');
    expect(withRun(hinted)).not.toBe(hinted);
    expect(hinted.hint).toBe('Run `agents validate`.');
  });

  it('changes nothing for a run without --store', () => {
    const hinted = d('Run `agents validate`.');
    expect(agentsHints('agents')(hinted)).toBe(hinted);
  });
});
