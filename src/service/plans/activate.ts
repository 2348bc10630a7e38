// `agents plan activate ID` (docs/plans.md): the active plan, kept in git's folder, written under the plan's lock, as
// `plan remove` clears it under that lock: a removal and an activation of one plan each see the other's result whole.
// The file itself is written through changeActivePlan, under its own lock, which a removal of another plan takes too.
import { lockedWrite } from '../commit.ts';
import { requirePlanHeld } from '../invariants/rules.ts';
import type { PlanContext } from './context.ts';

/**
 * Makes the plan `prefix` names the active one in `dir` (the store's guardDir): read whole first, so that a plan.yaml
 * the hook could not read is refused (exit 3), then, under the plan's lock, found still there (store-changed when a
 * `plan remove` took it meanwhile) and written. Answers the plan's id.
 */
export async function activatePlan(svc: PlanContext, prefix: string, dir: string): Promise<string> {
  const { id } = await svc.invariants.readPlan(prefix);
  const { changeActivePlan } = await import('../../store/guard-files.ts');
  const notice = svc.invariants.deps.notice;
  return lockedWrite(
    svc.invariants,
    // Never committed: the active plan is no file of the store.
    { folders: [`plans/${id}`], commit: false },
    async () => {
      await requirePlanHeld(svc.invariants.source, id, 'this command waited for its lock', svc.invariants.optionWords);
      await changeActivePlan(dir, () => id, { notice });
    },
    () => ({ value: { id }, paths: [], message: '' }),
  ).then((done) => done.id);
}
