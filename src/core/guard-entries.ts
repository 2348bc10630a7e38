/**
 * The problems of an invariant's `guard:` entries (docs/guard.md). Write
 * globs are checked here; command and content patterns by `regexProblem`,
 * which the caller passes in so that the regular-expression engine
 * (guard-patterns.ts) loads only for a guard that has such a pattern.
 */
import { globProblem } from './globs.ts';
import { GUARD_KINDS, type Guard, type GuardKind } from './model.ts';

/** Why a regular expression is not usable, or undefined when it is. */
export type RegexProblem = (pattern: string) => string | undefined;

/** Why a guard entry is not usable, or undefined when it is. */
export function guardEntryProblem(kind: GuardKind, entry: string, regexProblem: RegexProblem): string | undefined {
  if (kind === 'write') {
    const why = globProblem(entry);
    return why === undefined ? undefined : `write glob "${entry}" ${why}`;
  }
  if (kind === 'tool') return undefined;
  const why = regexProblem(entry);
  return why === undefined ? undefined : `${kind} pattern "${entry}" is not an RE2 regular expression: ${why}`;
}

/** Every problem of a guard, each with the list and index it is at. */
export function guardProblemsWith(guard: Guard, regexProblem: RegexProblem): { kind: GuardKind; index: number; problem: string }[] {
  const out: { kind: GuardKind; index: number; problem: string }[] = [];
  for (const kind of GUARD_KINDS) {
    const list = guard[kind] ?? [];
    list.forEach((entry, index) => {
      const problem = guardEntryProblem(kind, entry, regexProblem);
      if (problem !== undefined) out.push({ kind, index, problem });
    });
  }
  return out;
}
