// Floors at write time (docs/extends.md, "Floors"): a waiver of a locked
// inherited invariant, or of any copy of its text, is refused before it is
// written, not only reported by `validate` afterwards.
import { UsageError } from '../core/errors.ts';
import type { ScopedInvariant } from '../core/model.ts';
import { textKey } from '../core/normalise.ts';
import { stricter } from '../core/resolve.ts';
import { readInherited } from '../store/extends.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { pinnedSources } from './invariants/pinned-sources.ts';

/**
 * The active locked inherited invariants by text key; empty when the store extends no source (nothing is read
 * then). An invalid config.yaml or lock is exit 3, not "no floors": a waiver must never lift a floor unseen.
 */
export async function lockedTexts(storeRoot: string, source: TreeSource): Promise<Map<string, ScopedInvariant>> {
  const out = new Map<string, ScopedInvariant>();
  const pins = await pinnedSources({ root: storeRoot, source });
  if (pins.length === 0) return out;
  const inherited = await readInherited(storeRoot, pins);
  for (const inv of inherited.invariants) if (inv.locked && inv.active) out.set(textKey(inv.text), inv);
  return out;
}

/** Refuses (exit 2, `locked-waived`) a waiver of `inv` when it is, or copies the text of, a locked inherited invariant. */
export async function refuseLockedWaiver(storeRoot: string, source: TreeSource, inv: ScopedInvariant): Promise<void> {
  const floor = (await lockedTexts(storeRoot, source)).get(textKey(inv.text));
  if (floor?.scope.kind !== 'inherited') return;
  const copy = floor.id === inv.id ? '' : ` (${inv.id} is a copy of its text)`;
  throw new UsageError(
    `invariant ${floor.id} is locked by the policy source ${floor.scope.source}${copy}: it cannot be waived here`,
    'Nothing was written. A locked invariant holds in every repository that inherits it; ask the owners of the policy source for a change there.',
    { invariant: inv.id, locked: floor.id, source: floor.scope.source },
    'locked-waived',
  );
}

/**
 * Refuses (exit 2, `locked-weakened`) a copy about to be written (`invariant add`, `edit`) that weakens a locked
 * inherited invariant of `inherited`: its text with a lower severity, or inactive, which `validate` reports as an
 * error. The inherited invariants are those readable now: a source not fetched yet is left to `validate`.
 */
export function refuseWeakenedFloor(inv: ScopedInvariant, inherited: readonly ScopedInvariant[]): void {
  const key = textKey(inv.text);
  const floor = inherited.find((i) => i.locked && i.active && textKey(i.text) === key);
  if (floor?.scope.kind !== 'inherited' || (inv.active && !stricter(floor, inv))) return;
  const from = `the policy source ${floor.scope.source}`;
  throw new UsageError(
    inv.active
      ? `this copy would lower "${floor.text}" from ${floor.severity} to ${inv.severity}, below the floor ${from} locks (${floor.id})`
      : `this copy would deactivate "${floor.text}", which ${from} locks (${floor.id})`,
    `Nothing was written. A locked invariant holds in every repository that inherits it: keep a copy at severity ${floor.severity} or higher, and active, or none.`,
    { locked: floor.id, source: floor.scope.source, severity: floor.severity },
    'locked-weakened',
  );
}

/**
 * The waived ids without those of a locked text: a waiver written by hand (or
 * before the source locked the text) never lifts a floor in the gate.
 */
export async function withoutFloors<W>(
  storeRoot: string,
  source: TreeSource,
  waived: Map<string, W>,
  effective: readonly ScopedInvariant[],
): Promise<Map<string, W>> {
  if (waived.size === 0) return waived;
  const floors = await lockedIds(storeRoot, source, effective);
  if (floors.size === 0) return waived;
  const out = new Map(waived);
  for (const id of floors) out.delete(id);
  return out;
}

/** The ids of `effective` that are, or copy the text of, a locked inherited invariant: no waiver covers them. */
export async function lockedIds(storeRoot: string, source: TreeSource, effective: readonly ScopedInvariant[]): Promise<Set<string>> {
  const locked = await lockedTexts(storeRoot, source);
  return new Set(locked.size === 0 ? [] : effective.filter((inv) => locked.has(textKey(inv.text))).map((inv) => inv.id));
}

/**
 * The waivers of a set that count: none of a locked text, which never lifts a floor (`validate` reports it, and
 * neither a listing nor an exported file shows it holding).
 */
export async function countingWaivers<W extends { invariant_id: string }>(
  storeRoot: string,
  source: TreeSource,
  waivers: readonly W[],
  effective: readonly ScopedInvariant[],
): Promise<W[]> {
  const kept = await withoutFloors(storeRoot, source, new Map(waivers.map((w) => [w.invariant_id, w])), effective);
  return waivers.filter((w) => kept.has(w.invariant_id));
}
