// Reading plans: the list, one plan in full, its decision tree, its status and the gate.
import { location } from '../../core/diagnostics.ts';
import { InvalidStoreError, UsageError } from '../../core/errors.ts';
import { truncate } from '../../core/names.ts';
import type { Plan, ScopedInvariant, Severity } from '../../core/model.ts';
import { type GateFacts, RELAXABLE, type RelaxableReason, committedRuns, judgePlan } from '../../core/plan-gate.ts';
import { inputObject, optionalStrings } from '../../core/input-shape.ts';
import {
  type DecisionNode,
  type DecisionTreeNode,
  buildDecisionTree,
  computeDrift,
  latestDecision,
  standingViolations,
} from '../../core/records.ts';
import { waivedAt } from '../../core/waivers.ts';
import { readAllPlans } from '../../store/read.ts';
import { lockedIds, withoutFloors } from '../floors.ts';
import { requireValid } from '../invariants/rules.ts';
import type { PlanContext } from './context.ts';
import { optionWords } from '../option-words.ts';
import { invariantDigests, planById, planRecords, setDigest } from './common.ts';
import { syncInputs } from './sync.ts';
import type { PlanShow, PlanStatus } from './types.ts';
import type { WaiverState } from '../invariants/types.ts';
import { docsRef } from '../../core/docs-link.ts';

/** Every plan, by id (creation order). */
export async function list(svc: PlanContext): Promise<Plan[]> {
  const snap = await readAllPlans(svc.invariants.source);
  requireValid(snap, 'list plans');
  return [...snap.plans.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Metadata, the effective set with provenance, the latest run, open violations and drift. */
export async function show(svc: PlanContext, prefix: string): Promise<PlanShow> {
  const plan = await planById(svc, prefix);
  const { entries, waivers, warnings } = await svc.invariants.effective({ plan: plan.id });
  const records = await planRecords(svc, plan.id);
  const { planInvariants, actions } = await syncInputs(svc, plan);
  const standing = standingViolations(records.violations, await waivedNow(svc, entries, waivers));
  const result: PlanShow = {
    plan,
    effective: entries,
    waivers,
    violations: records.violations.filter((v) => v.resolved === undefined),
    waived: standing.waived.map((v) => v.id),
    drift: computeDrift(plan, planInvariants, actions),
    warnings,
  };
  // Only a run its decision node commits counts (docs/adr/0064-run-committed-by-decision-node.md); an unfinished write is not shown as the latest run.
  const { latest } = committedRuns(records.decisions, records.enforcement);
  if (latest?.run) result.latestEnforcement = latest.run;
  const node = latestDecision(records.decisions);
  if (node) result.latestDecision = node;
  return result;
}

/** The plan's decision tree. */
export async function decisions(
  svc: PlanContext,
  prefix: string,
): Promise<{ plan: Plan; nodes: DecisionNode[]; tree: DecisionTreeNode[] }> {
  const plan = await planById(svc, prefix);
  const { decisions } = await planRecords(svc, plan.id, ['decisions']);
  return { plan, nodes: decisions, tree: buildDecisionTree(decisions) };
}

/**
 * Enforcement and violations in brief, and the gate's verdict (docs/plans.md,
 * "plan status"): `failing` when a reason fails; `allow` relaxes reasons.
 * Violations resolved, or of invariants a waiver covers at the service
 * clock's time, do not count; a waived invariant left unenforced reports.
 */
export async function status(svc: PlanContext, prefix: string, given: { allow?: readonly RelaxableReason[] } = {}): Promise<PlanStatus> {
  const options = { allow: allowedReasons(inputObject(given, 'status', { allow: true }).allow) };
  const plan = await planById(svc, prefix);
  const { entries, waivers, warnings } = await svc.invariants.effective({ plan: plan.id });
  const records = await planRecords(svc, plan.id);
  const waived = await waivedNow(svc, entries, waivers);
  const gone = warnings.find((w) => w.code === 'unknown-project');
  const standing = standingViolations(records.violations, waived);
  const violations: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const v of standing.open) violations[v.severity]++;
  const invariants = entries.map((e) => e.invariant);
  const { latest, unfinished } = committedRuns(records.decisions, records.enforcement);
  const digest = await setDigest(invariants);
  // Each invariant's own digest counts the edits of a stale run: taken only when the run's set digest differs.
  const stale = latest?.run?.set_digest !== undefined && latest.run.set_digest !== digest;
  const digests = stale ? await invariantDigests(invariants) : undefined;
  // Which invariants no waiver can cover, so that the reason of an error violation offers no waiver of one: read only then.
  const locked = standing.open.some((v) => v.severity === 'error')
    ? await lockedIds(svc.root, svc.invariants.source, invariants)
    : undefined;
  const drift = await driftCounts(svc, plan);
  const verdict = judgePlan(
    {
      effective: digests ? invariants.map((i) => ({ id: i.id, severity: i.severity, digest: digests.get(i.id)! })) : invariants,
      setDigest: digest,
      ...(latest ? { latest } : {}),
      unfinished,
      violations: standing.open,
      waived: new Set(waived.keys()),
      ...(locked !== undefined && locked.size > 0 ? { locked } : {}),
      expired: waivers
        .filter((w) => !w.holds)
        .map((w) => ({ id: w.id, invariant_id: w.invariant_id, expires: w.expires, path: w.path, scope: w.scope })),
      plan: plan.id,
      agents: optionWords(svc.invariants.optionWords).agents,
      ...(gone && plan.project !== undefined ? { missingProject: { project: plan.project, at: location(gone) } } : {}),
      ...(drift !== undefined ? { drift } : {}),
    },
    options.allow ? { allow: options.allow } : {},
  );
  const reasons = [...verdict.reasons].sort((a, b) => (a.level === b.level ? 0 : a.level === 'fail' ? -1 : 1));
  const status: PlanStatus = {
    plan,
    allowed: options.allow ?? [],
    effectiveCount: entries.length,
    violations,
    waivedViolations: standing.waived.length,
    resolvedViolations: standing.resolved.length,
    waivers,
    failing: verdict.failing,
    reasons,
    unfinished,
    warnings,
  };
  const run = latest?.run;
  if (run) {
    status.latestEnforcement = {
      id: run.id,
      decision_id: run.decision_id,
      created_at: run.created_at,
      enforced: run.records.filter((r) => r.enforced).length,
      total: run.records.length,
    };
    if (run.error !== undefined) status.latestEnforcement.error = run.error;
  }
  return status;
}

/** How the plan's templates moved since it was made from them (`plan show`'s drift), counted; undefined when in step. */
export async function driftCounts(svc: PlanContext, plan: Plan): Promise<GateFacts['drift']> {
  let inputs: Awaited<ReturnType<typeof syncInputs>>;
  try {
    inputs = await syncInputs(svc, plan);
  } catch (error) {
    // An invalid file in a template the set does not read is no reason to stop the gate: the drift alone is unknown.
    if (!(error instanceof InvalidStoreError)) throw error;
    return { actions: [], changed: 0, removed: 0, added: 0, gone: [], unread: error.message };
  }
  const { planInvariants, actions, gone } = inputs;
  const goneRefs = new Set(gone.map((g) => g.ref));
  const drift = computeDrift(plan, planInvariants, actions).filter((d) => !goneRefs.has(d.action));
  if (drift.length === 0 && gone.length === 0) return undefined;
  const count = (kind: string) => drift.filter((d) => d.kind === kind).length;
  return {
    actions: [...new Set(drift.map((d) => d.action))],
    changed: count('changed'),
    removed: count('removed'),
    added: count('added'),
    gone: gone.map(({ ref, why }) => ({ ref, why })),
  };
}

/** The invariants of the set a waiver covers at the service clock's time, a locked text's never: `show`, `status` and `violation list` judge alike. */
export async function waivedNow(
  svc: PlanContext,
  entries: readonly { invariant: ScopedInvariant }[],
  waivers: readonly WaiverState[],
): Promise<Map<string, WaiverState[]>> {
  return withoutFloors(
    svc.root,
    svc.invariants.source,
    waivedAt(waivers, svc.invariants.deps.clock()),
    entries.map((e) => e.invariant),
  );
}

/**
 * `allow` as given from JavaScript, the CLI's `--allow` or MCP's `allow`: a list of the reasons `--allow` takes,
 * never a string read as its characters; a reason given twice is allowed once.
 */
function allowedReasons(allow: unknown): RelaxableReason[] | undefined {
  const codes = optionalStrings(allow, 'allow');
  const unknown = codes?.find((c) => !(RELAXABLE as readonly string[]).includes(c));
  if (unknown !== undefined)
    throw new UsageError(
      `allow: "${truncate(unknown)}" is not one of ${RELAXABLE.join(', ')}`,
      `${docsRef('plans.md')} says which reasons may be allowed.`,
      {
        field: 'allow',
      },
    );
  return codes && ([...new Set(codes)] as RelaxableReason[]);
}
