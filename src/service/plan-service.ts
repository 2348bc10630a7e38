import type { Severity, Plan, StoreConfig } from '../core/model.ts';
import type { ScopedWaiver } from '../core/waivers.ts';
import type { ActorRequest, DecisionNode, DecisionTreeNode } from '../core/records.ts';
import { ACTOR_KINDS, type ActorKind } from '../core/record-types.ts';
import { UsageError } from '../core/errors.ts';
import { inputObject, typeName } from '../core/input-shape.ts';
import type { RelaxableReason } from '../core/plan-gate.ts';
import type { Actor } from '../enforce/actors.ts';
import { loadConfig } from '../store/config.ts';
import './ids.ts';
import { InvariantService, type OpenOptions, requireInvariantService } from './invariant-service.ts';
import type { PlanContext } from './plans/context.ts';
import type { RunActor } from './plans/strategize.ts';
import * as queries from './plans/queries.ts';

// The use cases that write load when called: they bring the YAML writer, which no reading command needs.
const strategizing = () => import('./plans/strategize.ts');
const syncing = () => import('./plans/sync.ts');
const using = () => import('./plans/use.ts');
const violations = () => import('./plans/violations.ts');
const waivers = () => import('./plans/waivers.ts');
const removing = () => import('./plans/remove.ts');
const activating = () => import('./plans/activate.ts');
import type {
  ListedViolation,
  PlanRemoved,
  PlanShow,
  PlanStatus,
  StrategizeResult,
  SyncOptions,
  SyncResult,
  UseInput,
  UseResult,
  ViolationInput,
  WaiveInput,
} from './plans/types.ts';

export type * from './plans/types.ts';

/**
 * The use cases on plans (docs/plans.md): create from an action template, list,
 * show, reconcile with an actor, the decision tree, status, violations and
 * waivers. One method each, handing over to the module of its use case under
 * plans/; the CLI and embedding runtimes call them.
 */
export class PlanService implements PlanContext {
  readonly invariants: InvariantService;

  constructor(invariants: InvariantService) {
    this.invariants = requireInvariantService(invariants, 'PlanService');
  }

  static open(options: OpenOptions = {}): PlanService {
    return new PlanService(InvariantService.open(options));
  }

  get root(): string {
    return this.invariants.root;
  }

  /**
   * The store's config.yaml, defaults when absent; invalid is exit 3. With `actor`, for a command that runs
   * that actor (`configured`: config.yaml's): config.yaml's actor lacking a key it needs is invalid too.
   */
  async config(given: { actor?: ActorKind | 'configured' } = {}): Promise<StoreConfig> {
    // From JavaScript: null was a TypeError, and a misspelt field or an actor of no kind read config.yaml without the
    // check of the actor that runs.
    const { actor } = inputObject(given, 'config', { actor: true });
    const kinds: readonly unknown[] = [...ACTOR_KINDS, 'configured'];
    if (actor !== undefined && actor !== null && !kinds.includes(actor))
      throw new UsageError(
        `config: actor must be one of ${kinds.join(', ')}, not ${JSON.stringify(actor) ?? typeName(actor)}`,
        "Name the kind of actor that will run (configured: config.yaml's own), or leave it out.",
        { field: 'actor', allowed: kinds },
      );
    return this.invariants.inRun(() => loadConfig(this.invariants.source, actor === undefined || actor === null ? {} : { actor }));
  }

  /** The full id of the plan an id or unique prefix (≥ 4 characters) names. */
  resolvePlanId(prefix: string): Promise<string> {
    return this.invariants.resolvePlanId(prefix);
  }

  /**
   * `plan use`: a new plan promoting every active invariant of the action
   * (one per text). The plan folder is built under a temporary name and
   * renamed into place, so readers see the whole plan or none of it.
   */
  async use(input: UseInput): Promise<UseResult> {
    return this.invariants.inRun(async () => (await using()).use(this, input));
  }

  /** Every plan, by id (creation order). */
  list(): Promise<Plan[]> {
    return this.invariants.inRun(() => queries.list(this));
  }

  /**
   * `plan sync`: the plan's drift from its action templates, as changes to
   * its promoted invariants (see planSync). With `apply`, once `confirm` (when
   * given) says yes, the changes are made under the plan folder's lock, each
   * file written atomically; if the plan or a template changed meanwhile,
   * nothing is written (exit 2). Hand-added plan invariants are never touched.
   */
  async sync(prefix: string, options: SyncOptions = {}): Promise<SyncResult> {
    return this.invariants.inRun(async () => (await syncing()).sync(this, prefix, options));
  }

  /**
   * `plan remove`: the plan's folder (plan.yaml, its invariants, records and waivers) taken out of the store in one
   * step under the plan's lock, committed when `commit` (else config.yaml) says so; the active plan is cleared when it
   * names it. A plan whose plan.yaml is invalid is removed by its id alone. `confirm`, when given, is asked first
   * (false: nothing removed, null returned). `signal` stops the wait for the lock (a CancelledError, nothing removed).
   */
  async remove(
    prefix: string,
    options: { commit?: boolean; signal?: AbortSignal; confirm?: (plan: Plan) => boolean | Promise<boolean> } = {},
  ): Promise<PlanRemoved | null> {
    return this.invariants.inRun(async () => (await removing()).removePlan(this, prefix, options));
  }

  /**
   * `plan activate ID`: the plan made the active one in `dir`, the store's folder in git's (guardDir), under the plan's
   * lock, as `remove` clears it; a plan removed meanwhile is refused (store-changed). Answers its id. @internal
   */
  async activate(prefix: string, dir: string): Promise<string> {
    return this.invariants.inRun(async () => (await activating()).activatePlan(this, prefix, dir));
  }

  /** Metadata, the effective set with provenance, the latest run, open violations and drift. */
  show(prefix: string): Promise<PlanShow> {
    return this.invariants.inRun(() => queries.show(this, prefix));
  }

  /**
   * The request `strategize` would send an actor, sending nothing and writing nothing (`--show-prompt`). `judge`, the
   * actor that is to judge it elsewhere (an agent over MCP): a set whose run would not fit in one file is refused first.
   */
  async actorRequest(prefix: string, context: string | null, judge?: RunActor): Promise<ActorRequest> {
    return this.invariants.inRun(async () => (await strategizing()).actorRequest(this, prefix, context, judge));
  }

  /**
   * The Invariant Reconciliation Actor's run (docs/plans.md): asks `actor` about the
   * plan's effective set, then writes one enforcement file and one
   * `invariant_enforced` decision node whose parent is the plan's newest node.
   * Actor failures become `enforced: false` records with the reason; they are
   * written all the same. `signal` stops the wait for the plan's lock (a CancelledError, nothing written).
   */
  async strategize(prefix: string, options: { actor: Actor; context?: string | null; signal?: AbortSignal }): Promise<StrategizeResult> {
    return this.invariants.inRun(async () => (await strategizing()).strategize(this, prefix, options));
  }

  /** The plan's decision tree. */
  decisions(prefix: string): Promise<{ plan: Plan; nodes: DecisionNode[]; tree: DecisionTreeNode[] }> {
    return this.invariants.inRun(() => queries.decisions(this, prefix));
  }

  /**
   * Enforcement and violations in brief, and the gate's verdict (docs/plans.md,
   * "plan status"): `failing` when a reason fails; `allow` relaxes reasons.
   * Violations resolved, or of invariants a waiver covers at the service
   * clock's time, do not count; a waived invariant left unenforced reports.
   */
  status(prefix: string, options: { allow?: readonly RelaxableReason[] } = {}): Promise<PlanStatus> {
    return this.invariants.inRun(() => queries.status(this, prefix, options));
  }

  /**
   * Records an InvariantViolation; the invariant must be in the plan's effective set. `signal` stops the wait for
   * another writer's lock (a CancelledError, nothing written).
   */
  async addViolation(input: ViolationInput, options: { signal?: AbortSignal } = {}): Promise<ListedViolation> {
    return this.invariants.inRun(async () => (await violations()).addViolation(this, input, options));
  }

  /**
   * `invariant waive`: records a time-boxed exception for an invariant of the
   * plan's or project's effective set (docs/plans.md, "Waivers").
   */
  async waive(input: WaiveInput): Promise<{ waiver: ScopedWaiver; replaced: { id: string; path: string }[]; commit?: string }> {
    return this.invariants.inRun(async () => (await waivers()).waive(this, input));
  }

  /**
   * `invariant violation resolve`: marks a violation resolved (who, when, an
   * optional note). The record is kept; a resolved violation no longer fails
   * `plan status`. Resolving twice is refused (exit 2).
   */
  async resolveViolation(
    prefix: string,
    options: { note?: string; commit?: boolean } = {},
  ): Promise<ListedViolation & { commit?: string }> {
    return this.invariants.inRun(async () => (await violations()).resolveViolation(this, prefix, options));
  }

  /** Violations of one plan or of every plan, by plan then id; optionally of one severity. */
  async listViolations(options: { plan?: string; severity?: Severity } = {}): Promise<ListedViolation[]> {
    return this.invariants.inRun(async () => (await violations()).listViolations(this, options));
  }
}
