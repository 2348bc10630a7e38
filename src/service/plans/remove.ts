// `agents plan remove ID` (docs/plans.md, "Closing a plan"): a finished plan's folder taken out of the store whole,
// under the plan's lock, and the active plan cleared when it named it.
import { AgentsError, EXIT_CODES, throwIfCancelled } from '../../core/errors.ts';
import { normalisePrefix } from '../../core/id-prefix.ts';
import { inputObject, optionalBoolean, optionalFunction, optionalSignal, refuseArgs } from '../../core/input-shape.ts';
import { isLockName } from '../../core/layout.ts';
import type { Plan } from '../../core/model.ts';
import { lockedWrite } from '../commit.ts';
import { requirePlanHeld } from '../invariants/rules.ts';
import type { PlanContext } from './context.ts';
import type { PlanRemoved } from './types.ts';

export async function removePlan(
  svc: PlanContext,
  prefix: string,
  options: { commit?: boolean; signal?: AbortSignal; confirm?: (plan: Plan) => boolean | Promise<boolean> } = {},
): Promise<PlanRemoved | null> {
  const given = inputObject(options, 'remove', { commit: true, signal: true, confirm: true });
  const signal = optionalSignal(given.signal, 'signal');
  const confirm = optionalFunction(given.confirm, 'confirm');
  // Checked with the other options, before confirm asks: a removal agreed to is never then refused for its option.
  const commit = optionalBoolean(given.commit, 'commit');
  const { plan, whole } = await planToRemove(svc, prefix);
  if (confirm) {
    const yes: unknown = await confirm(plan);
    refuseArgs('remove', ['confirm(): boolean'], [yes]);
    if (!yes) return null;
  }
  const folder = `plans/${plan.id}`;
  const { root, source } = svc.invariants;
  const [{ removeFolder, takeFolderOut }, { changeActivePlan, guardDir, readActivePlan }] = await Promise.all([
    import('../../store/atomic-write.ts'),
    import('../../store/guard-files.ts'),
  ]);
  // Under the plan's lock, as every writer of the plan: a `strategize`, `sync` or `violation add` that waited for it
  // finds no plan and answers store-changed, never writes a run into a plan that is going.
  const done = await lockedWrite(
    svc.invariants,
    { folders: [folder], commit, signal },
    async (made) => {
      const gone = () => requirePlanHeld(source, plan.id, 'this command waited for its lock', svc.invariants.optionWords);
      // A plan read whole is held while its plan.yaml is; one named by its id alone (its plan.yaml missing) while its
      // folder stands, whatever it holds (nothing, when its files were deleted by hand), unless its lock had to make
      // it again: requirePlanHeld alone would call it removed meanwhile.
      if (whole || made.has(folder)) await gone();
      // The lock is this command's own, and a try at it is a waiting writer's: neither is a file of the plan. At any
      // depth, unlike project remove's: the plan's waivers/ is a locked folder too (`validate --fix` of a waiver).
      const files = (await source.list(folder, { recursive: true }))
        .filter((e) => e.type !== 'dir')
        .map((e) => e.path)
        .filter((p) => !isLockName(p.slice(p.lastIndexOf('/') + 1)))
        .sort();
      throwIfCancelled(signal, 'nothing was removed.');
      // One rename takes the whole folder out: a crash leaves the plan or nothing of it (a temporary `validate --fix`
      // removes), never a plan missing some of its records.
      const away = takeFolderOut(root, folder);
      // Still under the plan's lock, which `plan activate` writes the active plan under: an activation that waited for
      // it finds the plan gone, and one before it is cleared here, never left naming a plan that is gone.
      // Without the caller's signal: the plan is out of the store already, and its clearing is what is left to do.
      const change = (dir: string, decide: Parameters<typeof changeActivePlan>[1]) =>
        changeActivePlan(dir, decide, { notice: svc.invariants.deps.notice });
      return { files, away, active: await clearActive(guardDir(root), plan.id, readActivePlan, change) };
    },
    ({ files, away, active }) => {
      let left: string | undefined;
      try {
        removeFolder(root, away);
      } catch {
        // The plan is gone for every reader already; its temporary is what `validate --fix` removes.
        left = away;
      }
      return {
        value: { plan, folder, removed: files, ...(left === undefined ? {} : { left }), ...active },
        // The folder itself, not the names listed: one whose bytes are not UTF-8 reads back as another name, which git
        // would not find, and its deletion was left out of the commit.
        paths: [`${folder}/`],
        message: `plan: remove ${plan.id}\n`,
      };
    },
  );
  return done;
}

/**
 * The active plan (kept outside the store) naming the removed plan would leave the guard hook checking a plan that is
 * gone: cleared, as the plan's removal closes it. One that cannot be read or written is said, with which of the two
 * failed, not fatal: the plan is gone already. Read first as it stands, then read again and cleared in one step under
 * the active plan's own lock (`change`, changeActivePlan), so that an activation of another plan that wrote it after
 * the first read is kept; and no lock is taken when it names another plan (which it cannot come to name meanwhile: an
 * activation of this one waits for the plan's lock, and then finds it gone).
 */
export async function clearActive(
  dir: string | undefined,
  id: string,
  read: (dir: string | undefined) => string | undefined,
  change: (dir: string, decide: (read: () => string | undefined) => null | undefined) => Promise<unknown>,
): Promise<Pick<PlanRemoved, 'activeCleared' | 'activeError' | 'activeFailure'>> {
  // Named as the guard hook takes it: the id, or a prefix of it in any case (a file written by hand).
  const names = (named: string | undefined) => {
    const active = normalisePrefix(named ?? '');
    return active !== undefined && id.startsWith(active);
  };
  let named: string | undefined;
  try {
    named = read(dir);
  } catch (error) {
    return { activeCleared: false, activeError: messageOf(error), activeFailure: 'read' };
  }
  if (!names(named)) return { activeCleared: false };
  // Until the read under the lock: a lock that cannot be taken leaves it naming the plan, as a write that fails does.
  let failure: 'read' | 'write' = 'write';
  let cleared = false;
  try {
    await change(dir!, (readNow) => {
      failure = 'read';
      const now = readNow();
      failure = 'write';
      cleared = names(now);
      return cleared ? null : undefined;
    });
  } catch (error) {
    return { activeCleared: false, activeError: messageOf(error), activeFailure: failure };
  }
  return { activeCleared: cleared };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The plan an id or prefix names (exit 2 with the closest ids when none). A plan whose own plan.yaml is invalid or
 * missing is still removed, by its id alone: removing it is one way to be rid of it, as `invariant remove` removes an
 * invalid invariant file.
 */
async function planToRemove(svc: PlanContext, prefix: string): Promise<{ plan: Plan; whole: boolean }> {
  const id = await svc.resolvePlanId(prefix);
  try {
    return { plan: await svc.invariants.readPlan(id), whole: true };
  } catch (error) {
    const own = error instanceof AgentsError && error.diagnostics.some((d) => d.file === `plans/${id}/plan.yaml`);
    if (!own || error.exitCode !== EXIT_CODES.invalidStore) throw error;
    return { plan: { id }, whole: false };
  }
}
