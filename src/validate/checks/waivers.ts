import type { Diagnostic } from '../../core/diagnostics.ts';
import type { Scope } from '../../core/model.ts';
import type { WaiverScope } from '../../core/waivers.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob } from './context.ts';
import type { Located } from './located.ts';

/**
 * Waivers: one past its expiry is an error (the exception was time-boxed; the
 * invariant applies again, and the file should go or be renewed), and one
 * naming an invariant that is not in the store, or not in its target's set
 * (left behind by a move), is a warning.
 */
export async function checkWaivers(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  /** The ids in use in the store, found on first call (only a store with waivers asks). */
  usedIds: () => ReadonlySet<string>,
  located: Located,
  now: Date | undefined,
  /** The inherited ids (docs/extends.md): a waiver of one names an invariant the store knows. */
  inheritedKeys?: () => Promise<ReadonlyMap<string, string>>,
): Promise<Diagnostic[]> {
  const found: { file: string; report: () => Diagnostic }[] = [];
  let expired: ((w: { expires: string }, now: Date) => boolean) | undefined;
  // Where each invariant of the store lives, and each plan's project: a waiver waives only what its target's set holds.
  let places: { scopes: Map<string, Scope>; planProjects: Map<string, string | undefined> } | undefined;
  const placesOf = () => {
    if (places) return places;
    places = { scopes: new Map(), planProjects: new Map() };
    for (let j = 0; j < jobs.length; j++) {
      const k = jobs[j]!.kind;
      if (k.kind === 'invariant') places.scopes.set(k.id, k.scope);
      else if (k.kind === 'plan' && facts[j]!.p) places.planProjects.set(k.plan, facts[j]!.p!.project);
    }
    return places;
  };
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    if (kind.kind !== 'waiver') continue;
    const w = facts[i]!.w;
    if (w === undefined) continue;
    const file = entry.path;
    if (now !== undefined) {
      expired ??= (await import('../../core/waivers.ts')).waiverHolds;
      if (!expired({ expires: w.x }, now)) {
        found.push({
          file,
          report: () =>
            located.at(
              file,
              ['expires'],
              'waiver-expired',
              'error',
              `waiver ${kind.id} of ${w.i} expired (expires: ${w.x}); the invariant applies again`,
              `Remove the waiver file (\`git rm\` the path this diagnostic names) or record a new waiver with \`agents invariant waive ${w.i} … --expires DATE\`.`,
            ),
        });
      }
    }
    // A warning placed on the waiver's invariant_id.
    const warn = (code: 'waiver-not-applicable' | 'unknown-invariant', message: string, hint: string) =>
      found.push({ file, report: () => located.at(file, ['invariant_id'], code, 'warning', message, hint) });
    const outside = usedIds().has(w.i) ? outsideOf(kind.scope, w.i, placesOf()) : undefined;
    if (outside !== undefined) {
      const target = kind.scope.kind === 'plan' ? `plan ${kind.scope.plan}` : `project ${kind.scope.project}`;
      warn(
        'waiver-not-applicable',
        `waiver ${kind.id} of ${target} names invariant ${w.i}, which is in ${outside}, not in the set of ${target}: it waives nothing`,
        `Record the waiver where the invariant applies (agents invariant waive ${w.i} …), or remove this one; a moved invariant leaves its waivers behind.`,
      );
    }
    if (!usedIds().has(w.i) && !(await inheritedKeys?.())?.has(w.i)) {
      warn(
        'unknown-invariant',
        `waiver ${kind.id} names invariant ${w.i}, which is not in the store`,
        'Remove the waiver, or correct invariant_id.',
      );
    }
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}

/**
 * Where the invariant `id` lives when the effective set of the waiver's target cannot hold it ("project web",
 * "action ops/deploy"), else undefined: a global one is in every set, a project's in the project's and its plans',
 * a plan's in its own. A plan whose plan.yaml could not be read is given the benefit of the doubt.
 */
function outsideOf(
  target: WaiverScope,
  id: string,
  places: { scopes: ReadonlyMap<string, Scope>; planProjects: ReadonlyMap<string, string | undefined> },
): string | undefined {
  const scope = places.scopes.get(id);
  if (scope === undefined || scope.kind === 'global' || scope.kind === 'inherited') return undefined;
  if (scope.kind === 'action') return `action template ${scope.ns}/${scope.name}`;
  if (scope.kind === 'plan') return target.kind === 'plan' && target.plan === scope.plan ? undefined : `plan ${scope.plan}`;
  if (target.kind === 'project') return target.project === scope.project ? undefined : `project ${scope.project}`;
  if (!places.planProjects.has(target.plan)) return undefined;
  return places.planProjects.get(target.plan) === scope.project ? undefined : `project ${scope.project}`;
}
