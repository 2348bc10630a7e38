import { describe, expect, it } from 'vitest';
import { readParsed } from '../../src/store/read-parsed.ts';
import { readStore } from '../../src/store/read.ts';
import type { ReadResult, TreeSource } from '../../src/store/tree-source.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

/** `source` with the size of each `read` call recorded, and its piece size set (undefined: none). */
function counted<S extends TreeSource>(source: S, piece: number | undefined): { source: S; calls: number[] } {
  const calls: number[] = [];
  const original = source.read.bind(source);
  Object.defineProperty(source, 'readPiece', { value: piece });
  source.read = (paths) => {
    calls.push(paths.length);
    return original(paths);
  };
  return { source, calls };
}

const id = (n: number) => `01JAAAAAAAAAAAAAAAAAAAA${String(n).padStart(3, '0')}`;

function storeOf(n: number): string {
  const files: Record<string, string> = { 'config.yaml': 'version: 1\n' };
  for (let i = 0; i < n; i++) files[`global/${id(i)}.yaml`] = invariantYaml(id(i), `Rule number ${i}`);
  files[`global/${id(n)}.yaml`] = 'id: [unclosed\n';
  return testStore(files);
}

describe('readParsed reads a working tree in pieces', () => {
  it('asks for at most readPiece files a call, and gives every file its own parse in order', async () => {
    const root = storeOf(7);
    const { source, calls } = counted(new WorkingTreeSource(root), 3);
    const files = Array.from({ length: 8 }, (_, i) => `global/${id(i)}.yaml`);
    const out = await readParsed(source, files, (i, bytes) => ({ value: { i, text: new TextDecoder().decode(bytes) }, diagnostics: [] }));
    expect(calls).toEqual([3, 3, 2]);
    expect(out.map((p) => (p && 'value' in p ? p.value!.i : undefined))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(out[7] && 'value' in out[7] ? out[7].value!.text : '').toBe('id: [unclosed\n');
  });

  it('reads a source without a piece size in one call', async () => {
    const root = storeOf(5);
    const { source, calls } = counted(new WorkingTreeSource(root), undefined);
    await readStore(source);
    expect(calls).toEqual([7]);
  });

  it('gives the same snapshot in pieces as in one batch, failures and diagnostics included', async () => {
    const root = storeOf(9);
    const whole = await readStore(counted(new WorkingTreeSource(root), undefined).source);
    const { source, calls } = counted(new WorkingTreeSource(root), 2);
    const pieces = await readStore(source);
    expect(calls.every((n) => n <= 2)).toBe(true);
    expect(pieces.invariants.map((i) => [i.id, i.text])).toEqual(whole.invariants.map((i) => [i.id, i.text]));
    expect(pieces.diagnostics).toEqual(whole.diagnostics);
    expect(pieces.diagnostics.some((d) => d.file === `global/${id(9)}.yaml`)).toBe(true);
  });

  it('a working tree reads at most 2,048 files a call', () => {
    expect(new WorkingTreeSource(testStore({})).readPiece).toBe(2048);
  });

  it('keeps a missing file as the source reports it', async () => {
    const root = storeOf(1);
    const { source } = counted(new WorkingTreeSource(root), 1);
    const out = await readParsed(source, ['global/none.yaml', `global/${id(0)}.yaml`], () => ({ value: 1, diagnostics: [] }));
    expect((out[0] as ReadResult & { ok: false }).ok).toBe(false);
    expect(out[1] && 'value' in out[1] ? out[1].value : undefined).toBe(1);
  });
});
