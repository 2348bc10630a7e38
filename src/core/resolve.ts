import { precedence, SEVERITIES, type Scope, type ScopeKind, type ScopedInvariant, type Severity, type Target } from './model.ts';
import { textKey } from './normalise.ts';

export interface ShadowRef {
  id: string;
  scope: ScopeKind;
  path: string;
  /** A copy of the same text names this one in `overrides`: it is hidden on purpose (docs/resolution.md). */
  overridden?: true;
  /** An inherited copy's policy source: with two sources, the kind alone does not say whose copy it is. */
  inheritedFrom?: string;
}

/** A hidden copy's scope as the views name it: its kind, and an inherited copy's source ("inherited policy"), as describeScope names a kept copy's. */
export function shadowScope(ref: { scope: string; inheritedFrom?: string | undefined }): string {
  return ref.inheritedFrom !== undefined ? `${ref.scope} ${ref.inheritedFrom}` : ref.scope;
}

/** One entry of an effective set: the kept invariant and the copies it hides. */
export interface EffectiveEntry {
  invariant: ScopedInvariant;
  /** Lower-precedence (or, within one scope, newer) invariants with the same text key. */
  shadows: ShadowRef[];
}

/** Does an invariant's scope apply to the target? ACTION scope never does. */
export function appliesTo(inv: ScopedInvariant, target: Target): boolean {
  const s = inv.scope;
  switch (s.kind) {
    case 'global':
    case 'inherited':
      return true;
    case 'project':
      // A project scope always has its name, which an absent target project never equals.
      return s.project === target.project;
    case 'plan':
      return target.kind === 'plan' && s.plan === target.plan;
    case 'action':
      return false;
  }
}

/** A severity's place in SEVERITIES, strictest first (an unknown one counts as the strictest). */
const rank = (severity: string): number => Math.max(0, SEVERITIES.indexOf(severity as Severity));

/** Is `a`'s severity above `b`'s (error > warning > info)? */
export function stricter(a: { severity: string }, b: { severity: string }): boolean {
  return rank(a.severity) < rank(b.severity);
}

/** A policy source's place in `extends`; 0 for the store's own scopes, which compare by precedence first. */
function sourceOrder(scope: Scope): number {
  return scope.kind === 'inherited' ? scope.order : 0;
}

function compare(a: ScopedInvariant, b: ScopedInvariant): number {
  const p = precedence(a.scope.kind) - precedence(b.scope.kind);
  if (p !== 0) return p;
  // Two policy sources: the one listed first in `extends` (docs/extends.md, "Precedence").
  const o = sourceOrder(a.scope) - sourceOrder(b.scope);
  if (o !== 0) return o;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function refTo(inv: ScopedInvariant): ShadowRef {
  return {
    id: inv.id,
    scope: inv.scope.kind,
    path: inv.path,
    ...(inv.scope.kind === 'inherited' ? { inheritedFrom: inv.scope.source } : {}),
  };
}

/**
 * Floors (docs/extends.md, "Floors"): of copies of one text, the first in precedence order that is not below the
 * strictest locked inherited copy is kept. A weaker repository copy gives way, while one at the floor's severity
 * or above still shadows the floor as any higher copy does. The others are its shadows, in precedence order.
 */
function keepAboveFloors(
  floored: ReadonlyMap<string, EffectiveEntry>,
  applicable: readonly ScopedInvariant[],
  keys: readonly string[],
  result: EffectiveEntry[],
): void {
  const copies = new Map<string, ScopedInvariant[]>();
  for (let i = 0; i < applicable.length; i++) {
    const key = keys[i]!;
    if (!floored.has(key)) continue;
    const list = copies.get(key);
    if (list) list.push(applicable[i]!);
    else copies.set(key, [applicable[i]!]);
  }
  let moved = false;
  for (const [key, entry] of floored) {
    const group = copies.get(key)!;
    let floor: ScopedInvariant | undefined;
    for (const c of group) if (c.locked && c.scope.kind === 'inherited' && (!floor || stricter(c, floor))) floor = c;
    const keep = group.find((c) => !stricter(floor!, c))!;
    if (keep === entry.invariant) continue;
    entry.invariant = keep;
    entry.shadows = group.filter((c) => c !== keep).map(refTo);
    moved = true;
  }
  // A floor may have put a lower copy where a higher one was: in order again.
  if (moved) result.sort((a, b) => compare(a.invariant, b.invariant));
}

/**
 * The effective set of a project or a plan (docs/resolution.md). Pure: `invariants` may hold
 * the whole store or only the scopes the target needs; the ones that do not
 * apply, and inactive ones, are left out. Ordered by precedence (plan, project,
 * global), then by id; of equal text keys the highest-precedence copy (within
 * one scope, the oldest id) is kept and lists the copies it shadows.
 */
export function resolveEffective(
  target: Target,
  invariants: readonly ScopedInvariant[],
  /** The text key of an invariant (docs/resolution.md); a caller resolving many targets may pass one that remembers them. */
  keyOf: (inv: ScopedInvariant) => string = (inv) => textKey(inv.text),
): EffectiveEntry[] {
  const applicable = invariants.filter((inv) => inv.active && appliesTo(inv, target)).sort(compare);
  const byKey = new Map<string, EffectiveEntry>();
  const result: EffectiveEntry[] = [];
  const keys: string[] = [];
  // The entries whose text a locked inherited copy shares (docs/extends.md, "Floors"), decided once all copies are in.
  let floored: Map<string, EffectiveEntry> | undefined;
  for (const inv of applicable) {
    const key = keyOf(inv);
    keys.push(key);
    const kept = byKey.get(key);
    if (kept) {
      kept.shadows.push(refTo(inv));
      if (inv.locked && inv.scope.kind === 'inherited') (floored ??= new Map()).set(key, kept);
      continue;
    }
    const entry: EffectiveEntry = { invariant: inv, shadows: [] };
    byKey.set(key, entry);
    result.push(entry);
  }
  if (floored) keepAboveFloors(floored, applicable, keys, result);
  // Hidden on purpose: some copy of the same text names it in `overrides` (the kept one, or one it hides in turn).
  let byId: Map<string, ScopedInvariant> | undefined;
  for (const entry of result) {
    if (entry.shadows.length === 0) continue;
    const ids = (byId ??= new Map(applicable.map((i) => [i.id, i])));
    // What the copies name (`undefined` for one that names none, which is no id).
    const named = new Set([entry.invariant.overrides, ...entry.shadows.map((ref) => ids.get(ref.id)!.overrides)]);
    for (const ref of entry.shadows) if (named.has(ref.id)) ref.overridden = true;
  }
  return result;
}
