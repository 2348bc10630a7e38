import { escapeUnsafe } from '../core/plain-text.ts';

/**
 * Text as a screen draws it: what every output escapes escaped (`\u001b`, `\u202e`), and a tab drawn as one space.
 * A terminal moves a tab to its next tab stop, which Ink does not count: a row holding one would be wider than Ink
 * thinks, wrap, and push the screen's first line off the top.
 */
export function plain(text: string): string {
  const escaped = escapeUnsafe(text);
  return escaped.includes('\t') ? escaped.replace(/\t/g, ' ') : escaped;
}
