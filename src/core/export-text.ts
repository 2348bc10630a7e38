/**
 * An invariant's text as one item of an exported Markdown list: what
 * prettier prints unchanged (so `prettier --write` is never a hand edit of
 * the block) and what cannot close the block or the item. Pure.
 */

/**
 * Outside code spans: the emphasis markers prettier would rewrite (`*x*` to
 * `_x_`, `__x__` to `**x**`) escaped, and runs of blanks made one space, as
 * prettier prints a paragraph (a tab, or two spaces, would be a hand edit).
 */
function escapeInline(text: string): string {
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\*/g, '\\*')
            .replace(/_{2,}/g, (run) => run.replace(/_/g, '\\_'))
            .replace(/[ \t]*\t[ \t]*| {2,}/g, ' '),
    )
    .join('');
}

/**
 * A line of the item that would open a block of its own inside it, which
 * prettier rewrites: a `+` list marker (to `-`), an ordered marker `1)` (to
 * `1.`), a `~~~` fence (to a backtick fence); escaped, they stay text.
 */
function escapeLineStart(line: string): string {
  return line
    .replace(/^\+(?=[ \t]|$)/, '\\+')
    .replace(/^(\d{1,9})\)(?=[ \t]|$)/, '$1\\)')
    .replace(/^~~~/, '\\~~~');
}

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
