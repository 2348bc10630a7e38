/**
 * The guards' matchers (docs/guard.md): each glob and pattern compiled once
 * for the life of one process, and the literal a pattern's every match holds,
 * which turns a text away before the regular-expression engine is loaded or
 * run. Pure.
 */
import { compileGlob } from './globs.ts';
// Only the type: the regular-expression engine is large, and loaded by the caller only when a pattern must run (see patternsNeeded in guard.ts).
import type { TextMatcher } from './guard-patterns.ts';

/**
 * Compiled matchers, made on first use and kept for one judging (a `guard
 * check`'s whole diff; one call of the hook, `guard try` or MCP
 * `check_action`): the hook's and check_action's stop at that call's deadline
 * (`guard try` has none). `compileRegex` (guard-patterns.ts)
 * is given by the caller, which loads it only when `patternsNeeded` (guard.ts).
 */
export class GuardMatchers {
  readonly #globs = new Map<string, (p: string) => boolean>();
  readonly #regexes = new Map<string, TextMatcher>();
  /**
   * `beforeRun`, called before each run of the engine, may stop the judging by throwing (the hook past its deadline:
   * one run is not interrupted, but a call whose text meets many patterns stops between them).
   */
  constructor(
    readonly compileRegex?: (pattern: string) => TextMatcher,
    readonly beforeRun?: () => void,
  ) {}
  glob(g: string): (p: string) => boolean {
    let m = this.#globs.get(g);
    if (!m) this.#globs.set(g, (m = compileGlob(g)));
    return m;
  }
  /** A pattern's matcher: a text without the pattern's required literal is refused before the engine is asked. */
  regex(p: string): TextMatcher {
    let m = this.#regexes.get(p);
    if (!m) {
      let compiled: TextMatcher | undefined;
      const run = (text: string) => {
        if (!this.compileRegex)
          throw new Error('guard: a pattern must run but no regular-expression engine was given (see patternsNeeded)');
        this.beforeRun?.();
        compiled ??= this.compileRegex(p);
        return compiled(text);
      };
      const literal = requiredLiteral(p);
      this.#regexes.set(p, (m = literal === '' ? run : (text) => text.includes(literal) && run(text)));
    }
    return m;
  }
}

/** A group that only sets flags, at the start of the rest of a pattern. */
const FLAGS_GROUP = /^\(\?[A-Za-z-]*\)/;

/** Characters with a meaning of their own in an RE2 pattern. */
const REGEX_SYNTAX = '\\.+*?()[]{}^$|';

/**
 * What every match of an RE2 pattern holds: the literal characters it starts
 * with (after a leading `^`), or '' when it starts with anything else or has
 * another branch (`|`). A text without them cannot match, so the engine is
 * neither loaded nor run for it.
 */
export function requiredLiteral(pattern: string): string {
  if (pattern.includes('|')) return '';
  let i = pattern.startsWith('^') ? 1 : 0;
  const start = i;
  while (i < pattern.length && !REGEX_SYNTAX.includes(pattern[i]!)) i++;
  // A quantifier after the run applies to its last character alone, which may then be absent: `?`, `*` or `{`, or one
  // after a `+` (`a+(?)*` is `(a+)*`; the lazy `a+?` is taken as one too). A flags group (`(?i)`, `(?)`) matches
  // nothing, so in RE2 a quantifier after it applies to that character as well: `a(?)?` is `a?`.
  const next = pastFlagsGroups(pattern, i);
  const optional =
    '?*{'.includes(pattern[next] ?? 'x') || (pattern[next] === '+' && '?*{+'.includes(pattern[pastFlagsGroups(pattern, next + 1)] ?? 'x'));
  const end = optional ? i - 1 : i;
  return pattern.slice(start, Math.max(start, end));
}

/** Where the flags groups (`(?i)`, `(?)`) that start at `i` of `pattern` end. */
function pastFlagsGroups(pattern: string, i: number): number {
  let at = i;
  for (let group = FLAGS_GROUP.exec(pattern.slice(at)); group; group = FLAGS_GROUP.exec(pattern.slice(at))) at += group[0].length;
  return at;
}
