// `plan strategize`: the Invariant Reconciliation Actor's run, recorded.
import {
  ACTOR_KINDS,
  type ActorRequest,
  actorOutcomeOf,
  type DecisionNode,
  type EnforcementRun,
  buildActorRequest,
  enforcementSummary,
  latestDecision,
  reconcile,
} from '../../core/records.ts';
import { AgentsError, EXIT_CODES, throwIfCancelled, UsageError } from '../../core/errors.ts';
import { inputObject, optionalSignal, optionalString } from '../../core/input-shape.ts';
import { assertRunFits, enforcementFile } from '../../core/enforcement-file.ts';
import { formatDecisionFile } from '../../core/serialize.ts';
import type { Actor } from '../../enforce/actors.ts';
import { assertOwnStore } from '../../store/ownership.ts';
import { assertWritable, writeFilesTogether } from '../../store/atomic-write.ts';
import { type HeldLock, withFolderLock } from '../../store/lock.ts';
import { planSetWithoutWaivers } from '../invariants/query.ts';
import { requirePlanHeld } from '../invariants/rules.ts';
import { idMaker } from '../new-ids.ts';
import type { PlanContext } from './context.ts';
import { changedIds, invariantDigests, planById, planRecords, setDigest, timestamp } from './common.ts';
import type { StrategizeResult } from './types.ts';
import { docsRef } from '../../core/docs-link.ts';
import { driftMessages } from '../../core/plan-gate.ts';
import { optionWords } from '../option-words.ts';
import { driftCounts } from './queries.ts';

/** Who judges a run, as its records keep it: what the run's size depends on besides its set. */
export type RunActor = Pick<Actor, 'kind' | 'model' | 'promptVersion'>;

/**
 * The request `strategize` would send an actor, sending nothing and writing nothing (`--show-prompt`). Given the actor
 * that is to judge it (an agent handed the set over MCP), a set whose run could not be recorded is refused first, as
 * strategize refuses it before its actor runs: the agent's judgement of thousands would be lost.
 */
export async function actorRequest(svc: PlanContext, prefix: string, context: string | null, judge?: RunActor): Promise<ActorRequest> {
  // From JavaScript, an object here would go into the request the actor reads, where the protocol holds a string or null.
  context = optionalString(context, 'context') ?? null;
  const plan = await planById(svc, prefix);
  const { entries } = await planSetWithoutWaivers(svc.invariants, plan.id);
  const request = buildActorRequest(
    plan,
    context,
    entries.map((e) => e.invariant),
  );
  if (judge) {
    const [digest, digests, author] = await Promise.all([
      setDigest(request.invariants),
      invariantDigests(request.invariants),
      svc.invariants.deps.author(svc.root),
    ]);
    assertRecordable(svc, request, judge, { digest, digests, author });
  }
  return request;
}

/** Refuses a set whose run, each response cut to one character, would still not fit in one enforcement file. */
function assertRecordable(
  svc: PlanContext,
  request: ActorRequest,
  actor: RunActor,
  { digest, digests, author }: { digest: string; digests: ReadonlyMap<string, string>; author: string | undefined },
): void {
  const id = request.plan.id;
  assertRunFits(`plans/${id}/enforcement/`, {
    id,
    decision_id: id,
    created_at: timestamp(svc.invariants.deps.clock()),
    ...(author !== undefined ? { created_by: author } : {}),
    actor: actor.kind,
    ...(actor.model !== undefined ? { model: actor.model } : {}),
    ...(actor.promptVersion !== undefined ? { prompt_version: actor.promptVersion } : {}),
    set_digest: digest,
    records: request.invariants.map((i) => ({
      invariant_id: i.id,
      enforced: false,
      actor_response: '…',
      decision_id: id,
      digest: digests.get(i.id)!,
    })),
  });
}

/**
 * The Invariant Reconciliation Actor's run (docs/plans.md): asks `actor` about the
 * plan's effective set, then writes one enforcement file and one
 * `invariant_enforced` decision node whose parent is the plan's newest node.
 * Actor failures become `enforced: false` records with the reason; they are
 * written all the same.
 */
export async function strategize(
  svc: PlanContext,
  prefix: string,
  options: { actor: Actor; context?: string | null; signal?: AbortSignal },
): Promise<StrategizeResult> {
  // A misspelt `context` would be ignored: the actor would judge the plan without it, and the run be recorded.
  if (typeof inputObject(options, 'strategize', { actor: true, context: true, signal: true }).actor?.evaluate !== 'function')
    throw new UsageError(
      'actor must be an object with evaluate(request)',
      `${docsRef('library.md')} shows one; commandActor makes the configured program one.`,
      {
        field: 'actor',
      },
    );
  // The run's records name the actor's kind: one they cannot hold is refused before the actor's work, not after it.
  if (!(ACTOR_KINDS as readonly unknown[]).includes(options.actor.kind))
    throw new UsageError(
      `actor.kind must be one of ${ACTOR_KINDS.join(', ')}, not ${JSON.stringify(options.actor.kind) ?? 'undefined'}`,
      "The kind is kept in the run's records (enforcement.schema.json); an actor of your own is usually a command.",
      { field: 'actor.kind' },
    );
  // A context that is no string would be sent to the actor as it is, against actor-request.schema.json.
  const context = optionalString(options.context, 'context') ?? null;
  const signal = optionalSignal(options.signal, 'signal');
  const plan = await planById(svc, prefix);
  const { entries } = await planSetWithoutWaivers(svc.invariants, plan.id);
  // Refuse before the actor runs if the tree cannot be extended, or the store is not ours, or not writable, to write.
  await planRecords(svc, plan.id, ['decisions']);
  assertOwnStore(svc.root, 'write in');
  assertWritable(svc.root, `plans/${plan.id}`);
  const request = buildActorRequest(
    plan,
    context,
    entries.map((e) => e.invariant),
  );
  const digest = await setDigest(entries.map((e) => e.invariant));
  // Each record keeps its invariant's digest as it was asked about, so `plan status` can count edits.
  const digests = await invariantDigests(entries.map((e) => e.invariant));
  const author = await svc.invariants.deps.author(svc.root);
  const folder = `plans/${plan.id}`;
  // A set too large for one enforcement file is refused before the actor works (the ids' length is the plan's).
  assertRecordable(svc, request, options.actor, { digest, digests, author });
  // A template changed since the plan was made from it is not in what the actor judges: said before it runs, as
  // `plan status` reports it (never a refusal; an invalid template file leaves the drift unknown, said so).
  const words = optionWords(svc.invariants.optionWords).agents;
  for (const message of driftMessages(await driftCounts(svc, plan), words, plan.id))
    svc.invariants.deps.notice(`warning: drift: ${message}`);
  // An actor of the caller's may answer in any shape: a malformed answer is a failed run, as a program's is.
  // A stop heard before the actor is asked spares its work (a model's call): the lock would refuse the run after it.
  throwIfCancelled(signal, 'the actor was not asked; nothing was written.');
  // One run of a plan at a time: a second one, started while the first's actor works, is refused before its own actor
  // is asked (two calls of a model for one verdict), instead of both running and both being recorded.
  return withFolderLock(
    svc.root,
    `${folder}/enforcement`,
    async () => {
      // The run's time is when the set it judged was asked about: plan status counts the set's changes since then.
      const asked = timestamp(svc.invariants.deps.clock());
      const outcome = actorOutcomeOf(await options.actor.evaluate(request));
      return withFolderLock(
        svc.root,
        folder,
        async () => {
          await requirePlanHeld(svc.invariants.source, plan.id, 'the actor ran', svc.invariants.optionWords);
          const { decisions } = await planRecords(svc, plan.id, ['decisions']);
          const parent = latestDecision(decisions);
          const newId = await idMaker(svc.invariants);
          const decisionId = newId();
          const runId = newId();
          const now = timestamp(svc.invariants.deps.clock());
          const rec = reconcile(
            request.invariants.map((i) => i.id),
            outcome,
            decisionId,
          );
          const run: EnforcementRun = {
            id: runId,
            decision_id: decisionId,
            created_at: asked,
            actor: options.actor.kind,
            records: rec.records.map((r) => ({ ...r, digest: digests.get(r.invariant_id)! })),
          };
          if (author !== undefined) run.created_by = author;
          if (options.actor.model !== undefined) run.model = options.actor.model;
          if (options.actor.promptVersion !== undefined) run.prompt_version = options.actor.promptVersion;
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
          // An invariant edited, added or removed while the actor worked: the run is recorded (its answers are of the
          // set it was asked about) and said to be stale at once, as plan status will, instead of called enforced.
          const changed = await changedSince(svc, plan.id, digest, run.records);
          const runPath = `${folder}/enforcement/${runId}.yaml`;
          const nodePath = `${folder}/decisions/${decisionId}.yaml`;
          // Both documents are made (and schema-checked) before either is written; then both or
          // neither: the node is written last and commits the run; a failure removes the run again.
          // Responses cut shorter when the whole run would be over the size of a store file (a large set answered at length).
          const written = enforcementFile(runPath, run);
          const nodeText = formatDecisionFile(nodePath, decision);
          writeFilesTogether(svc.root, [
            { rel: runPath, content: written.text },
            { rel: nodePath, content: nodeText },
          ]);
          return {
            plan,
            request,
            decision,
            run: written.run,
            problems: rec.problems,
            ok: rec.error === undefined && rec.records.every((r) => r.enforced) && changed === undefined,
            setChanged: changed ?? null,
          };
        },
        { notice: svc.invariants.deps.notice, ...(signal ? { signal } : {}) },
      );
    },
    { notice: svc.invariants.deps.notice, busy: (held) => strategizeRunning(plan.id, held) },
  );
}

/** What changed in the plan's effective set since the actor was asked about the set of `digest`, if anything. */
async function changedSince(
  svc: PlanContext,
  planId: string,
  digest: string,
  records: EnforcementRun['records'],
): Promise<StrategizeResult['setChanged'] | undefined> {
  const now = (await planSetWithoutWaivers(svc.invariants, planId)).entries.map((e) => e.invariant);
  const changed = await changedIds(now, { setDigest: digest, records });
  return changed && { added: changed.added.length, removed: changed.removed.length, edited: changed.edited?.length ?? 0 };
}

/** The refusal of a run of a plan whose run, by another process, is under way (its lock held). */
function strategizeRunning(planId: string, held: HeldLock): AgentsError {
  const never = held.elsewhere ? '; this host cannot tell whether that process still runs, so the lock never clears by itself' : '';
  return new AgentsError(`plan ${planId} is being strategized by ${held.by} (${held.lock})${never}`, EXIT_CODES.usage, {
    hint: (agents) =>
      `Nothing was written and no actor was asked. Wait for that run to end, then read its verdict with \`${agents} plan status ${planId}\`; if no agents command runs there, delete ${held.lock}.`,
    code: 'strategize-running',
    detail: { plan: planId, lock: held.lock, pid: held.pid, host: held.host, elsewhere: held.elsewhere },
  });
}
