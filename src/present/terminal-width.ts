import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';

/**
 * A character that can join the one before it in a grapheme (a mark, a skin tone, a joiner, Thai and Lao SARA AM), or
 * one string-width counts as nothing that terminals draw (the Hangul fillers): text without any is counted right.
 */
const MAY_DIFFER = /[\p{M}\p{Emoji_Modifier}\u0e33\u0eb3\u3164\uffa0]|\u200c|\u200d/u;

/** What a terminal draws of a character that string-width counts as ignorable: the Hangul fillers, wide and narrow. */
const FILLER_COLUMNS: Record<number, number> = { 0x3164: 2, 0xffa0: 1 };

let graphemes: Intl.Segmenter | undefined;

/**
 * The columns a terminal draws of `text` beyond what string-width counts. string-width counts a grapheme (a character
 * as a reader sees one) by its first character; tmux, xterm and VTE draw each character of it in its own columns: a
 * skin tone after its emoji ("👍🏽" in four, not two), Thai SARA AM ("ทำ" in two), the letters and vowel signs of a
 * Devanagari conjunct. A row measured short outgrew the terminal, wrapped and pushed the screen's first line off. So
 * each grapheme counts as the larger of the two; a terminal that joins them leaves columns blank, which moves nothing.
 * ZWJ sequences never reach the terminal whole in a screen: the joiner is escaped (`plain`).
 */
export function extraColumns(text: string): number {
  if (!MAY_DIFFER.test(text)) return 0;
  // What string-width measures: its input without the escape sequences that colour it (Ink measures styled rows).
  const shown = text.includes('\u001b') || text.includes('\u009b') ? stripVTControlCharacters(text) : text;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let extra = 0;
  for (const { segment } of graphemes.segment(shown)) {
    if (!MAY_DIFFER.test(segment)) continue;
    let apart = 0;
    for (const character of segment) apart += FILLER_COLUMNS[character.codePointAt(0)!] ?? stringWidth(character);
    extra += Math.max(0, apart - stringWidth(segment));
  }
  return extra;
}

/**
 * The columns `text` takes in a terminal: string-width's count and what it leaves out (`extraColumns`). The bundle
 * gives Ink the same count (scripts/build.mjs), so that the rows the screens cut and the rows Ink lays out agree with
 * what the terminal draws.
 */
export function terminalWidth(text: string): number {
  return stringWidth(text) + extraColumns(text);
}
