// What a schema asks of a value, said in words: the regular expressions a person writing a store file by hand meets
// most, and the bounds of lengths and counts with what the value has. A message that quotes `^[^\s,][^,]{0,63}$`, or
// says "must NOT have more than 2000 characters" of a text of unknown length, leaves the reader to work it out.
import { MAX_TEXT_LENGTH } from './limits.ts';

const WORDS: Readonly<Record<string, string>> = {
  '^[0-7][0-9A-HJKMNP-TV-Z]{25}$': 'is not a ULID (26 characters of Crockford base32, upper case)',
  '\\S': `is blank: write the text (at most ${MAX_TEXT_LENGTH} characters)`,
  '^[^\\s,][^,]{0,63}$': 'must be 1 to 64 characters, hold no comma and start with no white space',
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2}))?$':
    // A lower-case "t" or "z" is RFC 3339 too, but not how the store keeps it: said, so that "not RFC 3339" is never said of one.
    'is not a date (YYYY-MM-DD) nor an RFC 3339 date-time as the store keeps one (2026-12-31T18:00:00Z: T and Z in upper case, an offset as +01:00)',
  '^(?:[a-z0-9][a-z0-9._-]{0,63}:)?[a-z0-9][a-z0-9._-]{0,63}/[a-z0-9][a-z0-9._-]{0,63}$':
    'is not an action template (ns/name, or source:ns/name for a policy source\'s; names in lower case a-z, 0-9, ".", "_" and "-")',
  '^[^-\\s][^\\s]*$': 'holds white space or starts with "-", which a program given it would read as an option',
  '^[a-z0-9][a-z0-9._-]{0,63}$': 'is not a name (lower case a-z, 0-9, ".", "_" and "-", starting with a letter or digit, at most 64)',
  '^[^\\s]{1,200}$': 'is not a tool name (1 to 200 characters, no white space)',
  '^[^/\\u0000-\\u001f][^\\u0000-\\u001f]*$':
    'is not a path from the top of the repository (it starts with "/", or holds a control character)',
  '^(?:[0-9a-f]{40}|[0-9a-f]{64})$': 'is not a full commit id (40 or 64 hexadecimal digits, lower case)',
  '^(?!-)[A-Za-z0-9._/+-]+$':
    'is not a ref (a tag, branch or commit id of A-Z, a-z, 0-9, ".", "_", "/", "+" and "-", not starting with "-")',
  '^[0-9a-z]{1,16}$': 'is not a text hash as `agents import` writes it (1 to 16 digits and lower-case letters)',
  '^sha256:[0-9a-f]{64}$': 'is not a digest ("sha256:" and 64 hexadecimal digits, lower case)',
};

/** `what` (the key and its value) followed by what a value failing the schema pattern `pattern` must be; undefined for a pattern not described here. */
export function patternWords(pattern: string, what: string): string | undefined {
  const words = Object.hasOwn(WORDS, pattern) ? WORDS[pattern] : undefined;
  return words === undefined ? undefined : `${what} ${words}`;
}

/**
 * `where` against a bound of its length, count or size (`minLength`, `maxLength`, `minItems`, `maxItems`, `minimum`,
 * `maximum`, `minProperties`, with the schema's `limit`), saying what `value` has; undefined for another keyword. A
 * length counts code points, as the schemas' validators count it. `keys`: the keys a mapping may hold, to name.
 */
export function boundWords(keyword: string, limit: number, value: unknown, where: string, keys?: readonly string[]): string | undefined {
  if ((keyword === 'minLength' || keyword === 'maxLength') && typeof value === 'string') {
    const length = [...value].length;
    if (length === 0) return `${where} is empty`;
    return `${where} is ${length} characters long; ${keyword === 'minLength' ? 'at least' : 'at most'} ${limit}`;
  }
  if ((keyword === 'minItems' || keyword === 'maxItems') && Array.isArray(value)) {
    if (value.length === 0) return `${where} is an empty list; give at least ${limit} item${limit === 1 ? '' : 's'}, or remove the key`;
    return `${where} holds ${value.length} items; ${keyword === 'minItems' ? 'at least' : 'at most'} ${limit}`;
  }
  if ((keyword === 'minimum' || keyword === 'maximum') && typeof value === 'number')
    return `${where} is ${value}; ${keyword === 'minimum' ? 'at least' : 'at most'} ${limit}`;
  if (keyword === 'minProperties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const count = Object.keys(value).length;
    const given = count === 0 ? 'holds no key' : `holds ${count} key${count === 1 ? '' : 's'}`;
    return `${where} ${given}; give at least ${limit}${keys && keys.length > 0 ? ` of ${keys.join(', ')}` : ''}, or remove it`;
  }
  return undefined;
}
