// Floors set by policy sources (docs/extends.md, "Floors"): an inherited
// invariant marked `locked: true` may not be weakened by this store.
import type { Diagnostic } from '../core/diagnostics.ts';
import { textKey } from '../core/normalise.ts';
import { stricter } from '../core/resolve.ts';
import type { WaiverScope } from '../core/waivers.ts';
import { type ExtendsState, pinsFor, readInherited, requireChecked } from '../store/extends.ts';
import { readStore } from '../store/read.ts';
import { readWaivers } from '../store/read-waivers.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { Located } from './checks/located.ts';
import { RecordingSource } from './recording-source.ts';

/** One problem found, placed at its key once the files are read (`severity`, `active`, a waiver's `invariant_id`). */
interface Found {
  code: Diagnostic['code'];
  file: string;
  key: string;
  message: string;
  hint: string;
  related: string;
  source: string;
}

/** The problems at the line and column of the key each is about, as every other check places its own. */
async function placed(source: TreeSource, found: readonly Found[]): Promise<Diagnostic[]> {
  if (found.length === 0) return [];
  const located = new Located(new RecordingSource(source));
  await located.load([...new Set(found.map((f) => f.file))]);
  return found.map((f) =>
    located.at(f.file, [f.key], f.code, 'error', f.message, f.hint, [
      // The locked copy is a file of the policy source, never one of this repository.
      { file: f.related, line: 0, col: 0, message: `the locked copy, in the policy source ${f.source}`, source: f.source },
    ]),
  );
}

/**
 * The store's copies that weaken a locked inherited invariant: the same text
 * (case-insensitive, as de-duplication compares) with a lower severity or
 * `active: false` (`locked-weakened`), and waivers of a locked invariant or
 * of any copy of its text (`locked-waived`). Problems in a source's own files are reported under
 * `extends/<source>/…`. None when the store extends no source.
 */
export async function lockedDiagnostics(storeRoot: string, source: TreeSource, state: ExtendsState): Promise<Diagnostic[]> {
  // A broken config.yaml or lock is reported by the file checks.
  if (state.sources.length === 0 || state.diagnostics.length > 0) return [];
  const inherited = await readInherited(storeRoot, requireChecked(storeRoot, source, pinsFor(state)));
  const out: Diagnostic[] = [...inherited.diagnostics];
  const locked = new Map<string, (typeof inherited.invariants)[number]>();
  for (const inv of inherited.invariants) if (inv.locked && inv.active) locked.set(textKey(inv.text), inv);
  if (locked.size === 0) return out;
  const snap = await readStore(source);
  const found: Found[] = [];
  for (const inv of snap.invariants) {
    const floor = locked.get(textKey(inv.text));
    if (floor?.scope.kind !== 'inherited') continue;
    const from = `the policy source ${floor.scope.source}`;
    const about = { code: 'locked-weakened' as const, file: inv.path, related: floor.path, source: floor.scope.source };
    if (!inv.active)
      found.push({
        ...about,
        key: 'active',
        message: `this copy deactivates "${floor.text}", which ${from} locks (${floor.id})`,
        hint: 'Remove this copy, or make it active; a locked invariant cannot be taken out of effect here.',
      });
    else if (stricter(floor, inv))
      found.push({
        ...about,
        key: 'severity',
        message: `this copy lowers "${floor.text}" from ${floor.severity} to ${inv.severity}, below the floor ${from} locks (${floor.id})`,
        hint: `Raise its severity to ${floor.severity} or remove it; the effective set keeps the locked copy.`,
      });
  }
  const scopes: WaiverScope[] = [];
  for (const e of snap.entries) {
    const m = /^(projects|plans)\/([^/]+)\/waivers$/.exec(e.path);
    if (e.type === 'dir' && m) scopes.push(m[1] === 'projects' ? { kind: 'project', project: m[2]! } : { kind: 'plan', plan: m[2]! });
  }
  if (scopes.length === 0) return [...out, ...(await placed(source, found))];
  // A waiver names the locked id, or the id of any store copy of its text (which the effective set may keep instead).
  const byId = new Map([...locked.values()].map((i) => [i.id, i]));
  for (const inv of snap.invariants) {
    const floor = locked.get(textKey(inv.text));
    if (floor) byId.set(inv.id, floor);
  }
  for (const w of (await readWaivers(source, scopes)).waivers) {
    const floor = byId.get(w.invariant_id);
    if (floor?.scope.kind !== 'inherited') continue;
    found.push({
      code: 'locked-waived',
      file: w.path,
      key: 'invariant_id',
      message: `this waiver takes "${floor.text}" out of effect, but the policy source ${floor.scope.source} locks it (${floor.id})`,
      hint: 'Remove the waiver; a locked invariant cannot be waived in a repository that inherits it.',
      related: floor.path,
      source: floor.scope.source,
    });
  }
  return [...out, ...(await placed(source, found))];
}
