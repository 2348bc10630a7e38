/**
 * The invariants an import finds gone from their files (docs/import.md, "Rules gone from their files"): imported from a
 * file this import reads, whose text that file no longer says. Pure: the files' split text and the store in.
 */

import { exportedEntryId } from './export.ts';
import { Hash53 } from './hash53.ts';
import type { RuleCandidate } from './import-rules.ts';
import type { ImportKind } from './import-sources.ts';
import type { ScopedInvariant } from './model.ts';
import { textKey } from './normalise.ts';

/** An invariant imported from `file` (at `line`) whose text the file no longer says. */
export interface StaleImport {
  id: string;
  path: string;
  text: string;
  file: string;
  line: number;
}

/** What staleImports reads of a file: its rules, or nothing when the import skipped it. */
interface ReadFile {
  file: string;
  kind: ImportKind;
  candidates: readonly RuleCandidate[];
  skipped?: string;
  target: { kind: string; name?: string };
  blockIds?: readonly string[];
}

/** The `imported_from.text_hash` of a rule's text: of its textKey, so that a change of case or spacing is no edit. */
export function importedTextHash(text: string): string {
  return new Hash53().update(textKey(text)).digest();
}

/**
 * Whether `inv` was imported and its text changed in the store since (`invariant edit`, or by hand): it is then the
 * store's own rule, never gone from its file. One imported before the hash was recorded cannot tell, and is not.
 */
export function editedSinceImport(inv: ScopedInvariant): boolean {
  const hash = inv.imported_from?.text_hash;
  return hash !== undefined && hash !== importedTextHash(inv.text);
}

/** The invariants edited in the store since their import (editedSinceImport), by the hash of the text their file said. */
export function editedImports(store: readonly ScopedInvariant[]): Map<string, ScopedInvariant[]> {
  const out = new Map<string, ScopedInvariant[]>();
  for (const inv of store) {
    if (!editedSinceImport(inv)) continue;
    const hash = inv.imported_from!.text_hash!;
    (out.get(hash) ?? out.set(hash, []).get(hash)!).push(inv);
  }
  return out;
}

/** Whether `--replace` moves the rules of a file of `kind` into another file, the export's own (`agents-web.mdc`). */
export function movesRulesOut(kind: ImportKind): boolean {
  // The kinds whose file `--replace` puts the managed block in, in place of the lines it takes out.
  return kind !== 'agents-md' && kind !== 'claude-md' && kind !== 'gemini-md' && kind !== 'copilot';
}

/**
 * The store's invariants imported from one of `files` whose text that file no longer says (nor any other file read
 * where the invariant applies, whose rule the import would otherwise find held and leave unsaid), nor names by id (a
 * line copied out of an exported block, or an entry of the file's own managed block, which `--replace` puts where it
 * took their lines out: the store is their source then). A rule file of another kind, whose rules `--replace` moves into
 * the export's own file, is taken as the source of its rules only while it still says one of them whole, and an
 * invariant the managed block of any file read lists is not stale of it. A file skipped, or read only on request, is
 * not compared, and neither is an invariant edited in the store since its import (editedSinceImport).
 */
export function staleImports(
  files: readonly ReadFile[],
  store: readonly ScopedInvariant[],
  /** The ids the managed blocks of the instruction files not read here list. */
  elsewhere: readonly string[] = [],
): StaleImport[] {
  const read = new Map(files.filter((f) => !f.skipped && f.target.kind !== 'skip').map((f) => [f.file, f]));
  const from = new Map<string, ScopedInvariant[]>();
  for (const inv of store) {
    const file = inv.imported_from?.file;
    if (file === undefined || (inv.scope.kind !== 'global' && inv.scope.kind !== 'project') || !read.has(file)) continue;
    if (editedSinceImport(inv)) continue;
    (from.get(file) ?? from.set(file, []).get(file)!).push(inv);
  }
  // No invariant came from a file read here (a first import): nothing can be gone, and the texts need no keys.
  if (from.size === 0) return [];
  const anyBlock = new Set([...[...read.values()].flatMap((f) => f.blockIds ?? []), ...elsewhere]);
  // A text another file read still says where the invariant applies is kept: the import finds it held there, writes
  // no copy, and would leave it unsaid. Said only where it does not apply (a project's rule moved up into the top
  // file), the import writes it anew there, and the old copy is gone from its file.
  const said = new Map<string, Set<string | undefined>>();
  for (const f of read.values())
    for (const c of f.candidates) {
      const key = textKey(c.text);
      (said.get(key) ?? said.set(key, new Set()).get(key)!).add(f.target.kind === 'project' ? f.target.name : undefined);
    }
  const saidWhere = (inv: ScopedInvariant) => {
    const where = said.get(textKey(inv.text));
    return where !== undefined && (inv.scope.kind === 'global' || (inv.scope.kind === 'project' && where.has(inv.scope.project)));
  };
  const out: StaleImport[] = [];
  for (const [file, held] of from) {
    const f = read.get(file)!;
    const candidates = f.candidates;
    const named = new Set([...candidates.map((c) => exportedEntryId(c.text)), ...(f.blockIds ?? [])]);
    const inPlace = !movesRulesOut(f.kind);
    const says = (inv: ScopedInvariant) => saidWhere(inv) || named.has(inv.id) || (!inPlace && anyBlock.has(inv.id));
    const whole = new Set(candidates.filter((c) => c.whole).map((c) => textKey(c.text)));
    if (!inPlace && !held.some((inv) => whole.has(textKey(inv.text)))) continue;
    for (const inv of held) if (!says(inv)) out.push({ id: inv.id, path: inv.path, text: inv.text, file, line: inv.imported_from!.line });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}
