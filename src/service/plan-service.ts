import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import type { RecordKind } from '../core/layout.ts';
import { SEVERITIES, invariantPath, type Plan, type ScopedInvariant, type Severity, type StoreConfig } from '../core/model.ts';
import { codePointLength, isUlid } from '../core/names.ts';
import {
  parseExpiresInput,
  waivedAt,
  waiverFolder,
  waiverPath,
  type ScopedWaiver,
  type Waiver,
  type WaiverScope,
} from '../core/waivers.ts';
import { normalisePrefix, pickId, resolvePrefix } from '../core/id-prefix.ts';
import {
  buildActorRequest,
  buildDecisionTree,
  computeDrift,
  enforcementSummary,
  latestDecision,
  reconcile,
  selectPromoted,
  standingViolations,
  planSync,
  type SyncChange,
  type SyncSkip,
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
import { loadConfig } from '../store/config.ts';
import { readFolders, readAllPlans, emptySnapshot } from '../store/read.ts';
import { readPlanRecords, type PlanRecords } from '../store/read-records.ts';
import { assertOwnStore } from '../store/ownership.ts';
import { removeFile, withFolderLock, writeFileAtomic, writeFilesTogether, writeFolderAtomic } from '../store/write.ts';
import { committedRuns, judgePlan, setDigestInput, type GateReason, type GateReasonCode } from '../core/plan-gate.ts';
import { commitWanted, withCommit } from './commit.ts';
import './ids.ts';
import { InvariantService, requireValid, toScope, type OpenOptions, type WaiverState } from './invariant-service.ts';

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
  /** Waivers covering the plan (its own and its project's), with whether each holds now. */
  waivers: WaiverState[];
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
}

/** What `plan sync` would do, or did, to a plan. */
export interface SyncResult {
  plan: Plan;
  /** The changes (for `added`, `after` is the new plan invariant once applied). */
  changes: (SyncChange & { after?: ScopedInvariant })[];
  skipped: SyncSkip[];
  /** Whether the changes were written. */
  applied: boolean;
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

/**
 * The use cases on plans (docs/plans.md): create from an action template, list,
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
    return loadConfig(this.source);
  }

  /** The full id of the plan an id or unique prefix (≥ 4 characters) names. */
  resolvePlanId(prefix: string): Promise<string> {
    return this.invariants.resolvePlanId(prefix);
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
    const linked = (
      await readFolders(this.source, [...(input.project !== undefined ? [`projects/${input.project}`] : []), `actions/${ref}`])
    ).diagnostics.filter((d) => d.code === 'symlink');
    if (linked.length > 0) requireValid({ ...emptySnapshot(), diagnostics: linked }, `use ${ref}`);
    // An unknown project is refused with the closest names (never a plan aimed at a typo).
    if (input.project !== undefined) await this.invariants.requireProject(input.project, { writing: true });
    const here = await this.source.list(`actions/${scope.ns}`, { recursive: false });
    if (!here.some((e) => e.type === 'dir' && e.path === `actions/${ref}`)) {
      const actionDirs = (await this.source.list('actions', { recursive: true }))
        .filter((e) => e.type === 'dir' && e.path.split('/').length === 3)
        .map((e) => e.path.slice('actions/'.length));
      throw new UsageError(
        `unknown action ${ref}: actions/${ref}/ does not exist`,
        `Nothing was written. Known actions: ${actionDirs.length ? actionDirs.join(', ') : '(none)'}.`,
      );
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

  /** The plan's folder and the action templates its promoted invariants came from, read (exit 3 when invalid). */
  private async syncInputs(plan: Plan): Promise<{ planInvariants: ScopedInvariant[]; actions: Map<string, ScopedInvariant[]> }> {
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
    return { planInvariants: planSnap.invariants, actions };
  }

  /**
   * `plan sync`: the plan's drift from its action templates, as changes to
   * its promoted invariants (see planSync). With `apply`, once `confirm` (when
   * given) says yes, the changes are made under the plan folder's lock, each
   * file written atomically; if the plan or a template changed meanwhile,
   * nothing is written (exit 2). Hand-added plan invariants are never touched.
   */
  async sync(
    prefix: string,
    options: { apply: boolean; confirm?: (preview: SyncResult) => Promise<boolean>; commit?: boolean },
  ): Promise<SyncResult> {
    const plan = await this.planById(prefix);
    const inputs = await this.syncInputs(plan);
    const preview = planSync(plan, inputs.planInvariants, inputs.actions);
    const result: SyncResult = { plan, changes: preview.changes, skipped: preview.skipped, applied: false };
    if (!options.apply || preview.changes.length === 0) return result;
    if (options.confirm && !(await options.confirm(result))) return result;
    const fingerprint = (changes: readonly SyncChange[]) => JSON.stringify(changes.map((c) => [c.kind, c.drift]));
    const enabled = await commitWanted(this.source, options.commit);
    const folder = `plans/${plan.id}`;
    const done = await withCommit(this.root, enabled, async () => {
      const applied = await withFolderLock(
        this.root,
        folder,
        async () => {
          const fresh = await this.syncInputs(plan);
          const again = planSync(plan, fresh.planInvariants, fresh.actions);
          if (fingerprint(again.changes) !== fingerprint(preview.changes)) {
            throw new UsageError(
              `plan ${plan.id} or its action template changed while the sync was prepared`,
              `Nothing was written. Run \`agents plan sync ${plan.id}\` again to see the new changes.`,
            );
          }
          const author = await this.deps.author(this.root);
          const now = timestamp(this.deps.clock());
          const planScope = { kind: 'plan' as const, plan: plan.id };
          const out: SyncResult['changes'] = [];
          // Every new file's content first, so a refusal (a bad text) writes nothing.
          const writes: { path: string; content: string; mode: 'create' | 'replace' }[] = [];
          const removals: string[] = [];
          for (const c of again.changes) {
            if (c.kind === 'changed') {
              writes.push({ path: c.after.path, content: formatInvariantFile(c.after.path, c.after), mode: 'replace' });
              out.push(c);
            } else if (c.kind === 'removed') {
              removals.push(c.before.path);
              out.push(c);
            } else {
              const id = this.deps.newId();
              const inv: ScopedInvariant = {
                id,
                text: c.origin.text,
                severity: c.origin.severity,
                active: true,
                tags: [...c.origin.tags],
                created_at: now,
                scope: planScope,
                path: invariantPath(planScope, id),
                source: { kind: 'action', ref: c.drift.action, origin_id: c.origin.id },
              };
              if (c.origin.rationale !== undefined) inv.rationale = c.origin.rationale;
              if (author !== undefined) inv.created_by = author;
              writes.push({ path: inv.path, content: formatInvariantFile(inv.path, inv), mode: 'create' });
              out.push({ ...c, after: inv });
            }
          }
          for (const w of writes) writeFileAtomic(this.root, w.path, w.content, w.mode);
          for (const path of removals) removeFile(this.root, path);
          return out;
        },
        { onStale: this.deps.notice },
      );
      const count = (k: SyncChange['kind']) => applied.filter((c) => c.kind === k).length;
      const paths = applied.map((c) => (c.kind === 'removed' ? c.before.path : c.after!.path));
      return {
        value: { changes: applied },
        paths,
        message: `plan: sync ${plan.id} with ${[...new Set(applied.map((c) => c.drift.action))].join(', ')} (${count('changed')} changed, ${count('added')} added, ${count('removed')} removed)\n`,
      };
    });
    const synced: SyncResult = { plan, changes: done.changes, skipped: preview.skipped, applied: true };
    if (done.commit !== undefined) synced.commit = done.commit;
    return synced;
  }

  /** Metadata, the effective set with provenance, the latest run, open violations and drift. */
  async show(prefix: string): Promise<PlanShow> {
    const plan = await this.planById(prefix);
    const { entries, waivers } = await this.invariants.effective({ plan: plan.id });
    const records = await this.records(plan.id);
    const { planInvariants, actions } = await this.syncInputs(plan);
    const result: PlanShow = {
      plan,
      effective: entries,
      waivers,
      violations: records.violations.filter((v) => v.resolved === undefined),
      drift: computeDrift(plan, planInvariants, actions),
    };
    // Only a run its decision node commits counts (docs/decisions.md); an unfinished write is not shown as the latest run.
    const { latest } = committedRuns(records.decisions, records.enforcement);
    if (latest?.run) result.latestEnforcement = latest.run;
    const node = latestDecision(records.decisions);
    if (node) result.latestDecision = node;
    return result;
  }

  /**
   * The Invariant Reconciliation Actor's run (docs/plans.md): asks `actor` about the
   * plan's effective set, then writes one enforcement file and one
   * `invariant_enforced` decision node whose parent is the plan's newest node.
   * Actor failures become `enforced: false` records with the reason; they are
   * written all the same.
   */
  async strategize(prefix: string, options: { actor: Actor; context?: string | null }): Promise<StrategizeResult> {
    const plan = await this.planById(prefix);
    const { entries } = await this.invariants.effective({ plan: plan.id });
    // Refuse before the actor runs if the tree cannot be extended, or the store is not ours to write.
    await this.records(plan.id, ['decisions']);
    assertOwnStore(this.root, 'write in');
    const request = buildActorRequest(
      plan,
      options.context ?? null,
      entries.map((e) => e.invariant),
    );
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
        const rec = reconcile(
          request.invariants.map((i) => i.id),
          outcome,
          decisionId,
        );
        const run: EnforcementRun = {
          id: runId,
          decision_id: decisionId,
          created_at: now,
          actor: options.actor.kind,
          records: rec.records,
        };
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
        // Both documents are made (and schema-checked) before either is written; then both or
        // neither: the node is written last and commits the run; a failure removes the run again.
        const runText = formatEnforcementFile(runPath, run);
        const nodeText = formatDecisionFile(nodePath, decision);
        writeFilesTogether(this.root, [
          { rel: runPath, content: runText },
          { rel: nodePath, content: nodeText },
        ]);
        return {
          plan,
          request,
          decision,
          run,
          problems: rec.problems,
          ok: rec.error === undefined && rec.records.every((r) => r.enforced),
        };
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
   * Violations resolved, or of invariants a waiver covers at the service
   * clock's time, do not count; a waived invariant left unenforced reports.
   */
  async status(prefix: string, options: { allow?: readonly GateReasonCode[] } = {}): Promise<PlanStatus> {
    const plan = await this.planById(prefix);
    const { entries, waivers } = await this.invariants.effective({ plan: plan.id });
    const records = await this.records(plan.id);
    const waived = waivedAt(waivers, this.deps.clock());
    const standing = standingViolations(records.violations, waived);
    const violations: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    for (const v of standing.open) violations[v.severity]++;
    const invariants = entries.map((e) => e.invariant);
    const { latest, unfinished } = committedRuns(records.decisions, records.enforcement);
    const verdict = judgePlan(
      {
        effective: invariants,
        setDigest: await setDigest(invariants),
        ...(latest ? { latest } : {}),
        unfinished,
        violations: standing.open,
        waived: new Set(waived.keys()),
      },
      options.allow ? { allow: options.allow } : {},
    );
    const reasons = [...verdict.reasons].sort((a, b) => (a.level === b.level ? 0 : a.level === 'fail' ? -1 : 1));
    const status: PlanStatus = {
      plan,
      effectiveCount: entries.length,
      violations,
      waivedViolations: standing.waived.length,
      resolvedViolations: standing.resolved.length,
      waivers,
      failing: verdict.failing,
      reasons,
      unfinished,
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

  /** Records an InvariantViolation; the invariant must be in the plan's effective set. */
  async addViolation(input: ViolationInput): Promise<ListedViolation> {
    if (input.severity !== undefined && !SEVERITIES.includes(input.severity)) {
      throw new UsageError(`severity "${String(input.severity)}" is not one of ${SEVERITIES.join(', ')}`);
    }
    const plan = await this.planById(input.plan);
    const { entries } = await this.invariants.effective({ plan: plan.id });
    const inSet = entries.map((e) => e.invariant);
    const wanted = normalisePrefix(input.invariant);
    if (wanted !== undefined && !inSet.some((i) => i.id.startsWith(wanted))) {
      throw new UsageError(
        `invariant ${wanted} is not in the effective set of plan ${plan.id}`,
        `Nothing was written. See the set with \`agents invariant list --effective --plan ${plan.id}\`; a shadowed or inactive copy does not apply.`,
      );
    }
    const chosen = pickId(
      input.invariant,
      inSet.map((i) => i.id),
      'invariant',
      '',
    );
    const inv = inSet.find((i) => i.id === chosen)!;
    const details = input.details?.trim() || undefined;
    const author = await this.deps.author(this.root);
    const id = this.deps.newId();
    const violation: Violation = {
      id,
      invariant_id: inv.id,
      violated_text: inv.text,
      severity: input.severity ?? inv.severity,
      created_at: timestamp(this.deps.clock()),
    };
    if (details !== undefined) violation.details = details;
    if (author !== undefined) violation.created_by = author;
    const path = `plans/${plan.id}/violations/${id}.yaml`;
    writeFileAtomic(this.root, path, formatViolationFile(path, violation));
    return { plan: plan.id, violation, path };
  }

  /**
   * `invariant waive`: records a time-boxed exception for an invariant of the
   * plan's or project's effective set (docs/plans.md, "Waivers").
   */
  async waive(input: WaiveInput): Promise<{ waiver: ScopedWaiver; commit?: string }> {
    if ((input.plan === undefined) === (input.project === undefined)) {
      throw new UsageError(
        'name exactly one of --plan ID or --project P',
        'A waiver covers one plan, or one project and the plans that target it.',
      );
    }
    const reason = input.reason.trim();
    if (reason === '' || codePointLength(reason) > 2000)
      throw new UsageError('--reason must be 1 to 2,000 characters', 'Say why the exception is granted.');
    const owner = input.owner.trim();
    if (owner === '' || codePointLength(owner) > 512)
      throw new UsageError('--owner must be 1 to 512 characters', 'Name who answers for the exception: a person or a team.');
    const now = this.deps.clock();
    const expires = parseExpiresInput(input.expires, now);
    if ('problem' in expires)
      throw new UsageError(expires.problem, 'Nothing was written. A waiver is time-boxed: give a future date, e.g. --expires 2026-12-31.');
    let scope: WaiverScope;
    let target: { plan: string } | { project: string };
    if (input.plan !== undefined) {
      const plan = await this.planById(input.plan);
      scope = { kind: 'plan', plan: plan.id };
      target = { plan: plan.id };
    } else {
      const s = toScope({ project: input.project! });
      if (s.kind !== 'project') throw new Error('unreachable');
      await this.invariants.requireProject(s.project, { writing: true });
      scope = { kind: 'project', project: s.project };
      target = { project: s.project };
    }
    const where = scope.kind === 'plan' ? `plan ${scope.plan}` : `project ${scope.project}`;
    const { entries } = await this.invariants.effective(target);
    const inSet = entries.map((e) => e.invariant);
    const match = resolvePrefix(
      input.invariant,
      inSet.map((i) => i.id),
    );
    if (match.kind === 'unknown') {
      const list = scope.kind === 'plan' ? `--plan ${scope.plan}` : `--project ${scope.project}`;
      throw new UsageError(
        `invariant ${match.prefix} is not in the effective set of ${where}`,
        `Nothing was written. See the set with \`agents invariant list --effective ${list}\`; a shadowed or inactive copy does not apply.`,
      );
    }
    const chosenId = pickId(
      input.invariant,
      inSet.map((i) => i.id),
      'invariant',
      '',
    );
    const inv = inSet.find((i) => i.id === chosenId)!;
    const [{ formatWaiverFile }] = await Promise.all([import('../core/serialize.ts')]);
    const author = await this.deps.author(this.root);
    const folder = waiverFolder(scope);
    const enabled = await commitWanted(this.source, input.commit);
    return withCommit(this.root, enabled, async () => {
      const waiver = await withFolderLock(
        this.root,
        folder,
        () => {
          const id = this.deps.newId();
          const w: Waiver = { id, invariant_id: inv.id, reason, owner, expires: expires.value, created_at: timestamp(this.deps.clock()) };
          if (author !== undefined) w.created_by = author;
          const path = waiverPath(scope, id);
          writeFileAtomic(this.root, path, formatWaiverFile(path, w));
          return { ...w, scope, path } satisfies ScopedWaiver;
        },
        { onStale: this.deps.notice },
      );
      return {
        value: { waiver },
        paths: [waiver.path],
        message: `invariant: waive ${inv.id} for ${where} until ${waiver.expires}\n\n${reason}\nOwner: ${owner}\n`,
      };
    });
  }

  /** The violation an id or unique prefix names, in any plan. */
  private async findViolation(prefix: string): Promise<{ plan: string; id: string; path: string }> {
    const wanted = normalisePrefix(prefix) ?? pickId(prefix, [], 'violation', '');
    const found: { plan: string; id: string; path: string }[] = [];
    for (const dir of await this.source.list('plans', { recursive: false })) {
      if (dir.type !== 'dir') continue;
      const plan = dir.path.slice('plans/'.length);
      if (!isUlid(plan)) continue;
      for (const e of await this.source.list(`${dir.path}/violations`, { recursive: false })) {
        const base = e.path.slice(e.path.lastIndexOf('/') + 1);
        if (!base.endsWith('.yaml') || !base.startsWith(wanted)) continue;
        const id = base.slice(0, -'.yaml'.length);
        if (isUlid(id)) found.push({ plan, id, path: e.path });
      }
    }
    const id = pickId(
      prefix,
      found.map((f) => f.id),
      'violation',
      'Run `agents invariant violation list` to see the violations.',
    );
    return found.find((f) => f.id === id)!;
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
    const found = await this.findViolation(prefix);
    const note = options.note?.trim() || undefined;
    if (note !== undefined && codePointLength(note) > 10_000)
      throw new UsageError('--note is longer than 10,000 characters', 'Nothing was written. Shorten it.');
    const author = await this.deps.author(this.root);
    const folder = `plans/${found.plan}`;
    const enabled = await commitWanted(this.source, options.commit);
    return withCommit(this.root, enabled, async () => {
      const listed = await withFolderLock(
        this.root,
        folder,
        async () => {
          const { violations } = await this.records(found.plan, ['violations']);
          const v = violations.find((x) => x.id === found.id);
          if (!v) throw new UsageError(`violation ${found.id} vanished while it was resolved`, 'Run the command again.');
          if (v.resolved !== undefined) {
            throw new UsageError(
              `violation ${v.id} is already resolved (at ${v.resolved.at}${v.resolved.by ? ` by ${v.resolved.by}` : ''})`,
              'Nothing was written. A resolution is recorded once.',
            );
          }
          const resolved: NonNullable<Violation['resolved']> = { at: timestamp(this.deps.clock()) };
          if (author !== undefined) resolved.by = author;
          if (note !== undefined) resolved.note = note;
          const next: Violation = { ...v, resolved };
          writeFileAtomic(this.root, found.path, formatViolationFile(found.path, next), 'replace');
          return { plan: found.plan, violation: next, path: found.path };
        },
        { onStale: this.deps.notice },
      );
      return {
        value: listed,
        paths: [listed.path],
        message: `invariant: resolve violation ${listed.violation.id} of ${listed.violation.invariant_id} in plan ${listed.plan}\n${note ? `\n${note}\n` : ''}`,
      };
    });
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
        if (options.severity === undefined || v.severity === options.severity)
          out.push({ plan, violation: v, path: `plans/${plan}/violations/${v.id}.yaml` });
      }
    }
    return out;
  }
}
