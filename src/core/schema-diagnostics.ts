/**
 * A schema error of a store file as a diagnostic: at the offending key or value, in words a person writing
 * the file by hand can act on (the closest key, the level a key belongs at, what YAML 1.2 read, a rule said
 * in words rather than as its regular expression).
 */
import type { Diagnostic } from './diagnostics.ts';
import { diagAt, fullParser, nodeAt, type YamlFile } from './yaml-file.ts';
import { yaml11Reads } from './yaml11.ts';
import { errorPath, keyPlaces, pointerKey, SCHEMAS, validatorFor, valueAt, type SchemaError, type SchemaName } from './schemas.ts';
import { closestNames, hintWithGuess } from './closest.ts';
import { boundWords, patternWords } from './schema-words.ts';
import { sourceKeyProblem } from './extends-config.ts';
import { truncate } from './names.ts';
import { yamlScalar } from './export-front-matter.ts';

/** Schema errors of a parsed file, each pointing at the offending key or value. */
export function checkSchema(y: YamlFile, schema: SchemaName): Diagnostic[] {
  const validate = validatorFor(schema);
  if (validate(y.data)) return [];
  // A validator that answers false has set its errors.
  // One error per value: a value that breaks two rules (`model: ""`, empty and off its pattern) is one mistake, said once.
  // A mapping's missing and unknown keys are each a mistake of their own.
  const values = new Set<string>();
  const errors = validate.errors!.filter((e) => {
    if (e.keyword === 'if') return false;
    if (e.keyword === 'required' || e.keyword === 'additionalProperties') return true;
    if (values.has(e.instancePath)) return false;
    values.add(e.instancePath);
    return true;
  });
  return errors.map((e) => schemaDiagnostic(y, e, schema));
}

function schemaDiagnostic(y: YamlFile, e: SchemaError, schema: SchemaName): Diagnostic {
  const path = errorPath(e);
  const node = nodeAt(y, path);
  const where = path.length ? path.join('.') : 'document';
  let offset = node?.range?.[0] ?? 0;
  let message: string;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const keyNode = fullParser(y.syntax).keyNodeOf(node, key);
      if (keyNode?.range) offset = keyNode.range[0];
      const inWhere = path.length ? ` in ${where}` : '';
      // A null key (a line that starts ": ", or `~:`) is the empty string in the data: say what it is.
      if (key === '')
        return diagAt(
          y,
          offset,
          'schema',
          `a key is missing${inWhere} (a null key: ": value" or "~: value")`,
          'Write the key before the colon, or remove the line.',
        );
      // YAML 1.1's merge key reads as a key of its own in YAML 1.2: the keys it was meant to bring in are not there.
      if (key === '<<')
        return diagAt(
          y,
          offset,
          'schema',
          `merge key "<<"${inWhere}: store files are YAML 1.2, which has no merge keys, so the keys it names are not read`,
          'Write the keys out in place of "<<: *alias".',
        );
      message = `unknown key "${cut(key)}"${inWhere}`;
      const guesses = closestNames(key, allowedKeys(schema, e.schemaPath));
      // Spelt right but written at another level (`allow_overlap:` at the top, not under `projects:`): said where it goes.
      const here = path
        .map((p) => (/^\d+$/.test(p) ? '[]' : `.${p}`))
        .join('')
        .replace(/^\./, '');
      const places = guesses.length > 0 ? [] : keyPlaces(schema, key).filter((p) => p !== here);
      if (places.length > 0)
        return diagAt(
          y,
          offset,
          'schema',
          message,
          `"${cut(key)}" belongs ${places.map(placeWords).join(' or ')}, not ${placeWords(here)}: move it there.`,
        );
      return diagAt(
        y,
        offset,
        'schema',
        message,
        hintWithGuess(guesses, `Remove "${cut(key)}" or fix its spelling; ${schema} lists the allowed keys.`),
      );
    }
    case 'required':
      message = `missing required key "${String(params.missingProperty)}"${path.length ? ` in ${where}` : ''}`;
      // An invariant written by hand without an id: --fix gives it one (docs/validation.md), which no hand need do.
      if (schema === 'invariant.schema.json' && path.length === 0 && params.missingProperty === 'id')
        return diagAt(y, offset, 'schema', message, 'Run `agents validate --fix` to give it an id and name the file after it.');
      break;
    case 'enum': {
      const allowed = params.allowedValues as unknown[];
      message = `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
      // `severity: warn`, `targets: [claude]`: a slip for one of the values, guessed as a misspelt key is.
      const value = valueAt(y.data, path);
      const guesses =
        typeof value === 'string'
          ? closestNames(
              value,
              allowed.filter((v): v is string => typeof v === 'string'),
            )
          : [];
      if (guesses.length > 0)
        return diagAt(
          y,
          offset,
          'schema',
          message,
          hintWithGuess(guesses, `Correct the value; ${schema} (in schemas/) describes every key.`),
        );
      break;
    }
    case 'type': {
      message = `${where} must be of type ${String(params.type)}`;
      const value = valueAt(y.data, path);
      const written = node && cut(y.source.slice(node.range![0], node.range![1]));
      // `"false"` where a boolean goes: the quotes make it text in every YAML, whatever it spells.
      if (typeof value === 'string' && params.type !== 'string' && isQuoted(node) && yaml11Reads(value))
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${written} is quoted, so it is a string`,
          params.type === 'boolean' ? 'Write true or false without quotes.' : 'Write the number without quotes.',
        );
      // `no`, `on` or `1_000` where a boolean or number goes: YAML 1.1 read them so, YAML 1.2 (the store's) reads text.
      if (typeof value === 'string' && params.type !== 'string' && yaml11Reads(value))
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${quoted(value)} is a string in YAML 1.2, which store files are written in`,
          params.type === 'boolean' ? 'Write true or false.' : 'Write the number in digits alone (no underscores, no leading zero).',
        );
      // `1e3`, `yes`-like `true`, `~` or `0x10` where text goes: YAML 1.2 reads the plain scalar as another type.
      if (params.type === 'string' && (value === null || typeof value === 'number' || typeof value === 'boolean') && isPlain(node)) {
        const read = value === null ? 'null' : `a ${typeof value}`;
        if (!written) return diagAt(y, offset, 'schema', `${message}: the value is missing`, 'Write the value, or remove the line.');
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${written} is ${read} in YAML 1.2`,
          `Quote it (${JSON.stringify(written)}) to write it as text.`,
        );
      }
      // `guard:` or `active:` with nothing after it, as `text:` above: the key written, its value not yet.
      if (value === null && !written && isPlain(node))
        return diagAt(y, offset, 'schema', `${message}: the value is missing`, 'Write the value, or remove the line.');
      // `paths: src/**` where a list goes: one value, which a list of one holds.
      if (params.type === 'array' && value !== null && typeof value !== 'object' && written) {
        // But the actor's command is an argv run without a shell: `node actor.mjs` as one item names no program.
        const argv = schema === 'config.schema.json' && path.join('.') === 'reconciliation.command' && typeof value === 'string';
        return diagAt(
          y,
          offset,
          'schema',
          `${message}: ${written} is one value, not a list`,
          argv
            ? `Write the program and each of its arguments as an item (run without a shell): [${value.trim().split(/\s+/).map(flowItem).join(', ')}].`
            : `Write it as a list: [${written}], or one "- item" line per item.`,
        );
      }
      break;
    }
    case 'uniqueItems': {
      // ajv's words ("must NOT have duplicate items (items ## 1 and 0 are identical)") name no value; placed at the later copy.
      // Which of ajv's `i` and `j` is the later copy depends on the items' schema (a map walk or a pairwise walk), so order them here.
      const earlier = Math.min(Number(params.i), Number(params.j));
      const later = Math.max(Number(params.i), Number(params.j));
      const item = (valueAt(y.data, path) as unknown[] | undefined)?.[later];
      const lineOf = (index: number) => {
        const node = nodeAt(y, [...path, String(index)]);
        return node?.range ? y.lines.linePos(node.range[0]).line : undefined;
      };
      const copy = nodeAt(y, [...path, String(later)]);
      if (copy?.range) offset = copy.range[0];
      const [first, second] = [lineOf(earlier), lineOf(later)];
      const lines = first !== undefined && second !== undefined && first !== second ? `, lines ${first} and ${second}` : '';
      message = `${where} holds ${quoted(item)} twice (items ${earlier} and ${later}${lines})`;
      return diagAt(y, offset, 'schema', message, `Remove one of the two; each of ${where} is listed once.`);
    }
    case 'const':
      // The validator's own words ("must be equal to constant") do not say which value.
      message = `${where} must be ${JSON.stringify(params.allowedValue)}, not ${quoted(valueAt(y.data, path))}`;
      break;
    case 'pattern':
      if (path.length === 1 && path[0] === 'id') {
        return diagAt(
          y,
          offset,
          'id-invalid',
          `id ${quoted(y.data && (y.data as { id?: unknown }).id)} is not a ULID (26 characters of Crockford base32, upper case)`,
          'Ids are made by the CLI; copy a valid one or run `agents invariant add`.',
        );
      }
      // The rule in words where the regular expression is one a hand edit meets (a ULID, a tag, a date).
      message =
        patternWords(String(params.pattern), `${where} ${quoted(valueAt(y.data, path))}`) ??
        `${where} has an invalid format (must match ${String(params.pattern)})`;
      // A key of a policy source: the rule in words, not the schema's regular expression.
      if (schema === 'config.schema.json' && path.length === 3 && path[0] === 'extends') {
        const words = sourceKeyProblem(path[2]!, valueAt(y.data, path), where);
        if (words) return diagAt(y, offset, 'schema', words.message, words.hint);
      }
      break;
    case 'format':
      message = `${where} must be a ${String(params.format)} (RFC 3339, e.g. 2026-11-29T12:00:00Z)`;
      break;
    case 'not':
      // The validator's own words ("must NOT be valid") say nothing of the value: name the value refused.
      message = `${where} cannot be ${quoted(valueAt(y.data, path))}`;
      break;
    default:
      message =
        boundWords(e.keyword, Number(params.limit), valueAt(y.data, path), where, allowedKeys(schema, e.schemaPath)) ??
        `${where} ${e.message ?? 'is invalid'}`;
  }
  return diagAt(y, offset, 'schema', message, `Correct the value; ${schema} (in schemas/) describes every key.`);
}

/**
 * A word as an item of a YAML flow list: the export's plain-when-safe scalar, quoted too when it holds a flow
 * list's own punctuation, which would end or split the item.
 */
export function flowItem(word: string): string {
  return /[,[\]{}]/.test(word) ? JSON.stringify(word) : yamlScalar(word);
}

/** Whether a node is a quoted scalar (`"no"`, `'1'`): text in every YAML, whatever it spells. */
function isQuoted(node: unknown): boolean {
  const type = (node as { type?: unknown } | undefined)?.type;
  return type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE';
}

/** Whether a node is a plain scalar (`1e3`, `~`, or nothing after the colon), whose type YAML 1.2 infers from its spelling. */
function isPlain(node: unknown): boolean {
  return node === undefined || (node as { type?: unknown }).type === 'PLAIN';
}

/** Where a mapping of `keyPlaces` is, in words: `at the top level`, `under projects`, `in an entry of extends`. */
function placeWords(place: string): string {
  if (place === '') return 'at the top level';
  return place.endsWith('[]') ? `in an entry of ${place.slice(0, -2)}` : `under ${place}`;
}

/**
 * The keys the schema allows where `schemaPath` (an additionalProperties error's, `#/properties/source/additionalProperties`)
 * points: the candidates for a misspelt key. None when the pointer leads nowhere in the schema.
 */
function allowedKeys(schema: SchemaName, schemaPath: string): string[] {
  let at: unknown = SCHEMAS[schema];
  for (const segment of schemaPath.split('/').slice(1, -1)) at = (at as Record<string, unknown> | undefined)?.[pointerKey(segment)];
  const properties = (at as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** How many characters of a key or value a message quotes: a store file may hold a megabyte on one line. */
const QUOTED_CHARS = 100;

/** Text a message quotes, a long one cut to its first characters and `…`, as the excerpt under the message is cut. */
function cut(text: string): string {
  return truncate(text, QUOTED_CHARS);
}

/** A value as a message quotes it, in JSON: a long string cut inside its quotes, anything else cut as its JSON text. */
function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(cut(value)) : cut(JSON.stringify(value) ?? String(value));
}
