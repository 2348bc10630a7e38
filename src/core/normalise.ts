/**
 * The de-duplication key of an invariant's text (SPEC 5): Unicode NFKC, trimmed,
 * runs of white space folded to one space, lower-cased. Two texts with equal
 * keys are the same constraint.
 */
const ASCII = /^[\x00-\x7f]*$/;

export function textKey(text: string): string {
  // ASCII is its own NFKC form: skip the (costly) normalisation for it.
  const normal = ASCII.test(text) ? text : text.normalize('NFKC');
  return normal.trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Trims text as writers store it; inner white space is kept as the author wrote it. */
export function cleanText(text: string): string {
  return text.trim();
}
