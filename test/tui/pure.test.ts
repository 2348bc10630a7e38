import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Key } from 'ink';
import type { ScopedInvariant } from '../../src/core/model.ts';
import type { ListedInvariant } from '../../src/service/invariant-service.ts';
import { effectiveRows, windowTop } from '../../src/tui/browser-rows.ts';
import { KeyHub, PLAIN, splitChunk } from '../../src/tui/use-keys.ts';
import { pastedText } from '../../src/tui/run-ink.tsx';
import { clipToRows } from '../../src/tui/plain.ts';
import { editChanges } from '../../src/tui/edit-changes.ts';
import { InvariantService } from '../../src/index.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

describe('windowTop (only rows top..top+height are rendered)', () => {
  test.each([
    // count, selected, height, previous, expected
    [100, 0, 10, 0, 0],
    [100, 9, 10, 0, 0],
    [100, 10, 10, 0, 1],
    [100, 99, 10, 0, 90],
    [100, 50, 10, 90, 49], // moving up above the window: one row of context (a group header) above
    [100, 95, 10, 90, 90],
    [5, 4, 10, 3, 0], // fewer rows than fit
    [100, 20, 1, 0, 20],
  ])('count %i, selected %i, height %i, previous top %i → %i', (count, selected, height, previous, expected) => {
    expect(windowTop(count, selected, height, previous)).toBe(expected);
  });
});

describe('effectiveRows', () => {
  test('shows under a kept copy the very copy it hides, by its file, when a repository copy keeps the inherited id', () => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const copy = (scope: ScopedInvariant['scope'], path: string, severity: string, text: string) =>
      ({ id, text, severity, active: true, tags: [], scope, path }) as unknown as ScopedInvariant;
    const locked = {
      ...copy({ kind: 'inherited', source: 'policy', order: 0 }, `extends/policy/global/${id}.yaml`, 'error', 'Keep backups'),
      locked: true,
    };
    const weaker = copy({ kind: 'project', project: 'web' }, `projects/web/${id}.yaml`, 'warning', 'keep backups');
    const result = {
      target: { kind: 'project', project: 'web' },
      entries: [{ invariant: locked, shadows: [{ id, scope: 'project', path: weaker.path }] }],
      waivers: [],
    } as never;
    // The listing of every scope holds both copies, the inherited one after the store's own (service list()).
    const items = effectiveRows(result, [weaker, locked]).filter((r) => r.kind === 'item');
    expect(items.map((r) => (r.kind === 'item' ? [r.invariant.path, r.hiddenBy?.path] : []))).toEqual([
      [locked.path, undefined],
      [weaker.path, locked.path],
    ]);
  });
});

describe('splitChunk (keys typed ahead arrive as one chunk)', () => {
  const key = { return: false, backspace: false, delete: false, tab: false, escape: false, ctrl: false, meta: false, shift: false } as Key;
  test('plain typing with Enter and Backspace becomes single keys', () => {
    const keys = splitChunk('aB\r\u007f', key).map(([input, k]) => [input, k.return, k.backspace, k.shift]);
    expect(keys).toEqual([
      ['a', false, false, false],
      ['B', false, false, true],
      ['', true, false, false],
      ['', false, true, false],
    ]);
  });
  test('a Ctrl key typed ahead is the Ctrl key Ink reads pressed alone (Ctrl-U then text: the field cleared, then typed)', () => {
    const keys = splitChunk('\u0015ab', key).map(([input, k]) => [input, k.ctrl]);
    expect(keys).toEqual([
      ['u', true],
      ['a', false],
      ['b', false],
    ]);
  });
  test('escape sequences, modified keys and single keys stay whole', () => {
    expect(splitChunk('\u001b[B', key)).toEqual([['\u001b[B', key]]);
    expect(splitChunk('c', { ...key, ctrl: true })).toEqual([['c', { ...key, ctrl: true }]]);
    expect(splitChunk('j', key)).toEqual([['j', key]]);
  });
});

describe('pastedText', () => {
  test.each([
    ['Keep every\nmigration\treversible\n', 'Keep every migration reversible'],
    ['one\r\ntwo\rthree', 'one two three'],
    ['line copied whole\r\n', 'line copied whole'],
    ['  spaces  stay  ', '  spaces  stay  '],
  ])('%j is typed as %j', (pasted, typed) => expect(pastedText(pasted)).toBe(typed));
});

describe('KeyHub', () => {
  test('a paste reaches the text field as one piece of text, and only the field; keys typed after it follow it', async () => {
    const hub = new KeyHub();
    const field: [string, boolean | undefined][] = [];
    const list: string[] = [];
    hub.add({ current: (input, _key, pasted) => field.push([input, pasted]), paste: true });
    hub.add({ current: (input) => list.push(input) });
    const key = { ...PLAIN } as Key;
    const long = 'word '.repeat(600);
    hub.dispatch(long, key, { pasted: true });
    hub.dispatch('x', key);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(field).toEqual([
      [long, true],
      ['x', false],
    ]);
    expect(list).toEqual(['x']);
  });
});

describe('scopeChoices', () => {
  test("a policy source's template the listing holds is a scope to pick, by the name plan use takes, after the store's", async () => {
    const { scopeChoices } = await import('../../src/tui/browser-parts.tsx');
    const inv = (id: string, scope: ScopedInvariant['scope']): ListedInvariant => ({
      invariant: { id, text: id, severity: 'error', active: true, tags: [], scope, path: `${id}.yaml` },
    });
    const items = [
      inv('a', { kind: 'action', ns: 'local', name: 'x' }),
      inv('b', { kind: 'action', ns: 'org', name: 'release', source: 'policy' }),
      inv('c', { kind: 'action', ns: 'org', name: 'release', source: 'policy' }),
    ];
    const choices = scopeChoices({ items, catalog: { projects: [], actions: ['local/x'], plans: [] }, inherited: [] });
    expect(choices.map((c) => c.label)).toEqual(['all scopes', 'global', 'action local/x', 'action policy:org/release']);
    expect(choices.at(-1)!.value).toEqual({ kind: 'action', ns: 'org', name: 'release', source: 'policy' });
  });
});

describe('clipToRows (a long text within a number of rows)', () => {
  test('breaks at spaces, a word longer than a row where the row ends, wide characters by their columns', () => {
    expect(clipToRows('one two three four', 9, 5)).toEqual(['one two', 'three', 'four']);
    expect(clipToRows('abcdefghijkl xy', 5, 5)).toEqual(['abcde', 'fghij', 'kl xy']);
    expect(clipToRows('日本語のテキスト', 6, 5)).toEqual(['日本語', 'のテキ', 'スト']);
    expect(clipToRows('', 10, 3)).toEqual(['']);
  });

  test('a text longer than the rows ends in "…" on the last, within its columns', () => {
    const rows = clipToRows('word '.repeat(100).trim(), 10, 3);
    expect(rows).toEqual(['word word', 'word word', 'word word…']);
    expect(clipToRows('abcdefghijklmnopqrstuvwxyz', 5, 2)).toEqual(['abcde', 'fghi…']);
  });

  test('a word longer than a row starts where the row is: a label followed by a text without spaces keeps the text', () => {
    // The add form's confirmation on a short terminal: one row for a text of CJK (no spaces) or a long URL.
    expect(clipToRows('text      日本語のテキストはとても長い', 20, 1)).toEqual(['text      日本語の…']);
    expect(clipToRows('rationale https://example.com/a/very/long/path', 24, 1)).toEqual(['rationale https://examp…']);
    expect(clipToRows('ab cdefghijkl', 5, 5)).toEqual(['ab cd', 'efghi', 'jkl']);
    // A word that fits a row of its own still starts one.
    expect(clipToRows('abc defg', 5, 5)).toEqual(['abc', 'defg']);
  });

  test("the text's leading spaces are kept; the spaces at a break are not", () => {
    expect(clipToRows('  foo', 10, 3)).toEqual(['  foo']);
    expect(clipToRows(' a b', 10, 3)).toEqual([' a b']);
    expect(clipToRows('abcde  f', 5, 3)).toEqual(['abcde', 'f']);
  });
});

describe('editChanges (what the edit form asks edit to change)', () => {
  test('tags changed in the form: a tag another process added or took out while it was open keeps that change', async () => {
    const id = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
    const root = testStore({ [`global/${id}.yaml`]: invariantYaml(id, 'Log all changes', { tags: '[a, b, c]' }) });
    const service = new InvariantService(root);
    const { invariant: before } = await service.show(id);
    // Another process, while the form is open.
    await service.edit({ id, addTags: ['other'], removeTags: ['c'] });
    const values = { text: before.text, severity: before.severity, tags: ['a', 'c', 'mine'], rationale: '', active: true, guard: {} };
    await service.edit({ id, ...editChanges(before, values) });
    expect((await service.show(id)).invariant.tags).toEqual(['a', 'other', 'mine']);
  });

  test('the same tags in another order change nothing: the file is kept byte for byte, with a tag another process added', async () => {
    const id = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
    const root = testStore({ [`global/${id}.yaml`]: invariantYaml(id, 'Log all changes', { tags: '[a, b, c]' }) });
    const service = new InvariantService(root);
    const { invariant: before } = await service.show(id);
    await service.edit({ id, addTags: ['other'] });
    const file = join(root, `global/${id}.yaml`);
    const kept = readFileSync(file);
    const values = { text: before.text, severity: before.severity, tags: ['c', 'a', 'b'], rationale: '', active: true, guard: {} };
    const changes = editChanges(before, values);
    expect(changes).toEqual({});
    expect((await service.edit({ id, ...changes })).changed).toEqual([]);
    expect(readFileSync(file)).toEqual(kept);
  });
});
