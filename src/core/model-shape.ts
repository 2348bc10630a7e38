// The fields of the model objects a library caller hands the pure functions (docs/library.md): an invariant, a plan,
// a waiver or a record is held to its JSON Schema in schemas/, and what no schema describes (a scope, a target, the
// sides of a diff, a gate's facts, an export's input) to the model's types. Only src/index.ts uses these checks:
// the CLI and the services pass what the store's readers return, which the readers hold to the same schemas.
import { closestNames, didYouMean } from './closest.ts';
import { globProblem } from './globs.ts';
import { typeName, type Problem, type Shape } from './input-shape.ts';
import { EXPORT_TARGETS, SCOPE_KINDS, SEVERITIES } from './model.ts';
import { nameProblem } from './names.ts';
import { isObject } from './parsed-shape.ts';
import { quoteText } from './plain-text.ts';
import { RECORD_SCHEMAS } from './record-files.ts';
import { RELAXABLE } from './plan-gate.ts';
import { errorPath, SCHEMAS, validatorFor, type SchemaError, type SchemaName } from './schemas.ts';

const notObject = (v: unknown): Problem => ({ at: '', says: `must be an object, not ${typeName(v)}` });
const missing = (key: string): Problem => ({ at: `.${key}`, says: 'is missing' });

/** Where a schema error is, as a path in JavaScript (`.guard.write[0]`). */
function schemaPath(e: SchemaError): string {
  const keys = errorPath(e);
  return keys.map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`)).join('');
}

/**
 * An object held to the schema of its file. `keys` (what the function reads, `?` after one that may be left out)
 * checks those fields alone; without it, every field the schema describes, the schema's required ones required.
 * Fields the schema does not describe (the `scope` and `path` a reader adds) are left to `extra`.
 */
export function bySchema(name: SchemaName, keys?: readonly string[], extra?: (o: Record<string, unknown>) => Problem | undefined): Shape {
  const schema = SCHEMAS[name] as { properties: Record<string, unknown>; required?: readonly string[] };
  const picked = keys?.map((k) => k.replace(/\?$/, '')) ?? Object.keys(schema.properties);
  const required = keys ? keys.filter((k) => !k.endsWith('?')) : (schema.required ?? []);
  const validate = validatorFor(name);
  return (v) => {
    if (!isObject(v)) return notObject(v);
    const doc: Record<string, unknown> = {};
    for (const key of picked) if (v[key] !== undefined) doc[key] = v[key];
    for (const key of required) if (doc[key] === undefined) return missing(key);
    if (!validate(doc)) {
      // A field the schema requires but the function does not read is not this call's to ask for.
      const e = validate.errors!.find((x) => x.keyword !== 'required' || picked.includes(String(x.params.missingProperty)));
      if (!e) return extra?.(v);
      // ajv's "must be equal to one of the allowed values" names none of them: the problem does.
      if (e.keyword === 'enum') {
        const allowed = e.params.allowedValues as unknown[];
        return { at: schemaPath(e), says: `must be one of ${allowed.map((x) => JSON.stringify(x)).join(', ')}`, allowed };
      }
      return { at: schemaPath(e), says: e.message ?? 'does not pass its schema' };
    }
    return extra?.(v);
  };
}

type FieldKind =
  | 'string'
  | 'string?'
  | 'number'
  | 'boolean'
  | 'boolean?'
  | 'strings'
  | 'strings?'
  | 'set'
  | 'set?'
  | 'map'
  | 'map?'
  | 'function?';
const FIELD_CHECKS: Record<string, [test: (v: unknown) => boolean, expected: string]> = {
  string: [(v) => typeof v === 'string', 'a string'],
  number: [(v) => typeof v === 'number' && Number.isFinite(v), 'a number'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  strings: [(v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), 'an array of strings'],
  set: [(v) => isObject(v) && typeof v.has === 'function', 'a Set'],
  map: [(v) => isObject(v) && typeof v.get === 'function' && typeof v.has === 'function' && typeof v.values === 'function', 'a Map'],
  function: [(v) => typeof v === 'function', 'a function'],
};

/** An object whose fields are each of a kind (`?`: may be left out) or of a shape. */
export function fields(spec: Record<string, FieldKind | Shape | [Shape, 'optional']>): Shape {
  return (v) => {
    if (!isObject(v)) return notObject(v);
    for (const [key, kind] of Object.entries(spec)) {
      const value = v[key];
      if (typeof kind === 'string') {
        const optional = kind.endsWith('?');
        if (optional && value === undefined) continue;
        if (value === undefined) return missing(key);
        const [test, expected] = FIELD_CHECKS[optional ? kind.slice(0, -1) : kind]!;
        if (!test(value)) return { at: `.${key}`, says: `must be ${expected}, not ${typeName(value)}` };
        continue;
      }
      const [shape, optional] = Array.isArray(kind) ? [kind[0], true] : [kind, false];
      if (value === undefined) {
        if (optional) continue;
        return missing(key);
      }
      const p = shape(value);
      if (p) return { ...p, at: `.${key}${p.at}` };
    }
    return undefined;
  };
}

/**
 * An options object: its fields as `fields` checks them, and a field it does not take refused with the closest
 * names, as the services' options are (inputObject): ignored, `{alow: [...]}` would relax nothing.
 */
function options(spec: Parameters<typeof fields>[0]): Shape {
  const check = fields(spec);
  const known = Object.keys(spec);
  return (v) => {
    const p = check(v);
    if (p) return p;
    const other = Object.keys(v as object).find((key) => !known.includes(key));
    if (other === undefined) return undefined;
    const close = didYouMean(closestNames(other, known));
    return { at: `.${other}`, says: `is not an option it takes${close ? `; ${close}` : ''} (it takes ${known.join(', ')})` };
  };
}

/** One of several kinds, told apart by `kind` (a scope, a target). */
function byKind(kinds: Record<string, Shape>): Shape {
  const names = Object.keys(kinds);
  return (v) => {
    if (!isObject(v)) return notObject(v);
    if (v.kind === undefined) return missing('kind');
    const shape = typeof v.kind === 'string' && Object.hasOwn(kinds, v.kind) ? kinds[v.kind] : undefined;
    if (!shape)
      return {
        at: '.kind',
        says: `must be ${names.map((n) => JSON.stringify(n)).join(', ')}, not ${JSON.stringify(v.kind)}`,
        allowed: names,
      };
    return shape(v);
  };
}

/** An array of things of one shape: the first wrong one is named by its index. */
export function each(shape: Shape): Shape {
  return (v) => {
    if (!Array.isArray(v)) return { at: '', says: `must be an array, not ${typeName(v)}` };
    for (const [i, item] of v.entries()) {
      const p = shape(item);
      if (p) return { ...p, at: `[${i}]${p.at}` };
    }
    return undefined;
  };
}

/** A Map whose values are of one shape (the argument's own check has made sure it is a Map or answers get and has). */
function mapOf(shape: Shape): Shape {
  return (v) => {
    if (!(v instanceof Map)) return undefined;
    for (const [key, value] of v) {
      const p = shape(value);
      if (p) return { ...p, at: `.get(${JSON.stringify(key)})${p.at}` };
    }
    return undefined;
  };
}

/** One of a fixed list of strings. */
function oneOf(values: readonly string[]): Shape {
  return (v) =>
    values.includes(v as string)
      ? undefined
      : { at: '', says: `must be one of ${values.join(', ')}, not ${JSON.stringify(v)}`, allowed: [...values] };
}

/** A scope: no schema describes it, the model's type does (src/core/model.ts). */
export const SCOPE: Shape = byKind({
  global: fields({}),
  inherited: fields({ source: 'string', order: 'number' }),
  project: fields({ project: 'string' }),
  action: fields({ ns: 'string', name: 'string', source: 'string?' }),
  plan: fields({ plan: 'string' }),
} satisfies Record<(typeof SCOPE_KINDS)[number], Shape>);
export const TARGET: Shape = byKind({
  project: fields({ project: 'string' }),
  plan: fields({ plan: 'string', project: 'string?' }),
});
/** The fields of an invariant the readers always set, defaults applied (src/core/parse-core.ts); the others may be left out. */
const ALWAYS_SET = ['id', 'text', 'severity', 'active', 'tags'];
const INVARIANT_KEYS = Object.keys(SCHEMAS['invariant.schema.json'].properties).map((k) => (ALWAYS_SET.includes(k) ? k : `${k}?`));
/** An invariant as the readers return it: without `active`, it would be left out of every effective set in silence. */
export const INVARIANT: Shape = bySchema('invariant.schema.json', INVARIANT_KEYS, fields({ scope: SCOPE, path: 'string' }));
export const INVARIANTS = each(INVARIANT);
export const PLAN: Shape = bySchema('plan.schema.json');
export const PLANS: Shape = mapOf(PLAN);
const WAIVER_SCOPE = byKind({ plan: fields({ plan: 'string' }), project: fields({ project: 'string' }) });
export const WAIVERS = each(bySchema('waiver.schema.json'));
export const SCOPED_WAIVERS = each(bySchema('waiver.schema.json', undefined, fields({ scope: WAIVER_SCOPE, path: 'string' })));
export const DECISIONS = each(bySchema('decision.schema.json'));
export const ENFORCEMENT = each(bySchema('enforcement.schema.json'));
export const VIOLATIONS = each(bySchema('violation.schema.json'));
/** What the set digest reads of an invariant. */
export const DIGESTED: Shape = bySchema('invariant.schema.json', ['id', 'text', 'severity']);
/** What the gate reads of an invariant of the set: its `digest` is the service's, of `invariantDigestInput`. */
export const GATE_INVARIANTS = each(bySchema('invariant.schema.json', ['id', 'severity'], fields({ digest: 'string?' })));
export const ENTRIES = each(
  fields({
    invariant: INVARIANT,
    shadows: each(fields({ id: 'string', scope: oneOf(SCOPE_KINDS), path: 'string', inheritedFrom: 'string?' })),
  }),
);
/** A project's project.yaml as readProjects returns it: its paths are globs in the repository, as the reader holds them. */
const PROJECT_META: Shape = bySchema('project.schema.json', undefined, (o) => {
  for (const [i, glob] of ((o.paths as string[] | undefined) ?? []).entries()) {
    const problem = globProblem(glob);
    if (problem) return { at: `.paths[${i}]`, says: `${quoteText(glob)} ${problem}` };
  }
  return undefined;
});
/** A project's name, which the export makes a file's name of, and readProjects a folder's. */
export const PROJECT_NAME: Shape = (v) => {
  const problem = typeof v === 'string' ? nameProblem(v, 'project') : `must be a string, not ${typeName(v)}`;
  return problem ? { at: '', says: typeof v === 'string' ? `is no project name: ${problem}` : problem } : undefined;
};
export const PROJECT_METAS = mapOf(PROJECT_META);
const PROJECT_METAS_MAP: Shape = (v) => (v instanceof Map ? PROJECT_METAS(v) : { at: '', says: `must be a Map, not ${typeName(v)}` });
export const OUTCOME: Shape = (v) => {
  if (!isObject(v)) return notObject(v);
  if (v.ok === true) return fields({ response: bySchema('actor-response.schema.json') })(v);
  if (v.ok === false) return fields({ reason: 'string' })(v);
  return { at: '.ok', says: `must be true or false, not ${typeName(v.ok)}` };
};
/** An object with a Map of plans, each held to the plan's schema once the object's own fields are right. */
function withPlans(shape: Shape): Shape {
  return (v) => {
    const own = shape(v);
    if (own) return own;
    const p = PLANS((v as { plans: unknown }).plans);
    return p && { ...p, at: `.plans${p.at}` };
  };
}
/** One side of a diff (DiffSide), and what affectedTargets reads of one (SideShape). */
export const SIDE = withPlans(fields({ invariants: INVARIANTS, plans: 'map', projects: 'set?' }));
export const SIDE_SHAPE = withPlans(fields({ projects: 'set', plans: 'map' }));
export const TARGET_REFS = each(TARGET);
export const CHANGED: Shape = fields({
  before: INVARIANTS,
  after: INVARIANTS,
  waivers: [fields({ before: SCOPED_WAIVERS, after: SCOPED_WAIVERS }), 'optional'],
  projects: [fields({ before: PROJECT_METAS_MAP, after: PROJECT_METAS_MAP }), 'optional'],
});
export const GATE_FACTS: Shape = fields({
  effective: GATE_INVARIANTS,
  setDigest: 'string',
  latest: [fields({ node: bySchema('decision.schema.json'), run: [bySchema('enforcement.schema.json'), 'optional'] }), 'optional'],
  unfinished: 'strings',
  violations: VIOLATIONS,
  waived: 'set?',
  plan: 'string?',
  agents: 'string?',
  missingProject: [fields({ project: 'string', at: 'string' }), 'optional'],
});
/** What setChanges reads of a run's records. */
export const ENFORCEMENT_RECORDS = each(fields({ invariant_id: 'string', digest: 'string?' }));
/** A store's config as the services read it (defaults applied): chooseTargets reads its `export`. */
export const CONFIG: Shape = bySchema('config.schema.json', ['export']);
export const SECTIONS = each(fields({ title: 'string', scope: 'string', notes: 'strings', entries: ENTRIES }));
export const EXPORT_INPUT: Shape = fields({
  targets: each(oneOf(EXPORT_TARGETS)),
  global: [ENTRIES, 'optional'],
  sharedGlobal: [ENTRIES, 'optional'],
  projects: each(
    fields({
      name: PROJECT_NAME,
      meta: PROJECT_META,
      entries: ENTRIES,
      waivers: [each(bySchema('waiver.schema.json', ['invariant_id', 'expires', 'owner', 'reason'])), 'optional'],
    }),
  ),
  severities: each(oneOf(SEVERITIES)),
  nested: 'boolean',
  storeRel: 'string',
  folders: 'map?',
});
/** What the near-duplicate functions read of an invariant, or of what they compare. */
export const TEXTUAL: Shape = fields({ text: 'string', loose: 'string?' });
export const SCOPED: Shape = fields({ scope: SCOPE });
export const NEAR_OTHERS = each(fields({ invariant: INVARIANT, loose: 'string' }));
/** Counts nearPairs adds to: each starts as a number. */
export const NEAR_STATS: Shape = fields({ examined: 'number', hashes: 'number' });
export const EXPIRING: Shape = bySchema('waiver.schema.json', ['expires']);
export const PLAN_TARGET: Shape = bySchema('plan.schema.json', ['id', 'project?']);
/** An action template's invariants, by its name. */
export const ACTION_INVARIANTS: Shape = mapOf(INVARIANTS);
export const VIOLATION_STATES = each(bySchema('violation.schema.json', ['invariant_id', 'resolved?']));
export const DIFF_OPTIONS: Shape = options({ onlyKeys: 'set?', keyOf: 'function?' });
export const COMMIT_OPTIONS: Shape = options({ notice: 'function?' });
export const GATE_OPTIONS: Shape = options({ allow: [each(oneOf(RELAXABLE)), 'optional'] });
export const ESCAPE_OPTIONS: Shape = options({ newlines: 'boolean?' });
/** WorkingTreeSource's options and its list's: unchecked, `{recursive: 'no'}` would walk the whole tree and a misspelt option be ignored. */
export const WORKING_TREE_OPTIONS: Shape = options({
  parseCache: [(v) => (isObject(v) ? undefined : notObject(v)), 'optional'],
  now: 'function?',
});
export const LIST_OPTIONS: Shape = options({ recursive: 'boolean?' });
/** A document findUnsafeText knows the multi-line fields of: a schema's file name, not `invariant` or `plan.yaml`. */
export const DOCUMENT: Shape = oneOf(Object.keys(SCHEMAS));
/** The kind of a plan's record, by the folder it is kept in. */
export const RECORD_KIND: Shape = oneOf(Object.keys(RECORD_SCHEMAS));
export const PROJECT_NAMES = each(PROJECT_NAME);
/** Whether a path meant relative to the store leaves it: absolute (`/etc`, `C:`), or climbing out with `..`. */
export function leavesStore(path: string): boolean {
  return /^(?:[\\/]|[A-Za-z]:)/.test(path) || path.split(/[\\/]/).includes('..');
}

/**
 * The paths a write handed to withCommit wrote, relative to the store: one absolute, or climbing out of the store
 * with `..`, would have git commit a file outside it.
 */
const STORE_PATHS: Shape = (v) => {
  if (!Array.isArray(v) || !v.every((p) => typeof p === 'string'))
    return { at: '', says: `must be an array of strings, not ${typeName(v)}` };
  const paths = v as string[];
  const i = paths.findIndex((p) => p === '' || leavesStore(p));
  return i < 0 ? undefined : { at: `[${i}]`, says: `must be a path in the store, relative to it, not ${quoteText(paths[i]!)}` };
};
/**
 * The commit message of a write handed to withCommit: git refuses one that is empty (or only white space) and cannot
 * be given a NUL, which failed the commit only once the files were staged, and left them staged.
 */
const COMMIT_MESSAGE: Shape = (v) => {
  if (typeof v !== 'string') return { at: '', says: `must be a string, not ${typeName(v)}` };
  if (v.trim() === '') return { at: '', says: 'must hold some text: git refuses an empty commit message' };
  if (v.includes('\0')) return { at: '', says: 'must not hold a NUL character, which git cannot be given' };
  return undefined;
};
/** What the write handed to withCommit answers (Written): its value, the store-relative paths it wrote, the message. */
export const WRITTEN: Shape = fields({
  value: (v) => (isObject(v) ? undefined : notObject(v)),
  paths: STORE_PATHS,
  message: COMMIT_MESSAGE,
});
