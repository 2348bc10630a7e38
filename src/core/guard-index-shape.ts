/**
 * Whether a guard index read back from `.git/agents/guard-index.json` has the
 * shape buildGuardIndex gives, as parsed-shape.ts does for the parse cache:
 * the file is one anyone can edit or a crash can cut short, and a rule whose
 * text is a number, whose guard is gone or whose list is a string must be a
 * miss (the index is built again from the store), never an answer the hook
 * gives or trips over. The hook's warm call reads a few entries of an index
 * that may hold thousands: the frame is checked whole, and the contexts, heads,
 * projects and rules only as far as the call reads them.
 */
import { actionHeads, own, type GuardAction, type GuardContext, type GuardIndex } from './guard.ts';
import { isCount, isGuard, isObject, isString, isStrings, keyCount, SEVERITY } from './parsed-shape.ts';

/** The index's own fields, each of its type; `rules` a list and the records objects, their entries left to {@link indexFits}. */
export function isGuardIndexFrame(v: unknown): v is GuardIndex {
  if (!isObject(v) || (v.plan !== null && !isString(v.plan)) || (v.onError !== 'deny' && v.onError !== 'allow')) return false;
  if (!Array.isArray(v.rules) || !isObject(v.contexts) || !isObject(v.projects) || !isObject(v.heads)) return false;
  if (v.caseless !== undefined && v.caseless !== true) return false;
  if (v.planProject !== undefined && (!isString(v.planProject) || v.plan === null)) return false;
  return keyCount(v) === 6 + (v.caseless === undefined ? 0 : 1) + (v.planProject === undefined ? 0 : 1);
}

/** A rule as the build keeps it: a guard of at least one non-empty list, since the build keeps no rule that guards nothing. */
function isRule(v: unknown): boolean {
  if (!isObject(v) || !isString(v.id) || !isString(v.text) || !SEVERITY.includes(v.severity) || !isString(v.scope) || !isString(v.path))
    return false;
  if (!isGuard(v.guard) || keyCount(v.guard as Record<string, unknown>) === 0) return false;
  for (const list of Object.values(v.guard as Record<string, unknown[]>)) if (list.length === 0) return false;
  if (v.locked !== undefined && v.locked !== true) return false;
  return keyCount(v) === (v.locked === undefined ? 6 : 7);
}

/** A context whose rules are indices of `rules` (each checked once, in `seen`) and whose waivers end at a number. */
function isContext(v: unknown, rules: readonly unknown[], seen: Set<number>): v is GuardContext {
  if (!isObject(v) || !Array.isArray(v.rules) || !isObject(v.waived) || keyCount(v) !== 2) return false;
  for (const i of v.rules) {
    if (!isCount(i) || i >= rules.length) return false;
    if (!seen.has(i)) {
      if (!isRule(rules[i])) return false;
      seen.add(i);
    }
  }
  for (const key in v.waived) if (typeof v.waived[key] !== 'number') return false;
  return true;
}

/**
 * Whether the parts of a framed index that judging `action` reads are whole:
 * the heads its paths are looked up under, the projects those name, the
 * contexts of those projects and of no project, and the rules they hold.
 * Without an action, every part.
 */
export function indexFits(index: GuardIndex, action?: GuardAction): boolean {
  const contexts = new Set<string>(['']);
  for (const key of action ? actionHeads(index, action) : Object.keys(index.heads)) {
    const names = own(index.heads, key);
    if (names === undefined) continue;
    if (!isStrings(names)) return false;
    for (const name of names) {
      // The build names a project among the heads only for the paths it keeps.
      if (!isStrings(own(index.projects, name))) return false;
      contexts.add(name);
    }
  }
  if (!action) {
    for (const name in index.projects) if (!isStrings(index.projects[name])) return false;
    for (const name in index.contexts) contexts.add(name);
  }
  // The context of no project is always written: its rules are the global ones, and it missing would let them all through.
  if (own(index.contexts, '') === undefined) return false;
  const seen = new Set<number>();
  for (const name of contexts) {
    const ctx = own(index.contexts, name);
    if (ctx !== undefined && !isContext(ctx, index.rules, seen)) return false;
  }
  return true;
}
