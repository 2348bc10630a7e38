// What every plan use case needs: a plan by id or prefix, its records, where an action template is read.
import { splitSourceRef } from '../../core/extends.ts';
import type { RecordKind } from '../../core/layout.ts';
import type { Plan } from '../../core/model.ts';
import { type Digested, invariantDigestInput, setChangeIds, setDigestInput } from '../../core/plan-gate.ts';
import type { EnforcementRecord } from '../../core/records.ts';
import { type PlanRecords, readPlanRecords } from '../../store/read-records.ts';
import { emptySnapshot } from '../../store/read.ts';
import type { TreeSource } from '../../store/tree-source.ts';
import { findPinnedTree, pinnedTree } from '../invariants/pinned-sources.ts';
import { requireValid } from '../invariants/rules.ts';
import type { PlanContext } from './context.ts';

/** `sha256:<hex>` of an effective set (docs/plans.md): node:crypto loads only for the commands that need it. */
export async function setDigest(invariants: readonly Digested[]): Promise<string> {
  const { createHash } = await import('node:crypto');
  return `sha256:${createHash('sha256').update(setDigestInput(invariants)).digest('hex')}`;
}

/** `sha256:<hex>` of each invariant of a set, by id (docs/plans.md): what an enforcement record keeps of the invariant it judged. */
export async function invariantDigests(invariants: readonly Digested[]): Promise<Map<string, string>> {
  const { createHash } = await import('node:crypto');
  return new Map(invariants.map((i) => [i.id, `sha256:${createHash('sha256').update(invariantDigestInput(i)).digest('hex')}`]));
}

/**
 * What changed in a set since the set of `judged.setDigest` was judged: undefined when nothing did, else the ids
 * added, removed and edited (edits known only when `judged.records` keep each judged invariant's digest).
 */
export async function changedIds(
  now: readonly Digested[],
  judged: { setDigest: string; records: readonly Pick<EnforcementRecord, 'invariant_id' | 'digest'>[] },
): Promise<{ added: string[]; removed: string[]; edited?: string[] } | undefined> {
  if ((await setDigest(now)) === judged.setDigest) return undefined;
  const digests = await invariantDigests(now);
  return setChangeIds(
    now.map((i) => ({ id: i.id, severity: i.severity, digest: digests.get(i.id)! })),
    judged.records,
  );
}

/** A record's time: RFC 3339 in UTC, to the second. */
export function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The plan an id or unique prefix names, read (exit 2 unknown, exit 3 invalid). */
export async function planById(svc: PlanContext, prefix: string): Promise<Plan> {
  return svc.invariants.readPlan(await svc.resolvePlanId(prefix));
}

/** A plan's records (decisions, enforcement runs, violations), or exit 3 when one is invalid. */
export async function planRecords(svc: PlanContext, planId: string, kinds?: readonly RecordKind[]): Promise<PlanRecords> {
  const records = await readPlanRecords(svc.invariants.source, planId, kinds);
  requireValid({ ...emptySnapshot(), diagnostics: records.diagnostics }, `read the records of plan ${planId}`);
  return records;
}

/**
 * Where an action template is read: this store for `ns/name`, the pinned
 * commit of a policy source (from the cache) for `source:ns/name`
 * (docs/extends.md). An unknown source is exit 2.
 */
export async function actionTree(svc: PlanContext, ref: string): Promise<{ tree: TreeSource; local: string; source?: string }> {
  const { source, local } = splitSourceRef(ref);
  if (source === undefined) return { tree: svc.invariants.source, local };
  return { tree: await pinnedTree(svc.invariants, source, ref), local, source };
}

/**
 * As actionTree, but a source that config.yaml no longer names is an answer, not an error: the sources it
 * does name. A plan made from a dropped source's template is still read; its template is gone.
 */
export async function findActionTree(
  svc: PlanContext,
  ref: string,
): Promise<{ tree: TreeSource; local: string; source?: string } | { source: string; sources: string[] }> {
  const { source, local } = splitSourceRef(ref);
  if (source === undefined) return { tree: svc.invariants.source, local };
  const found = await findPinnedTree(svc.invariants, source);
  return 'sources' in found ? { source, sources: found.sources } : { tree: found.tree, local, source };
}
