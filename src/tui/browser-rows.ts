import { describeScope, scopeFolder, type Scope, type ScopedInvariant } from '../core/model.ts';
import type { ShadowInfo } from '../core/shadow.ts';
import { effectiveGroups } from '../present/effective.ts';
import type { EffectiveResult, ListedInvariant, WaiverState } from '../service/invariant-service.ts';

/** What the browser shows: one scope, or all of them. */
export type ScopeChoice = { kind: 'all' } | Scope;

/** One line of the browser's list. */
export type Row =
  | { kind: 'header'; label: string; count: number }
  | {
      kind: 'item';
      invariant: ScopedInvariant;
      shadow?: ShadowInfo;
      /** In an effective set: the copy that hides this one (it is shown greyed, under its shadower). */
      hiddenBy?: ScopedInvariant;
      /** In an effective set: the waivers of this invariant for the project or plan (docs/plans.md, "Waivers"). */
      waivers?: WaiverState[];
    };

export function scopeLabel(choice: ScopeChoice): string {
  return choice.kind === 'all' ? 'all scopes' : describeScope(choice);
}

export function inScope(inv: ScopedInvariant, choice: ScopeChoice): boolean {
  return choice.kind === 'all' || scopeFolder(inv.scope) === scopeFolder(choice);
}

/** Rows of a plain listing, grouped by scope folder (the items come sorted by scope). */
export function listRows(items: readonly ListedInvariant[]): Row[] {
  const counts = new Map<string, number>();
  for (const { invariant } of items) counts.set(scopeFolder(invariant.scope), (counts.get(scopeFolder(invariant.scope)) ?? 0) + 1);
  const rows: Row[] = [];
  let folder = '';
  for (const { invariant, shadow } of items) {
    const f = scopeFolder(invariant.scope);
    if (f !== folder) {
      folder = f;
      rows.push({ kind: 'header', label: describeScope(invariant.scope), count: counts.get(f) ?? 0 });
    }
    rows.push(shadow ? { kind: 'item', invariant, shadow } : { kind: 'item', invariant });
  }
  return rows;
}

/**
 * Rows of an effective set: each kept invariant, grouped by its scope, and
 * right under it the copies it hides (found among `known` by their files, not
 * their ids: a repository copy of an inherited invariant may keep its id), marked as hidden.
 */
export function effectiveRows(result: EffectiveResult, known: Iterable<ScopedInvariant>): Row[] {
  const byPath = new Map<string, ScopedInvariant>();
  for (const inv of known) byPath.set(inv.path, inv);
  const rows: Row[] = [];
  for (const group of effectiveGroups(result)) {
    rows.push({ kind: 'header', label: group.label, count: group.entries.length });
    for (const { entry, waivers } of group.entries) {
      rows.push(waivers.length > 0 ? { kind: 'item', invariant: entry.invariant, waivers } : { kind: 'item', invariant: entry.invariant });
      for (const ref of entry.shadows) {
        const hidden = byPath.get(ref.path);
        if (hidden) rows.push({ kind: 'item', invariant: hidden, hiddenBy: entry.invariant });
      }
    }
  }
  return rows;
}

/**
 * The first row to draw so that `selected` stays inside a window of `height`
 * rows, moving as little as possible from `previousTop` (only these rows are rendered).
 */
export function windowTop(count: number, selected: number, height: number, previousTop: number): number {
  const maxTop = Math.max(0, count - height);
  let top = Math.min(Math.max(previousTop, 0), maxTop);
  if (selected < top) top = selected;
  else if (selected >= top + height) top = selected - height + 1;
  // Keep a group's header in view when its first item is selected.
  if (selected === top && top > 0 && height > 1) top -= 1;
  return Math.min(Math.max(top, 0), maxTop);
}
