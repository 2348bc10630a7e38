import { skeleton } from './skeleton.ts';

const ASCII = /^[\x00-\x7f]*$/;
/** ASCII white space that folding would change: anything but a single space. */
const FOLD_ASCII = /[\t\n\v\f\r]| {2}/;

/** A text's letters without their accents ("déjà vu" → "deja vu"), as a name or tag made of it spells them in ASCII. */
export function withoutAccents(text: string): string {
  return ASCII.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * The de-duplication key of an invariant's text (docs/resolution.md): Unicode NFKC, trimmed,
 * runs of white space folded to one space, lower-cased, invisible characters
 * dropped and look-alike letters read as the Latin ones (./skeleton.ts). Two
 * texts with equal keys are the same constraint.
 */
export function textKey(text: string): string {
  // ASCII is its own NFKC form: skip the (costly) normalisation for it.
  if (ASCII.test(text)) {
    const t = text.trim();
    // Only single spaces inside: nothing to fold.
    return (FOLD_ASCII.test(t) ? t.replace(/\s+/g, ' ') : t).toLowerCase();
  }
  return skeleton(text.normalize('NFKC').toLowerCase()).trim().replace(/\s+/gu, ' ');
}

/**
 * A tag as the store keeps it: trimmed, in Unicode NFC. Two spellings of one word (é as one code point, or e and its
 * combining accent, as macOS file names and some keyboards give it) are one tag, not two that look the same.
 */
export function cleanTag(tag: string): string {
  const t = tag.trim();
  return ASCII.test(t) ? t : t.normalize('NFC');
}

/** The tags a comma-separated answer gives, as the store keeps them: each cleaned, none empty, each once, in order. */
export function typedTags(typed: string): string[] {
  return [...new Set(typed.split(',').map(cleanTag))].filter((t) => t !== '');
}

/** Trims text as writers store it; inner white space is kept as the author wrote it. */
export function cleanText(text: string): string {
  return text.trim();
}
