/**
 * Which language an instruction file is written in, as far as the import's
 * rule words need (rule-wording.ts judges English): English, or another whose
 * rules the review shows as they stand. Pure.
 */

/** Short words of English prose, and of the languages of Latin letters instruction files are most written in besides. */
const ENGLISH_WORDS =
  'the a an and or of to in on for with by from at as is are be not no do does use this that these it its you your ' +
  'we our all any each when if then than before after always never must should only can will';
const OTHER_WORDS =
  'der das und ist nicht mit für ein eine einen dem den des wir sie immer keine nie oder auf werden wird sind zu auch ' +
  'le la les des et est pas pour avec une du ne que qui dans ce sur toujours jamais vous nous sont ' +
  'el los las y es para con una del en se siempre nunca por lo como más os um não com sempre é il di che non per mai gli';
/** The longest of those words: a longer one is neither. */
const SHORT_WORD = 8;
const ENGLISH_LIST = Object.freeze(ENGLISH_WORDS.split(' '));
const OTHER_LIST = Object.freeze(OTHER_WORDS.split(' '));

/** A word of ASCII letters as a number: its letters (a–z as 1–26, either case) in base 32, so no two words share one. */
function letterCode(word: string): number {
  let code = 0;
  for (let k = 0; k < word.length; k++) code = code * 32 + ((word.charCodeAt(k) | 32) - 96);
  return code;
}

/**
 * The listed words of ASCII letters by letter code: 1 for English, 2 for another language (English's entry kept for a
 * word in both lists). Made for each call: core modules keep no module-level Map.
 */
function wordsByCode(): Map<number, number> {
  const out = new Map<number, number>();
  for (const [list, kind] of [
    [ENGLISH_LIST, 1],
    [OTHER_LIST, 2],
  ] as const)
    for (const w of list) if (/^[a-z]+$/.test(w) && !out.has(letterCode(w))) out.set(letterCode(w), kind);
  return out;
}

/** A line that opens or closes a fence, as the prose scan below reads one. */
const FENCE_LINE = /^\s*(```|~~~)/;
const CODE_SPAN = /`[^`]*`/g;
const WEB_ADDRESS = /\bhttps?:\/\/\S+/g;
const LETTER = /\p{L}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/**
 * Whether a file's prose (its Markdown outside fences and code spans) reads as English, the language the words above
 * judge rules in: it is mostly of Latin letters, and holds no more of another language's short words than of
 * English's. A text too short to tell, or one of terse phrases of neither ("2-space indentation"), is English.
 */
export function readsAsEnglish(lines: readonly string[]): boolean {
  // The prose lines joined into one string, read in one pass: a line cut out of a file reads each character through
  // the file's text, several times slower in a loop than a string of its own.
  const kept: string[] = [];
  let fence = false;
  for (const line of lines) {
    if (FENCE_LINE.test(line)) fence = !fence;
    if (fence) continue;
    kept.push(line.includes('`') || line.includes('://') ? line.replace(CODE_SPAN, ' ').replace(WEB_ADDRESS, ' ') : line);
  }
  const prose = kept.join('\n');
  const byCode = wordsByCode();
  let letters = 0;
  let latin = 0;
  let english = 0;
  let other = 0;
  // Words are runs of letters; ASCII is told by its code, as a whole file is read here, and the rest by the regexes.
  let start = -1;
  // The word's letter code while its letters are ASCII (no string made for it), -1 once one is not.
  let code = 0;
  for (let i = 0; i <= prose.length; ) {
    const c = i < prose.length ? prose.charCodeAt(i) : 32;
    let width = 1;
    let isLetter: boolean;
    if (c < 128) {
      const lower = c | 32;
      isLetter = lower >= 97 && lower <= 122;
      if (isLetter) {
        latin++;
        if (start < 0) code = lower - 96;
        else if (code >= 0) code = i - start < SHORT_WORD ? code * 32 + (lower - 96) : -1;
      }
    } else {
      const ch = String.fromCodePoint(prose.codePointAt(i)!);
      width = ch.length;
      isLetter = LETTER.test(ch);
      if (isLetter) {
        if (LATIN_LETTER.test(ch)) latin++;
        code = -1;
      }
    }
    if (isLetter) {
      letters += width;
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start <= SHORT_WORD) {
        // A word with a letter beyond ASCII is lowered as a string (a few letters lower into two, or into ASCII).
        const kind = code >= 0 ? (byCode.get(code) ?? 0) : languageOfWord(prose.slice(start, i).toLowerCase());
        if (kind === 1) english++;
        else if (kind === 2) other++;
      }
      start = -1;
    }
    i += width;
  }
  // A script of other letters shows in a few words (a Japanese line holds a dozen); a language of Latin letters needs more.
  if (letters >= 10 && latin < letters / 2) return false;
  return !(other >= 3 && other > english);
}

/** 1 when a lowered word is a short word of English, 2 when one of another language, else 0. */
function languageOfWord(word: string): number {
  return ENGLISH_LIST.includes(word) ? 1 : OTHER_LIST.includes(word) ? 2 : 0;
}
