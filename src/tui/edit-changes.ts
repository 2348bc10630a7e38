// What the edit form asks `edit` to change.
import { invariantFieldChanges } from '../core/diff.ts';
import { GUARD_KINDS, type Guard, type ScopedInvariant, type Severity } from '../core/model.ts';
import type { EditInput } from '../service/invariant-service.ts';

/** The answers of the edit form, as it ends with them. */
export interface EditedValues {
  text: string;
  severity: Severity;
  tags: string[];
  /** "" for none. */
  rationale: string;
  active: boolean;
  guard: Guard;
}

/** The guard's non-empty lists in one order, so that two guards holding the same lists compare equal. */
function guardLists(guard: Guard | undefined): Pick<ScopedInvariant, 'guard'> {
  const kinds = GUARD_KINDS.filter((k) => (guard?.[k] ?? []).length > 0);
  return kinds.length > 0 ? { guard: Object.fromEntries(kinds.map((k) => [k, guard![k]!])) } : {};
}

/**
 * The fields the form changed on `before` (the invariant it was filled with), and no other: a field that another
 * process changed while the form was open keeps that change, instead of being set back to what the form showed.
 */
export function editChanges(before: ScopedInvariant, values: EditedValues, tagsNow?: readonly string[]): Omit<EditInput, 'id'> {
  const { guard: _guard, rationale: _rationale, ...rest } = before;
  const shown: ScopedInvariant = {
    ...rest,
    ...(before.rationale !== undefined ? { rationale: before.rationale } : {}),
    ...guardLists(before.guard),
  };
  const after: ScopedInvariant = {
    ...rest,
    text: values.text,
    severity: values.severity,
    tags: values.tags,
    active: values.active,
    ...(values.rationale !== '' ? { rationale: values.rationale } : {}),
    ...guardLists(values.guard),
  };
  const changed = new Set(invariantFieldChanges(shown, after).map((c) => c.field));
  return {
    ...(changed.has('text') ? { text: values.text } : {}),
    ...(changed.has('severity') ? { severity: values.severity } : {}),
    ...(changed.has('tags') ? tagChanges(before.tags, values.tags, tagsNow) : {}),
    ...(changed.has('rationale') ? { rationale: values.rationale } : {}),
    ...(changed.has('active') ? { active: values.active } : {}),
    // Every kind, a list emptied in the form as an empty one: `edit` replaces the lists it is given and keeps the others.
    ...(changed.has('guard') ? { guard: after.guard ? Object.fromEntries(GUARD_KINDS.map((k) => [k, values.guard[k] ?? []])) : null } : {}),
  };
}

/**
 * The tags the form added and took out, as `--tag` and `--untag` give them, so that a tag another process added or
 * took out while the form was open keeps that change (a tag this form takes out that is gone already is refused,
 * said). A new order of the same tags is no change: the whole list given would drop a tag added meanwhile.
 * `now`: the tags the store was last read holding; one gone from them is no longer the form's to take out, else the
 * refusal that said so came back at every save, and the form could never save.
 */
function tagChanges(
  before: readonly string[],
  after: readonly string[],
  now: readonly string[] = before,
): Pick<EditInput, 'addTags' | 'removeTags'> {
  const addTags = after.filter((t) => !before.includes(t));
  const removeTags = before.filter((t) => !after.includes(t) && now.includes(t));
  return { ...(addTags.length > 0 ? { addTags } : {}), ...(removeTags.length > 0 ? { removeTags } : {}) };
}
