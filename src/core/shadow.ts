import { describeScope, precedence, sameScope, type Plan, type Scope, type ScopedInvariant } from './model.ts';
import { canMeet } from './near-duplicates.ts';
import { textKey } from './normalise.ts';
import { stricter } from './resolve.ts';

/** What shadowing reads of an invariant (a text not yet added has no severity yet). */
type Copy = Pick<ScopedInvariant, 'id' | 'active' | 'scope'> & Partial<Pick<ScopedInvariant, 'severity' | 'locked'>>;

/** The strictest locked inherited copy among copies of one text (docs/extends.md, "Floors"), if any. */
function floorOf(copies: readonly Copy[]): Copy | undefined {
  let floor: Copy | undefined;
  for (const c of copies)
    if (c.active && c.locked === true && c.scope.kind === 'inherited' && c.severity !== undefined)
      if (!floor || stricter({ severity: c.severity }, { severity: floor.severity! })) floor = c;
  return floor;
}

/** Is `copy` below the floor? A text not yet added has no severity: it is not. */
function below(copy: Copy, floor: Copy | undefined): boolean {
  return floor !== undefined && copy.severity !== undefined && stricter({ severity: floor.severity! }, { severity: copy.severity });
}

/**
 * Whether `high` hides `low` somewhere, for two invariants with the same text
 * key: `high` applies to a target that `low` also applies to, with a higher
 * precedence (or, within one scope, is older). `plans` maps plan ids to
 * plans, to know a plan's project. `floor`: the text's floor, which decides
 * first, as the resolver keeps the first copy not below it.
 */
function hidesSameText(high: Copy, low: Copy, plans: ReadonlyMap<string, Plan>, floor: Copy | undefined): boolean {
  // Callers never pass two invariants with one id (they leave them out of `relations`).
  if (!high.active || !low.active) return false;
  // Wherever a copy below the floor applies, the floor does too: a copy not below it is kept there, over it.
  // An action copy hides nothing.
  if (high.scope.kind === 'action' || below(high, floor)) return false;
  // An action copy below it applies nowhere; promoted, it would meet the floor first.
  if (below(low, floor)) return low.scope.kind === 'action' ? high === floor : canMeet(high, low, plans);
  const h = high.scope;
  const l = low.scope;
  // An action copy in `low` is hidden by nothing (no branch below answers true for it).
  // One precedence is one kind: within one scope the older copy hides the newer.
  if (precedence(h.kind) === precedence(l.kind)) {
    // Two policy sources: the one listed first in `extends` wins, as in the resolver (docs/extends.md, "Precedence").
    if (h.kind === 'inherited' && l.kind === 'inherited' && h.source !== l.source) return h.order < l.order;
    return sameScope(h, l) && high.id < low.id;
  }
  // `h` and `l` differ in precedence: a lower `h` hides nothing; a global or inherited `l` (it applies
  // everywhere) is hidden by any higher kind; a project `l` only by a plan of that project; a plan `l` by nothing.
  if (precedence(h.kind) > precedence(l.kind)) return false;
  if (l.kind === 'global' || l.kind === 'inherited') return true;
  if (l.kind === 'project' && h.kind === 'plan') return plans.get(h.plan)?.project === l.project;
  return false;
}

export interface ShadowInfo {
  /** Invariants that hide this one somewhere. */
  shadowedBy: ScopedInvariant[];
  /** Invariants this one hides somewhere. */
  shadows: ScopedInvariant[];
}

/**
 * Shadowing relations of `subject` among `others` (pure; quadratic only within one text key). A copy with
 * its id takes part when one of the two is inherited (a fork's source, or a store that extends its own
 * history: one id in two repositories is no error); two of the store's own files with one id are an error
 * `validate` reports, and neither is said to shadow the other.
 */
export function shadowInfo(subject: ScopedInvariant, others: readonly ScopedInvariant[], plans: ReadonlyMap<string, Plan>): ShadowInfo {
  const key = textKey(subject.text);
  const elsewhere = (o: ScopedInvariant) =>
    o.path !== subject.path && (o.id !== subject.id || o.scope.kind === 'inherited' || subject.scope.kind === 'inherited');
  return relations(
    subject,
    others.filter((o) => o !== subject && elsewhere(o) && textKey(o.text) === key),
    plans,
  );
}

/** Shadow relations of `subject` among `sameText`: invariants with its text key, none with its id. */
function relations(subject: Copy, sameText: readonly ScopedInvariant[], plans: ReadonlyMap<string, Plan>): ShadowInfo {
  const info: ShadowInfo = { shadowedBy: [], shadows: [] };
  const floor = floorOf([subject, ...sameText]);
  for (const o of sameText) {
    if (hidesSameText(o, subject, plans, floor)) info.shadowedBy.push(o);
    else if (hidesSameText(subject, o, plans, floor)) info.shadows.push(o);
  }
  return info;
}

const NONE: ShadowInfo = Object.freeze({
  shadowedBy: Object.freeze([]) as unknown as ScopedInvariant[],
  shadows: Object.freeze([]) as unknown as ScopedInvariant[],
});

/** Shadow relations for every invariant of a list, computed by grouping on the key. */
export function shadowMap(all: readonly ScopedInvariant[], plans: ReadonlyMap<string, Plan>): Map<string, ShadowInfo> {
  const groups = new Map<string, ScopedInvariant[]>();
  for (const inv of all) {
    const key = textKey(inv.text);
    const g = groups.get(key);
    if (g) g.push(inv);
    else groups.set(key, [inv]);
  }
  const out = new Map<string, ShadowInfo>();
  for (const g of groups.values()) {
    // Most texts are unique: those share one empty (frozen) answer instead of three objects each.
    if (g.length === 1) out.set(g[0]!.id, NONE);
    else {
      for (const inv of g) {
        // Not itself, nor another invariant with its id (a store error validate reports).
        const copies = g.filter((o) => o.id !== inv.id);
        out.set(inv.id, relations(inv, copies, plans));
      }
    }
  }
  return out;
}

/** What adding a text to a scope would meet, computed without writing anything. */
export interface AddCheck {
  /** An invariant of the same scope with the same text key: the add would be refused. */
  duplicate?: ScopedInvariant;
  /** Copies at lower precedence the new invariant would hide. */
  shadows: ScopedInvariant[];
  /** Copies at higher precedence that would hide the new invariant. */
  shadowedBy: ScopedInvariant[];
}

/** The refusal of a text `scope` holds already, as add, edit and move refuse it and the add form says it while typing. */
export function duplicateMessage(scope: Scope, dup: Pick<ScopedInvariant, 'id' | 'active'>): string {
  return `duplicate: ${describeScope(scope)} already holds this text as ${dup.id}${dup.active ? '' : ' (inactive)'}`;
}

/**
 * Stands in for the id of an invariant not yet written. It is never compared:
 * the new text meets only copies in other scopes, where precedence decides.
 */
export const PENDING_ID = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';

/**
 * Duplicate and shadow relations of a text not yet added to `scope`, among
 * `others` (pure: the live feedback of the add form calls it per keystroke).
 */
export function checkNewInvariant(
  scope: Scope,
  text: string,
  others: readonly ScopedInvariant[],
  plans: ReadonlyMap<string, Plan>,
): AddCheck {
  const key = textKey(text);
  if (key === '') return { shadows: [], shadowedBy: [] };
  const sameText = others.filter((o) => textKey(o.text) === key);
  const duplicate = sameText.find((o) => sameScope(o.scope, scope));
  // Every copy in another scope, whatever its id: the new text is none of them.
  const info = relations(
    { id: PENDING_ID, active: true, scope },
    sameText.filter((o) => !sameScope(o.scope, scope)),
    plans,
  );
  return duplicate ? { duplicate, ...info } : info;
}
