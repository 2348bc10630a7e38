// Changing fields of one invariant in place.
import { invariantFieldChanges } from '../../core/diff.ts';
import { AgentsError, conflictingOptions, UsageError } from '../../core/errors.ts';
import { inputObject, optionalSignal, optionalStrings, requiredString } from '../../core/input-shape.ts';
import { type ScopedInvariant, describeScope, precedence, scopeFolder } from '../../core/model.ts';
import { truncate } from '../../core/names.ts';
import { importedTextHash } from '../../core/import-stale.ts';
import { cleanTag, textKey } from '../../core/normalise.ts';
import { shadowInfo } from '../../core/shadow.ts';
import { readFolders } from '../../store/read.ts';
import { lockedWrite } from '../commit.ts';
import { optionWords } from '../option-words.ts';
import { refuseWeakenedFloor } from '../floors.ts';
import type { InvariantContext } from './context.ts';
import { gone, readOne } from './lookup.ts';
import { inheritedIfReadable, refuseOverridden, relations } from './related.ts';
import {
  checkGuard,
  checkRationale,
  checkSeverity,
  checkTags,
  checkText,
  duplicateRefusal,
  refuseFolderWrites,
  refuseWritesOutsideProject,
  requireValid,
} from './rules.ts';
import { strandedWaivers } from './stranded.ts';
import { EDIT_FIELDS, type EditFields, type EditInput, type EditResult } from './types.ts';

/**
 * Changes fields of one invariant (`invariant edit`): the same checks as
 * `add` (text, severity, tags, a same-scope duplicate refused with exit 1),
 * under the scope's lock, written atomically in place; the id, the file and
 * the provenance stay. An edit that changes nothing writes nothing.
 */
export async function edit(svc: InvariantContext, given: EditInput, options: { signal?: AbortSignal } = {}): Promise<EditResult> {
  // Moved by another writer while this one waited for the lock of its folder: edited at its new place, found by the
  // whole edit run again; a store that keeps moving it is said as such (`store-changed`, `moved_to`).
  for (let tries = 1; ; tries++) {
    try {
      return await editOnce(svc, given, options);
    } catch (error) {
      if (tries === MOVED_TRIES || !(error instanceof AgentsError) || error.detail?.moved_to === undefined) throw error;
    }
  }
}

/** How many times an edit follows an invariant another writer moved. */
const MOVED_TRIES = 3;

/** One try of edit, at the place the store gives the id now. */
async function editOnce(svc: InvariantContext, given: EditInput, options: { signal?: AbortSignal }): Promise<EditResult> {
  const signal = optionalSignal(inputObject(options, 'edit', { signal: true }).signal, 'signal');
  // A field given as null is left out, as add and every options object read it: read as given, tags: null emptied the
  // tags and rationale: null removed the rationale. guard: null alone means something: the guard removed.
  const loose = { ...inputObject(given, 'edit', EDIT_FIELDS, 'input') };
  for (const field of Object.keys(loose) as (keyof EditInput)[]) if (loose[field] === null && field !== 'guard') delete loose[field];
  const input = loose as EditFields;
  const found = await svc.resolveId(input.id);
  const text = input.text !== undefined ? checkText(input.text, found.path, svc.optionWords) : undefined;
  const severity = input.severity !== undefined ? checkSeverity(input.severity) : undefined;
  const replaceTags = input.tags !== undefined ? checkTags(input.tags, 'tags', svc.optionWords) : undefined;
  const addTags = checkTags(input.addTags, 'addTags', svc.optionWords);
  const removeTags = (optionalStrings(input.removeTags, 'removeTags') ?? []).map(cleanTag);
  const both = addTags.find((t) => removeTags.includes(t));
  if (both !== undefined) {
    const words = optionWords(svc.optionWords);
    throw conflictingOptions(
      `tag "${truncate(both)}" is both added and removed`,
      `Give it to ${words.addTags} or to ${words.removeTags}, not both.`,
      [words.addTags, words.removeTags].map((w) => w.replace(/^--/, '')),
    );
  }
  const rationale = input.rationale !== undefined ? (checkRationale(input.rationale, found.path, svc.optionWords) ?? '') : undefined;
  const guard = input.guard ? await checkGuard(input.guard) : input.guard;
  await refuseFolderWrites(svc.root, guard);
  await refuseWritesOutsideProject(svc.source, svc.root, found.scope, guard);
  let overrides: string | undefined;
  if (input.overrides !== undefined && requiredString(input.overrides, 'overrides').trim() !== '') {
    // An inherited id too: a repository copy overrides an inherited invariant the way it overrides one of its own.
    overrides = (await svc.resolveId(input.overrides, { inherited: true })).id;
    if (overrides === found.id)
      throw new UsageError(
        `an invariant cannot override itself (${found.id})`,
        'Name the lower-precedence copy of the same text it replaces.',
      );
  }
  // A plan's invariant is read with its plan (what it shadows, where it applies): a plan.yaml missing or invalid
  // stops the edit here (exit 3), before anything is written, not after.
  if (found.scope.kind === 'plan') await svc.readPlan(found.scope.plan);
  // The policy sources, read before the write: the floor check and the notes after the write need them, and a source
  // that cannot be read (an invalid lock, exit 3) must stop the edit before it, not once it is on disk.
  const inherited = await inheritedIfReadable(svc);
  const folder = scopeFolder(found.scope);
  const { formatInvariantFile } = await import('../../core/serialize.ts');
  const { replaceInStyle } = await import('../../store/atomic-write.ts');
  let before: ScopedInvariant | undefined;
  let changed: string[] = [];
  const done = await lockedWrite(
    svc,
    { folders: [folder], commit: input.commit, signal },
    async () => {
      const here = await readFolders(svc.source, [folder]);
      requireValid(here, `edit ${found.id} in ${describeScope(found.scope)}`);
      const old = here.invariants.find((i) => i.id === found.id);
      if (!old) throw await gone(svc, found);
      before = old;
      const next: ScopedInvariant = { ...old, tags: [...old.tags] };
      if (text !== undefined) next.text = text;
      // One imported before the import recorded the hash of its file's text is given it now, of the text this edit
      // replaces: else the reworded rule would read as gone from its file, and `import --prune` remove it.
      const from = old.imported_from;
      if (from !== undefined && from.text_hash === undefined && textKey(next.text) !== textKey(old.text))
        next.imported_from = { ...from, text_hash: importedTextHash(old.text) };
      if (severity !== undefined) next.severity = severity;
      if (replaceTags !== undefined) next.tags = replaceTags;
      for (const t of removeTags) {
        if (!next.tags.includes(t))
          throw new UsageError(
            `${found.id} has no tag "${truncate(t)}"`,
            old.tags.length ? `Its tags: ${old.tags.join(', ')}.` : 'It has no tags.',
          );
        next.tags = next.tags.filter((x) => x !== t);
      }
      for (const t of addTags) if (!next.tags.includes(t)) next.tags.push(t);
      if (rationale !== undefined) {
        if (rationale === '') delete next.rationale;
        else next.rationale = rationale;
      }
      if (input.active !== undefined) next.active = input.active;
      if (guard === null) delete next.guard;
      else if (guard !== undefined) {
        // An empty list takes its kind out (the edit form gives every kind, so a list emptied there goes), and a guard
        // left with no list goes: the store holds no empty list (schemas/invariant.schema.json).
        const lists = Object.entries({ ...old.guard, ...guard }).filter(([, list]) => list.length > 0);
        if (lists.length > 0) next.guard = Object.fromEntries(lists);
        else delete next.guard;
      }
      if (input.overrides !== undefined) {
        if (overrides === undefined) delete next.overrides;
        else next.overrides = overrides;
      }
      changed = invariantFieldChanges(old, next).map((c) => c.field);
      if (changed.length === 0) return undefined;
      if (textKey(next.text) !== textKey(old.text)) {
        const dup = here.invariants.find((i) => i.id !== old.id && textKey(i.text) === textKey(next.text));
        if (dup) {
          throw duplicateRefusal(found.scope, dup, svc.optionWords, 'written');
        }
      }
      if (textKey(next.text) !== textKey(old.text)) await refuseOverridden(svc, old, 'change the text of');
      if (next.overrides !== undefined && (changed.includes('overrides') || changed.includes('text'))) await checkOverride(svc, next);
      if (changed.includes('text') || changed.includes('severity') || changed.includes('active')) refuseWeakenedFloor(next, inherited);
      replaceInStyle(svc.root, next.path, formatInvariantFile(next.path, next, optionWords(svc.optionWords)));
      return next;
    },
    (written) => ({
      value: { invariant: written },
      paths: written ? [written.path] : [],
      message: `invariant: edit ${found.id} in ${describeScope(found.scope)} (${changed.join(', ')})\n\n${(written ?? before)?.text ?? ''}\n`,
    }),
  );
  const invariant = done.invariant ?? before!;
  const rel = await relations(svc, invariant);
  // Only deactivating takes an invariant out of a set a waiver names it in: the waivers are read only then.
  const stranded = before!.active && !invariant.active ? await strandedWaivers(svc, [{ before: before!, after: invariant }]) : [];
  return {
    before: before!,
    invariant,
    file: `${svc.root}/${invariant.path}`,
    changed,
    ...rel,
    strandedWaivers: stranded,
    ...(done.commit ? { commit: done.commit } : {}),
  };
}

/** An `overrides` must name an invariant of the same text (docs/store-format.md); a usage error otherwise, before anything is written. */
export async function checkOverride(svc: InvariantContext, inv: ScopedInvariant): Promise<void> {
  const found = await svc.resolveId(inv.overrides!, { inherited: true });
  const target =
    found.scope.kind === 'inherited'
      ? (await svc.inherited()).find((i) => i.id === found.id && i.path === found.path)!
      : await readOne(svc, found, 'read');
  if (textKey(target.text) !== textKey(inv.text)) {
    throw new UsageError(
      `${inv.id} cannot override ${target.id}: their texts differ ("${truncate(target.text)}")`,
      'An override is a copy of the same text (with another severity, tags or rationale); give the id of such a copy.',
    );
  }
  // The copy of higher precedence is the one that applies: a lower one naming it would replace nothing.
  const [own, other] = [inv.scope.kind, target.scope.kind];
  if (own !== 'action' && other !== 'action' && precedence(other) < precedence(own))
    throw new UsageError(
      `${inv.id} cannot override ${target.id}: ${describeScope(target.scope)} comes before ${describeScope(inv.scope)}, so ${target.id} is the copy that applies`,
      `An override names a copy of lower precedence (plan > project > global > inherited). To replace ${inv.id} on purpose, run \`${optionWords(svc.optionWords).calls.editOverrides(target.id, inv.id)}\`.`,
    );
  // Nor one it never meets (another project's, another plan's): it would replace nothing anywhere. The resolver's rule
  // decides, on copies taken as active and unlocked, so that only where they live counts.
  if (own === 'action' || other === 'action') return;
  const plans = new Map(inv.scope.kind === 'plan' ? [[inv.scope.plan, await svc.readPlan(inv.scope.plan)]] : []);
  const bare = (i: ScopedInvariant): ScopedInvariant => ({ ...i, active: true, locked: false });
  if (!shadowInfo(bare(inv), [bare(target)], plans).shadows.length)
    throw new UsageError(
      `${inv.id} cannot override ${target.id}: ${describeScope(inv.scope)} and ${describeScope(target.scope)} are in no effective set together, so ${inv.id} replaces it nowhere`,
      `An override names a lower copy that applies where this one does: a global or inherited one, or (from a plan) its project's. Nothing was written.`,
    );
}
