// The waivers a write leaves behind: said by the write that strands them, not first by a failing plan status.
import type { ScopedInvariant } from '../../core/model.ts';
import { strandedBy, type WaiverScope } from '../../core/waivers.ts';
import { readAllPlans } from '../../store/read.ts';
import type { InvariantContext } from './context.ts';
import type { StrandedWaiver } from './types.ts';

/**
 * The waivers of every plan and project that waived each change's `before` and no longer reach it as its `after` is
 * (undefined: removed from the set), read once for all the changes of one write (a sync removes many copies). Read
 * after the write: a waiver file that cannot be read is validate's to report, not the write's.
 */
export async function strandedWaivers(
  svc: InvariantContext,
  changes: readonly { before: ScopedInvariant; after: ScopedInvariant | undefined }[],
): Promise<StrandedWaiver[]> {
  if (changes.length === 0) return [];
  // The write is done: a store that cannot be read here (a project folder unlisted) must not turn it into a
  // failure. validate reports what could not be read, and its waiver-not-applicable names the waivers.
  try {
    const [{ readWaivers }, plans, projects] = await Promise.all([
      import('../../store/read-waivers.ts'),
      readAllPlans(svc.source),
      svc.projectNames(),
    ]);
    const scopes: WaiverScope[] = [
      ...projects.map((project) => ({ kind: 'project' as const, project })),
      ...[...plans.plans.keys()].map((plan) => ({ kind: 'plan' as const, plan })),
    ];
    const { waivers } = await readWaivers(svc.source, scopes);
    return changes.flatMap(({ before, after }) =>
      strandedBy(waivers, before, after, (plan) => plans.plans.get(plan)?.project).map((w) => ({
        id: w.id,
        invariant_id: w.invariant_id,
        path: w.path,
        scope: w.scope,
      })),
    );
  } catch {
    return [];
  }
}
