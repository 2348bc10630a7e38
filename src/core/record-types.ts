// The shapes of a plan's records (docs/plans.md), on their own so that the
// parser of record files (record-files.ts) and the logic over records
// (records.ts) both take them from below.
import type { Severity } from './model.ts';

/** Decision node types (docs/plans.md). */
export type DecisionType = 'invariant_enforced';
/** Who judges a plan's run: the values of a record's `actor` (enforcement.schema.json). */
export const ACTOR_KINDS = ['command', 'interactive', 'agent', 'llm'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** One node of a plan's decision tree: `plans/<plan>/decisions/<id>.yaml`. */
export interface DecisionNode {
  id: string;
  type: DecisionType;
  parent_id: string | null;
  created_at: string;
  created_by?: string;
  summary: string;
  enforcement_id?: string;
  actor?: ActorKind;
}

/** InvariantEnforcementRecord (seed, "Enforcement Record"). */
export interface EnforcementRecord {
  invariant_id: string;
  enforced: boolean;
  actor_response: string;
  decision_id: string;
  /** `sha256:<hex>` of the invariant as the run judged it (`invariantDigestInput`): `plan status` counts edits by it. */
  digest?: string;
}

/** The records of one reconciliation run: `plans/<plan>/enforcement/<id>.yaml`. */
export interface EnforcementRun {
  id: string;
  decision_id: string;
  created_at: string;
  created_by?: string;
  actor: ActorKind;
  /** The model that judged, for the agent and llm actors. */
  model?: string;
  /** The version of the prompt they sent (src/core/reconcile-prompt.ts). */
  prompt_version?: string;
  /** Why the actor failed as a whole, when it did. */
  error?: string;
  /** `sha256:<hex>` of the effective set the run evaluated (docs/plans.md): `plan status` compares it with today's set. */
  set_digest?: string;
  records: EnforcementRecord[];
}

/** InvariantViolation (seed, "Violation Model"): `plans/<plan>/violations/<id>.yaml`. */
export interface Violation {
  id: string;
  invariant_id: string;
  violated_text: string;
  severity: Severity;
  details?: string;
  created_at: string;
  created_by?: string;
  /** Set when the violation was resolved (`invariant violation resolve`); the record is kept. */
  resolved?: { at: string; by?: string; note?: string };
}

export type RecordValue =
  | { record: 'decisions'; value: DecisionNode }
  | { record: 'enforcement'; value: EnforcementRun }
  | { record: 'violations'; value: Violation };

/** One result of an actor's answer (actor-response.schema.json). */
export interface ActorResult {
  invariant_id: string;
  enforced: boolean;
  response: string;
}

export interface ActorResponse {
  results: ActorResult[];
  summary?: string;
}

/** What an actor gave back: an answer, or why there is none. */
export type ActorOutcome = { ok: true; response: ActorResponse } | { ok: false; reason: string };
