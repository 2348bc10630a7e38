import type { Diagnostic } from '../../core/diagnostics.ts';
import { describeScope, type Scope, type ScopedInvariant, type Target } from '../../core/model.ts';
import { resolveEffective } from '../../core/resolve.ts';
import type { WaiverScope } from '../../core/waivers.ts';
import { idsAmong } from '../../store/listing.ts';
import type { TreeEntry } from '../../store/tree-source.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob } from './context.ts';
import type { Located } from './located.ts';

/**
 * Waivers: one past its expiry is an error (the exception was time-boxed; the
 * invariant applies again, and the file should go or be renewed: `invariant waive` removes it then), and one
 * naming an invariant that is not in the store (or the id of another kind of
 * thing: a violation's), or not in its target's set (left behind by a move),
 * is a warning.
 */
export async function checkWaivers(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  entries: readonly TreeEntry[],
  /** The ids in use in the store and those of its invariants, found on first call (only a store with waivers asks). */
  ids: () => { usedIds: ReadonlySet<string>; invariantIds: ReadonlySet<string> },
  located: Located,
  now: Date | undefined,
  /** The inherited ids (docs/extends.md): a waiver of one names an invariant the store knows. */
  inheritedKeys?: () => Promise<ReadonlyMap<string, string>>,
): Promise<Diagnostic[]> {
  const found: { file: string; report: () => Diagnostic }[] = [];
  let rules: typeof import('../../core/waivers.ts') | undefined;
  // Where each invariant of the store lives, and each plan's project: a waiver waives only what its target's set holds.
  let places: Places | undefined;
  const placesOf = () => {
    if (places) return places;
    places = { scopes: new Map(), planProjects: new Map(), copies: new Map(), keyOf: new Map() };
    for (let j = 0; j < jobs.length; j++) {
      const k = jobs[j]!.kind;
      if (k.kind === 'invariant') {
        places.scopes.set(k.id, k.scope);
        const key = facts[j]!.k;
        if (key === undefined) continue;
        places.keyOf.set(k.id, key);
        // Only an active invariant has a loose key (check-file.ts): an inactive one is in no set.
        const copy = { id: k.id, scope: k.scope, active: facts[j]!.n !== undefined };
        const same = places.copies.get(key);
        if (same) same.push(copy);
        else places.copies.set(key, [copy]);
      } else if (k.kind === 'plan' && facts[j]!.p) places.planProjects.set(k.plan, facts[j]!.p!.project);
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
      rules ??= await import('../../core/waivers.ts');
      // A finding placed on the waiver's expires.
      const expires = (code: 'waiver-expired' | 'waiver-permanent', severity: 'error' | 'info', message: string, hint: string) =>
        found.push({ file, report: () => located.at(file, ['expires'], code, severity, message, hint) });
      if (!rules.waiverHolds({ expires: w.x }, now))
        expires(
          'waiver-expired',
          'error',
          `waiver ${kind.id} of ${w.i} expired (expires: ${w.x}); the invariant applies again`,
          `Remove the waiver file (\`git rm\` the path this diagnostic names), or renew it: \`agents invariant waive ${w.i} ${kind.scope.kind === 'plan' ? `--plan ${kind.scope.plan}` : `--project ${kind.scope.project}`} ${rules.WAIVE_NEEDS}\` records a new waiver and removes this file.`,
        );
      // A team may waive for good; said so that review sees an exception that never comes up again.
      else if (rules.waiverPermanent({ expires: w.x }, now))
        expires(
          'waiver-permanent',
          'info',
          `waiver ${kind.id} of ${w.i} expires ${w.x}, more than ${rules.PERMANENT_AFTER_YEARS} years from now: it is permanent in effect`,
          `If the exception is meant to end, record it again with the date it ends (\`agents invariant waive ${w.i} … --expires DATE\`) and remove this file.`,
        );
    }
    // A warning placed on the waiver's invariant_id.
    const warn = (code: 'waiver-not-applicable' | 'unknown-invariant', message: string, hint: string) =>
      found.push({ file, report: () => located.at(file, ['invariant_id'], code, 'warning', message, hint) });
    const outside = ids().invariantIds.has(w.i) ? outsideOf(kind.scope, w.i, placesOf()) : undefined;
    const target = kind.scope.kind === 'plan' ? `plan ${kind.scope.plan}` : `project ${kind.scope.project}`;
    const held = outside === undefined ? await heldBy(kind.scope, w.i, placesOf(), inheritedKeys) : undefined;
    if (held === 'inactive') {
      warn(
        'waiver-not-applicable',
        `waiver ${kind.id} of ${target} names invariant ${w.i}, which is inactive and in no set: it waives nothing`,
        `Remove the waiver, or activate the invariant (\`agents invariant edit ${w.i} --activate\`).`,
      );
    } else if (held !== undefined) {
      warn(
        'waiver-not-applicable',
        `waiver ${kind.id} of ${target} names invariant ${w.i}, which the set of ${target} does not hold: ${held.id} (${describeScope(held.scope)}), a copy of its text, applies there instead; it waives nothing`,
        `Waive the copy that applies (\`agents invariant waive ${held.id} …\`), or remove this one.`,
      );
    }
    if (outside !== undefined) {
      warn(
        'waiver-not-applicable',
        `waiver ${kind.id} of ${target} names invariant ${w.i}, which is in ${outside}, not in the set of ${target}: it waives nothing`,
        `Record the waiver where the invariant applies (\`agents invariant waive ${w.i} …\`), or remove this one; a moved invariant leaves its waivers behind.`,
      );
    }
    if (!ids().invariantIds.has(w.i) && !(await inheritedKeys?.())?.has(w.i)) {
      // The id of a violation (the thing a waiver is most often mistaken to waive), a plan or a record: said so, as the
      // commands refuse it, since it waives nothing either. Looked up only then: such a waiver is rare.
      const other = ids().usedIds.has(w.i) ? idsAmong(entries, w.i).find((o) => o.id === w.i) : undefined;
      warn(
        'unknown-invariant',
        other
          ? `waiver ${kind.id} names invariant ${w.i}, which is no invariant: it names ${other.kind} ${other.id}, ${other.path}; it waives nothing`
          : `waiver ${kind.id} names invariant ${w.i}, which is not in the store`,
        other
          ? `A waiver names the invariant it waives (a violation's invariant_id): correct invariant_id, or remove the waiver.`
          : 'Remove the waiver, or correct invariant_id.',
      );
    }
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}

/** What the waivers check knows of the store's invariants without parsing them again. */
interface Places {
  scopes: Map<string, Scope>;
  planProjects: Map<string, string | undefined>;
  /** The store's invariants by the digest of their text key. */
  copies: Map<string, { id: string; scope: Scope; active: boolean }[]>;
  /** Each invariant's key digest. */
  keyOf: Map<string, string>;
}

/**
 * Why the set of a waiver's target, which `id`'s scope reaches, still does not hold `id`: `'inactive'`, or the
 * copy of its text the resolver keeps there instead; undefined when the set holds it (or that cannot be known: a
 * plan whose plan.yaml could not be read, an invariant that did not parse). A locked floor is left to `locked-waived`.
 */
async function heldBy(
  where: WaiverScope,
  id: string,
  places: Places,
  inheritedKeys: (() => Promise<ReadonlyMap<string, string>>) | undefined,
): Promise<{ id: string; scope: Scope } | 'inactive' | undefined> {
  const own = places.keyOf.get(id);
  const key = own ?? (places.scopes.has(id) ? undefined : (await inheritedKeys?.())?.get(id));
  if (key === undefined) return undefined;
  const copies = places.copies.get(key) ?? [];
  const self = copies.find((c) => c.id === id);
  if (self && !self.active) return 'inactive';
  if (where.kind === 'plan' && !places.planProjects.has(where.plan)) return undefined;
  const target: Target = where.kind === 'plan' ? { kind: 'plan', plan: where.plan, project: places.planProjects.get(where.plan) } : where;
  // The resolver itself decides which copy the set keeps; all copies share one key, so no floor is in play here.
  const asInvariant = (c: { id: string; scope: Scope; active: boolean }) =>
    ({ id: c.id, scope: c.scope, active: c.active, text: '', severity: 'error', path: '' }) as ScopedInvariant;
  const inherited: ScopedInvariant[] = self ? [] : [asInvariant({ id, scope: { kind: 'inherited', source: '', order: 0 }, active: true })];
  const kept = resolveEffective(target, [...copies.map(asInvariant), ...inherited], () => key)[0]?.invariant;
  return kept === undefined || kept.id === id ? undefined : { id: kept.id, scope: kept.scope };
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
