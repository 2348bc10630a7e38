import { UsageError } from './errors.ts';
import { refuseArgs, requiredString } from './input-shape.ts';
import { MIN_PREFIX, truncate } from './names.ts';
import { quoteText } from './plain-text.ts';

/**
 * The one rule for ids given and printed in short (docs/commands.md, "Ids"):
 * a command takes an id or a unique prefix of at least MIN_PREFIX characters,
 * in any case; every abbreviated id the tool prints is the shortest prefix
 * unique among the ids of the store at that moment, never shorter than
 * MIN_PREFIX, so that it is always accepted back. Pure: callers pass the ids.
 */

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]+$/;

/** What a prefix names among a set of ids. */
export type PrefixMatch =
  | { kind: 'unique'; id: string }
  | { kind: 'ambiguous'; prefix: string; matches: string[] }
  | { kind: 'unknown'; prefix: string }
  /** Shorter than MIN_PREFIX, longer than an id, or not Crockford base32. */
  | { kind: 'invalid'; prefix: string };

/** The prefix as ids are written (upper case), or undefined when it cannot be one. */
export function normalisePrefix(prefix: string): string | undefined {
  // A library caller in JavaScript may hand anything: what is no string is no prefix.
  if (typeof prefix !== 'string') return undefined;
  const wanted = prefix.trim().toUpperCase();
  if (wanted.length < MIN_PREFIX || wanted.length > 26 || !CROCKFORD.test(wanted)) return undefined;
  return wanted;
}

/**
 * Resolves `prefix` among `ids`: an id equal to it wins (a full id is never
 * ambiguous), else the one id that starts with it. Matches come sorted.
 */
export function resolvePrefix(prefix: string, ids: Iterable<string>): PrefixMatch {
  const wanted = normalisePrefix(prefix);
  if (wanted === undefined) return { kind: 'invalid', prefix };
  const matches = new Set<string>();
  for (const id of ids) {
    if (id === wanted) return { kind: 'unique', id };
    if (id.startsWith(wanted)) matches.add(id);
  }
  if (matches.size === 0) return { kind: 'unknown', prefix: wanted };
  if (matches.size === 1) return { kind: 'unique', id: [...matches][0]! };
  return { kind: 'ambiguous', prefix: wanted, matches: [...matches].sort() };
}

/**
 * The id a prefix names, or a usage error (exit 2) that says why: too short
 * or not an id, unknown, or ambiguous (listing the matches). `what` names
 * the kind of id ("invariant", "plan"); `hint` says where to see the ids.
 */
export function pickId(
  prefix: string,
  ids: Iterable<string>,
  what: string,
  hint: string,
  describe: (id: string) => string = (id) => id,
): string {
  // An id that is no string, from a JavaScript caller, is refused as the wrong type of field, never printed
  // (an object without a prototype cannot be).
  requiredString(prefix, 'id');
  // Read twice when unknown (closestIds): an iterator, a map's keys, is read once only.
  const all = [...ids];
  const m = resolvePrefix(prefix, all);
  switch (m.kind) {
    case 'unique':
      return m.id;
    case 'invalid':
      throw new UsageError(
        // Quoted on one line: a line break in what was given (an MCP argument) would start a line of its own, a forged hint.
        `${quoteText(truncate(prefix))} is not ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} id or a prefix of one`,
        `Give the full id or at least ${MIN_PREFIX} of its first characters.${hint ? ` ${hint}` : ''}`,
      );
    case 'unknown':
      throw noSuchId(what, m.prefix, hint, all);
    case 'ambiguous':
      throw new UsageError(
        `${what} id prefix ${m.prefix} is ambiguous; it matches:\n${listedMatches(m.matches, describe)}`,
        'Give more characters of the id.',
        { matches: m.matches },
      );
  }
}

/** How many of an ambiguous prefix's matches its message lists, the others counted: `detail.matches` holds them all. */
const LISTED_MATCHES = 20;

/**
 * The matches of an ambiguous prefix, one a line. A short prefix of a large store matches thousands: listed whole, an
 * MCP tool's error was megabytes of ids for a model to read (or over the limit of a message), where more characters
 * of the id are the answer.
 */
function listedMatches(matches: readonly string[], describe: (id: string) => string): string {
  const lines = matches.slice(0, LISTED_MATCHES).map((id) => `  ${describe(id)}`);
  if (matches.length > LISTED_MATCHES) lines.push(`  … and ${matches.length - LISTED_MATCHES} more`);
  return lines.join('\n');
}

/**
 * The refusal of an id or prefix (in upper case) that names no `what` among `ids`, in the one wording every command and
 * MCP tool gives it (unknownId's code and detail), for a caller that found it missing without pickId.
 */
export function noSuchId(what: string, wanted: string, hint: string | undefined, ids: Iterable<string>): UsageError {
  return unknownId(`no ${what} with id ${wanted.length === 26 ? wanted : `prefix ${wanted}`}`, hint, wanted, ids);
}

/**
 * The ids an ambiguous prefix matches, when `error` is pickId's refusal of one (its `detail.matches`), else
 * undefined: a caller that reports the refusal in its own words says "ambiguous" with them, never "no such id".
 */
export function ambiguousMatches(error: unknown): string[] | undefined {
  if (!(error instanceof UsageError)) return undefined;
  const matches = (error.detail as { matches?: unknown } | undefined)?.matches;
  return Array.isArray(matches) && matches.every((m) => typeof m === 'string') ? matches : undefined;
}

/**
 * An id that names nothing (exit 2, code `unknown-id`, docs/json-output.md), as an unknown project is
 * `unknown-project`: `id` as given (upper case), `suggestions` the ids closest to it by prefix (closestIds).
 */
export function unknownId(
  message: string,
  hint: string | undefined,
  id: string,
  ids: Iterable<string>,
  more: Record<string, unknown> = {},
): UsageError {
  return new UsageError(message, hint, { id, suggestions: closestIds(id, ids), ...more }, 'unknown-id');
}

/**
 * The ids that share the longest start with `wanted` (a mistyped character late in an id), at most `limit`, sorted;
 * none when even the best shares less than MIN_PREFIX characters, which every id of one period shares.
 */
function closestIds(wanted: string, ids: Iterable<string>, limit = 3): string[] {
  let best = MIN_PREFIX;
  let found: string[] = [];
  for (const id of new Set(ids)) {
    const n = commonPrefixLength(wanted, id);
    if (n > best) [best, found] = [n, [id]];
    else if (n === best) found.push(id);
  }
  return found.sort().slice(0, limit);
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  // Past the end of either string charCodeAt gives NaN, which equals nothing: the loop stops there.
  while (a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * The shortest prefixes that tell ids apart, as git abbreviates commits:
 * built once from every id of the store (sorted: an id's closest rivals are
 * its neighbours), then asked for each id printed.
 */
export class IdAbbreviations {
  private readonly sorted: string[];
  private readonly lengths = new Map<string, number>();
  readonly min: number;

  /**
   * Its arguments are checked as the library's functions' are (docs/library.md), here rather than in a subclass of the
   * library's entry: `InvariantService.abbreviations()` answers this class, which a caller must be able to name.
   */
  constructor(ids: Iterable<string>, min?: number) {
    // A min of another type would be read by Math.max as NaN: every abbreviation the empty string.
    refuseArgs('IdAbbreviations', ['ids: iterable', 'min: integer?'], [ids, min]);
    const list = [...ids];
    refuseArgs('IdAbbreviations', ['ids: strings'], [list]);
    this.min = min ?? MIN_PREFIX;
    // Ids are taken in any case (resolvePrefix): they are measured against each other as they are taken.
    this.sorted = [...new Set(list.map((id) => id.toUpperCase()))].sort();
    for (let i = 0; i < this.sorted.length; i++) {
      const id = this.sorted[i]!;
      const before = i > 0 ? commonPrefixLength(id, this.sorted[i - 1]!) : 0;
      const after = i + 1 < this.sorted.length ? commonPrefixLength(id, this.sorted[i + 1]!) : 0;
      this.lengths.set(id, Math.min(id.length, Math.max(this.min, before + 1, after + 1)));
    }
  }

  /**
   * The shortest unique prefix of `id` (at least `min` characters). An id
   * not in the set is measured against it as if it were added.
   */
  short(id: string): string {
    if (typeof id !== 'string') refuseArgs('IdAbbreviations.short', ['id: string'], [id]);
    const key = id.toUpperCase();
    const known = this.lengths.get(key);
    if (known !== undefined) return id.slice(0, known);
    let longest = 0;
    // Binary search for where it would go: its neighbours there are its closest rivals.
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) longest = Math.max(longest, commonPrefixLength(key, this.sorted[lo - 1]!));
    if (lo < this.sorted.length) longest = Math.max(longest, commonPrefixLength(key, this.sorted[lo]!));
    return id.slice(0, Math.min(id.length, Math.max(this.min, longest + 1)));
  }
}

/** The shortest unique prefix of `id` among `ids` (at least MIN_PREFIX characters). */
export function shortestUniquePrefix(id: string, ids: Iterable<string>, min = MIN_PREFIX): string {
  return new IdAbbreviations(ids, min).short(id);
}
