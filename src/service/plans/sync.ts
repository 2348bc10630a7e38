// `plan sync`: a plan brought back in step with its action templates.
import { optionWords } from '../option-words.ts';
import { storeChanged, throwIfCancelled, UsageError } from '../../core/errors.ts';
import { splitSourceRef } from '../../core/extends.ts';
import { inputObject, optionalBoolean, optionalFunction, optionalSignal, refuseArgs } from '../../core/input-shape.ts';
import type { Plan, ScopedInvariant } from '../../core/model.ts';
import { type SyncChange, planSync, promotedCopy } from '../../core/records.ts';
import { readFolders } from '../../store/read.ts';
import { strandedWaivers } from '../invariants/stranded.ts';
import { failedPartWay, removeFile, replaceInStyle, writeFileAtomic } from '../../store/atomic-write.ts';
import { lockedWrite } from '../commit.ts';
import { requirePlanHeld, requireValid } from '../invariants/rules.ts';
import { idMaker } from '../new-ids.ts';
import type { PlanContext } from './context.ts';
import { findActionTree, planById, timestamp } from './common.ts';
import type { SyncOptions, SyncResult } from './types.ts';

/** The plan's folder and the action templates its promoted invariants came from, read (exit 3 when invalid). */
export async function syncInputs(
  svc: PlanContext,
  plan: Plan,
): Promise<{ planInvariants: ScopedInvariant[]; actions: Map<string, ScopedInvariant[]>; gone: GoneTemplate[] }> {
  const planSnap = await readFolders(svc.invariants.source, [`plans/${plan.id}`]);
  requireValid(planSnap, `read plan ${plan.id}`);
  const refs = new Set<string>();
  if (plan.action) refs.add(plan.action);
  const copied = new Set<string>();
  for (const inv of planSnap.invariants) if (inv.source?.kind === 'action' && inv.source.ref) copied.add(inv.source.ref);
  for (const ref of copied) refs.add(ref);
  const actions = new Map<string, ScopedInvariant[]>();
  const gone: GoneTemplate[] = [];
  for (const ref of refs) {
    const found = await findActionTree(svc, ref);
    // A source dropped from config.yaml takes its templates with it: they are gone, as a removed folder is.
    if ('sources' in found) {
      if (copied.has(ref))
        gone.push({
          ref,
          why: `the policy source ${found.source} is not in config.yaml's extends`,
          fix: `Declare the source ${found.source} in config.yaml's extends again`,
        });
      continue;
    }
    const { tree, local } = found;
    // A template whose folder is gone (renamed, removed, a partial checkout) is not one whose invariants all left.
    // It is gone for the plan only while the plan holds copies from it: once those are removed by hand, as the
    // refusal says, there is nothing left to remove and nothing to add from it. A source's template lives in the source
    // at its pin, not in this store: what brings it back is a pin that holds it, not a folder of the store.
    if (copied.has(ref) && (await tree.list(`actions/${local}`, { recursive: false })).length === 0)
      gone.push(
        found.source === undefined
          ? { ref, why: `actions/${local}/ does not exist`, fix: 'Put the template back (or restore its folder)' }
          : {
              ref,
              why: `the policy source ${found.source} does not hold actions/${local}/ at its pinned commit`,
              fix: `Pin a ref of the source ${found.source} that holds it (its ref in config.yaml's extends)`,
            },
      );
    const snap = await readFolders(tree, [`actions/${local}`]);
    requireValid(snap, `compare plan ${plan.id} with action ${ref}`);
    actions.set(ref, snap.invariants);
  }
  return { planInvariants: planSnap.invariants, actions, gone: gone.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0)) };
}

/** An action template a plan holds copies from that cannot be read: why, and what brings it back. */
interface GoneTemplate {
  ref: string;
  why: string;
  fix: string;
}

type SyncInputs = Awaited<ReturnType<typeof syncInputs>>;

/**
 * The folders a sync read otherwise under its lock than when it showed its changes: the plan's, a template's (a
 * policy source's under extends/), from the store. Every one it read when none reads otherwise to the letter.
 */
function changedFolders(plan: string, shown: SyncInputs, now: SyncInputs): string[] {
  const folderOf = (ref: string) => {
    const { source, local } = splitSourceRef(ref);
    return source === undefined ? `actions/${local}/` : `extends/${source}/actions/${local}/`;
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const refs = [...new Set([...shown.actions.keys(), ...now.actions.keys()])].sort();
  const all = [`plans/${plan}/`, ...refs.map(folderOf)];
  const changed = [
    ...(same(shown.planInvariants, now.planInvariants) ? [] : [`plans/${plan}/`]),
    ...refs.filter((ref) => !same(shown.actions.get(ref), now.actions.get(ref))).map(folderOf),
  ];
  return changed.length > 0 ? changed : all;
}

/**
 * `plan sync`: the plan's drift from its action templates, as changes to
 * its promoted invariants (see planSync). With `apply`, once `confirm` (when
 * given) says yes, the changes are made under the plan folder's lock, each
 * file written atomically; if the plan or a template changed meanwhile,
 * nothing is written (exit 2). Hand-added plan invariants are never touched.
 */
export async function sync(svc: PlanContext, prefix: string, options: SyncOptions = {}): Promise<SyncResult> {
  // From JavaScript, `apply: "no"` would apply and a confirm that is no function would be called after the checks.
  const given = inputObject(options, 'sync', { apply: true, confirm: true, commit: true, signal: true });
  const apply = optionalBoolean(given.apply, 'apply') ?? false;
  const confirm = optionalFunction(given.confirm, 'confirm');
  const signal = optionalSignal(given.signal, 'signal');
  // Checked with the other options, before confirm asks: changes agreed to are never then refused for an option.
  const commit = optionalBoolean(given.commit, 'commit');
  const plan = await planById(svc, prefix);
  const inputs = await syncInputs(svc, plan);
  if (inputs.gone.length > 0) {
    const { ref, why, fix } = inputs.gone[0]!;
    throw new UsageError(
      `plan ${plan.id} was made from the action template ${ref}, which is gone (${why})`,
      `Nothing was written: a sync would remove every invariant the plan took from it. ${fix}, ` +
        `or, if it was retired on purpose, remove those invariants of the plan with \`${optionWords(svc.invariants.optionWords).calls.remove()}\`.`,
      { plan: plan.id, actions: inputs.gone.map((g) => g.ref) },
      'action-gone',
    );
  }
  const preview = planSync(plan, inputs.planInvariants, inputs.actions);
  const result: SyncResult = { plan, changes: preview.changes, skipped: preview.skipped, applied: false };
  if (!apply || preview.changes.length === 0) return result;
  if (confirm) {
    const yes: unknown = await confirm(result);
    // Read by its truthiness, a confirm answering "no" (a prompt's answer handed on as it stands) applied the changes.
    refuseArgs('sync', ['confirm(): boolean'], [yes]);
    if (!yes) return result;
  }
  const fingerprint = (changes: readonly SyncChange[]) => JSON.stringify(changes.map((c) => [c.kind, c.drift]));
  const done = await lockedWrite(
    svc.invariants,
    { folders: [`plans/${plan.id}`], commit, signal },
    async () => {
      // The plan may have gone while the changes were confirmed.
      await requirePlanHeld(svc.invariants.source, plan.id, 'the sync was prepared', svc.invariants.optionWords);
      const fresh = await syncInputs(svc, plan);
      const again = planSync(plan, fresh.planInvariants, fresh.actions);
      if (fingerprint(again.changes) !== fingerprint(preview.changes)) {
        const changed = changedFolders(plan.id, inputs, fresh);
        throw storeChanged(
          `${changed.join(' and ')} changed while the sync of plan ${plan.id} was prepared`,
          `Nothing was written. Run \`${optionWords(svc.invariants.optionWords).calls.syncPlan(plan.id)}\` again to see the new changes.`,
          { changed },
        );
      }
      // The YAML writer loads only to write: `plan status` reads this module for syncInputs.
      const { formatInvariantFile } = await import('../../core/serialize.ts');
      const author = await svc.invariants.deps.author(svc.root);
      const now = timestamp(svc.invariants.deps.clock());
      const newId = await idMaker(svc.invariants);
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
          const inv = promotedCopy(c.origin, {
            id: newId(),
            plan: plan.id,
            ref: c.drift.action,
            created_at: now,
            ...(author !== undefined ? { created_by: author } : {}),
          });
          writes.push({ path: inv.path, content: formatInvariantFile(inv.path, inv), mode: 'create' });
          out.push({ ...c, after: inv });
        }
      }
      // The last moment a stop leaves the plan as it was; past it the plan is synced whole, never half.
      throwIfCancelled(signal, 'nothing was written.');
      const written: string[] = [];
      try {
        for (const w of writes) {
          if (w.mode === 'replace') replaceInStyle(svc.root, w.path, w.content);
          else writeFileAtomic(svc.root, w.path, w.content, w.mode);
          written.push(w.path);
        }
        for (const path of removals) {
          removeFile(svc.root, path);
          written.push(path);
        }
      } catch (error) {
        // A refusal part-way (a read-only or full disk) leaves the plan synced in part, as a crash does: said, not
        // "nothing was changed", and finished by the next sync, which finds what is left.
        failedPartWay(error, written, optionWords(svc.invariants.optionWords).calls.syncPlan(plan.id), writes.length + removals.length);
      }
      return out;
    },
    (applied) => {
      const count = (k: SyncChange['kind']) => applied.filter((c) => c.kind === k).length;
      const paths = applied.map((c) => (c.kind === 'removed' ? c.before.path : c.after!.path));
      return {
        value: { changes: applied },
        paths,
        message: `plan: sync ${plan.id} with ${[...new Set(applied.map((c) => c.drift.action))].join(', ')} (${count('changed')} changed, ${count('added')} added, ${count('removed')} removed)\n`,
      };
    },
  );
  // The plan's waivers of a copy the sync removed or made inactive waive nothing from now on: said by the sync.
  const stranded = await strandedWaivers(
    svc.invariants,
    done.changes.flatMap((c): { before: ScopedInvariant; after: ScopedInvariant | undefined }[] =>
      c.kind === 'removed'
        ? [{ before: c.before, after: undefined }]
        : c.kind === 'changed' && c.before.active && !c.after.active
          ? [{ before: c.before, after: c.after }]
          : [],
    ),
  );
  const synced: SyncResult = { plan, changes: done.changes, skipped: preview.skipped, applied: true, strandedWaivers: stranded };
  if (done.commit !== undefined) synced.commit = done.commit;
  return synced;
}
