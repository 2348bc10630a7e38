import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import type { RecordKind } from '../core/layout.ts';
import { SEVERITIES, invariantPath, type Plan, type ScopedInvariant, type Severity, type StoreConfig, DEFAULT_CONFIG } from '../core/model.ts';
import { MIN_PREFIX, isUlid, truncate } from '../core/names.ts';
import {
  buildActorRequest,
  buildDecisionTree,
  computeDrift,
  enforcementSummary,
  latestDecision,
  reconcile,
  selectPromoted,
  type ActorRequest,
  type DecisionNode,
  type DecisionTreeNode,
  type DriftItem,
  type EnforcementRun,
  type Violation,
} from '../core/records.ts';
import type { EffectiveEntry } from '../core/resolve.ts';
import { formatDecisionFile, formatEnforcementFile, formatInvariantFile, formatPlanFile, formatViolationFile } from '../core/serialize.ts';
import type { Actor } from '../enforce/actors.ts';
import { readEntries, readFolders, readAllPlans, emptySnapshot } from '../store/read.ts';
import { readPlanRecords, type PlanRecords } from '../store/read-records.ts';
import { withFolderLock, writeFileAtomic, writeFilesTogether, writeFolderAtomic } from '../store/write.ts';
import { committedRuns, judgePlan, setDigestInput, type GateReason, type GateReasonCode } from '../core/plan-gate.ts';
import { commitWanted, withCommit } from './commit.ts';
import './ids.ts';
import { InvariantService, requireValid, toScope, type OpenOptions } from './invariant-service.ts';

export interface UseInput {
  /** The action template, ns/name. */
  action: string;
  project?: string;
  goal?: string;
  /** Commit the new plan folder with git; default: `commit:` in config.yaml. */
  commit?: boolean;
}

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
  latestEnforcement?: EnforcementRun;
  latestDecision?: DecisionNode;
  violations: Violation[];
  drift: DriftItem[];
}

export interface StrategizeResult {
  plan: Plan;
  request: ActorRequest;
  decision: DecisionNode;
  run: EnforcementRun;
  /** Run-level notes (answers for invariants that were not asked about). */
  problems: string[];
  /** Every invariant enforced and the actor did not fail. */
  ok: boolean;
}

export interface PlanStatus {
  plan: Plan;
  effectiveCount: number;
  latestEnforcement?: { id: string; decision_id: string; created_at: string; enforced: number; total: number; error?: string };
  violations: Record<Severity, number>;
  /** The gate failed (docs/plans.md, "plan status"): `plan status` exits 1. */
  failing: boolean;
  /** Why, every reason the gate found, failing ones first. */
  reasons: GateReason[];
  /** Enforcement files no decision node names (interrupted writes), ignored. */
  unfinished: string[];
}

export interface ViolationInput {
  plan: string;
  invariant: string;
  severity?: Severity;
  details?: string;
}

export interface ListedViolation {
  plan: string;
  violation: Violation;
  path: string;
}

/** `sha256:<hex>` of an effective set (docs/plans.md): node:crypto loads only for the commands that need it. */
async function setDigest(invariants: readonly ScopedInvariant[]): Promise<string> {
  const { createHash } = await import('node:crypto');
  return `sha256:${createHash('sha256').update(setDigestInput(invariants)).digest('hex')}`;
}

function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function checkPrefix(prefix: string, what: string): string {
  const wanted = prefix.toUpperCase();
  if (wanted.length < MIN_PREFIX || wanted.length > 26 || !/^[0-9A-HJKMNP-TV-Z]+$/.test(wanted)) {
    throw new UsageError(`"${truncate(prefix)}" is not ${what === "invariant" ? "an" : "a"} ${what} id or a prefix of one`, `Give the full id or at least ${MIN_PREFIX} of its first characters.`);
  }
  return wanted;
}

function pickOne<T>(wanted: string, items: readonly T[], idOf: (t: T) => string, what: string, hint: string): T {
  const exact = items.filter((i) => idOf(i) === wanted);
  const found = exact.length > 0 ? exact : items.filter((i) => idOf(i).startsWith(wanted));
  if (found.length === 0) throw new UsageError(`no ${what} with id ${isUlid(wanted) ? wanted : `prefix ${wanted}`}`, hint);
  if (found.length > 1) {
    throw new UsageError(`${what} id prefix ${wanted} is ambiguous; it matches:\n${found.map((f) => `  ${idOf(f)}`).join('\n')}`, 'Give more characters of the id.', { matches: found.map(idOf) });
  }
  return found[0]!;
}

/**
 * The use cases on plans (SPEC 6): create from an action template, list,
 * show, reconcile with an actor, the decision tree, status and violations.
 * One method each; the CLI and embedding runtimes call them.
 */
export class PlanService {
  constructor(readonly invariants: InvariantService) {}

  static open(options: OpenOptions = {}): PlanService {
    return new PlanService(InvariantService.open(options));
  }

  get root(): string {
    return this.invariants.root;
  }

  private get source() {
    return this.invariants.source;
  }

  private get deps() {
    return this.invariants.deps;
  }

  /** The store's config.yaml, defaults when absent; invalid is exit 3. */
  async config(): Promise<StoreConfig> {
    const top = await this.source.list('', { recursive: false });
    const entry = top.find((e) => e.path === 'config.yaml');
    if (!entry) return structuredClone(DEFAULT_CONFIG);
    const snap = await readEntries(this.source, [entry]);
    requireValid(snap, 'read config.yaml');
    return snap.config ?? structuredClone(DEFAULT_CONFIG);
  }

  /** The full id of the plan an id or unique prefix (≥ 4 characters) names. */
  async resolvePlanId(prefix: string): Promise<string> {
    const wanted = checkPrefix(prefix, 'plan');
    const entries = await this.source.list('plans', { recursive: false });
    // A linked plans/ or plan folder is an invalid store (exit 3), not an unknown plan.
    const links = entries.filter((e) => e.type === 'symlink' && (e.path === 'plans' || e.path.slice('plans/'.length).startsWith(wanted)));
    if (links.length > 0) requireValid(await readEntries(this.source, links), `read plan ${wanted}`);
    const ids = entries.filter((e) => e.type === 'dir').map((e) => e.path.slice('plans/'.length)).filter(isUlid);
    return pickOne(wanted, ids, (i) => i, 'plan', 'Run `agents plan list` to see the plans.');
  }

  private async planById(prefix: string): Promise<Plan> {
    return this.invariants.readPlan(await this.resolvePlanId(prefix));
  }

  /**
   * `plan use`: a new plan promoting every active invariant of the action
   * (one per text). The plan folder is built under a temporary name and
   * renamed into place, so readers see the whole plan or none of it.
   */
  async use(input: UseInput): Promise<UseResult> {
    const scope = toScope({ action: input.action });
    if (scope.kind !== 'action') throw new Error('unreachable');
    const ref = `${scope.ns}/${scope.name}`;
    if (input.project !== undefined) toScope({ project: input.project });
    // A linked project or action folder is an invalid store (exit 3), not an unknown name.
    const linked = (await readFolders(this.source, [...(input.project !== undefined ? [`projects/${input.project}`] : []), `actions/${ref}`])).diagnostics.filter((d) => d.code === 'symlink');
    if (linked.length > 0) requireValid({ ...emptySnapshot(), diagnostics: linked }, `use ${ref}`);
    if (input.project !== undefined) {
      const projects = (await this.source.list('projects', { recursive: false })).filter((e) => e.type === 'dir').map((e) => e.path.slice('projects/'.length));
      if (!projects.includes(input.project)) {
        throw new UsageError(
          `unknown project ${input.project}: projects/${input.project}/ does not exist`,
          `Nothing was written. Known projects: ${projects.length ? projects.join(', ') : '(none)'}. A project exists once it has a folder, e.g. after \`agents invariant add --project ${input.project} "…"\`.`,
        );
      }
    }
    const here = await this.source.list(`actions/${scope.ns}`, { recursive: false });
    if (!here.some((e) => e.type === 'dir' && e.path === `actions/${ref}`)) {
      const actionDirs = (await this.source.list('actions', { recursive: true })).filter((e) => e.type === 'dir' && e.path.split('/').length === 3).map((e) => e.path.slice('actions/'.length));
      throw new UsageError(`unknown action ${ref}: actions/${ref}/ does not exist`, `Nothing was written. Known actions: ${actionDirs.length ? actionDirs.join(', ') : '(none)'}.`);
    }
    const goal = input.goal?.trim() || undefined;
    const snap = await readFolders(this.source, [`actions/${ref}`]);
    requireValid(snap, `promote the invariants of action ${ref}`);
    const { kept, duplicates } = selectPromoted(snap.invariants);

    const author = await this.deps.author(this.root);
    const now = timestamp(this.deps.clock());
    const id = this.deps.newId();
    const plan: Plan = { id, action: ref };
    if (input.project !== undefined) plan.project = input.project;
    if (goal !== undefined) plan.goal = goal;
    plan.created_at = now;
    if (author !== undefined) plan.created_by = author;
    const planScope = { kind: 'plan' as const, plan: id };
    const promoted = kept.map((origin): ScopedInvariant => {
      const newId = this.deps.newId();
      const inv: ScopedInvariant = {
        id: newId,
        text: origin.text,
        severity: origin.severity,
        active: true,
        tags: [...origin.tags],
        created_at: now,
        scope: planScope,
        path: invariantPath(planScope, newId),
        source: { kind: 'action', ref, origin_id: origin.id },
      };
      if (origin.rationale !== undefined) inv.rationale = origin.rationale;
      if (author !== undefined) inv.created_by = author;
      return inv;
    });

    const final = `plans/${id}`;
    const enabled = await commitWanted(this.source, input.commit);
    const written = await withCommit(this.root, enabled, async () => {
      writeFolderAtomic(this.root, final, [
        ...promoted.map((inv) => ({ name: `${inv.id}.yaml`, content: formatInvariantFile(inv.path, inv) })),
        { name: 'plan.yaml', content: formatPlanFile(`${final}/plan.yaml`, plan) },
      ]);
      const n = promoted.length;
      return {
        value: { folder: join(this.root, final) },
        paths: [final],
        message: `plan: use ${ref} as ${id}${plan.project ? ` for project ${plan.project}` : ''} (${n} invariant${n === 1 ? '' : 's'} promoted)\n${goal ? `\n${goal}\n` : ''}`,
      };
    });
    const result: UseResult = {
      plan,
      promoted,
      duplicates: duplicates.map((d) => ({ origin_id: d.invariant.id, of: d.of, text: d.invariant.text })),
      folder: written.folder,
    };
    if (written.commit !== undefined) result.commit = written.commit;
    return result;
  }

  /** Every plan, by id (creation order). */
  async list(): Promise<Plan[]> {
    const snap = await readAllPlans(this.source);
    requireValid(snap, 'list plans');
    return [...snap.plans.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private async records(planId: string, kinds?: readonly RecordKind[]): Promise<PlanRecords> {
    const records = await readPlanRecords(this.source, planId, kinds);
    requireValid({ ...emptySnapshot(), diagnostics: records.diagnostics }, `read the records of plan ${planId}`);
    return records;
  }

  /** Metadata, the effective set with provenance, the latest run, open violations and drift. */
  async show(prefix: string): Promise<PlanShow> {
    const plan = await this.planById(prefix);
    const { entries } = await this.invariants.effective({ plan: plan.id });
    const records = await this.records(plan.id);
    const planSnap = await readFolders(this.source, [`plans/${plan.id}`]);
    requireValid(planSnap, `read plan ${plan.id}`);
    const refs = new Set<string>();
    if (plan.action) refs.add(plan.action);
    for (const inv of planSnap.invariants) if (inv.source?.kind === 'action' && inv.source.ref) refs.add(inv.source.ref);
    const actions = new Map<string, ScopedInvariant[]>();
    for (const ref of refs) {
      const snap = await readFolders(this.source, [`actions/${ref}`]);
      requireValid(snap, `compare plan ${plan.id} with action ${ref}`);
      actions.set(ref, snap.invariants);
    }
    const result: PlanShow = {
      plan,
      effective: entries,
      violations: records.violations,
      drift: computeDrift(plan, planSnap.invariants, actions),
    };
    // Only a run its decision node commits counts (docs/decisions.md); an unfinished write is not shown as the latest run.
    const { latest } = committedRuns(records.decisions, records.enforcement);
    if (latest?.run) result.latestEnforcement = latest.run;
    const node = latestDecision(records.decisions);
    if (node) result.latestDecision = node;
    return result;
  }

  /**
   * The Invariant Reconciliation Actor's run (SPEC 6): asks `actor` about the
   * plan's effective set, then writes one enforcement file and one
   * `invariant_enforced` decision node whose parent is the plan's newest node.
   * Actor failures become `enforced: false` records with the reason; they are
   * written all the same.
   */
  async strategize(prefix: string, options: { actor: Actor; context?: string | null }): Promise<StrategizeResult> {
    const plan = await this.planById(prefix);
    const { entries } = await this.invariants.effective({ plan: plan.id });
    // Refuse before the actor runs if the tree cannot be extended.
    await this.records(plan.id, ['decisions']);
    const request = buildActorRequest(plan, options.context ?? null, entries.map((e) => e.invariant));
    const digest = await setDigest(entries.map((e) => e.invariant));
    const outcome = await options.actor.evaluate(request);
    const author = await this.deps.author(this.root);
    const folder = `plans/${plan.id}`;
    return withFolderLock(
      this.root,
      folder,
      async () => {
        const { decisions } = await this.records(plan.id, ['decisions']);
        const parent = latestDecision(decisions);
        const decisionId = this.deps.newId();
        const runId = this.deps.newId();
        const now = timestamp(this.deps.clock());
        const rec = reconcile(request.invariants.map((i) => i.id), outcome, decisionId);
        const run: EnforcementRun = { id: runId, decision_id: decisionId, created_at: now, actor: options.actor.kind, records: rec.records };
        if (author !== undefined) run.created_by = author;
        if (rec.error !== undefined) run.error = rec.error;
        run.set_digest = digest;
        const decision: DecisionNode = {
          id: decisionId,
          type: 'invariant_enforced',
          parent_id: parent?.id ?? null,
          created_at: now,
          summary: enforcementSummary(rec.records, options.actor.kind, rec.error),
          enforcement_id: runId,
          actor: options.actor.kind,
        };
        if (author !== undefined) decision.created_by = author;
        const runPath = `${folder}/enforcement/${runId}.yaml`;
        const nodePath = `${folder}/decisions/${decisionId}.yaml`;
        // Both or neither: the node is written last and commits the run; a failure removes the run again.
        writeFilesTogether(this.root, [
          { rel: runPath, content: formatEnforcementFile(runPath, run) },
          { rel: nodePath, content: formatDecisionFile(nodePath, decision) },
        ]);
        return { plan, request, decision, run, problems: rec.problems, ok: rec.error === undefined && rec.records.every((r) => r.enforced) };
      },
      { onStale: this.deps.notice },
    );
  }

  /** The plan's decision tree. */
  async decisions(prefix: string): Promise<{ plan: Plan; nodes: DecisionNode[]; tree: DecisionTreeNode[] }> {
    const plan = await this.planById(prefix);
    const { decisions } = await this.records(plan.id, ['decisions']);
    return { plan, nodes: decisions, tree: buildDecisionTree(decisions) };
  }

  /**
   * Enforcement and violations in brief, and the gate's verdict (docs/plans.md,
   * "plan status"): `failing` when a reason fails; `allow` relaxes reasons.
   */
  async status(prefix: string, options: { allow?: readonly GateReasonCode[] } = {}): Promise<PlanStatus> {
    const plan = await this.planById(prefix);
    const { entries } = await this.invariants.effective({ plan: plan.id });
    const records = await this.records(plan.id);
    const violations: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    for (const v of records.violations) violations[v.severity]++;
    const invariants = entries.map((e) => e.invariant);
    const { latest, unfinished } = committedRuns(records.decisions, records.enforcement);
    const verdict = judgePlan(
      { effective: invariants, setDigest: await setDigest(invariants), ...(latest ? { latest } : {}), unfinished, violations: records.violations },
      options.allow ? { allow: options.allow } : {},
    );
    const reasons = [...verdict.reasons].sort((a, b) => (a.level === b.level ? 0 : a.level === 'fail' ? -1 : 1));
    const status: PlanStatus = { plan, effectiveCount: entries.length, violations, failing: verdict.failing, reasons, unfinished };
    const run = latest?.run;
    if (run) {
      status.latestEnforcement = { id: run.id, decision_id: run.decision_id, created_at: run.created_at, enforced: run.records.filter((r) => r.enforced).length, total: run.records.length };
      if (run.error !== undefined) status.latestEnforcement.error = run.error;
    }
    return status;
  }

  /** Records an InvariantViolation; the invariant must be in the plan's effective set. */
  async addViolation(input: ViolationInput): Promise<ListedViolation> {
    if (input.severity !== undefined && !SEVERITIES.includes(input.severity)) {
      throw new UsageError(`severity "${String(input.severity)}" is not one of ${SEVERITIES.join(', ')}`);
    }
    const plan = await this.planById(input.plan);
    const wanted = checkPrefix(input.invariant, 'invariant');
    const { entries } = await this.invariants.effective({ plan: plan.id });
    const matches = entries.map((e) => e.invariant).filter((i) => i.id.startsWith(wanted));
    if (matches.length === 0) {
      throw new UsageError(
        `invariant ${wanted} is not in the effective set of plan ${plan.id}`,
        `Nothing was written. See the set with \`agents invariant list --effective --plan ${plan.id}\`; a shadowed or inactive copy does not apply.`,
      );
    }
    const inv = pickOne(wanted, matches, (i) => i.id, 'invariant', '');
    const details = input.details?.trim() || undefined;
    const author = await this.deps.author(this.root);
    const id = this.deps.newId();
    const violation: Violation = { id, invariant_id: inv.id, violated_text: inv.text, severity: input.severity ?? inv.severity, created_at: timestamp(this.deps.clock()) };
    if (details !== undefined) violation.details = details;
    if (author !== undefined) violation.created_by = author;
    const path = `plans/${plan.id}/violations/${id}.yaml`;
    writeFileAtomic(this.root, path, formatViolationFile(path, violation));
    return { plan: plan.id, violation, path };
  }

  /** Violations of one plan or of every plan, by plan then id; optionally of one severity. */
  async listViolations(options: { plan?: string; severity?: Severity } = {}): Promise<ListedViolation[]> {
    if (options.severity !== undefined && !SEVERITIES.includes(options.severity)) {
      throw new UsageError(`severity "${String(options.severity)}" is not one of ${SEVERITIES.join(', ')}`);
    }
    const planIds = options.plan !== undefined ? [(await this.planById(options.plan)).id] : (await this.list()).map((p) => p.id);
    const out: ListedViolation[] = [];
    for (const plan of planIds) {
      const { violations } = await this.records(plan, ['violations']);
      for (const v of violations) {
        if (options.severity === undefined || v.severity === options.severity) out.push({ plan, violation: v, path: `plans/${plan}/violations/${v.id}.yaml` });
      }
    }
    return out;
  }
}
