/**
 * What a text looks like, for de-duplication (docs/resolution.md, "Text
 * keys"): invisible characters dropped and common look-alike letters mapped
 * to the Latin letter they imitate, so that "prod\u200Buction" or
 * "n\u0435ver" (a Cyrillic е) is the same constraint as "production" or
 * "never". An equivalent, for the scripts that matter here, of the UTS #39
 * skeleton; pure, no tables built at run time.
 */

/** Default-ignorable code points (zero-width characters, tag characters, variation selectors, soft hyphen…): they render as nothing. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Lower-case look-alikes of Latin letters (UTS #39 confusables, the Cyrillic,
 * Greek and Latin-extension letters that pass for ASCII in a sentence). Keys
 * are lower-cased first, so upper-case look-alikes (Cyrillic К, Greek Η) are
 * here by their lower-case forms. Within one script every letter maps to a
 * different Latin letter, so texts written in that script keep distinct keys.
 */
const CONFUSABLE: Readonly<Record<string, string>> = Object.freeze({
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ζ: 'z',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  // Latin extensions and Armenian
  ı: 'i',
  ȷ: 'j',
  ɑ: 'a',
  ɡ: 'g',
  ɩ: 'i',
  օ: 'o',
  ս: 'u',
});

const LETTERS = Object.keys(CONFUSABLE).join('');
const CONFUSABLE_RE = new RegExp(`[${LETTERS}]`, 'gu');
/** The same two sets, to test before replacing: most texts hold neither (a test leaves no state, unlike a global pattern's). */
const ANY = new RegExp(`[\\p{Default_Ignorable_Code_Point}${LETTERS}]`, 'u');
const NON_ASCII = /[^\x00-\x7f]/;

/** `text` (already NFKC and lower-cased) without invisible characters, its look-alike letters as the Latin ones, in NFC. */
export function skeleton(text: string): string {
  // Decomposed, as UTS #39 reads it: a look-alike under a mark (ё, or е then U+0301) shows its base letter to the
  // map, and composing again after makes that copy the Latin letter's precomposed form (é, ë), as NFKC left that one.
  // Every character of both sets is outside ASCII: a text all of ASCII is its own skeleton, without decomposing it.
  if (!NON_ASCII.test(text)) return text;
  const parts = text.normalize('NFD');
  if (!ANY.test(parts)) return text;
  return parts
    .replace(INVISIBLE, '')
    .replace(CONFUSABLE_RE, (c) => CONFUSABLE[c] ?? c)
    .normalize('NFC');
}
