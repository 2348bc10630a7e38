// What an invariant can shadow, be shadowed by or nearly repeat: the notes add, edit and move print.
import { AgentsError, CheckFailedError } from '../../core/errors.ts';
import type { Diagnostic } from '../../core/diagnostics.ts';
import { type Plan, type Scope, type ScopedInvariant, describeScope, scopeFolder } from '../../core/model.ts';
import { shadowInfo } from '../../core/shadow.ts';
import { type StoreSnapshot, emptySnapshot, readAllPlans, readFolders, readStore } from '../../store/read.ts';
import type { InvariantContext } from './context.ts';
import { type OptionWords, optionWords } from '../option-words.ts';
import { nearAmong, storeErrors } from './rules.ts';
import type { AddResult } from './types.ts';

/** The folders whose invariants can shadow, or be shadowed by, one in `scope`. */
async function relatedSnapshot(svc: InvariantContext, scope: Scope): Promise<StoreSnapshot> {
  switch (scope.kind) {
    case 'action':
      return emptySnapshot();
    case 'plan': {
      const plan = await svc.readPlan(scope.plan);
      return readFolders(svc.source, ['global', ...(plan.project ? [`projects/${plan.project}`] : [])]);
    }
    case 'project': {
      const snap = await readAllPlans(svc.source);
      const targeting = [...snap.plans.values()].filter((p) => p.project === scope.project).map((p) => `plans/${p.id}`);
      return readFolders(svc.source, ['global', ...targeting], snap);
    }
    case 'global':
    case 'inherited':
      return readStore(svc.source);
  }
}

/**
 * The invariants a copy in `scope` can meet (the related folders', the scope's own and, below every scope but
 * templates', the policy sources'), with what was not read: the invalid files' problems in `incomplete`, a policy
 * source not ready in `inheritedMissing`, so that an answer of nothing met is said only of what was read.
 */
export async function relatedRead(
  svc: InvariantContext,
  scope: Scope,
): Promise<{ invariants: ScopedInvariant[]; plans: Map<string, Plan>; incomplete?: Diagnostic[]; inheritedMissing?: string }> {
  const snap = await relatedSnapshot(svc, scope);
  if (scope.kind !== 'global') await readFolders(svc.source, [scopeFolder(scope)], snap);
  let inheritedMissing: string | undefined;
  const inherited =
    scope.kind === 'action'
      ? []
      : await inheritedIfReadable(svc, (error) => {
          inheritedMissing = sourceRemedy(error, svc.optionWords);
        });
  const incomplete = storeErrors(snap);
  return {
    invariants: inherited.length > 0 ? [...snap.invariants, ...inherited] : snap.invariants,
    plans: snap.plans,
    ...(incomplete.length > 0 ? { incomplete } : {}),
    ...(inheritedMissing !== undefined ? { inheritedMissing } : {}),
  };
}

/**
 * What an invariant in `scope` shadows, is shadowed by and nearly repeats: best effort over readable files, with
 * what was not read ({@link relatedRead}), as `show` and the add form say it.
 */
export async function relations(
  svc: InvariantContext,
  inv: ScopedInvariant,
): Promise<Pick<AddResult, 'shadows' | 'shadowedBy' | 'near' | 'incomplete' | 'inheritedMissing'>> {
  const { invariants, plans, ...unread } = await relatedRead(svc, inv.scope);
  if (inv.scope.kind === 'plan' && !plans.has(inv.scope.plan)) plans.set(inv.scope.plan, await svc.readPlan(inv.scope.plan));
  const others = invariants.filter((o) => o.id !== inv.id);
  const info = shadowInfo(inv, others, plans);
  return { shadows: info.shadows, shadowedBy: info.shadowedBy, near: nearAmong(inv, others, plans), ...unread };
}

/**
 * The inherited invariants where they only add to an answer (notes, hints, a listing of every scope): a source not
 * pinned or not fetched yet adds none, and `missing` hears why (the commands that resolve refuse then).
 */
export function inheritedIfReadable(svc: InvariantContext, missing?: (error: AgentsError) => void): Promise<ScopedInvariant[]> {
  return unlessSourceNotReady(() => svc.inherited(), missing);
}

/** What `read` finds in the policy sources, or nothing when one is not pinned or fetched yet (`missing` hears why). */
export async function unlessSourceNotReady<T>(read: () => Promise<T[]>, missing?: (error: AgentsError) => void): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    if (!sourceNotReady(error)) throw error;
    missing?.(error);
    return [];
  }
}

/**
 * A policy source that cannot be read yet, and the command that makes it readable, as one clause. `words`: the
 * caller's (the command line's, with the run's --store).
 */
export function sourceRemedy(error: AgentsError, words: OptionWords | undefined): string {
  const { calls } = optionWords(words);
  return `${error.message} (run \`${error.code === 'extends-not-pinned' ? calls.extendsUpdate : calls.extendsFetch}\`)`;
}

/** What a listing of every scope says when a policy source leaves its invariants out (the CLI's notice, the browser's line). */
export function inheritedNotListed(error: AgentsError, words: OptionWords | undefined): string {
  return `the invariants inherited from policy sources are not listed: ${sourceRemedy(error, words)}`;
}

/** Whether `error` is a policy source not pinned or not fetched yet (docs/extends.md): what a listing can go without. */
export function sourceNotReady(error: unknown): error is AgentsError {
  return error instanceof AgentsError && (error.code === 'extends-not-fetched' || error.code === 'extends-not-pinned');
}

/**
 * Refuses (exit 1, `overridden`) to take away what another invariant's `overrides` needs: the invariant itself
 * (`remove`) or its text (`edit --text`). Either would leave that copy naming no invariant, or one of another text,
 * which `validate` reports as an error (overrides-unknown, overrides-text) and every reader of a valid store refuses.
 * The copies may be in any scope of higher precedence, so the whole store is read (invalid files are skipped).
 */
export async function refuseOverridden(svc: InvariantContext, inv: { id: string }, doing: string): Promise<void> {
  const by = (await readStore(svc.source)).invariants.filter((o) => o.overrides === inv.id && o.id !== inv.id);
  if (by.length === 0) return;
  const first = by[0]!;
  const more = by.length > 1 ? ` (and ${by.length - 1} more)` : '';
  throw new CheckFailedError(
    `cannot ${doing} ${inv.id}: ${first.id} in ${describeScope(first.scope)}${more} names it in overrides, as a copy of its text`,
    `Nothing was written. Take the override away first (\`${optionWords(svc.optionWords).calls.editOverrides(first.id, '')}\`), then run the command again.`,
    { id: inv.id, overridden_by: by.map((o) => ({ id: o.id, path: o.path })) },
    'overridden',
  );
}
