import { runInNewContext } from 'node:vm';
import { UsageError } from '../core/errors.ts';
import { requiredString } from '../core/input-shape.ts';
import { millisecondsFromEnv } from '../core/env-milliseconds.ts';
import { codePointLength } from '../core/names.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { runEnv } from '../git/run-environment.ts';

/** Longest pattern accepted from a user. */
export const MAX_PATTERN_LENGTH = 1000;
/** Time allowed for one filter run over a whole store. */
export const REGEX_TIME_LIMIT_MS = 2000;

/**
 * The filter's time limit: `AGENTS_REGEX_TIME_LIMIT_MS` (milliseconds), else {@link REGEX_TIME_LIMIT_MS}. Settable so
 * that a test of the limit, or a user on a slow machine, need not wait out (or be held to) the default.
 */
export function regexTimeLimit(env: Record<string, string | undefined> = runEnv()): number {
  return millisecondsFromEnv(env, 'AGENTS_REGEX_TIME_LIMIT_MS', REGEX_TIME_LIMIT_MS, 1);
}

/**
 * Compiles a user's pattern with smart case (as ripgrep): case-insensitive
 * unless the pattern holds an upper-case letter. Its refusals, and filterByRegex's, name the field `pattern`, as every
 * refusal of a value a library method was given does (docs/library.md).
 */
export function compileFilter(given: string): RegExp {
  const pattern = requiredString(given, 'pattern');
  // Characters as every limit of the project counts them (and JSON Schema's maxLength, which the MCP tools' pattern
  // has): code points, so an emoji is one, not the two UTF-16 units of `length`.
  const length = codePointLength(pattern);
  if (length > MAX_PATTERN_LENGTH) {
    throw new UsageError(`regex is ${length} characters long; the limit is ${MAX_PATTERN_LENGTH}`, 'Use a shorter pattern.', {
      field: 'pattern',
    });
  }
  const flags = /\p{Lu}/u.test(pattern.replace(/\\[pP]\{[^}]*\}|\\./g, '')) ? 'u' : 'iu';
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: /, '');
    // One line, the pattern's line breaks escaped (the engine's reason quotes it too): no line of the report is the
    // pattern's. Its backslashes stay as written, not doubled as JSON quoting would.
    throw new UsageError(
      `invalid regex "${escapeUnsafe(pattern)}": ${escapeUnsafe(why)}`,
      'Fix the pattern (JavaScript syntax), or quote it for your shell.',
      {
        field: 'pattern',
      },
    );
  }
}

/**
 * The items whose text matches, with a time guard: a pathological pattern
 * (catastrophic backtracking) stops with a clear error instead of hanging.
 */
export function filterByRegex<T extends { text: string }>(items: readonly T[], re: RegExp): T[] {
  const texts = items.map((i) => i.text);
  const limit = regexTimeLimit();
  let hits: boolean[];
  try {
    hits = runInNewContext('texts.map((t) => re.test(t))', { texts, re }, { timeout: limit }) as boolean[];
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new UsageError(
        `regex "${re.source}" took more than ${limit / 1000} s over ${items.length} texts and was stopped`,
        'Simplify the pattern: nested repetition such as (a+)+ backtracks without end.',
        { field: 'pattern' },
      );
    }
    throw error;
  }
  return items.filter((_, i) => hits[i]);
}
