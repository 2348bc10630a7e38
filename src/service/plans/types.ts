import type { Diagnostic } from '../../core/diagnostics.ts';
import type { Plan, ScopedInvariant, Severity } from '../../core/model.ts';
import type { GateReason, RelaxableReason } from '../../core/plan-gate.ts';
import type { ActorRequest, DecisionNode, DriftItem, EnforcementRun, SyncChange, SyncSkip, Violation } from '../../core/records.ts';
import type { EffectiveEntry } from '../../core/resolve.ts';
import type { StrandedWaiver, WaiverState } from '../invariants/types.ts';

export interface UseInput {
  /** The action template, ns/name. */
  action: string;
  project?: string;
  goal?: string;
  /** Commit the new plan folder with git; default: `commit:` in config.yaml. */
  commit?: boolean;
}

/** Every field `use` takes: a library caller's other field is refused, not ignored. */
export const USE_FIELDS = { action: true, project: true, goal: true, commit: true } as const satisfies Record<keyof UseInput, true>;

export interface UseResult {
  plan: Plan;
  /** The new plan-scope invariants, with their provenance. */
  promoted: ScopedInvariant[];
  /** Active action invariants left out because an earlier one has the same text. */
  duplicates: { origin_id: string; of: string; text: string }[];
  /** Absolute path of the new plan folder. */
  folder: string;
  /** The commit holding the new plan, when it was committed. */
  commit?: string;
}

export interface PlanShow {
  plan: Plan;
  effective: EffectiveEntry[];
  /** Waivers covering the plan (its own and its project's), with whether each holds now. */
  waivers: WaiverState[];
  latestEnforcement?: EnforcementRun;
  latestDecision?: DecisionNode;
  /** Open violations (not resolved). */
  violations: Violation[];
  /** The ids of those a waiver covers now: they do not fail the plan (`plan status` counts them as waived). */
  waived: string[];
  drift: DriftItem[];
  /** What the set lacks: a plan whose project is gone (code `unknown-project`), as `effective` says it. */
  warnings: Diagnostic[];
}

export interface StrategizeResult {
  plan: Plan;
  request: ActorRequest;
  decision: DecisionNode;
  run: EnforcementRun;
  /** Run-level notes (answers for invariants that were not asked about). */
  problems: string[];
  /** Every invariant enforced, the actor did not fail, and the effective set did not change while it ran. */
  ok: boolean;
  /** How the effective set changed while the actor ran (the run is stale at once), or null. */
  setChanged: { added: number; removed: number; edited: number } | null;
}

export interface PlanStatus {
  plan: Plan;
  /** The reasons `allow` relaxed, each once, in the order given. */
  allowed: RelaxableReason[];
  effectiveCount: number;
  latestEnforcement?: { id: string; decision_id: string; created_at: string; enforced: number; total: number; error?: string };
  /** Open violations (not resolved) of invariants not waived now, by severity. */
  violations: Record<Severity, number>;
  /** Open violations of invariants a waiver covers now (they do not fail the plan). */
  waivedViolations: number;
  /** Violations marked resolved (kept as records; they do not fail the plan). */
  resolvedViolations: number;
  /** The waivers covering the plan, with whether each holds now. */
  waivers: WaiverState[];
  /** The gate failed (docs/plans.md, "plan status"): `plan status` exits 1. */
  failing: boolean;
  /** Why, every reason the gate found, failing ones first. */
  reasons: GateReason[];
  /** Enforcement files no decision node names (interrupted writes), ignored. */
  unfinished: string[];
  /** What the set lacks: a plan whose project is gone (code `unknown-project`), which fails the gate too. */
  warnings: Diagnostic[];
}

/** How `plan sync` runs. */
export interface SyncOptions {
  /** Make the changes (false, the default: only say them, nothing written). */
  apply?: boolean;
  /** Asked before the changes are made, with apply: true or false, at once or in a promise. */
  confirm?: (preview: SyncResult) => boolean | PromiseLike<boolean>;
  commit?: boolean;
  /** A stop heard before the first write cancels the sync, nothing written; once writing, it runs to its end. */
  signal?: AbortSignal;
}

/** What `plan sync` would do, or did, to a plan. */
export interface SyncResult {
  plan: Plan;
  /** The changes (for `added`, `after` is the new plan invariant once applied). */
  changes: (SyncChange & { after?: ScopedInvariant })[];
  skipped: SyncSkip[];
  /** Whether the changes were written. */
  applied: boolean;
  /** Applied: the plan's waivers of the copies it removed or made inactive, which waive nothing now. */
  strandedWaivers?: StrandedWaiver[];
  commit?: string;
}

export interface WaiveInput {
  /** The invariant: an id or unique prefix, in the effective set of the plan or project. */
  invariant: string;
  plan?: string;
  project?: string;
  reason: string;
  owner: string;
  /** YYYY-MM-DD or an RFC 3339 date-time, after now. */
  expires: string;
  commit?: boolean;
}

/** Every field `waive` takes. */
export const WAIVE_FIELDS = {
  invariant: true,
  plan: true,
  project: true,
  reason: true,
  owner: true,
  expires: true,
  commit: true,
} as const satisfies Record<keyof WaiveInput, true>;

export interface ViolationInput {
  plan: string;
  invariant: string;
  severity?: Severity;
  details?: string;
}

/** Every field `addViolation` takes. */
export const VIOLATION_FIELDS = { plan: true, invariant: true, severity: true, details: true } as const satisfies Record<
  keyof ViolationInput,
  true
>;

export interface ListedViolation {
  plan: string;
  violation: Violation;
  path: string;
  /** From `listViolations`: open, and of an invariant a waiver covers now (it does not fail the plan). */
  waived?: boolean;
}

/** `plan remove`: the plan removed, its folder and the files removed with it, and what became of the active plan. */
export interface PlanRemoved {
  plan: Plan;
  folder: string;
  /** Every file of the plan's folder, removed with it (plan.yaml, its invariants, records and waivers). */
  removed: string[];
  /** The temporary the folder was renamed to, when it could not be deleted afterwards (`validate --fix` removes it). */
  left?: string;
  /** Whether the active plan (`plan activate`) named this plan and was cleared. */
  activeCleared: boolean;
  /** Why the active plan could not be read or cleared, when so. */
  activeError?: string;
  /** With activeError: `read`, the active plan could not be read; `write`, it named this plan and could not be cleared. */
  activeFailure?: 'read' | 'write';
  commit?: string;
}
