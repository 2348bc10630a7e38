/**
 * `agents import --replace`: the text of a source file without the lines of
 * the rules it imported, the managed export block (when the file is an export
 * target's) standing where the first of them stood. Every other byte is kept.
 */

/** Removes the 1-based, inclusive line ranges; `block` goes where the first range was. */
export function removeLines(text: string, ranges: readonly { line: number; end_line: number }[], block?: string): string {
  const gone = new Set<number>();
  for (const r of ranges) for (let n = r.line; n <= r.end_line; n++) gone.add(n);
  const first = Math.min(...ranges.map((r) => r.line));
  // Lines with their own endings, so a CRLF file stays CRLF and the last line keeps (or lacks) its break.
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  let out = '';
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    if (n === first && block !== undefined) out += l.endsWith('\r\n') ? block.replace(/\n/g, '\r\n') : block;
    if (!gone.has(n)) out += l;
  }
  return out;
}
