/**
 * The de-duplication key of an invariant's text (SPEC 5): Unicode NFKC, trimmed,
 * runs of white space folded to one space, lower-cased. Two texts with equal
 * keys are the same constraint.
 */
export function textKey(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Trims text as writers store it; inner white space is kept as the author wrote it. */
export function cleanText(text: string): string {
  return text.trim();
}
