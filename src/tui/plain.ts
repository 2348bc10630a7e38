import { escapeUnsafe } from '../core/plain-text.ts';
import { terminalWidth } from '../present/terminal-width.ts';

/**
 * Text as a screen draws it: what every output escapes escaped (`\u001b`, `\u202e`), and a tab drawn as one space.
 * A terminal moves a tab to its next tab stop, which Ink does not count: a row holding one would be wider than Ink
 * thinks, wrap, and push the screen's first line off the top.
 */
export function plain(text: string): string {
  const escaped = escapeUnsafe(text);
  return escaped.includes('\t') ? escaped.replace(/\t/g, ' ') : escaped;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` without its last character as a reader sees one (a grapheme): Backspace takes "é" written as e and a
 * combining accent, a flag or an emoji with its skin tone whole, not the half that would leave a stray mark.
 */
export function withoutLastCharacter(text: string): string {
  let last = 0;
  for (const { index } of graphemes.segment(text)) last = index;
  return text.slice(0, last);
}

/**
 * `text` cut to `columns` terminal columns, a cut one ending in "…", measured as the terminal draws it. Ink's own
 * truncation keeps a wide character (CJK, an emoji) that crosses the last column but one, so its line is a column too
 * wide and the "…" is clipped off: a line cut here already fits, and Ink leaves it as it is.
 */
export function fitColumns(text: string, columns: number): string {
  if (terminalWidth(text) <= columns) return text;
  if (columns < 1) return '';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = terminalWidth(segment);
    if (used + w > columns - 1) break;
    kept += segment;
    used += w;
  }
  return `${kept}…`;
}

/**
 * `text` in rows of at most `columns` terminal columns, broken at spaces (a word longer than a row where the row
 * ends), and no more than `rows` of them: the last row of a text that runs longer ends in "…". A screen that shows a
 * long text so stays within the terminal's height (Ink clears the whole screen after a frame as tall as it).
 */
export function clipToRows(text: string, columns: number, rows: number): string[] {
  const width = Math.max(1, columns);
  const out: string[] = [];
  let line = '';
  let used = 0;
  const end = () => {
    out.push(line);
    line = '';
    used = 0;
  };
  let first = true;
  for (const word of text.split(' ')) {
    if (out.length > rows) break;
    const w = terminalWidth(word);
    // The text's leading spaces are its own, kept as typed (a field showed "  foo" as "foo"); those at a break go.
    const leading = !first && out.length === 0;
    first = false;
    if ((used > 0 || leading) && used + 1 + w <= width) {
      line += ` ${word}`;
      used += 1 + w;
      continue;
    }
    if (w <= width) {
      if (used > 0) end();
      line = word;
      used = w;
      continue;
    }
    // A word longer than any row starts where the row is: after a label ("text      "), a text without spaces (CJK, a
    // URL) on a row of its own would leave the label's row with nothing of it, and one row to show it only "…".
    if (used > 0 && used + 1 < width) {
      line += ' ';
      used += 1;
    } else if (used > 0) end();
    for (const { segment } of graphemes.segment(word)) {
      const g = terminalWidth(segment);
      if (used > 0 && used + g > width) end();
      line += segment;
      used += g;
    }
  }
  if (line !== '' || out.length === 0) out.push(line);
  if (out.length <= rows) return out;
  const kept = out.slice(0, Math.max(1, rows));
  kept[kept.length - 1] = fitColumns(`${kept.at(-1)!}…`, width);
  return kept;
}

/**
 * The end of `text` within `rows` rows of `columns` columns (as `clipToRows` breaks it), "…" in front where the start
 * is left out: a field shows where typing goes, and a long value keeps its form within the terminal's height.
 */
export function tailRows(text: string, columns: number, rows: number): string {
  const all = clipToRows(text, columns, Number.POSITIVE_INFINITY);
  if (all.length <= rows) return text;
  // On one row the last row as broken would show only what follows the last break, as little as "…" after a long
  // word: the row is filled with the text's end instead.
  if (rows <= 1) return `…${endColumns(text, Math.max(0, columns - 1))}`;
  const kept = all.slice(-rows);
  kept[0] = `…${[...graphemes.segment(kept[0]!)]
    .slice(1)
    .map((g) => g.segment)
    .join('')}`;
  return kept.join('\n');
}

/** The longest end of `text` that fits in `columns` terminal columns, whole characters as a reader sees them. */
function endColumns(text: string, columns: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const { segment } of [...graphemes.segment(text)].reverse()) {
    const w = terminalWidth(segment);
    if (used + w > columns) break;
    kept.push(segment);
    used += w;
  }
  return kept.reverse().join('');
}

/**
 * A key line: `keys` joined with " · " within `columns`. Where they do not all fit, keys give way whole, in the order
 * `giveWay` names them (indices), so that no key is cut mid-word ("Shift-Tab b…") and the way out stays on the line;
 * one still too wide is cut with "…" (`fitColumns`).
 */
export function fitKeys(keys: readonly string[], giveWay: readonly number[], columns: number): string {
  const shown = new Set(keys.keys());
  const line = () => keys.filter((_, i) => shown.has(i)).join(' · ');
  for (const i of giveWay) {
    if (terminalWidth(line()) <= columns) break;
    shown.delete(i);
  }
  return fitColumns(line(), columns);
}
