// The shape of what a library caller hands the services from JavaScript, where no type is checked
// (docs/library.md): a value of the wrong type is a usage error naming the field, never a TypeError
// from deep inside, nor a string read as its characters.
import { closestNames, didYouMean } from './closest.ts';
import { UsageError } from './errors.ts';
import { isObject } from './parsed-shape.ts';
import { docsRef } from './docs-link.ts';

const HINT = `See ${docsRef('library.md')} for what each method takes.`;

/**
 * The options object of a call: left out (undefined, null) reads as empty; anything else not an object is refused.
 * With `fields` (every field the call takes, so the compiler holds the list to the type), a field it does not take
 * is refused too, with the closest names: ignored, `add({…, active: false})` would add an active invariant.
 * `param`: the argument's name, when it is not `options` (`input`, `target`).
 */
export function inputObject<T extends object>(
  input: T | undefined | null,
  what: string,
  fields?: Record<keyof T, true>,
  param = 'options',
): Partial<T> {
  if (input === undefined || input === null) return {};
  // `param` names the argument in detail.field, as every other wrong input names its field (docs/library.md).
  if (typeof input !== 'object' || Array.isArray(input))
    throw new UsageError(`${what} takes an object as ${param}, not ${typeName(input)}`, HINT, { field: param });
  if (fields !== undefined)
    for (const key of Object.keys(input)) {
      if (Object.hasOwn(fields, key)) continue;
      const known = Object.keys(fields);
      const close = didYouMean(closestNames(key, known));
      throw new UsageError(`${what} takes no ${JSON.stringify(key)}${close ? `; ${close}` : ''}`, `It takes ${known.join(', ')}. ${HINT}`, {
        field: key,
      });
    }
  return input;
}

/** A string field that must be given. */
export function requiredString(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  throw new UsageError(value === undefined ? `${field} is missing` : `${field} must be a string, not ${typeName(value)}`, HINT, { field });
}

/** A string field that may be left out (undefined or null). */
export function optionalString(value: unknown, field: string): string | undefined {
  return value === undefined || value === null ? undefined : requiredString(value, field);
}

/** A list of strings that may be left out: one string is refused, not split into its characters. */
export function optionalStrings(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  for (const item of requiredArray(value, field, 'of strings')) if (typeof item !== 'string') requiredString(item, `${field}[]`);
  return value as string[];
}

/** A list that must be given (`of` says of what, for the message). */
export function requiredArray(value: unknown, field: string, of = ''): unknown[] {
  if (Array.isArray(value)) return value;
  throw new UsageError(`${field} must be an array${of ? ` ${of}` : ''}, not ${typeName(value)}`, HINT, { field });
}

/** An on/off field that may be left out: "no" or 0 is refused, never read by its truthiness. */
export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null || typeof value === 'boolean') return value ?? undefined;
  throw new UsageError(`${field} must be true or false, not ${typeName(value)}`, HINT, { field });
}

/** A callback that may be left out: anything else is refused here, not called later as a TypeError. */
export function optionalFunction<F extends (...args: never[]) => unknown>(value: F | undefined | null, field: string): F | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'function') return value;
  throw new UsageError(`${field} must be a function, not ${typeName(value)}`, HINT, { field });
}

/** An AbortSignal that may be left out (undefined or null): anything else would be read as no stop, or fail at the first. */
export function optionalSignal(value: unknown, field: string): AbortSignal | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof AbortSignal) return value;
  throw new UsageError(`${field} must be an AbortSignal, not ${typeName(value)}`, HINT, { field });
}

/** A whole number from `min` to `max` that must be given: NaN, Infinity, a string of digits or a fraction is refused. */
export function requiredInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  const was = typeof value === 'number' ? String(value) : typeName(value);
  throw new UsageError(
    value === undefined ? `${field} is missing` : `${field} must be a whole number from ${min} to ${max}, not ${was}`,
    HINT,
    {
      field,
    },
  );
}

/** What a value is, for a message: `a number`, `an array`, `null`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * What an argument of a public function takes (`checkedArgs`): `?` after it means it may be left out (undefined or
 * null). `objects` and `strings` are arrays of those; `iterable` any iterable of strings but a string (which would be
 * read as its characters); `map` a Map or an object with its `get` and `has`; `tree-source` what `WorkingTreeSource` is.
 */
export type ArgKind =
  | 'string'
  | 'boolean'
  | 'object'
  | 'array'
  | 'objects'
  | 'strings'
  | 'iterable'
  | 'map'
  | 'function'
  | 'date'
  | 'integer'
  | 'bytes'
  | 'string-or-null'
  | 'tree-source';

const isIterable = (v: unknown): v is Iterable<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Iterable<unknown>)[Symbol.iterator] === 'function';

const ARG_CHECKS: Record<ArgKind, [test: (v: unknown) => boolean, expected: string]> = {
  string: [(v) => typeof v === 'string', 'a string'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  object: [isObject, 'an object'],
  array: [Array.isArray, 'an array'],
  objects: [(v) => Array.isArray(v) && v.every(isObject), 'an array of objects'],
  strings: [(v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), 'an array of strings'],
  // checkedArgs hands the function an array of the items, so an array is all this sees of a Set or a generator.
  iterable: [
    (v) => isIterable(v) && (!Array.isArray(v) || v.every((x) => typeof x === 'string')),
    'an array or another iterable of strings',
  ],
  map: [(v) => isObject(v) && typeof v.get === 'function' && typeof v.has === 'function', 'a Map'],
  function: [(v) => typeof v === 'function', 'a function'],
  date: [(v) => v instanceof Date && !Number.isNaN(v.getTime()), 'a valid Date'],
  integer: [Number.isInteger, 'a whole number'],
  bytes: [(v) => v instanceof Uint8Array, 'a Uint8Array (the bytes of the file)'],
  'string-or-null': [(v) => v === null || typeof v === 'string', 'a string or null'],
  'tree-source': [
    (v) => isObject(v) && typeof v.list === 'function' && typeof v.read === 'function',
    'a TreeSource (new WorkingTreeSource(storeRoot), or an object with its list and read)',
  ],
};

type ArgSpec = `${string}: ${ArgKind}${'' | '?'}`;

/** What is wrong inside an argument: where (`.scope.kind`, `[2].text`, '' for the whole of it), what, and the values it takes when they are few. */
export type Problem = { at: string; says: string; allowed?: readonly unknown[] };
/** The check of the fields of an object argument (src/core/model-shape.ts): its first problem, or undefined. */
export type Shape = (value: unknown) => Problem | undefined;

/**
 * The variables a caller hands over (`open({env})`, the CLI's `io.env`): an object whose values are strings or left
 * out, as process.env's are. A number there was read as a path deep inside, a TypeError; a string, as no variables.
 */
export const ENV: Shape = (value) => {
  if (!isObject(value)) return { at: '', says: `must be an object of variables, not ${typeName(value)}` };
  for (const [name, v] of Object.entries(value))
    if (v !== undefined && typeof v !== 'string') return { at: `.${name}`, says: `must be a string, not ${typeName(v)}` };
  return undefined;
};

/**
 * Refuses the first of `args` that is not of its kind in `params` (each argument's name and kind, in order:
 * `'text: string'`, `'options: object?'`) with a UsageError naming the function and the argument (`detail.field`).
 * From JavaScript a number for a string, or null for an object, would otherwise be a TypeError from deep inside.
 * Then, every argument of its kind, the first whose `shapes` check finds a field missing or wrong is refused, naming
 * the field (`detail.field`: `invariant.scope.kind`).
 */
export function refuseArgs(
  name: string,
  params: readonly ArgSpec[],
  args: readonly unknown[],
  shapes: Readonly<Record<string, Shape>> = {},
): void {
  const given: [field: string, value: unknown][] = [];
  for (const [i, param] of params.entries()) {
    const [field, spec] = param.split(': ') as [string, string];
    const optional = spec.endsWith('?');
    const kind = (optional ? spec.slice(0, -1) : spec) as ArgKind;
    const value = args[i];
    if (optional && (value === undefined || value === null)) continue;
    const [test, expected] = ARG_CHECKS[kind];
    if (test(value)) {
      given.push([field, value]);
      continue;
    }
    // A list of the wrong items names the first of them: "an array" is what it is, not what is wrong.
    const itemKind = kind === 'objects' ? 'object' : kind === 'strings' || kind === 'iterable' ? 'string' : undefined;
    const item = itemKind !== undefined && Array.isArray(value) ? value.findIndex((x) => !ARG_CHECKS[itemKind][0](x)) : -1;
    const message =
      value === undefined
        ? `${name}: ${field} is missing`
        : item >= 0
          ? `${name}: ${field}[${item}] must be ${ARG_CHECKS[itemKind!][1]}, not ${typeName((value as unknown[])[item])}`
          : `${name}: ${field} must be ${expected}, not ${typeName(value)}`;
    throw new UsageError(message, HINT, { field });
  }
  for (const [field, value] of given) {
    // Of the right type, an object may still lack a field the function reads, or hold one of the wrong type.
    const problem = Object.hasOwn(shapes, field) ? shapes[field]!(value) : undefined;
    if (problem)
      throw new UsageError(`${name}: ${field}${problem.at} ${problem.says}`, HINT, {
        field: `${field}${problem.at}`,
        ...(problem.allowed ? { allowed: problem.allowed } : {}),
      });
  }
}

/**
 * A caller's callback whose answer the function goes on with (`keyOf` of resolveEffective): an answer not of `kind`
 * is refused naming `field()`, as an argument is. Read as it is, `undefined` for every text key would make one
 * invariant shadow all the others.
 */
export function checkedAnswer<F extends (...args: never[]) => unknown>(name: string, field: string, kind: ArgKind, fn: F): F {
  return function (this: unknown, ...args: Parameters<F>) {
    const answer = fn.apply(this, args);
    const [test, expected] = ARG_CHECKS[kind];
    if (!test(answer))
      throw new UsageError(`${name}: ${field}() must answer ${expected}, not ${typeName(answer)}`, HINT, { field: `${field}()` });
    return answer;
  } as F;
}

/**
 * A public function of the library (src/index.ts) that refuses arguments of the wrong kind first (refuseArgs), and
 * with `shapes` (by argument name) an object argument whose fields are missing or of the wrong type.
 */
export function checkedArgs<F extends (...args: never[]) => unknown>(
  name: string,
  fn: F,
  params: readonly ArgSpec[],
  shapes?: Readonly<Record<string, Shape>>,
): F {
  const isAsync = Object.prototype.toString.call(fn) === '[object AsyncFunction]';
  // refuseArgs takes null for an optional argument left out: the function gets it as left out, its default applied.
  const optional = params.map((p) => p.endsWith('?'));
  const iterables = params.flatMap((p, i) => (/: iterable\??$/.test(p) ? [i] : []));
  const checked = function (this: unknown, ...args: unknown[]) {
    try {
      // Its items are checked, and a generator read once: the function is given them as an array.
      for (const i of iterables) if (isIterable(args[i]) && !Array.isArray(args[i])) args[i] = [...(args[i] as Iterable<unknown>)];
      refuseArgs(name, params, args, shapes);
    } catch (error) {
      // An async function's caller waits on its promise (`.catch`), so the refusal is that promise's, not a throw.
      if (isAsync) return Promise.reject(error);
      throw error;
    }
    const given = args.map((a, i) => (a === null && optional[i] === true ? undefined : a));
    return (fn as unknown as (...a: unknown[]) => unknown).apply(this, given);
  };
  // Its own name, whatever the bundler calls the function it wraps.
  Object.defineProperty(checked, 'name', { value: name });
  Object.defineProperty(checked, 'length', { value: fn.length });
  return checked as unknown as F;
}
