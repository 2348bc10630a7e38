// Waivers: time-boxed exceptions for an invariant of a plan or a project.
import { conflictingOptions, missingOption, UsageError, valueTooLong } from '../../core/errors.ts';
import { inputObject, requiredString } from '../../core/input-shape.ts';
import { pickId, resolvePrefix } from '../../core/id-prefix.ts';
import type { Target } from '../../core/model.ts';
import { codePointLength } from '../../core/names.ts';
import {
  type ScopedWaiver,
  type Waiver,
  type WaiverScope,
  parseExpiresInput,
  waiverFolder,
  waiverHolds,
  waiverPath,
} from '../../core/waivers.ts';
import { removeFile, writeFileAtomic } from '../../store/atomic-write.ts';
import { readWaivers } from '../../store/read-waivers.ts';
import { withFolderLock } from '../../store/lock.ts';
import { lockedWrite } from '../commit.ts';
import { optionWords } from '../option-words.ts';
import { refuseLockedWaiver } from '../floors.ts';
import { notInSet, outOfReach, refuseUnknownInvariant } from '../invariants/lookup.ts';
import { projectMadeUnderLock } from '../invariants/projects.ts';
import { requirePlanHeld, toScope } from '../invariants/rules.ts';
import { idMaker } from '../new-ids.ts';
import type { PlanContext } from './context.ts';
import { planById, timestamp } from './common.ts';
import { WAIVE_FIELDS, type WaiveInput } from './types.ts';

/**
 * `invariant waive`: records a time-boxed exception for an invariant of the
 * plan's or project's effective set (docs/plans.md, "Waivers").
 */
export async function waive(
  svc: PlanContext,
  given: WaiveInput,
): Promise<{ waiver: ScopedWaiver; replaced: { id: string; path: string }[]; commit?: string }> {
  const input = inputObject(given, 'waive', WAIVE_FIELDS, 'input') as WaiveInput;
  const words = optionWords(svc.invariants.optionWords);
  if ((input.plan === undefined) === (input.project === undefined)) {
    const hint = 'A waiver covers one plan, or one project and the plans that target it.';
    const message = `name exactly one of ${words.plan} or ${words.project}`;
    if (input.plan === undefined) throw missingOption(message, hint, 'invariant waive', ['plan', 'project']);
    throw conflictingOptions(message, hint, ['plan', 'project']);
  }
  const reason = requiredString(input.reason, 'reason').trim();
  if (reason === '')
    throw new UsageError(`${words.reason} must be 1 to 2,000 characters`, 'Say why the exception is granted.', { field: 'reason' });
  const owner = requiredString(input.owner, 'owner').trim();
  if (owner === '')
    throw new UsageError(`${words.owner} must be 1 to 512 characters`, 'Name who answers for the exception: a person or a team.', {
      field: 'owner',
    });
  const now = svc.invariants.deps.clock();
  const expires = parseExpiresInput(requiredString(input.expires, 'expires'), now, words.expires);
  if ('problem' in expires) {
    // The example is a month from the clock, so the command it suggests is one that works whenever it is read.
    const example = timestamp(new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000)).slice(0, 10);
    const give = words.expires.startsWith('-') ? `${words.expires} ${example}` : `${words.expires}: '${example}'`;
    throw new UsageError(expires.problem, `Nothing was written. A waiver is time-boxed: give a future date, e.g. ${give}.`, {
      field: 'expires',
    });
  }
  const expiresAt = expires.value;
  let scope: WaiverScope;
  let target: { plan: string } | { project: string };
  // The scopes the set reaches: an invariant of another one is named where it lives when it is refused.
  let reach: Target;
  if (input.plan !== undefined) {
    const plan = await planById(svc, requiredString(input.plan, 'plan'));
    scope = { kind: 'plan', plan: plan.id };
    target = { plan: plan.id };
    reach = { kind: 'plan', plan: plan.id, project: plan.project };
  } else {
    const s = toScope({ project: input.project! });
    if (s.kind !== 'project') throw new Error('unreachable');
    await svc.invariants.requireProject(s.project, { writing: true });
    scope = { kind: 'project', project: s.project };
    target = { project: s.project };
    reach = scope;
  }
  // Over the schema's limits: value-too-long, as every writer says it (the file is not named yet: its folder).
  for (const [field, value, limit] of [
    ['reason', reason, 2000],
    ['owner', owner, 512],
  ] as const) {
    const length = codePointLength(value);
    if (length > limit)
      throw valueTooLong({
        file: `${waiverFolder(scope)}/`,
        field,
        length,
        limit,
        schema: 'waiver.schema.json',
        fix: `Shorten ${words[field]} to at most ${limit} characters.`,
      });
  }
  const where = scope.kind === 'plan' ? `plan ${scope.plan}` : `project ${scope.project}`;
  const { entries } = await svc.invariants.effective(target);
  const inSet = entries.map((e) => e.invariant);
  const match = resolvePrefix(
    input.invariant,
    inSet.map((i) => i.id),
  );
  if (match.kind === 'unknown') {
    // A copy the locked floor shadows is out of the set because of the floor: refused as a waiver of it (locked-waived).
    const shadowed = await svc.invariants.show(input.invariant).catch(() => undefined);
    if (shadowed) await refuseLockedWaiver(svc.root, svc.invariants.source, shadowed.invariant);
    const set = words.calls.effectiveSet(scope.kind === 'plan' ? { plan: scope.plan } : { project: scope.project });
    const hint = `Nothing was written. See the set with \`${set}\`; a shadowed or inactive copy does not apply.`;
    // A violation's id (or a plan's, a waiver's) given for its invariant's: said so, not as an invariant outside the set.
    await refuseUnknownInvariant(
      svc.invariants,
      match.prefix,
      inSet.map((i) => i.id),
      { otherKind: `A waiver names an invariant, not a violation or plan. ${hint}`, unknown: hint },
    );
    throw notInSet(match.prefix, entries, where, hint, 'Waive', await outOfReach(svc.invariants, match.prefix, reach));
  }
  const chosenId = pickId(
    input.invariant,
    inSet.map((i) => i.id),
    'invariant',
    '',
  );
  const inv = inSet.find((i) => i.id === chosenId)!;
  await refuseLockedWaiver(svc.root, svc.invariants.source, inv);
  const { addingTo, formatWaiverFile } = await import('../../core/serialize.ts');
  const author = await svc.invariants.deps.author(svc.root);
  const folder = waiverFolder(scope);
  const writeWaiver = (id: string): ScopedWaiver => {
    const w: Waiver = {
      id,
      invariant_id: inv.id,
      reason,
      owner,
      expires: expiresAt,
      created_at: timestamp(svc.invariants.deps.clock()),
    };
    if (author !== undefined) w.created_by = author;
    const path = waiverPath(scope, id);
    // A refused value leaves no waivers folder: the lock takes back the folder it made (docs/adr/0112).
    writeFileAtomic(svc.root, path, formatWaiverFile(path, w, addingTo('a waiver', folder)));
    return { ...w, scope, path } satisfies ScopedWaiver;
  };
  // The scope's own lock first, as `project remove` takes it: a project removed while this waited is not made again
  // to hold the waiver. The waivers folder's lock is taken after the check, since taking it makes the folders it needs.
  const scopeDir = scope.kind === 'plan' ? `plans/${scope.plan}` : `projects/${scope.project}`;
  return lockedWrite(
    svc.invariants,
    { folders: [scopeDir], commit: input.commit },
    async (made) => {
      // Gone while this waited: the plan's plan.yaml, or the project's folder, which the lock had to make again. A
      // project folder that is there and empty (made by hand) is a project, as for every other command.
      if (scope.kind === 'plan')
        await requirePlanHeld(svc.invariants.source, scope.plan, 'this command waited for it', svc.invariants.optionWords);
      else projectMadeUnderLock(scope.project, undefined, made.has(scopeDir));
      const id = (await idMaker(svc.invariants))();
      return withFolderLock(
        svc.root,
        folder,
        async () => {
          // The expired waivers of this invariant here are what this one renews: `validate` fails on each
          // (waiver-expired) until it goes, so they go with the write that replaces them (git keeps them).
          const { waivers } = await readWaivers(svc.invariants.source, [scope]);
          const expired = waivers.filter((w) => w.invariant_id === inv.id && !waiverHolds(w, now));
          const waiver = writeWaiver(id);
          const replaced: { id: string; path: string }[] = [];
          for (const w of expired) {
            try {
              removeFile(svc.root, w.path);
              replaced.push({ id: w.id, path: w.path });
            } catch (error) {
              // The new waiver holds whatever comes of the old file: one that cannot go (a read-only folder) is said,
              // and `validate` goes on naming it (waiver-expired) until it is removed.
              svc.invariants.deps.notice?.(
                `warning: the expired waiver ${w.id} (${w.path}) could not be removed (${error instanceof Error ? error.message : String(error)}): remove it yourself`,
              );
            }
          }
          return { waiver, replaced };
        },
        { notice: svc.invariants.deps.notice },
      );
    },
    ({ waiver, replaced }) => ({
      value: { waiver, replaced },
      paths: [waiver.path, ...replaced.map((r) => r.path)],
      message: `invariant: waive ${inv.id} for ${where} until ${waiver.expires}\n\n${reason}\nOwner: ${owner}\n`,
    }),
  );
}
