// Finding what an id, a prefix or a scope names: the lookups every use case starts with.
import { AgentsError, storeChanged, UsageError } from '../../core/errors.ts';
import { inputObject, optionalBoolean } from '../../core/input-shape.ts';
import { IdAbbreviations, noSuchId, normalisePrefix, pickId, resolvePrefix, unknownId } from '../../core/id-prefix.ts';
import { classifyPath, isKnownFolder } from '../../core/layout.ts';
import { type Plan, type Scope, type ScopedInvariant, type Target, actionName, describeScope, scopeFolder } from '../../core/model.ts';
import { appliesTo, type EffectiveEntry } from '../../core/resolve.ts';
import { isUlid } from '../../core/names.ts';
import { parseYaml } from '../../core/yaml-file.ts';
import { emptySnapshot, readEntries, readFailure, readFolders, standingAt } from '../../store/read.ts';
import { isRequiredFolder } from '../../store/read-plan.ts';
import { movingAway } from '../../store/moving-copies.ts';
import { parseYamlDocument } from '../../store/yaml-document.ts';
import { type IdKind, idsStartingWith, invariantFiles, planIdsIn } from '../../store/listing.ts';
import type { InvariantContext } from './context.ts';
import { actionScope } from './projects.ts';
import { sourceNotReady } from './related.ts';
import { requireOneScope, requireValid, toScope } from './rules.ts';
import type { ScopeInput } from './types.ts';
import { optionWords } from '../option-words.ts';

/**
 * Where a plan id that names none sends its user, by a whole id or a prefix alike, in the caller's words (the
 * command line's commands, the library's methods).
 */
function plansHint(svc: InvariantContext): string {
  const { calls } = optionWords(svc.optionWords);
  return `Run \`${calls.listPlans}\` to see the plans; \`${calls.newPlan()}\` makes one.`;
}

/**
 * Refuses (exit 3, at its file:line:col) an id the store holds in a file of another name (renamed by hand, or copied
 * and edited): every reader refuses that file (id-mismatch), so it is said, not called an id the store does not hold.
 * Only the files that hold the id's characters are parsed.
 */
async function refuseMisnamed(svc: InvariantContext, wanted: string, found: readonly { path: string; scope: Scope }[]): Promise<void> {
  const own = found.filter((f) => f.scope.kind !== 'inherited').map((f) => f.path);
  const read = await svc.source.read(own);
  const needle = Buffer.from(wanted);
  for (const path of own) {
    const r = read.get(path);
    if (!r?.ok || !Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength).includes(needle)) continue;
    const bytes = r.bytes;
    const data = (await parseYamlDocument((syntax) => parseYaml(path, bytes, syntax))).value?.data as { id?: unknown } | undefined;
    if (typeof data?.id !== 'string' || !data.id.startsWith(wanted)) continue;
    const snap = await readFolders(svc.source, [path.slice(0, path.lastIndexOf('/'))]);
    const mismatch = snap.diagnostics.filter((d) => d.file === path && d.code === 'id-mismatch');
    if (mismatch.length > 0) requireValid({ ...snap, diagnostics: mismatch }, `read invariant ${wanted}`);
  }
}

/**
 * Refuses an invariant id (or prefix) the store's readers cannot answer for what stands in the store itself: an
 * invariant file that is a link, a folder or a FIFO, or a linked folder that could hold it (global/, a project's), is
 * an invalid store (exit 3, naming it), as `list` says; so is a file of another name holding the id (refuseMisnamed);
 * an id of another kind (a plan's) is said so, unless `hint` (the one that refusal gives) is undefined. Returns when
 * none of these is so.
 */
async function refuseInStore(
  svc: InvariantContext,
  wanted: string,
  found: readonly { path: string; scope: Scope }[],
  hint: string | undefined,
): Promise<void> {
  const links = (await svc.source.list('', { recursive: true })).filter((e) => {
    if (e.type === 'file') return false;
    const kind = classifyPath(e.path);
    return (kind.kind === 'invariant' && kind.id.startsWith(wanted)) || (e.type === 'symlink' && holdsInvariants(e.path));
  });
  if (links.length > 0) requireValid(await readEntries(svc.source, links), `read invariant ${wanted}`);
  await refuseMisnamed(svc, wanted, found);
  if (hint !== undefined) await refuseOtherKind(svc, wanted, 'invariant', hint);
}

/** Reads one plan's plan.yaml; unknown plans are a usage error. */
export async function readPlan(svc: InvariantContext, idOrPrefix: string): Promise<Plan> {
  const planId = typeof idOrPrefix === 'string' && isUlid(idOrPrefix) ? idOrPrefix : await svc.resolvePlanId(idOrPrefix);
  const snap = await readFolders(svc.source, [`plans/${planId}`]);
  const plan = snap.plans.get(planId);
  const planFile = `plans/${planId}/plan.yaml`;
  // The plan file itself, or a folder on its path (a link refused by the reader).
  const planErrors = snap.diagnostics.filter((d) => d.file === planFile || planFile.startsWith(`${d.file}/`));
  if (planErrors.length > 0) requireValid({ ...snap, diagnostics: planErrors }, `read plan ${planId}`);
  if (!plan) {
    // A plan folder that lost its plan.yaml is an invalid store (exit 3, as `plan list` and `validate` say), not an
    // unknown plan to create: its records are still there. So is one left with nothing in it, as they say too.
    const planIds = planIdsIn(await svc.source.list('plans', { recursive: false }));
    if (planIds.includes(planId))
      requireValid({ ...snap, diagnostics: [readFailure(planFile, { ok: false, code: 'missing', message: '' })] }, `read plan ${planId}`);
    const hint = plansHint(svc);
    // A whole id skips the prefix lookup (resolvePlanId), which says what else of the store an id names.
    await refuseOtherKind(svc, planId, 'plan', hint);
    throw noSuchId('plan', planId, hint, planIds);
  }
  return plan;
}

/** Finds the invariant an id or a unique prefix (≥ 4 characters) names (the rule of core/id-prefix.ts). */
export async function resolveId(
  svc: InvariantContext,
  prefix: string,
  given: { inherited?: boolean } = {},
): Promise<{ id: string; path: string; scope: Scope }> {
  const options = { inherited: optionalBoolean(inputObject(given, 'resolveId', { inherited: true }).inherited, 'inherited') };
  const found = await invariantFiles(svc.source);
  // Known nowhere in the store: an inherited id (docs/extends.md) is shown, as `list --effective` and
  // the export print it, and refused by a write, which belongs in the policy source's repository.
  const local = resolvePrefix(
    prefix,
    found.map((f) => f.id),
  ).kind;
  if (local === 'ambiguous') {
    // An ambiguous prefix lists every id it matches, inherited ones too, so that a longer prefix can name any of them.
    const sources = await svc.inherited().catch(() => []);
    for (const i of sources) if (resolvePrefix(prefix, [i.id]).kind === 'unique') found.push({ id: i.id, path: i.path, scope: i.scope });
  }
  const hint = `Run \`${optionWords(svc.optionWords).calls.listAll}\` to see the ids.`;
  const wanted = normalisePrefix(prefix);
  if (local === 'unknown') {
    // A source not pinned or fetched yet may hold the id: said so with the command that reads it, by `show` and by a
    // write alike (which an inherited id refuses anyway), never "no invariant with id". A write says nothing else of a
    // source it cannot read: it only names what it refuses. What the store itself says of the id (a file of another
    // name holding it, a plan's id) is certain, and said first: the store does hold it, or it is no invariant's.
    const read = async (all: () => Promise<ScopedInvariant[]>) => {
      try {
        return await all();
      } catch (error) {
        if (sourceNotReady(error)) {
          // Another kind's id only when whole: a prefix of a plan's may be one of an invariant the source holds too.
          if (wanted !== undefined) await refuseInStore(svc, wanted, found, wanted.length === 26 ? hint : undefined);
          throw notReadForId(prefix, error, !options.inherited);
        }
        if (options.inherited) throw error;
        return [];
      }
    };
    const matching = (list: ScopedInvariant[]) => list.filter((i) => resolvePrefix(prefix, [i.id]).kind === 'unique');
    let inherited = matching(await read(() => svc.inherited()));
    // Nor an inherited one: an invariant of a source's action template, as `list --action SOURCE:NS/NAME` prints it.
    if (inherited.length === 0) {
      const { sourceTemplates } = await import('./source-actions.ts');
      inherited = matching(await read(() => sourceTemplates(svc)));
    }
    if (inherited.length > 0 && !options.inherited) {
      const inv = inherited[0]!;
      const source = inv.scope.kind === 'inherited' || inv.scope.kind === 'action' ? (inv.scope.source ?? '') : '';
      const template = inv.scope.kind === 'action' ? ` (action template ${actionName(inv.scope)})` : '';
      throw new UsageError(
        `${inv.id} is inherited from the policy source ${source}${template}; this store cannot change it`,
        `Change it in the repository of ${source} (config.yaml's extends)${template ? '.' : `, or add a copy with \`overrides: ${inv.id}\` here.`}`,
        { source, id: inv.id },
      );
    }
    for (const i of inherited) found.push({ id: i.id, path: i.path, scope: i.scope });
  }
  // A plan's or a record's id given for an invariant's is said so, as resolvePlanId says an invariant's.
  if (
    wanted !== undefined &&
    resolvePrefix(
      wanted,
      found.map((f) => f.id),
    ).kind === 'unknown'
  )
    await refuseInStore(svc, wanted, found, hint);
  const paths = new Map(found.map((f) => [f.id, f.path]));
  const id = pickId(prefix, paths.keys(), 'invariant', hint, (m) => `${m}  ${paths.get(m)}`);
  const same = found.filter((f) => f.id === id);
  // One id in several policy sources (a fork, a source that copies another) is no error: of two sources the one
  // listed first in `extends` comes first (docs/extends.md), and `show` lists the others it shadows.
  if (same.length > 1 && same.every((f) => f.scope.kind === 'inherited')) {
    const order = (f: (typeof same)[number]) => (f.scope.kind === 'inherited' ? f.scope.order : 0);
    return same.reduce((a, b) => (order(b) < order(a) ? b : a));
  }
  if (same.length > 1) {
    // A move under way holds the id twice until it removes the old copy, which its running writer has marked: that
    // copy is on its way out, and the new one is the invariant (a write then waits for the move's lock).
    const own = same.filter((f) => f.scope.kind !== 'inherited');
    const away = movingAway(svc.source, own);
    if (same.length - away.size === 1) return same.find((f) => !away.has(f.path))!;
    // Two of the store's own files is validate's id-reused error: refused as every reader refuses it (exit 3).
    requireValid({ ...emptySnapshot(), invariants: own as never }, `read ${id}`);
    // One id in two files (an id-reused error): say which, rather than pick one.
    throw new UsageError(
      `id ${id} names ${same.length} files:\n${same.map((m) => `  ${m.id}  ${m.path}`).join('\n')}`,
      (agents) => `Run \`${agents} validate\`: an id names one thing in the whole store.`,
      { matches: same.map((m) => m.path) },
    );
  }
  return same[0]!;
}

/**
 * An id the store does not hold while a policy source, which may hold it, is not pinned or fetched yet: the source's
 * refusal (its code, exit code and detail) said of the id. `writing`: a write, which an inherited id refuses anyway.
 */
function notReadForId(prefix: string, error: AgentsError, writing: boolean): AgentsError {
  const wanted = normalisePrefix(prefix) ?? prefix;
  const id = wanted.length === 26 ? wanted : `prefix ${wanted}`;
  const readOnly = writing
    ? `If it is inherited, it is read-only here anyway: it is changed in its policy source's repository (or overridden by a copy with \`overrides:\`). `
    : '';
  return new AgentsError(
    `no invariant with id ${id} in this store, and the policy sources, which may hold it, are not read: ${error.message}`,
    error.exitCode,
    {
      hint: (agents) => `${readOnly}${error.hintFor(agents) ?? ''}`.trim(),
      code: error.code,
      ...(error.detail !== undefined ? { detail: error.detail } : {}),
    },
  );
}

/** Whether `rel` is a folder of the layout that invariants live in or below (`global`, `projects/myapp`, `plans/01J…`). */
function holdsInvariants(rel: string): boolean {
  const [top, ...rest] = rel.split('/');
  if (!isKnownFolder(rel)) return false;
  return top === 'global' || top === 'actions' || ((top === 'projects' || top === 'plans') && rest.length <= 1);
}

/** The full id of the plan an id or a unique prefix (≥ 4 characters) names. */
export async function resolvePlanId(svc: InvariantContext, prefix: string): Promise<string> {
  const wanted = normalisePrefix(prefix);
  const entries = await svc.source.list('plans', { recursive: false });
  // A linked plans/ or plan folder, or a file in the place of either (a bad merge), is an invalid store (exit 3), as
  // `plan list` says, not an unknown plan.
  if (wanted !== undefined) {
    const standing = entries.filter(
      (e) =>
        (e.type === 'symlink' || (e.type !== 'dir' && isRequiredFolder(e.path, e.type))) &&
        (e.path === 'plans' || e.path.slice('plans/'.length).startsWith(wanted)),
    );
    standing.push(...(await standingAt(svc.source, 'plans', entries)));
    if (standing.length > 0) requireValid(await readEntries(svc.source, standing), `read plan ${wanted}`);
  }
  const ids = planIdsIn(entries);
  const hint = plansHint(svc);
  if (wanted !== undefined && resolvePrefix(wanted, ids).kind === 'unknown') await refuseOtherKind(svc, wanted, 'plan', hint);
  return pickId(prefix, ids, 'plan', hint);
}

/**
 * For a prefix that names no `what`: when it names ids of other kinds (an invariant's id given for a plan's), a
 * usage error that says what they are and where, so that the right id is one step away. Returns when it names none.
 */
export async function refuseOtherKind(svc: InvariantContext, wanted: string, what: IdKind, hint: string): Promise<void> {
  const refused = otherKindError(wanted, what, await idsStartingWith(svc.source, wanted), hint);
  if (refused) throw refused;
}

/**
 * For an invariant prefix outside an effective set: unknown-id when it names no invariant of the store or of its policy
 * sources (another kind's id said so, as refuseOtherKind says it), so that a mistyped id is not answered as a copy the
 * set leaves out; `inSet` gives the suggestions. Returns when it names one.
 */
export async function refuseUnknownInvariant(
  svc: InvariantContext,
  wanted: string,
  inSet: readonly string[],
  hints: { otherKind: string; unknown: string },
): Promise<void> {
  const found = await idsStartingWith(svc.source, wanted);
  const refused = otherKindError(wanted, 'invariant', found, hints.otherKind);
  if (refused) throw refused;
  if (found.some((f) => f.kind === 'invariant')) return;
  const named = (list: readonly { id: string }[]) => list.some((i) => i.id.startsWith(wanted));
  // A policy source not pinned or fetched yet may hold the id: its refusal is said of the id (as resolveId says it),
  // never "unknown id", which would send the user looking for a typo.
  const read = (list: () => Promise<{ id: string }[]>) =>
    list().catch((error: unknown) => {
      if (sourceNotReady(error)) throw notReadForId(wanted, error, false);
      return [];
    });
  if (named(await read(() => svc.inherited()))) return;
  const { sourceTemplates } = await import('./source-actions.ts');
  if (named(await read(() => sourceTemplates(svc)))) return;
  throw noSuchId('invariant', wanted, hints.unknown, inSet);
}

/** The error refuseOtherKind throws, of the ids `found` starting with `wanted` (idsAmong); undefined when none is another kind. */
export function otherKindError(
  wanted: string,
  what: IdKind,
  found: readonly { kind: IdKind; id: string; path: string }[],
  hint: string,
): UsageError | undefined {
  const others = found.filter((o) => o.kind !== what);
  if (others.length === 0) return undefined;
  const first = others[0]!;
  const plan = /^plans\/([^/]+)/.exec(first.path)?.[1];
  const more = others.length > 1 ? ` (and ${others.length - 1} more)` : '';
  return unknownId(
    `no ${what} with id ${wanted.length === 26 ? wanted : `prefix ${wanted}`}: it names ${first.kind} ${first.id}${more}, ${first.path}`,
    what === 'plan' && plan !== undefined && first.kind !== 'plan' ? `Its plan is ${plan}. ${hint}` : hint,
    wanted,
    [],
    { names: others },
  );
}

/** A scope whose plan may be given as a unique prefix of its id (as every command takes ids), checked and made full. */
export async function resolveScope(svc: InvariantContext, input: ScopeInput | Scope): Promise<Scope> {
  // One scope, checked as toScope checks it, before a plan prefix is made full.
  if (typeof input !== 'object' || input === null || !('kind' in input)) requireOneScope(input);
  const plan = 'plan' in input ? input.plan : undefined;
  if (typeof plan === 'string' && !isUlid(plan)) return toScope({ plan: await svc.resolvePlanId(plan) });
  // A template's name of the wrong shape is refused with the closest known one, as `plan use` refuses it.
  if (!('kind' in input) && 'action' in input && typeof input.action === 'string') return actionScope(svc, input.action);
  return toScope(input);
}

/** Every invariant id and plan id in the store, for abbreviating ids in output (core/id-prefix.ts). */
export async function abbreviations(svc: InvariantContext): Promise<IdAbbreviations> {
  const ids: string[] = [];
  for (const entry of await svc.source.list('', { recursive: true })) {
    const kind = classifyPath(entry.path);
    if (kind.kind === 'invariant') ids.push(kind.id);
    else if (kind.kind === 'plan') ids.push(kind.plan);
  }
  return new IdAbbreviations(ids);
}

/** The invariant file of `found`, read and valid (exit 3 naming the file otherwise). */
export async function readOne(
  svc: InvariantContext,
  found: { id: string; path: string; scope: Scope },
  what: string,
): Promise<ScopedInvariant> {
  const snap = await readFolders(svc.source, [scopeFolder(found.scope)]);
  const inv = snap.invariants.find((i) => i.id === found.id && i.path === found.path);
  if (!inv) {
    requireValid({ ...snap, diagnostics: snap.diagnostics.filter((d) => d.file === found.path) }, `${what} ${found.id}`);
    throw await gone(svc, found);
  }
  return inv;
}

/**
 * An invariant found before its scope's lock was taken, and gone once it was: another writer moved or removed it. The
 * store is read again: moved, it is said with its new place (`store-changed`, `moved_to`: a writer may act on it
 * there, as edit does); removed, it is an unknown id.
 */
export async function gone(svc: InvariantContext, found: { id: string; path: string }): Promise<UsageError> {
  const now = await resolveId(svc, found.id).catch(() => undefined);
  if (now !== undefined && now.path !== found.path)
    return storeChanged(
      `${found.id} was moved to ${now.path} (${describeScope(now.scope)}) by another writer while this command waited`,
      'Nothing was written. Run the command again: it finds the invariant at its new place.',
      { changed: [found.path, now.path], moved_to: now.path },
    );
  return unknownId(
    `no invariant with id ${found.id}: ${found.path} is gone`,
    `Another command may have moved or removed it; run \`${optionWords(svc.optionWords).calls.listAll}\`.`,
    found.id,
    [],
  );
}

/**
 * Why the set of `target` leaves out the invariant a prefix names, when the invariant itself says it: it lives in a
 * scope the set never reaches (another plan, another project, an action template), or in one it reaches but is
 * inactive (`inactive: true`), as a project's invariant deactivated after a plan was made. Undefined when the set
 * reaches it and it is active (shadowed there: notInSet names the copy), or the prefix names no one invariant.
 */
export async function outOfReach(
  svc: InvariantContext,
  wanted: string,
  target: Target,
): Promise<{ id: string; path: string; scope: Scope; inactive?: true } | undefined> {
  const found = await resolveId(svc, wanted, { inherited: true }).catch(() => undefined);
  if (found === undefined) return undefined;
  if (!appliesTo({ scope: found.scope } as ScopedInvariant, target)) return found;
  // An inherited or unreadable file gives no reason of its own: the plain refusal stands.
  const inv = await readOne(svc, found, 'read invariant').catch(() => undefined);
  return inv?.active === false ? { ...found, inactive: true } : undefined;
}

/**
 * The refusal of an invariant a set leaves out (`violation add`, `waive`): when the set holds another copy of it (one
 * it shadows, or the action template's invariant a plan copied), that copy is named, the one to use at the next try.
 */
export function notInSet(
  wanted: string,
  entries: readonly EffectiveEntry[],
  where: string,
  hint: string,
  use: string,
  /** Where the invariant lives when the set cannot reach it, or that it is inactive (outOfReach): named, so the cause shows. */
  elsewhere?: { id: string; path: string; scope: Scope; inactive?: true },
): UsageError {
  const copies = [
    ...new Set([
      ...entries.filter((e) => e.shadows.some((s) => s.id.startsWith(wanted))).map((e) => e.invariant),
      ...entries.map((e) => e.invariant).filter((i) => i.source?.origin_id?.startsWith(wanted)),
    ]),
  ];
  if (copies.length !== 1 && elsewhere?.inactive)
    return new UsageError(
      `invariant ${elsewhere.id} is not in the effective set of ${where}: it is inactive (active: false in ${elsewhere.path})`,
      hint,
      { invariant: elsewhere.id, path: elsewhere.path },
    );
  if (copies.length !== 1 && elsewhere !== undefined)
    return new UsageError(
      `invariant ${elsewhere.id} is not in the effective set of ${where}: it belongs to ${describeScope(elsewhere.scope)} (${elsewhere.path})`,
      hint,
      { invariant: elsewhere.id, path: elsewhere.path },
    );
  if (copies.length !== 1) return new UsageError(`invariant ${wanted} is not in the effective set of ${where}`, hint);
  const copy = copies[0]!;
  return new UsageError(
    `invariant ${wanted} is not in the effective set of ${where}: the copy of it there is ${copy.id} (${describeScope(copy.scope)})`,
    `Nothing was written. ${use} ${copy.id}, the copy that applies.`,
    { invariant: wanted, applies: copy.id },
  );
}
