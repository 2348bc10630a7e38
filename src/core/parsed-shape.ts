/**
 * Whether a parse read back from the parse cache (`.git/agents/parsed/`) has
 * the shape its parser gives. The cache is a file anyone can edit: an entry
 * whose text is a number, whose field is gone or whose object is a list must
 * be a miss (the file is parsed again), never a value the readers trip over
 * or pass on. One walk of the entry's own keys, on the hot path of every
 * command: no schema is run over it.
 */
import type { Parsed } from './diagnostics.ts';
import { GUARD_KINDS, SEVERITIES } from './model.ts';

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export function isStrings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const s of v) if (typeof s !== 'string') return false;
  return true;
}

export const SEVERITY: readonly unknown[] = SEVERITIES;
const GUARD: readonly unknown[] = GUARD_KINDS;

/** A place a diagnostic points to besides its own (`related`). */
function isRelated(v: unknown): boolean {
  if (!isObject(v) || !isString(v.file) || !isCount(v.line) || !isCount(v.col) || !isString(v.message)) return false;
  for (const key in v)
    if (key === 'source' ? !isString(v.source) : key !== 'file' && key !== 'line' && key !== 'col' && key !== 'message') return false;
  return true;
}

/** A diagnostic as the checks and parsers make one, and nothing else (every reader of a kept one relies on it). */
export function isDiagnostic(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (
    !isString(v.code) ||
    !SEVERITY.includes(v.severity) ||
    !isString(v.file) ||
    !isCount(v.line) ||
    !isCount(v.col) ||
    !isString(v.message)
  )
    return false;
  for (const key in v) {
    const x = v[key];
    switch (key) {
      case 'code':
      case 'severity':
      case 'file':
      case 'line':
      case 'col':
      case 'message':
        continue;
      case 'hint':
      case 'lineText':
      case 'source':
        if (!isString(x)) return false;
        continue;
      case 'lineTextFrom':
        if (!isCount(x)) return false;
        continue;
      case 'related':
        if (!Array.isArray(x) || !x.every(isRelated)) return false;
        continue;
      default:
        return false;
    }
  }
  return true;
}

/**
 * A cached parse: an object of `diagnostics` (each a whole diagnostic) and,
 * when the file gave one, a `value` that `fits`.
 */
export function isCachedParse<T>(v: unknown, fits: (value: unknown, index: number) => boolean, index: number): v is Parsed<T> {
  if (!isObject(v) || !Array.isArray(v.diagnostics)) return false;
  for (const d of v.diagnostics) if (!isDiagnostic(d)) return false;
  if (v.value === undefined) return keyCount(v) === 1;
  return keyCount(v) === 2 && fits(v.value, index);
}

export function isGuard(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) if (!GUARD.includes(key) || !isStrings(v[key])) return false;
  return true;
}

function isInvariantSource(v: unknown): boolean {
  if (!isObject(v) || (v.kind !== 'plan' && v.kind !== 'action')) return false;
  for (const key in v) if (key !== 'kind' && ((key !== 'ref' && key !== 'origin_id') || !isString(v[key]))) return false;
  return true;
}

function isImportedFrom(v: unknown): boolean {
  if (!isObject(v) || !isString(v.file) || !isCount(v.line)) return false;
  if (v.text_hash !== undefined && !isString(v.text_hash)) return false;
  for (const key in v) if (key !== 'file' && key !== 'line' && key !== 'text_hash') return false;
  return true;
}

/** 0 for a field left out, 1 for a string, and far below any count of keys for anything else. */
function optionalString(v: unknown): number {
  return v === undefined ? 0 : typeof v === 'string' ? 1 : -1000;
}

/** How many keys an object has: compared with the count of the known ones, so that no other key is passed on. */
export function keyCount(v: Obj): number {
  let n = 0;
  for (const _ in v) n++;
  return n;
}

/** An invariant file's value (parseInvariant's), read from `path` whose name is `id`. */
export function isCachedInvariant(v: unknown, id: string, path: string): boolean {
  if (
    !isObject(v) ||
    v.id !== id ||
    v.path !== path ||
    !isString(v.text) ||
    !SEVERITY.includes(v.severity) ||
    typeof v.active !== 'boolean'
  )
    return false;
  if (!isStrings(v.tags) || !isObject(v.scope)) return false;
  // Straight-line checks of each optional field, not a walk of the keys: this runs for every kept file of every command.
  let known = 7 + optionalString(v.rationale) + optionalString(v.overrides) + optionalString(v.created_at) + optionalString(v.created_by);
  if (v.locked !== undefined) {
    if (v.locked !== true) return false;
    known++;
  }
  if (v.guard !== undefined) {
    if (!isGuard(v.guard)) return false;
    known++;
  }
  if (v.source !== undefined) {
    if (!isInvariantSource(v.source)) return false;
    known++;
  }
  if (v.imported_from !== undefined) {
    if (!isImportedFrom(v.imported_from)) return false;
    known++;
  }
  return keyCount(v) === known;
}

/** An object of optional string fields named by `keys` (and of nothing else), `required` among them. */
function isStringFields(v: unknown, keys: readonly string[], required?: string): boolean {
  if (!isObject(v) || (required !== undefined && !isString(v[required]))) return false;
  for (const key in v) if (!keys.includes(key) || !isString(v[key])) return false;
  return true;
}

const PLAN_KEYS: readonly string[] = ['id', 'action', 'project', 'goal', 'created_at', 'created_by'];
const ACTION_KEYS: readonly string[] = ['description'];

/** A plan.yaml's value (parsePlan's), of the plan `id`. */
export function isCachedPlan(v: unknown, id: string): boolean {
  return isStringFields(v, PLAN_KEYS, 'id') && (v as Obj).id === id;
}

/** An action.yaml's value (parseActionMeta's). */
export function isCachedActionMeta(v: unknown): boolean {
  return isStringFields(v, ACTION_KEYS);
}

/** A project.yaml's value (parseProjectMeta's). */
export function isCachedProjectMeta(v: unknown): boolean {
  if (!isObject(v)) return false;
  let known = optionalString(v.description);
  if (v.paths !== undefined) {
    if (!isStrings(v.paths)) return false;
    known++;
  }
  return keyCount(v) === known;
}
