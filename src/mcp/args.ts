import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { closestNames, hintWithGuess } from '../core/closest.ts';
import { missingArgument, UsageError } from '../core/errors.ts';
import { typeName } from '../core/input-shape.ts';
import { codePointLength, truncate } from '../core/names.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { LONE_SURROGATE } from '../core/utf8.ts';

/** The input schema of a tool (docs/mcp.md): flat arguments, strings, booleans and lists of fixed choices. */
export interface PropertySchema {
  type: 'string' | 'boolean' | 'array';
  /** A list's items: strings of fixed choices (`plan_status`'s `allow`, as the CLI's repeatable `--allow`). */
  items?: { type: 'string'; enum: readonly string[] };
  description: string;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  /** A regular expression the whole value matches (anchored): a value of a fixed form, a digest. */
  pattern?: string;
}

export interface InputSchema {
  type: 'object';
  properties: Record<string, PropertySchema>;
  required?: readonly string[];
  additionalProperties: false;
}

const HINT = "See the tool's input schema (tools/list) for its arguments.";

// The arguments an agent copies from an answer (ids, cursors, set digests): white space around one is dropped before
// the schema checks its length or form, as the CLI's normalisePrefix drops it around an id, so that a value copied
// with its line break is taken, never refused as one character too long or not of its form.
const trimmedArgs = new WeakSet<PropertySchema>();

/** `schema`, for a value copied from an answer: checkArgs drops the white space around it first. */
export function trimmed<T extends PropertySchema>(schema: T): T {
  trimmedArgs.add(schema);
  return schema;
}

/** An argument that names an invariant or a plan: its full id (a 26-character ULID) or a unique prefix of 4 or more. */
export function idArg(description: string): PropertySchema {
  return trimmed({ type: 'string', description, minLength: 1, maxLength: 26 });
}

// One validator per schema, compiled on a tool's first call or once the tools are listed:
// ajv is loaded then, never on the way to `initialize` or the listing.
let ajv: Promise<Ajv> | undefined;
const compiled = new WeakMap<InputSchema, ValidateFunction>();

async function validatorOf(schema: InputSchema): Promise<ValidateFunction> {
  let v = compiled.get(schema);
  if (!v) {
    ajv ??= import('ajv').then((m) => {
      // ajv is CommonJS: bundled, its exports come under `default`; run from the sources, as named exports.
      const { Ajv } = (m.Ajv ? m : (m as unknown as { default: typeof m }).default) as typeof m;
      return new Ajv({ strict: true, allErrors: false });
    });
    v = (await ajv).compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/** Compiles the validators ahead of the first call. */
export async function prepareArgs(schemas: readonly InputSchema[]): Promise<void> {
  for (const schema of schemas) await validatorOf(schema);
}

/** An ajv error as the usage error a person (or a model) can act on: the argument named, and what it must be. */
function usageError(tool: string, schema: InputSchema, e: ErrorObject, args: Record<string, unknown>, hint: string): UsageError {
  // An item of a list is at `/key/index`: the argument named is the list, the value the item.
  const [key = '', index] = e.instancePath.replace(/^\//, '').split('/');
  const value = index === undefined ? args[key] : (args[key] as unknown[])[Number(index)];
  switch (e.keyword) {
    // The codes and details the CLI gives the same mistakes with its options and arguments (docs/json-output.md).
    case 'additionalProperties': {
      const known = Object.keys(schema.properties);
      const name = String(e.params.additionalProperty);
      const suggestions = closestNames(name, known);
      return new UsageError(
        `${tool}: unknown argument "${truncate(escapeUnsafe(name))}"`,
        hintWithGuess(suggestions, known.length ? `Its arguments are ${known.join(', ')}.` : `${tool} takes no arguments.`),
        { arguments: [name], suggestions },
        'unknown-option',
      );
    }
    case 'required': {
      const name = String(e.params.missingProperty);
      return missingArgument(`${tool}: missing required argument "${name}"`, hint, tool, name);
    }
    case 'type':
      return new UsageError(
        `${tool}: argument "${key}"${index === undefined ? '' : `'s items`} must be ${e.params.type === 'array' ? 'an' : 'a'} ${String(e.params.type)}, not ${typeName(value)}`,
        hint,
      );
    case 'enum': {
      const allowed = e.params.allowedValues as string[];
      const suggestions = closestNames(String(value), allowed);
      return new UsageError(
        `${tool}: argument "${key}" must be one of ${allowed.join(', ')}, not "${truncate(escapeUnsafe(String(value)))}"`,
        hint,
        { option: key, value, suggestions },
        'invalid-value',
      );
    }
    case 'minLength':
      // A schema may ask for more than one character (an answer of JSON, at least `{}`): a short value is not an empty one.
      return new UsageError(
        codePointLength(String(value)) === 0
          ? `${tool}: argument "${key}" is empty`
          : `${tool}: argument "${key}" is shorter than ${String(e.params.limit)} characters`,
        hint,
      );
    case 'maxLength':
      return new UsageError(
        `${tool}: argument "${key}" is ${codePointLength(String(value))} characters long; the limit is ${String(e.params.limit)}`,
        hint,
      );
    case 'pattern':
      // A value of a fixed form (a digest): the form is named, and the value refused, as a choice's is.
      return new UsageError(
        `${tool}: argument "${key}" must match ${String(e.params.pattern)}, not "${truncate(escapeUnsafe(String(value)))}"`,
        hint,
        { option: key, value, suggestions: [] },
        'invalid-value',
      );
    default:
      return new UsageError(`${tool}: argument "${key}" ${e.message ?? 'is not valid'}`, hint);
  }
}

/**
 * Checks a tool call's arguments against the input schema the tool publishes
 * (with ajv, so the check is the schema itself). Clients do not have to
 * validate before calling, and a model's arguments are often a little off:
 * each mistake is a usage error naming the argument, reported as the tool's
 * error result like any other bad input. `hint` says where the arguments are listed (a prompt's are not in tools/list).
 */
export async function checkArgs(
  tool: string,
  schema: InputSchema,
  args: unknown,
  hint = HINT,
): Promise<Record<string, string | boolean | string[]>> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new UsageError(`${tool}: the arguments must be an object`, hint);
  // An explicit null is how some clients say "not given".
  const given = Object.fromEntries(Object.entries(args as Record<string, unknown>).filter(([, v]) => v !== null));
  for (const [key, value] of Object.entries(given))
    if (typeof value === 'string' && Object.hasOwn(schema.properties, key) && trimmedArgs.has(schema.properties[key]!))
      given[key] = value.trim();
  const validate = await validatorOf(schema);
  if (!validate(given)) {
    // ajv checks `required` first: a misspelt required argument (`plam` for `plan`) is the slip behind the missing
    // one, so it is named, with the closest names, as the CLI names an unknown option before the argument it took.
    const unknown =
      validate.errors![0]!.keyword === 'required' ? Object.keys(given).find((k) => !Object.hasOwn(schema.properties, k)) : undefined;
    const error: ErrorObject =
      unknown === undefined
        ? validate.errors![0]!
        : {
            keyword: 'additionalProperties',
            instancePath: '',
            schemaPath: '#/additionalProperties',
            params: { additionalProperty: unknown },
          };
    throw usageError(tool, schema, error, given, hint);
  }
  // White space alone is no value: a required text of blanks (`details: "   "`) would be stored as none.
  for (const [key, value] of Object.entries(given))
    if (typeof value === 'string' && schema.properties[key]?.minLength !== undefined && value.trim() === '')
      throw new UsageError(`${tool}: argument "${key}" is empty`, hint);
  // A lone surrogate (half of a UTF-16 pair) has no UTF-8 form: written, it would become U+FFFD, a text nobody sent.
  for (const [key, value] of Object.entries(given))
    if (typeof value === 'string' && LONE_SURROGATE.test(value))
      throw new UsageError(
        `${tool}: argument "${key}" is not valid Unicode text (it holds half of a surrogate pair)`,
        'Send the text as the client has it, with each character whole.',
        { argument: key },
      );
  return given as Record<string, string | boolean | string[]>;
}
