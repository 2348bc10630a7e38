// The schema gate of every writer (docs/guarantees.md, "Writers never write
// what the reader rejects"): a document is checked against its own JSON
// Schema before its text is made, so no command — including ones added later,
// which all serialize through ./serialize.ts — can leave a file behind that
// every later read refuses with exit 3.
import { UsageError, valueTooLong } from './errors.ts';
import { errorPath, validatorFor, valueAt, type SchemaError, type SchemaName } from './schemas.ts';
import { patternWords } from './schema-words.ts';

/** Where a written value comes from, when the user did not type it as a flag. */
const ORIGIN: Record<string, string> = {
  created_by: "git's author identity (user.name and user.email, or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)",
  text: 'the invariant text',
  violated_text: "the invariant's text",
};

/**
 * What the hint calls a field its writer's caller gave as an option: the service's OptionWords
 * (service/option-words.ts), which are the library's field names or the command line's flags. A writer whose values
 * came from elsewhere (an imported file, an action template) gives none, and the hint names no option.
 */
export type FieldWords = Readonly<Partial<Record<'rationale' | 'goal' | 'details' | 'tags', string>>>;

function wordOf(words: FieldWords | undefined, field: string): string | undefined {
  return words !== undefined && Object.hasOwn(words, field) ? words[field as keyof FieldWords] : undefined;
}

function fieldOf(e: SchemaError): string {
  const path = errorPath(e);
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty?: unknown }).missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty?: unknown }).additionalProperty));
  return path.length ? path.join('.') : 'document';
}

/**
 * Refuses (exit 2, nothing written) a document `schema` would reject. A
 * value over a length limit names the field, its length and the limit; any
 * other mismatch names the field and what the schema wants; the hint names the option a field came from by `words`.
 */
export function assertSchemaValid(schema: SchemaName, rel: string, data: unknown, words?: FieldWords): void {
  const validate = validatorFor(schema);
  if (validate(data)) return;
  // ajv sets errors whenever it refuses, and reports a failed `then` by its own errors
  // first and the `if` after them: the first error says what is wrong.
  const e = validate.errors![0]!;
  const field = fieldOf(e);
  const top = field.split('.')[0]!;
  const where = ORIGIN[top] ? ` (from ${ORIGIN[top]})` : '';
  const option = wordOf(words, top);
  const fix = option ? `Shorten ${option}` : ORIGIN[top] ? `Shorten ${ORIGIN[top]}` : 'Correct the value';
  if (e.keyword === 'maxLength') {
    const limit = Number((e.params as { limit?: unknown }).limit);
    // In characters (code points), as the validators count them.
    const length = [...(valueAt(data, errorPath(e)) as string)].length;
    throw valueTooLong({ file: rel, field, length, limit, schema, where, fix: `${fix} to at most ${limit} characters.` });
  }
  // The generated validators keep ajv's messages (scripts/gen-validators.mjs); a pattern a person meets is said in words.
  const said =
    (e.keyword === 'pattern' &&
      patternWords(String((e.params as { pattern?: unknown }).pattern), `${field} ${JSON.stringify(valueAt(data, errorPath(e)))}`)) ||
    `${field} ${e.message}`;
  throw new UsageError(
    `${said}${where}: ${rel} would not pass ${schema}`,
    `${fix}. Nothing was written.`,
    { file: rel, field, keyword: e.keyword, params: e.params, schema },
    'invalid-document',
  );
}
