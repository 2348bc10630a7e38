/**
 * An invariant's text as one item of an exported Markdown list: what
 * prettier prints unchanged (so `prettier --write` is never a hand edit of
 * the block) and what cannot close the block or the item. Pure.
 */

/**
 * The text cut into plain parts and code spans (odd indexes), as CommonMark
 * reads them: a run of backticks opens a span closed by the next run of as
 * many; a run never closed is plain text, and a backslash before a run takes
 * its first backtick out of it (as an opener only: inside a span a backslash
 * is itself).
 */
function codeSpans(text: string): string[] {
  const runs: { at: number; n: number; escaped: boolean }[] = [];
  for (const m of text.matchAll(/(\\*)(`+)/g)) runs.push({ at: m.index + m[1]!.length, n: m[2]!.length, escaped: m[1]!.length % 2 === 1 });
  // Where the runs of each length start, in order, with how far each list was looked through: openers come
  // in order, so each run is passed once and a text of many stray backticks stays linear.
  const byLength = new Map<number, { starts: number[]; next: number }>();
  for (const r of runs) {
    const same = byLength.get(r.n);
    if (same) same.starts.push(r.at);
    else byLength.set(r.n, { starts: [r.at], next: 0 });
  }
  const parts: string[] = [];
  let from = 0;
  for (const r of runs) {
    const at = r.escaped ? r.at + 1 : r.at;
    const n = r.escaped ? r.n - 1 : r.n;
    if (at < from || n === 0) continue;
    const same = byLength.get(n);
    if (!same) continue;
    while (same.next < same.starts.length && same.starts[same.next]! <= at) same.next++;
    const close = same.starts[same.next];
    if (close === undefined) continue;
    parts.push(text.slice(from, at), text.slice(at, close + n));
    from = close + n;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * A code span as prettier prints it: the fewest backticks its content does
 * not hold as a run, and a space inside each fence only where CommonMark
 * needs one (so `` ``x`` `` is written `` `x` ``).
 */
function printedCodeSpan(span: string): string {
  const n = /^`+/.exec(span)![0].length;
  let value = span.slice(n, span.length - n);
  if (/^ [\s\S]* $/.test(value) && /[^ ]/.test(value)) value = value.slice(1, -1);
  return codeSpan(value);
}

/** A code span that shows `value` as it is (a project's path glob, which may hold backticks), as prettier prints it. */
export function codeSpan(value: string): string {
  const lengths = new Set([...value.matchAll(/`+/g)].map((m) => m[0].length));
  let fence = 1;
  while (lengths.has(fence)) fence++;
  const pad = value.startsWith('`') || value.endsWith('`') || (/^ /.test(value) && / $/.test(value) && /[^ ]/.test(value)) ? ' ' : '';
  return `${'`'.repeat(fence)}${pad}${value}${pad}${'`'.repeat(fence)}`;
}

/** The `&` of what CommonMark reads as a character reference (named, decimal or hexadecimal). */
const CHARACTER_REFERENCE = /&(?=[A-Za-z][A-Za-z0-9]{1,31};|#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};)/g;

/** A backslash of the text before a character escapeInline escapes. */
const BACKSLASH_BEFORE_ESCAPED = new RegExp(`\\\\(?=\\*|__|\`|${CHARACTER_REFERENCE.source})`, 'g');

/**
 * Outside code spans: the emphasis markers prettier would rewrite (`*x*` to
 * `_x_`, `__x__` to `**x**`), an empty link destination (`[x]()` to
 * `[x](<>)`) and a character reference escaped, and runs of blanks made one space, as
 * prettier prints a paragraph (a tab, or two spaces, would be a hand edit);
 * code spans as prettier prints them.
 */
function escapeInline(text: string): string {
  const parts = codeSpans(text);
  const plain = parts.map((part, i) =>
    i % 2 === 1
      ? part
      : part
          // A backslash of the text before a character escaped next would escape that escape instead.
          .replace(BACKSLASH_BEFORE_ESCAPED, '\\\\')
          .replace(/\*/g, '\\*')
          // A character reference (`&rlm;`, `&#x202E;`) renders as the character it names: an invisible or
          // bidirectional one the store refuses in text. Escaped, it shows as written.
          .replace(CHARACTER_REFERENCE, '\\&')
          // A backtick no span closes would pair with the one that opens the entry's id, and make code of the words between.
          .replace(/`/g, '\\`')
          .replace(/_{2,}/g, (run) => run.replace(/_/g, '\\_'))
          // A link with no destination, `[x]()`, which prettier writes `[x](<>)`.
          .replace(/\]\(\)/g, ']\\()')
          .replace(/[ \t]*\t[ \t]*| {2,}/g, ' '),
  );
  const printed = plain.map((part, i) => (i % 2 === 1 ? printedCodeSpan(part) : part));
  // A span given fewer backticks could pair with a stray run of the text, and read as other spans: then they stay.
  const again = codeSpans(printed.join(''));
  return again.length === printed.length && again.every((part, i) => part === printed[i]) ? printed.join('') : plain.join('');
}

/**
 * A line of the item that would open a block of its own inside it, which
 * prettier rewrites: a `+` list marker (to `-`), an ordered marker `1)` (to
 * `1.`), a `~~~` fence (to a backtick fence), a `>` quote (given a space),
 * a link definition `[x]: y` (which hides the line), an HTML block the line
 * does not close (opensUnclosedHtml) or that a block tag opens (BLOCK_TAG), `$$` (a math block to prettier and
 * GitHub, which prettier closes on a line of its own), an ATX heading `# x` (which every reader makes a heading
 * inside the item, that prettier keeps); escaped, they stay text.
 */
function escapeLineStart(line: string): string {
  // After the list markers prettier keeps (`- `, `1. `: a list nested in the item) the same holds for the rest.
  const kept = /^(?:(?:-|\d{1,9}\.)[ \t]+(?=\S))*/.exec(line)![0];
  const rest = line.slice(kept.length);
  return `${kept}${(opensUnclosedHtml(rest) || BLOCK_TAG.test(rest) ? `\\${rest}` : rest)
    .replace(/^\+(?=[ \t]|$)/, '\\+')
    .replace(/^(\d{1,9})\)(?=[ \t]|$)/, '$1\\)')
    .replace(/^~~~/, '\\~~~')
    .replace(/^>/, '\\>')
    .replace(/^\[(?=[^\]]*\]:)/, '\\[')
    .replace(/^\$\$/, () => '\\$$')
    .replace(/^#{1,6}(?=[ \t]|$)/, '\\$&')}`;
}

/**
 * A tag of the HTML blocks CommonMark ends at a blank line (`<div>`, `</table>`, `<p>`): opening the item, it makes
 * the whole item raw HTML, where the tag is no text, the markup is not read and the id is no code span. Escaped, the
 * `<` is text.
 */
const BLOCK_TAG =
  /^<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?=[ \t>]|\/>|$)/i;

/**
 * Whether a line opens one of the HTML blocks CommonMark ends only at a mark (`</style>`, `?>`, `>`, `]]>`) that the
 * line lacks: `<style>`, `<?xml`, `<!X` run past the item as raw HTML (a page's styles, all that follows), and
 * prettier ends the item there with a blank line. Closed on the line (`<pre>x</pre> here`), it is raw HTML there
 * only, kept, unless it holds a character reference, which no backslash escapes in raw HTML. Escaped, the `<` is text.
 */
function opensUnclosedHtml(line: string): boolean {
  const m = /^<(?:(script|pre|style|textarea)(?=[\s>]|$)|(\?)|(!\[CDATA\[)|(![A-Za-z]))/i.exec(line);
  if (!m) return false;
  if (ESCAPED_REFERENCE.test(line)) return true;
  const end = m[1] ? new RegExp(`</${m[1]}>`, 'i') : m[2] ? /\?>/ : m[3] ? /\]\]>/ : />/;
  return !end.test(line.slice(m[0].length));
}

/** A character reference escapeInline escaped: in raw HTML its backslash is text, and the reference renders. */
const ESCAPED_REFERENCE = new RegExp(`\\\\${CHARACTER_REFERENCE.source}`);

/** Keeps an invariant's text from closing the block or a list item: one paragraph, no comment markers. */
export function inlineText(text: string): string {
  return escapeInline(text)
    .trim()
    .replace(/\r\n?/g, '\n')
    .replace(/<!--/g, '&lt;!--')
    .replace(/-->/g, '--&gt;')
    .split('\n')
    .map((line, i) => (i === 0 ? escapeLineStart(line) : `  ${escapeLineStart(line)}`.trimEnd()))
    .join('\n');
}
