/**
 * The patterns of an invariant's `guard:` (docs/guard.md): write globs take
 * the path-glob syntax of project.yaml (globs.ts); command and content
 * patterns are RE2 regular expressions, matched by re2js in time linear in
 * the text, so a hostile policy source cannot make the hook backtrack
 * without end. Pure; loaded only for a guard that has such a pattern and by the
 * guard commands, never on the plain `list`/`validate` path.
 */
import { RE2JS } from 're2js';
import { guardProblemsWith } from './guard-entries.ts';
import { compileGlob } from './globs.ts';
import type { Guard, GuardKind } from './model.ts';

/** Why `pattern` is not an RE2 regular expression (the engine's message), or undefined when it is one. */
export function regexProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Every problem of a guard, each with the list and index it is at. */
export function guardProblems(guard: Guard): { kind: GuardKind; index: number; problem: string }[] {
  return guardProblemsWith(guard, regexProblem);
}

/** A compiled command or content pattern: whether it occurs anywhere in a text. */
export type TextMatcher = (text: string) => boolean;

/** A pattern compiled by {@link compileRegex}: its matcher, and the size of its program (what one character costs). */
export type CompiledPattern = TextMatcher & { readonly size: number };

/**
 * Nanoseconds one character costs the engine for each instruction of a pattern's program, at most: the highest cost
 * measured on a loaded machine, a little more than doubled (docs/adr/0607-one-pattern-run-bounded-by-a-worker.md).
 */
export const NS_PER_CHARACTER_INSTRUCTION = 100;

/**
 * Whether one run of a pattern of `size` instructions over `characters` of text may outlast `msLeft`: the engine's
 * time is linear in both, so the product bounds it. Such a run is made where it can be stopped (the hook's worker).
 */
export function runMayOutlast(characters: number, size: number, msLeft: number): boolean {
  return (characters * size * NS_PER_CHARACTER_INSTRUCTION) / 1e6 >= msLeft;
}

/**
 * Compiles an RE2 pattern (a valid one: `validate` refuses the others) into an
 * unanchored search over the whole text: `^` and `$` hold only at its real
 * ends (or lines, with `(?m)`), and a match may be as long as the text. The
 * engine is linear in the text and reads the string in place, so neither time
 * nor memory needs windows (the hook's input is at most 16 MiB). A line may
 * end in CRLF or CR as well as LF.
 */
export function compileRegex(pattern: string): CompiledPattern {
  const re = RE2JS.compile(pattern);
  // RE2's `$` holds before "\n" only: a file written with CRLF (or CR) line ends is searched again with "\n" ones, so
  // that `(?m)^DEBUG=true$` holds there too. A second search can only add a match, never take one away.
  const matcher = (text: string) => re.matcher(text).find() || (text.includes('\r') && re.matcher(text.replace(/\r\n?/g, '\n')).find());
  return Object.assign(matcher, { size: programSize(re) });
}

/** The longest program RE2 compiles (its parser's limit on a repeat's size), taken where re2js does not say a program's. */
const LARGEST_PROGRAM = 100_000;

/**
 * The number of instructions of a compiled pattern's program, read from re2js's compiled form (not part of its typed
 * API: a later version that moves it is taken at the largest size, so that a long text goes to the worker).
 */
function programSize(re: RE2JS): number {
  const inst = (re as unknown as { re2Input?: { prog?: { inst?: unknown } } }).re2Input?.prog?.inst;
  return Array.isArray(inst) && inst.length > 0 ? inst.length : LARGEST_PROGRAM;
}

/** A compiled write glob: whether a repository-relative path matches it. */
export function compileWriteGlob(glob: string): (path: string) => boolean {
  return compileGlob(glob);
}
