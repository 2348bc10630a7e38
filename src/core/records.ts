import type { Diagnostic } from './diagnostics.ts';
import type { RecordKind } from './layout.ts';
import { type Guard, type Plan, type ScopedInvariant, type Severity, invariantPath } from './model.ts';
import { textKey } from './normalise.ts';
import * as files from './record-files.ts';
import { escapeUnsafe } from './plain-text.ts';
import { wellFormed } from './utf8.ts';
import { someNames } from './closest.ts';
import type { SchemaName } from './schema-docs.ts';
import type { ActorKind, ActorOutcome, ActorResult, DecisionNode, EnforcementRecord, Violation } from './record-types.ts';

export { ACTOR_KINDS } from './record-types.ts';
export { actorOutcomeOf, checkActorAnswer, parseActorAnswer } from './actor-answer.ts';
export type {
  ActorKind,
  ActorOutcome,
  ActorResponse,
  ActorResult,
  DecisionNode,
  DecisionType,
  EnforcementRecord,
  EnforcementRun,
  RecordValue,
  Violation,
} from './record-types.ts';

/**
 * The violations of a plan split by what they mean for its gate (pure):
 * `open` ones stand (an error among them fails `plan status`), `waived` ones
 * are open but their invariant is waived (`waived` from waivedAt), `resolved`
 * ones were dealt with.
 */
export function standingViolations<V extends Pick<Violation, 'invariant_id' | 'resolved'>>(
  violations: readonly V[],
  waived: ReadonlyMap<string, unknown>,
): { open: V[]; waived: V[]; resolved: V[] } {
  const out = { open: [] as V[], waived: [] as V[], resolved: [] as V[] };
  for (const v of violations) {
    if (v.resolved !== undefined) out.resolved.push(v);
    else if (waived.has(v.invariant_id)) out.waived.push(v);
    else out.open.push(v);
  }
  return out;
}

/** The longest actor response kept in a record; longer ones are cut (so a run of 500 stays well under 1 MiB). */
export const MAX_RECORD_RESPONSE = 1000;

/** The schema of each kind of plan record (declared here so the public declarations do not reach the parser's types). */
export const RECORD_SCHEMAS: Record<RecordKind, SchemaName> = files.RECORD_SCHEMAS;

// ---------------------------------------------------------------------------
// The actor protocol (schemas/actor-request.schema.json, actor-response.schema.json)

export const PROTOCOL = 'agents-reconcile/1';

export interface ActorRequestInvariant {
  id: string;
  text: string;
  severity: Severity;
  scope: 'plan' | 'project' | 'global';
  tags: string[];
  rationale?: string;
  source?: { kind: 'plan' | 'action'; ref?: string; origin_id?: string };
}

export interface ActorRequest {
  protocol: typeof PROTOCOL;
  plan: { id: string; action: string | null; project: string | null; goal: string | null };
  context: string | null;
  invariants: ActorRequestInvariant[];
}

/** The request for a plan's effective set (in its order). */
export function buildActorRequest(plan: Plan, context: string | null, invariants: readonly ScopedInvariant[]): ActorRequest {
  return {
    protocol: PROTOCOL,
    plan: { id: plan.id, action: plan.action ?? null, project: plan.project ?? null, goal: plan.goal ?? null },
    context,
    invariants: invariants.map((inv) => {
      const item: ActorRequestInvariant = {
        id: inv.id,
        text: inv.text,
        severity: inv.severity,
        // The actor protocol knows three scopes: an inherited invariant applies as a global one (docs/extends.md).
        scope: inv.scope.kind === 'action' ? 'plan' : inv.scope.kind === 'inherited' ? 'global' : inv.scope.kind,
        tags: [...inv.tags],
      };
      if (inv.rationale !== undefined) item.rationale = inv.rationale;
      if (inv.source !== undefined) item.source = { ...inv.source };
      return item;
    }),
  };
}

/** `text` in at most `max` characters (code points), ending in `…` when it was cut. */
export function cutText(text: string, max = MAX_RECORD_RESPONSE): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** The enforcement records of one run, and the run-level problems (unknown or repeated ids). */
export interface Reconciliation {
  records: EnforcementRecord[];
  /** Why the actor failed as a whole, when it did. */
  error?: string;
  problems: string[];
}

/**
 * Turns an actor's outcome into one record per invariant (pure). A failed actor
 * gives every invariant `enforced: false` with the reason; a missing result,
 * or two results for one invariant, gives that invariant `enforced: false`.
 * Results for invariants that were not asked about are ignored and reported.
 */
export function reconcile(invariantIds: readonly string[], outcome: ActorOutcome, decisionId: string): Reconciliation {
  if (!outcome.ok) {
    // Whatever the actor printed is kept visible, never raw: an ESC or RLO in it would hide text from whoever reads the record.
    // A reason cut from a longer text (an actor's standard error) may start or end with half a surrogate pair: no text.
    const why = escapeUnsafe(wellFormed(outcome.reason), { newlines: true });
    const reason = cutText(`not enforced: ${why}`);
    return {
      records: invariantIds.map((id) => ({ invariant_id: id, enforced: false, actor_response: reason, decision_id: decisionId })),
      error: cutText(why, 4000),
      problems: [],
    };
  }
  const asked = new Set(invariantIds);
  const byId = new Map<string, ActorResult[]>();
  const unknown = new Set<string>();
  for (const r of outcome.response.results) {
    if (!asked.has(r.invariant_id)) {
      unknown.add(r.invariant_id);
      continue;
    }
    const list = byId.get(r.invariant_id);
    if (list) list.push(r);
    else byId.set(r.invariant_id, [r]);
  }
  const records = invariantIds.map((id): EnforcementRecord => {
    const got = byId.get(id) ?? [];
    if (got.length === 0) {
      return {
        invariant_id: id,
        enforced: false,
        actor_response: 'not enforced: the actor gave no result for this invariant',
        decision_id: decisionId,
      };
    }
    if (got.length > 1) {
      return {
        invariant_id: id,
        enforced: false,
        actor_response: `not enforced: the actor gave ${got.length} results for this invariant`,
        decision_id: decisionId,
      };
    }
    const r = got[0]!;
    return {
      invariant_id: id,
      enforced: r.enforced,
      actor_response: cutText(escapeUnsafe(r.response, { newlines: true })),
      decision_id: decisionId,
    };
  });
  // One note for them all: an actor answering for thousands of ids not asked would bury the run's own lines under them.
  const stray = [...unknown];
  const problems =
    stray.length === 0
      ? []
      : stray.length === 1
        ? [`the actor answered for ${stray[0]}, which was not asked about; ignored`]
        : [`the actor answered for ${stray.length} invariants not asked about (${someNames(stray, { shown: 5 })}); ignored`];
  return { records, problems };
}

/** One line for a decision node of a run. */
export function enforcementSummary(records: readonly EnforcementRecord[], actor: ActorKind, error?: string): string {
  const n = records.length;
  const ok = records.filter((r) => r.enforced).length;
  const base = `${ok} of ${n} invariant${n === 1 ? '' : 's'} enforced (${actor} actor)`;
  return error ? `${base}; actor failed: ${cutText(escapeUnsafe(error), 300)}` : base;
}

// ---------------------------------------------------------------------------
// The decision tree

export interface DecisionTreeNode {
  node: DecisionNode;
  children: DecisionTreeNode[];
}

/**
 * Nodes as a forest, children in id (creation) order. A node whose parent is
 * missing is shown as a root, so nothing recorded is hidden.
 */
export function buildDecisionTree(nodes: readonly DecisionNode[]): DecisionTreeNode[] {
  const sorted = [...nodes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map(sorted.map((n) => [n.id, { node: n, children: [] as DecisionTreeNode[] }]));
  const roots: DecisionTreeNode[] = [];
  const cut = loopsCut(sorted);
  for (const n of sorted) {
    const me = byId.get(n.id)!;
    const parent = n.parent_id !== null && n.parent_id !== n.id && !cut.has(n.id) ? byId.get(n.parent_id) : undefined;
    if (parent) parent.children.push(me);
    else roots.push(me);
  }
  return roots;
}

/**
 * The nodes whose parent link closes a loop (a hand edit: A's parent B, B's parent A), one per loop, the oldest:
 * shown as roots, so that a loop, which has no root of its own, hides nothing.
 */
function loopsCut(nodes: readonly DecisionNode[]): Set<string> {
  const parentOf = new Map(nodes.map((n) => [n.id, n.parent_id]));
  const cut = new Set<string>();
  // 1: on the path being followed; 2: followed already.
  const state = new Map<string, 1 | 2>();
  for (const n of nodes) {
    const path: string[] = [];
    let id: string | undefined = n.id;
    while (id !== undefined && !state.has(id)) {
      state.set(id, 1);
      path.push(id);
      const parent: string | null | undefined = parentOf.get(id);
      id = parent !== null && parent !== undefined && parent !== id && parentOf.has(parent) ? parent : undefined;
    }
    if (id !== undefined && state.get(id) === 1) cut.add(path.slice(path.indexOf(id)).sort()[0]!);
    for (const p of path) state.set(p, 2);
  }
  return cut;
}

export { latestDecision } from './decision-tip.ts';

// ---------------------------------------------------------------------------
// Promotion and drift

/**
 * The action invariants `plan use` promotes: the active ones, one per text key
 * (the oldest id wins, as in resolution). Returns those kept and those skipped
 * as duplicates of a kept one.
 */
export function selectPromoted(actionInvariants: readonly ScopedInvariant[]): {
  kept: ScopedInvariant[];
  duplicates: { invariant: ScopedInvariant; of: string }[];
} {
  const active = actionInvariants.filter((i) => i.active).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seen = new Map<string, string>();
  const kept: ScopedInvariant[] = [];
  const duplicates: { invariant: ScopedInvariant; of: string }[] = [];
  for (const inv of active) {
    const key = textKey(inv.text);
    const first = seen.get(key);
    if (first !== undefined) {
      duplicates.push({ invariant: inv, of: first });
      continue;
    }
    seen.set(key, inv.id);
    kept.push(inv);
  }
  return { kept, duplicates };
}

/**
 * The plan's copy of an action invariant, as `plan use` and `plan sync` promote it: a new id in the plan's
 * scope, the origin named as its source, and what the origin asks (text, severity, tags, rationale, guard).
 */
export function promotedCopy(
  origin: ScopedInvariant,
  copy: { id: string; plan: string; ref: string; created_at: string; created_by?: string },
): ScopedInvariant {
  const scope = { kind: 'plan' as const, plan: copy.plan };
  const inv: ScopedInvariant = {
    id: copy.id,
    text: origin.text,
    severity: origin.severity,
    active: true,
    tags: [...origin.tags],
    created_at: copy.created_at,
    scope,
    path: invariantPath(scope, copy.id),
    source: { kind: 'action', ref: copy.ref, origin_id: origin.id },
  };
  if (origin.rationale !== undefined) inv.rationale = origin.rationale;
  // The guard goes with the copy: the hook guards a plan by its own set, never by the action's files.
  if (origin.guard !== undefined) inv.guard = copyGuard(origin.guard);
  if (copy.created_by !== undefined) inv.created_by = copy.created_by;
  return inv;
}

function copyGuard(guard: Guard): Guard {
  return Object.fromEntries(Object.entries(guard).map(([k, v]) => [k, [...(v as string[])]])) as Guard;
}

/** Whether two guards hold the same entries, whatever the order of their keys. */
function sameGuard(a: Guard | undefined, b: Guard | undefined): boolean {
  const kinds = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]) as Set<keyof Guard>;
  return [...kinds].every((k) => JSON.stringify(a?.[k] ?? null) === JSON.stringify(b?.[k] ?? null));
}

export type DriftKind = 'changed' | 'added' | 'removed';

export interface DriftItem {
  kind: DriftKind;
  /** The action template, ns/name. */
  action: string;
  /** The action invariant (the origin). */
  origin_id: string;
  /** The plan invariant promoted from it (changed, removed). */
  plan_invariant_id?: string;
  /** What differs, for changed: text, severity, guard, active. */
  fields?: string[];
  /** The text in the plan (changed, removed) or in the action (added). */
  text: string;
  /** The action's current text, for changed. */
  action_text?: string;
}

/**
 * How the action templates a plan was promoted from have moved since (pure):
 * action invariants changed (text, severity, guard, active: either way) or removed after their
 * promotion, and active ones added that the plan does not hold. Only actions
 * named by the plan's `source.ref`s (and the plan's own `action`) are compared.
 */
export function computeDrift(
  plan: Plan,
  planInvariants: readonly ScopedInvariant[],
  actionInvariants: ReadonlyMap<string, readonly ScopedInvariant[]>,
): DriftItem[] {
  const drift: DriftItem[] = [];
  const promoted = planInvariants.filter(
    (i) => i.source?.kind === 'action' && i.source.ref !== undefined && i.source.origin_id !== undefined,
  );
  const refs = new Set<string>(promoted.map((i) => i.source!.ref!));
  if (plan.action) refs.add(plan.action);
  for (const ref of [...refs].sort()) {
    const current = actionInvariants.get(ref) ?? [];
    const byId = new Map(current.map((i) => [i.id, i]));
    const fromHere = promoted.filter((i) => i.source!.ref === ref);
    const origins = new Set(fromHere.map((i) => i.source!.origin_id!));
    // The texts the promoted copies hold once this drift is applied: a removed copy's text is free for an origin
    // added with it (removed and added again, or reworded and its old text taken), in one sync.
    const keys = new Set<string>();
    for (const p of fromHere) {
      const origin = byId.get(p.source!.origin_id!);
      if (origin) keys.add(textKey(origin.text));
      if (!origin) {
        drift.push({ kind: 'removed', action: ref, origin_id: p.source!.origin_id!, plan_invariant_id: p.id, text: p.text });
        continue;
      }
      const fields: string[] = [];
      if (origin.text !== p.text) fields.push('text');
      if (origin.severity !== p.severity) fields.push('severity');
      if (!sameGuard(origin.guard, p.guard)) fields.push('guard');
      // The copy follows its origin's active state both ways: a copy `plan sync` deactivated with its origin is
      // activated again with it, else the plan would stay short of an invariant its template applies.
      if (origin.active !== p.active) fields.push('active');
      if (fields.length > 0) {
        drift.push({
          kind: 'changed',
          action: ref,
          origin_id: origin.id,
          plan_invariant_id: p.id,
          fields,
          text: p.text,
          action_text: origin.text,
        });
      }
    }
    const added = selectPromoted(current).kept.filter((i) => !origins.has(i.id) && !keys.has(textKey(i.text)));
    for (const a of added) drift.push({ kind: 'added', action: ref, origin_id: a.id, text: a.text });
  }
  return drift;
}

/** One change `plan sync` makes to a plan's promoted invariants (docs/plans.md). */
export type SyncChange =
  | { kind: 'changed'; drift: DriftItem; before: ScopedInvariant; after: ScopedInvariant }
  | { kind: 'removed'; drift: DriftItem; before: ScopedInvariant }
  | { kind: 'added'; drift: DriftItem; origin: ScopedInvariant };

/** A drift item `plan sync` leaves alone, and why. */
export interface SyncSkip {
  drift: DriftItem;
  reason: string;
}

/**
 * What `plan sync` does about a plan's drift (pure; see computeDrift):
 * a changed origin's text, severity, tags, rationale and guard are copied onto the
 * promoted copy (which keeps its id, creation and provenance), as is its
 * active state (a deactivated origin deactivates it, an active one activates
 * it); a promoted copy whose origin is gone is
 * removed; an origin added to the action is promoted (its new id is made by
 * the caller). Only invariants with `source.kind: action` are touched, never
 * those added to the plan by hand. A change that would give the plan two
 * invariants of one text is skipped, with the reason.
 */
export function planSync(
  plan: Plan,
  planInvariants: readonly ScopedInvariant[],
  actionInvariants: ReadonlyMap<string, readonly ScopedInvariant[]>,
): { changes: SyncChange[]; skipped: SyncSkip[] } {
  const drift = computeDrift(plan, planInvariants, actionInvariants);
  const byId = new Map(planInvariants.map((i) => [i.id, i]));
  // The text keys the plan holds after the changes, each with the invariant holding it.
  const keys = new Map<string, string>();
  for (const i of planInvariants) if (!keys.has(textKey(i.text))) keys.set(textKey(i.text), i.id);
  const changes: SyncChange[] = [];
  const skipped: SyncSkip[] = [];
  for (const d of drift) {
    if (d.kind === 'removed') {
      const before = byId.get(d.plan_invariant_id!)!;
      keys.delete(textKey(before.text));
      changes.push({ kind: 'removed', drift: d, before });
    }
  }
  for (const d of drift) {
    if (d.kind === 'removed') continue;
    // computeDrift found the origin of a changed or added item in its action.
    const origin = actionInvariants.get(d.action)!.find((i) => i.id === d.origin_id)!;
    if (d.kind === 'changed') {
      const before = byId.get(d.plan_invariant_id!)!;
      const key = textKey(origin.text);
      const holder = keys.get(key);
      if (holder !== undefined && holder !== before.id) {
        skipped.push({ drift: d, reason: `the plan already holds the new text as ${holder}` });
        continue;
      }
      keys.delete(textKey(before.text));
      keys.set(key, before.id);
      const after: ScopedInvariant = {
        ...before,
        text: origin.text,
        severity: origin.severity,
        tags: [...origin.tags],
        active: origin.active,
      };
      if (origin.rationale !== undefined) after.rationale = origin.rationale;
      else delete after.rationale;
      if (origin.guard !== undefined) after.guard = copyGuard(origin.guard);
      else delete after.guard;
      changes.push({ kind: 'changed', drift: d, before, after });
    } else {
      const holder = keys.get(textKey(origin.text));
      if (holder !== undefined) {
        skipped.push({ drift: d, reason: `the plan already holds this text as ${holder}` });
        continue;
      }
      keys.set(textKey(origin.text), origin.id);
      changes.push({ kind: 'added', drift: d, origin });
    }
  }
  return { changes, skipped };
}

export type { Diagnostic };
