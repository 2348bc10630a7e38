// Which existing names a given one was probably meant to be: for "did you
// mean …?" on unknown projects and subcommands, and for refusing a new project
// whose name is a likely typo of an existing one (docs/commands.md, "Projects").
import leven from 'leven';

/**
 * Levenshtein distance between `a` and `b` (insertions, deletions and
 * substitutions, by UTF-16 unit), or `max + 1` once it is certain to exceed
 * `max`. The distance is `leven`'s (docs/adr/0102-closest-name-distance-from-leven.md).
 */
export function editDistance(a: string, b: string, max = Number.MAX_SAFE_INTEGER): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d = leven(a, b, { maxDistance: max + 1 });
  return d > max ? max + 1 : d;
}

/** A name with case and separators (`-`, `_`, `.`, white space) dropped: `Billing_API` and `billing-api` fold alike. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

/** Names within this many edits of each other count as close. */
export const CLOSE_EDITS = 2;

/**
 * Whether `a` and `b` are different names close enough that one is likely a
 * slip for the other: equal once case and separators are dropped, or within
 * {@link CLOSE_EDITS} edits (for names of at least 3 characters, so that
 * `qa` and `ui` are not called alike).
 */
export function isCloseName(a: string, b: string): boolean {
  if (a === b) return false;
  if (foldName(a) === foldName(b)) return true;
  if (Math.min(a.length, b.length) < 3) return false;
  return editDistance(a.toLowerCase(), b.toLowerCase(), CLOSE_EDITS) <= CLOSE_EDITS;
}

/**
 * The candidates closest to `name`, best first: those equal after folding,
 * then those within a few edits (at most a third of the name's length, at
 * least one, and never more than {@link CLOSE_EDITS}), then those that start
 * with it or that it starts with. At most `limit`; none when nothing is
 * close, so a caller never suggests an unrelated name.
 */
export function closestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const folded = foldName(name);
  const lower = name.toLowerCase();
  const allowed = Math.min(CLOSE_EDITS, Math.max(1, Math.floor(lower.length / 3)));
  const scored: { name: string; score: number }[] = [];
  for (const c of new Set(candidates)) {
    if (c === name) continue;
    const cl = c.toLowerCase();
    let score: number;
    if (foldName(c) === folded) score = 0;
    else {
      // Two neighbouring letters swapped (`sbu` for `sub`) is one slip of the fingers, not two edits.
      const d = swappedOnce(lower, cl) ? 1 : editDistance(lower, cl, allowed);
      if (d <= allowed) score = d;
      else if (lower.length >= 3 && (cl.startsWith(lower) || lower.startsWith(cl))) score = allowed + 1;
      else continue;
    }
    scored.push({ name: c, score });
  }
  // Candidates are distinct (a set): no two names tie.
  scored.sort((x, y) => x.score - y.score || (x.name < y.name ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.name);
}

/** Whether `b` is `a` with one pair of neighbouring characters swapped. */
function swappedOnce(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** "did you mean billing?" / "did you mean billing or billings?" or '' when there is nothing to suggest. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  if (suggestions.length === 1) return `did you mean ${suggestions[0]}?`;
  return `did you mean ${suggestions.slice(0, -1).join(', ')} or ${suggestions[suggestions.length - 1]}?`;
}

/** A hint that starts with "Did you mean …?" when there is something to suggest, then `rest`. */
export function hintWithGuess(suggestions: readonly string[], rest: string): string {
  const guess = didYouMean(suggestions);
  return guess ? `D${guess.slice(1)} ${rest}` : rest;
}

/**
 * The names a message lists: all of a few; the first `shown` (10 unless
 * given) and a count of the rest when there are many (a store of a thousand
 * projects is not one line of a thousand names), with `more` saying where
 * to see them all; "(none)" for none.
 */
export function someNames(names: readonly string[], { shown = 10, more }: { shown?: number; more?: string } = {}): string {
  if (names.length === 0) return '(none)';
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more${more ? ` (${more})` : ''}`;
}
