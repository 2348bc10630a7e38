// staleImports (src/core/import-stale.ts): which invariants imported from a file the file no longer says.
import { describe, expect, it } from 'vitest';
import { type ImportFile, planImport } from '../../src/core/import-plan.ts';
import { editedSinceImport, importedTextHash, staleImports } from '../../src/core/import-stale.ts';
import type { ImportKind } from '../../src/core/import-sources.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const G = { kind: 'global' } as const;
const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G3';

const from = (id: string, text: string, file: string, line: number) => scopedInvariant(id, G, text, { imported_from: { file, line } });
const rule = (text: string, whole = true) => ({ text, line: 1, end_line: 1, whole, tags: [] });
const file = (name: string, kind: ImportKind, texts: string[], extra: { blockIds?: string[]; skipped?: string } = {}) => ({
  file: name,
  kind,
  target: { kind: 'global' },
  candidates: texts.map((t) => rule(t)),
  ...extra,
});

describe('staleImports', () => {
  const store = [from(A, 'Use tabs.', 'AGENTS.md', 3), from(B, 'Never push to main.', 'AGENTS.md', 4), scopedInvariant(C, G, 'Own rule.')];

  it('lists what an AGENTS.md no longer says (case and spaces do not count); never an invariant not imported from it', () => {
    expect(staleImports([file('AGENTS.md', 'agents-md', ['use  TABS.'])], store)).toEqual([
      { id: B, path: `global/${B}.yaml`, text: 'Never push to main.', file: 'AGENTS.md', line: 4 },
    ]);
    // A file that says none of them any more (every rule edited) is still their source.
    expect(staleImports([file('AGENTS.md', 'agents-md', [])], store).map((s) => s.id)).toEqual([A, B]);
  });

  it('an id the file names (its managed block, a copied entry) keeps its invariant; a file not read or skipped is not compared', () => {
    expect(staleImports([file('AGENTS.md', 'agents-md', [], { blockIds: [A, B] })], store)).toEqual([]);
    expect(staleImports([file('AGENTS.md', 'agents-md', [`Never push to main. (\`${B}\`)`])], store).map((s) => s.id)).toEqual([A]);
    expect(staleImports([file('CLAUDE.md', 'claude-md', [])], store)).toEqual([]);
    // A text another file read still says stays: the import would write no copy of it.
    expect(
      staleImports([file('AGENTS.md', 'agents-md', ['Use tabs.']), file('CLAUDE.md', 'claude-md', ['Never push to main.'])], store),
    ).toEqual([]);
    expect(staleImports([file('AGENTS.md', 'agents-md', [], { skipped: 'it is a binary file' })], store)).toEqual([]);
  });

  it("a text another file says where the invariant does not apply (a project's rule moved up to the top file) is gone from its file", () => {
    const web = { kind: 'project', project: 'web' } as const;
    const inWeb = scopedInvariant(A, web, 'Run the linter.', { imported_from: { file: 'apps/web/AGENTS.md', line: 4 } });
    const top = file('AGENTS.md', 'agents-md', ['Run the linter.']);
    const webFile = { ...file('apps/web/AGENTS.md', 'agents-md', []), target: { kind: 'project', name: 'web' } };
    expect(staleImports([top, webFile], [inWeb]).map((s) => s.id)).toEqual([A]);
    // Said in another file of its project, it is held there, and stays.
    const other = { ...file('apps/web/CLAUDE.md', 'claude-md', ['Run the linter.']), target: { kind: 'project', name: 'web' } };
    expect(staleImports([top, webFile, other], [inWeb])).toEqual([]);
    // A global one moved down into a project's file is held there (it applies everywhere): it stays.
    const global = from(B, 'Never push to main.', 'AGENTS.md', 3);
    const down = { ...file('apps/web/AGENTS.md', 'agents-md', ['Never push to main.']), target: { kind: 'project', name: 'web' } };
    expect(staleImports([file('AGENTS.md', 'agents-md', []), down], [global])).toEqual([]);
  });

  it('a rule file is their source only while it says one of them whole, and any block read, or one elsewhere, keeps them', () => {
    const cursor = [from(A, 'Use tabs.', '.cursor/rules/s.mdc', 3), from(B, 'Never use var.', '.cursor/rules/s.mdc', 4)];
    expect(staleImports([file('.cursor/rules/s.mdc', 'cursor', ['Other words.'])], cursor)).toEqual([]);
    expect(staleImports([file('.cursor/rules/s.mdc', 'cursor', ['Use tabs.'])], cursor).map((s) => s.id)).toEqual([B]);
    const moved = file('.cursor/rules/agents-global.mdc', 'cursor', [], { blockIds: [B] });
    expect(staleImports([file('.cursor/rules/s.mdc', 'cursor', ['Use tabs.']), moved], cursor)).toEqual([]);
    expect(staleImports([file('.cursor/rules/s.mdc', 'cursor', ['Use tabs.'])], cursor, [B])).toEqual([]);
    // A sentence of a longer paragraph (not whole) does not make the file their source.
    const part = { ...file('.cursor/rules/s.mdc', 'cursor', []), candidates: [rule('Use tabs.', false)] };
    expect(staleImports([part], cursor)).toEqual([]);
  });
});

describe('an invariant edited in the store since its import', () => {
  // Imported as "Use tabs." (its hash recorded), then reworded in the store.
  const edited = scopedInvariant(A, G, 'Use tabs, never spaces.', {
    imported_from: { file: 'AGENTS.md', line: 3, text_hash: importedTextHash('Use tabs.') },
  });
  const kept = scopedInvariant(B, G, 'Never push to main.', {
    imported_from: { file: 'AGENTS.md', line: 4, text_hash: importedTextHash('never  PUSH to main.') },
  });

  it('is told by its hash (case and spaces are no edit); one imported before the hash was recorded is never edited', () => {
    expect(editedSinceImport(edited)).toBe(true);
    expect(editedSinceImport(kept)).toBe(false);
    expect(editedSinceImport(from(A, 'Anything.', 'AGENTS.md', 3))).toBe(false);
    expect(editedSinceImport(scopedInvariant(C, G, 'Own rule.'))).toBe(false);
  });

  it('is never gone from its file; one without the hash is compared by its text, as before', () => {
    expect(staleImports([file('AGENTS.md', 'agents-md', [])], [edited, kept]).map((s) => s.id)).toEqual([B]);
    expect(staleImports([file('AGENTS.md', 'agents-md', ['Use tabs.'])], [from(A, 'Use tabs, never spaces.', 'AGENTS.md', 3)])).toEqual([
      { id: A, path: `global/${A}.yaml`, text: 'Use tabs, never spaces.', file: 'AGENTS.md', line: 3 },
    ]);
  });

  it("holds the text its file said, which the import finds there and writes no copy of; the file's new wording is new", () => {
    const plan = planImport(
      [{ ...file('AGENTS.md', 'agents-md', ['use TABS.', 'Use two tabs.']), target: G, leftOut: [] }],
      [edited],
      new Map(),
      [],
    );
    expect(plan.candidates.map((c) => [c.text, c.status, c.same_as])).toEqual([
      ['use TABS.', 'exists', { id: A, path: `global/${A}.yaml` }],
      ['Use two tabs.', 'new', undefined],
    ]);
    expect(plan.stale).toEqual([]);
    // In a scope where it does not apply, the old text is new there.
    const web: ImportFile = {
      ...file('web/AGENTS.md', 'agents-md', ['Use tabs.']),
      target: { kind: 'project', name: 'web', paths: ['web/**'] },
      leftOut: [],
    };
    const elsewhere = scopedInvariant(A, { kind: 'project', project: 'api' }, 'Use tabs, never spaces.', {
      imported_from: edited.imported_from!,
    });
    expect(planImport([web], [elsewhere], new Map(), []).candidates.map((c) => c.status)).toEqual(['new']);
  });
});
