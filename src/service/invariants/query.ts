// Reading invariants: a scope's list, a target's effective set (with inherited invariants and waivers), one invariant.
import { UsageError, conflictingOptions } from '../../core/errors.ts';
import { inputObject, optionalBoolean, refuseArgs, requiredString } from '../../core/input-shape.ts';
import { TARGET } from '../../core/model-shape.ts';
import { type Plan, type Scope, type ScopedInvariant, type Target, actionName, scopeFolder } from '../../core/model.ts';
import { resolveEffective } from '../../core/resolve.ts';
import { shadowInfo, shadowMap } from '../../core/shadow.ts';
import { type WaiverScope, waiverFolder, waiversInSet } from '../../core/waivers.ts';
import { emptySnapshot, readFolders, readStore } from '../../store/read.ts';
import { compileFilter, filterByRegex } from '../regex.ts';
import type { InvariantContext } from './context.ts';
import { gone } from './lookup.ts';
import { pinnedSources } from './pinned-sources.ts';
import { planProjectWarnings } from './plan-project.ts';
import { requireAction, storeWords } from './projects.ts';
import { inheritedIfReadable, inheritedNotListed, sourceRemedy, unlessSourceNotReady } from './related.ts';
import { sourceTemplate, sourceTemplates } from './source-actions.ts';
import { byScopeThenId, holdsProject, requireValid, scopeToInput, storeErrors, toScope } from './rules.ts';
import {
  type EffectiveResult,
  LIST_FIELDS,
  type ListOptions,
  type ListResult,
  type ListedInvariant,
  type ShowResult,
  type WaiverState,
} from './types.ts';
import { docsRef } from '../../core/docs-link.ts';
import { optionWords } from '../option-words.ts';

const TARGET_FIELDS = { project: true, plan: true } as const;

/**
 * The target of effective(): a project or a plan. Both read as the plan alone, and a field beside them
 * (`{project, pattern}`) as no filter, so each is refused. A Scope of either kind is taken, as toScope takes it.
 */
function effectiveTarget(given: unknown): { project: string } | { plan: string } {
  const input = typeof given === 'object' && given !== null && 'kind' in given ? scopeToInput(given as Scope) : given;
  const target = inputObject(input as { project?: string; plan?: string } | undefined, 'effective', TARGET_FIELDS, 'target');
  const named = (['project', 'plan'] as const).filter((k) => target[k] !== undefined);
  if (named.length > 1) throw conflictingOptions('a target is a project or a plan, not both', 'Give {project: NAME} or {plan: ID}.', named);
  if (named.length === 0) throw new UsageError('no target given', 'Give {project: NAME} or {plan: ID}.');
  return named[0] === 'plan' ? { plan: target.plan as string } : { project: target.project as string };
}

/** Invariants of one scope, or of the whole store; active ones unless `all`. */
export async function list(svc: InvariantContext, given: ListOptions = {}): Promise<ListResult> {
  const options = inputObject(given, 'list');
  // A scope beside `scope` ({project: 'p'}, as effective() takes its target) read as no scope: the whole store, silently.
  const stray = (['global', 'project', 'plan', 'action'] as const).find((k) => k in options);
  if (stray !== undefined)
    throw new UsageError(
      `list takes its scope as {scope: {${stray}: …}}, not ${stray} beside it`,
      `See ${docsRef('library.md')} for what each method takes.`,
      {
        field: stray,
      },
    );
  inputObject(given, 'list', LIST_FIELDS);
  const re = options.pattern !== undefined ? compileFilter(options.pattern) : undefined;
  const scope = options.scope ? await svc.resolveScope(options.scope) : undefined;
  if (scope?.kind === 'plan') await svc.readPlan(scope.plan);
  // A policy source's template (SOURCE:NS/NAME) is read in the source at its pin, as `plan use` reads it.
  const fromSource = scope?.kind === 'action' && scope.source !== undefined ? { ...scope, source: scope.source } : undefined;
  const snap = fromSource
    ? { ...emptySnapshot(), invariants: await sourceTemplate(svc, fromSource) }
    : scope
      ? await readFolders(svc.source, [scopeFolder(scope)])
      : await readStore(svc.source);
  requireValid(snap, 'list invariants');
  if (scope?.kind === 'project' && !holdsProject(snap.invariants, scope.project)) await svc.requireProject(scope.project);
  if (scope?.kind === 'action' && snap.invariants.length === 0) await requireAction(svc, scope);
  // Every scope, without one named: the policy sources' invariants too (after the store's own), as `show` finds them.
  // A source not fetched yet leaves them out, and says so, in the notice and in the result: the store's own are still
  // listed. Their action templates' too (`SOURCE:NS/NAME`), as the store's templates are listed: said once when unreadable.
  let inheritedMissing: string | undefined;
  const inherited = scope
    ? []
    : [
        ...(await inheritedIfReadable(svc, (error) => {
          inheritedMissing = sourceRemedy(error, svc.optionWords);
          svc.deps.notice(inheritedNotListed(error, svc.optionWords));
        })),
        ...(await unlessSourceNotReady(() => sourceTemplates(svc))),
      ];
  const all = inherited.length > 0 ? [...snap.invariants, ...inherited] : snap.invariants;
  let items = all.filter((i) => optionalBoolean(options.all, 'all') || i.active);
  if (re) items = filterByRegex(items, re);
  items.sort(byScopeThenId);
  const shadows = scope ? undefined : shadowMap(all, snap.plans);
  // An id several sources hold (a fork, a copy) keys no map: each such copy is asked on its own.
  const seen = new Map<string, number>();
  if (shadows) for (const i of all) seen.set(i.id, (seen.get(i.id) ?? 0) + 1);
  const result: ListResult = items.map((invariant) => {
    const listed: ListedInvariant = { invariant };
    const s = (seen.get(invariant.id) ?? 0) > 1 ? shadowInfo(invariant, all, snap.plans) : shadows?.get(invariant.id);
    if (s) listed.shadow = s;
    return listed;
  });
  if (inheritedMissing !== undefined) result.inheritedMissing = inheritedMissing;
  return result;
}

/**
 * What `invariant list` and MCP list_invariants show: the listing, and, when a listing of active invariants finds
 * none, how many inactive ones its scope and pattern hold (said in place of "none match"). One read of the store
 * either way: a second would say its notices (a policy source not fetched yet) a second time.
 */
export async function listShown(
  service: { list(options: ListOptions): Promise<ListedInvariant[]> },
  options: ListOptions,
): Promise<{ items: ListedInvariant[]; inactive: number }> {
  if (options.all) return { items: await service.list(options), inactive: 0 };
  const everything = await service.list({ ...options, all: true });
  const items = everything.filter((l) => l.invariant.active);
  return { items, inactive: items.length > 0 ? 0 : everything.length };
}

/** The effective set of a project or a plan (docs/resolution.md), reading only the folders it needs. */
export async function effective(
  svc: InvariantContext,
  target: { project: string } | { plan: string },
  given: { pattern?: string } = {},
): Promise<EffectiveResult> {
  target = effectiveTarget(target);
  // A pattern given bare (effective(target, 'regex')) would be no filter: the whole set.
  const options = inputObject(given, 'effective', { pattern: true });
  const re = options.pattern !== undefined ? compileFilter(options.pattern) : undefined;
  const { resolvedTarget, plan, set, snap, inherited } = await resolveSet(svc, target);
  let entries = set;
  if (re) {
    const keep = new Set(
      filterByRegex(
        entries.map((e) => e.invariant),
        re,
      ),
    );
    entries = entries.filter((e) => keep.has(e.invariant));
  }
  // A waiver of an invariant the whole set does not hold (another scope's, inactive, a shadowed copy) waives nothing
  // here (docs/plans.md, "Waivers"): no listing counts it, and it covers no violation, as validate's waiver-not-applicable says.
  let waivers = waiversInSet(await svc.waiversOf(resolvedTarget, snap.entries), set, plan?.project);
  if (waivers.length > 0 && inherited.some((i) => i.locked)) {
    // A waiver of a locked text never counts (docs/extends.md, "Floors"): `validate` reports it, and no listing shows it as holding.
    const { countingWaivers } = await import('../floors.ts');
    waivers = await countingWaivers(
      svc.root,
      svc.source,
      waivers,
      set.map((e) => e.invariant),
    );
  }
  // A plan whose project is gone resolves without that project's invariants: said, never a shorter set in silence.
  const warnings = plan ? await planProjectWarnings(svc, plan, snap.entries) : [];
  const result: EffectiveResult = { target: resolvedTarget, entries, waivers, warnings };
  if (plan) result.plan = plan;
  return result;
}

/**
 * A plan's effective set without its waivers, for what never reads them (`plan strategize`, `invariant violation
 * add`): a waiver file broken by hand stops what reads the waivers (`plan status`, `plan show`, the listings), not
 * the recording of a run or a violation. Its warnings are said as `effective` says them.
 */
export async function planSetWithoutWaivers(
  svc: InvariantContext,
  planId: string,
): Promise<Pick<EffectiveResult, 'entries' | 'warnings'> & { plan: Plan }> {
  const { plan, set, snap } = await resolveSet(svc, { plan: planId });
  const warnings = await planProjectWarnings(svc, plan!, snap.entries);
  return { plan: plan!, entries: set, warnings };
}

/** The target's effective set, resolved from the folders it reads and the inherited invariants (exit 3 when invalid). */
async function resolveSet(
  svc: InvariantContext,
  target: { project: string } | { plan: string },
): Promise<{
  resolvedTarget: Target;
  plan: Plan | undefined;
  set: ReturnType<typeof resolveEffective>;
  snap: Awaited<ReturnType<typeof readFolders>>;
  inherited: ScopedInvariant[];
}> {
  let resolvedTarget: Target;
  let plan: Plan | undefined;
  let folders: string[];
  if ('plan' in target) {
    plan = await svc.readPlan(requiredString(target.plan, 'plan'));
    resolvedTarget = { kind: 'plan', plan: plan.id, ...(plan.project ? { project: plan.project } : {}) };
    folders = [`plans/${plan.id}`, ...(plan.project ? [`projects/${plan.project}`] : []), 'global'];
  } else {
    const scope = toScope({ project: target.project });
    if (scope.kind !== 'project') throw new Error('unreachable');
    resolvedTarget = { kind: 'project', project: scope.project };
    folders = [`projects/${scope.project}`, 'global'];
  }
  const snap = await readFolders(svc.source, folders);
  requireValid(snap, 'resolve the effective set');
  if (resolvedTarget.kind === 'project' && !holdsProject(snap.invariants, resolvedTarget.project))
    await svc.requireProject(resolvedTarget.project);
  const inherited = await svc.inherited();
  const set = resolveEffective(resolvedTarget, inherited.length > 0 ? [...snap.invariants, ...inherited] : snap.invariants);
  return { resolvedTarget, plan, set, snap, inherited };
}

/**
 * The invariants this store inherits from its policy sources (docs/extends.md),
 * read from the cache at the pinned commits: never from the network. None
 * when config.yaml has no `extends`. A pin missing from the cache is exit 2
 * naming `agents extends fetch`; an invalid file in a source is exit 3.
 */
export async function inherited(svc: InvariantContext): Promise<ScopedInvariant[]> {
  const pins = await pinnedSources(svc);
  if (pins.length === 0) return [];
  const { readInherited, SOURCE_FILE_HINT } = await import('../../store/extends.ts');
  // The store's own parse cache keeps the sources' parses too, by blob id.
  const read = await readInherited(svc.root, pins, svc.source.parses?.cache);
  requireValid({ ...emptySnapshot(), diagnostics: read.diagnostics }, 'read the policy sources', SOURCE_FILE_HINT);
  return read.invariants;
}

/**
 * The waivers covering a target, with whether each holds now. `listed`: the
 * target's folders as already listed; the waiver reader loads only when one
 * of them holds a waivers/ folder.
 */
export async function waiversOf(
  svc: InvariantContext,
  target: Target,
  listed?: readonly { path: string; type: string }[],
): Promise<WaiverState[]> {
  // Public on the service: a target of no kind would otherwise read as one with no waivers, or fail inside.
  refuseArgs('waiversOf', ['target: object', 'listed: objects?'], [target, listed], { target: TARGET });
  const scopes: WaiverScope[] = target.kind === 'plan' ? [{ kind: 'plan', plan: target.plan }] : [];
  if (target.project !== undefined) scopes.push({ kind: 'project', project: target.project });
  const present = listed ? scopes.filter((s) => listed.some((e) => e.type === 'dir' && e.path === waiverFolder(s))) : scopes;
  if (present.length === 0) return [];
  const [{ readWaivers }, { waiverHolds }] = await Promise.all([import('../../store/read-waivers.ts'), import('../../core/waivers.ts')]);
  const read = await readWaivers(svc.source, present);
  requireValid({ ...emptySnapshot(), diagnostics: read.diagnostics }, 'read the waivers');
  const now = svc.deps.clock();
  return read.waivers.map((w) => ({ ...w, holds: waiverHolds(w, now) }));
}

/** The store's one copy of `id` among `invariants`, if it holds exactly one. */
function onlyCopy(invariants: readonly ScopedInvariant[], id: string): ScopedInvariant | undefined {
  const copies = invariants.filter((i) => i.id === id);
  return copies.length === 1 ? copies[0] : undefined;
}

/** Everything about one invariant, with where it applies and what it shadows. */
export async function show(svc: InvariantContext, idOrPrefix: string): Promise<ShowResult> {
  const found = await svc.resolveId(idOrPrefix, { inherited: true });
  const snap = await readStore(svc.source);
  // The copies of the policy sources take part in shadowing as in every effective set. An id of the store's own is
  // shown without them when a source is not pinned or fetched yet, as `list` lists it then, the answer saying why
  // (`inheritedMissing`); an inherited one was read by resolveId, so its source is readable.
  let inheritedMissing: string | undefined;
  const inherited = await inheritedIfReadable(svc, (error) => {
    inheritedMissing = sourceRemedy(error, svc.optionWords);
  });
  // An id of a policy source's template (as `list --action SOURCE:NS/NAME` prints it) is read there.
  const template =
    found.scope.kind === 'action' && found.scope.source !== undefined
      ? await sourceTemplate(svc, { ...found.scope, source: found.scope.source })
      : [];
  const all = inherited.length + template.length > 0 ? [...snap.invariants, ...inherited, ...template] : snap.invariants;
  // An `invariant move` between the id's look-up and this read leaves the id's one copy at its new place: shown there.
  // Removed meanwhile, it is gone (as a write finds it), never an internal error.
  const inv =
    all.find((i) => i.id === found.id && i.path === found.path) ??
    (found.scope.kind === 'inherited' ? undefined : onlyCopy(snap.invariants, found.id));
  if (!inv) {
    requireValid({ ...snap, diagnostics: snap.diagnostics.filter((d) => d.file === found.path) }, `show ${found.id}`);
    throw await gone(svc, found);
  }
  const info = shadowInfo(inv, all, snap.plans);
  const result: ShowResult = { invariant: inv, appliesTo: '', shadow: info };
  // Shown even so (a removal's confirmation shows it while another file is broken), but said to be maybe short.
  const incomplete = storeErrors(snap);
  if (incomplete.length > 0) result.incomplete = incomplete;
  if (inheritedMissing !== undefined) result.inheritedMissing = inheritedMissing;
  switch (inv.scope.kind) {
    case 'global':
      result.appliesTo = 'every project and every plan';
      break;
    case 'inherited':
      result.appliesTo = `every project and every plan, below this store's own scopes (inherited from the policy source ${inv.scope.source})`;
      break;
    case 'project': {
      const project = inv.scope.project;
      result.plansTargeting = [...snap.plans.values()]
        .filter((p) => p.project === project)
        .map((p) => p.id)
        .sort();
      result.appliesTo = `project ${project} and the ${result.plansTargeting.length} plan(s) targeting it`;
      break;
    }
    case 'plan':
      result.appliesTo = `plan ${inv.scope.plan} only`;
      break;
    case 'action':
      result.appliesTo = `no target directly; promoted into each plan created with \`${optionWords(svc.optionWords).calls.newPlan(actionName(inv.scope))}\``;
      break;
  }
  if (!inv.active) result.appliesTo = `nothing while inactive (would apply to ${result.appliesTo})`;
  return result;
}

/**
 * The ids `invariant show` and `waive` take: the store's own, then the policy sources' (those inherited, and their
 * templates' as `list --action SOURCE:NS/NAME` prints them); a source not pinned or fetched adds none.
 */
export async function invariantIds(svc: InvariantContext): Promise<string[]> {
  const theirs = await unlessSourceNotReady(async () => [...(await inherited(svc)), ...(await sourceTemplates(svc))]);
  return [...new Set([...(await storeWords(svc.source, 'invariant')), ...theirs.map((i) => i.id).sort()])];
}
