/**
 * `agents import --replace`: the text of a source file without the lines of
 * the rules it imported, the managed export block (when the file is an export
 * target's) standing where the first of them stood. Every other byte is kept,
 * but for a list item that only labelled rules now gone.
 */

import { indentOf, ITEM } from './markdown-blocks.ts';

/**
 * Removes the 1-based, inclusive line ranges; `block` goes where the first range was. A list item of `labels`
 * (one that heads the items nested below it, "- Testing:") goes too once every line nested below it goes.
 */
export function removeLines(
  text: string,
  ranges: readonly { line: number; end_line: number }[],
  block?: string,
  labels: readonly number[] = [],
): string {
  const gone = new Set<number>();
  for (const r of ranges) for (let n = r.line; n <= r.end_line; n++) gone.add(n);
  const first = Math.min(...ranges.map((r) => r.line));
  // Lines with their own endings, so a CRLF file stays CRLF and the last line keeps (or lacks) its break.
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  // The innermost labels first: an outer label's items are then gone with the inner label's.
  for (const label of [...labels].sort((a, b) => b - a)) if (emptied(lines, label, gone)) gone.add(label);
  let out = '';
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    if (n === first && block !== undefined) out += l.endsWith('\r\n') ? block.replace(/\n/g, '\r\n') : block;
    if (!gone.has(n)) out += l;
  }
  return out;
}

/** Whether every line nested below the list item on line `label` (1-based) is in `gone`, and there is one. */
function emptied(lines: readonly string[], label: number, gone: ReadonlySet<number>): boolean {
  const item = ITEM.exec((lines[label - 1] ?? '').replace(/\r?\n$/, ''));
  if (!item) return false;
  const indent = indentOf(item[1]!);
  let nested = 0;
  for (let n = label + 1; n <= lines.length; n++) {
    const line = lines[n - 1]!.replace(/\r?\n$/, '');
    if (line.trim() === '') continue;
    if (indentOf(/^[ \t]*/.exec(line)![0]) <= indent) break;
    if (!gone.has(n)) return false;
    nested++;
  }
  return nested > 0;
}
