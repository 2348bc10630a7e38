// The shape of what a library caller hands the services from JavaScript, where no type is checked
// (docs/library.md): a value of the wrong type is a usage error naming the field, never a TypeError
// from deep inside, nor a string read as its characters.
import { closestNames, didYouMean } from './closest.ts';
import { UsageError } from './errors.ts';

const HINT = 'See docs/library.md for what each method takes.';

/**
 * The options object of a call: left out (undefined, null) reads as empty; anything else not an object is refused.
 * With `fields` (every field the call takes, so the compiler holds the list to the type), a field it does not take
 * is refused too, with the closest names: ignored, `add({…, active: false})` would add an active invariant.
 */
export function inputObject<T extends object>(input: T | undefined | null, what: string, fields?: Record<keyof T, true>): Partial<T> {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new UsageError(`${what} takes an object, not ${typeName(input)}`, HINT);
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
