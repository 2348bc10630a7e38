/**
 * `agents import --replace`: the text of a source file without the lines of
 * the rules it imported, the managed export block (when the file is an export
 * target's) standing where the first of them stood. Every other byte is kept,
 * but for a list item that only labelled rules now gone, a heading whose
 * section held nothing but them, an element of a rule file written as elements
 * whose rules are all gone, and a GitHub alert's marker (or an admonition's)
 * whose rules are gone.
 */

import { scanBlock } from './export.ts';
import { lineOf } from './export-markers.ts';
import { fileReferences, resolveReference } from './import-references.ts';
import { type Admonition, fileLines, HEADING, indentOf, ITEM, listKind, SETEXT } from './markdown-blocks.ts';
import { isAlertMarker, QUOTED, unquote } from './markdown-plain.ts';

/**
 * Removes the 1-based, inclusive line ranges; `block` goes where the first range was. The lines of a label in
 * `labels` (a list item that heads the items nested below it, "- Testing:", a caption over a list, "**Don't:**",
 * also one written over two lines, or a heading of the document) go too once every line it heads goes.
 */
export function removeLines(
  text: string,
  ranges: readonly { line: number; end_line: number }[],
  block?: string,
  labels: readonly { line: number; end_line: number }[] = [],
): string {
  const gone = new Set<number>();
  for (const r of ranges) for (let n = r.line; n <= r.end_line; n++) gone.add(n);
  const first = Math.min(...ranges.map((r) => r.line));
  // Lines with their own endings, so a CRLF file stays CRLF and the last line keeps (or lacks) its break. A lone CR
  // ends a line too, as the splitter that numbered them counts it.
  const lines = text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
  // The lines as the splitter read them: a quote's as the text it quotes, an element's as a list item or a blank line.
  const read = fileLines(text, false);
  const seen = read.lines;
  // The innermost labels first: an outer label's items are then gone with the inner label's.
  const sorted = [...labels].sort((a, b) => b.line - a.line);
  const levels = sorted.map((l) => headingLevel(seen, l));
  for (const [i, label] of sorted.entries())
    if (levels[i] === undefined && emptied(seen, label, gone)) for (let n = label.line; n <= label.end_line; n++) gone.add(n);
  // "<requirements>" and "</requirements>" go with the last of the rules between them: alone, they hold nothing.
  if (text.includes('</')) emptyElements(lines, seen, gone);
  // A GitHub alert's marker ("> [!IMPORTANT]") goes with the last line of its quote: alone, it heads nothing.
  if (text.includes('[!')) for (const [i, l] of lines.entries()) if (isAlertMarker(l) && alertEmptied(lines, i + 1, gone)) gone.add(i + 1);
  // An admonition's marker lines (`:::danger` and its `:::`, `!!! warning`) go with the last of the rules it holds.
  for (const a of read.admonitions ?? [])
    if (boxEmptied(seen, a, gone)) for (const m of [a.marker, a.close]) if (m !== undefined) gone.add(m + 1);
  // Then a heading whose section held only lines now gone, the innermost first; but the file's title (a first heading
  // of level 1), which names the file rather than the rules under it.
  const heads = levels.findLastIndex((l) => l !== undefined);
  const scan = scanBlock(text);
  const blockAt = scan.kind === 'block' ? lineOf(text, scan.start) : undefined;
  for (const [i, label] of sorted.entries()) {
    if (levels[i] === undefined || (i === heads && levels[i] === 1) || !sectionEmptied(lines, sorted, levels, i, gone, blockAt)) continue;
    for (let n = label.line; n <= label.end_line; n++) gone.add(n);
    // The blank lines under it only parted it from its section.
    for (let n = label.end_line + 1; n <= lines.length && lines[n - 1]!.trim() === ''; n++) gone.add(n);
  }
  let out = '';
  // Whether the last line kept was blank, and whether lines went since it.
  let blank = false;
  let cut = false;
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    // The block's lines end as the line it takes the place of does, but never with a lone CR, which the export reads as
    // no line end: its markers would be one line, a damaged block it refuses to fill. After a line a lone CR ends, the
    // block starts on a line of its own by an LF.
    if (n === first && block !== undefined) {
      out += `${out.endsWith('\r') ? '\n' : ''}${block.replace(/\n/g, l.endsWith('\r\n') ? '\r\n' : '\n')}`;
      blank = false;
      cut = false;
    }
    if (gone.has(n)) {
      cut = true;
      continue;
    }
    const empty = l.trim() === '';
    // A blank line that parted what went from the text before it now doubles the blank line before it: it goes. A run of blank lines the user wrote, with nothing gone between them, stays.
    if (empty && blank && cut) continue;
    out += l;
    blank = empty;
    cut = false;
  }
  return out;
}

/** The level of a heading of the document among the labels (an ATX one, or a setext one's text over its underline). */
function headingLevel(seen: readonly string[], { line, end_line }: { line: number; end_line: number }): number | undefined {
  const atx = HEADING.exec(seen[line - 1] ?? '');
  if (atx) return atx[1]!.length;
  const under = SETEXT.exec(seen[end_line - 1] ?? '');
  return under && end_line > line ? (under[1]![0] === '=' ? 1 : 2) : undefined;
}

/**
 * Whether the heading `sorted[i]` (labels last line first, `levels` theirs) had a section that the removal emptied:
 * up to the next heading of its level or above, every line that held anything is in `gone`, and there is one. A
 * heading over nothing already (a user's placeholder) stays. The managed block (its begin marker on line `blockAt`)
 * ends a section above it: it is the export's, not text the heading heads.
 */
function sectionEmptied(
  lines: readonly string[],
  sorted: readonly { line: number; end_line: number }[],
  levels: readonly (number | undefined)[],
  i: number,
  gone: ReadonlySet<number>,
  blockAt: number | undefined,
): boolean {
  const level = levels[i]!;
  // The splitter's headings, not a search of the lines: a "# comment" in a code block is no heading.
  let end = blockAt !== undefined && blockAt > sorted[i]!.end_line ? blockAt - 1 : lines.length;
  for (let j = i - 1; j >= 0; j--)
    if (levels[j] !== undefined && levels[j]! <= level) {
      end = Math.min(end, sorted[j]!.line - 1);
      break;
    }
  let held = 0;
  for (let n = sorted[i]!.end_line + 1; n <= end; n++) {
    if (gone.has(n)) held++;
    else if (quoted(lines[n - 1]!).trim() !== '') return false;
  }
  return held > 0;
}

/**
 * Whether every line the label on line `label` (1-based) heads is in `gone`, and there is one: the lines nested below
 * a list item, or the list below a caption ("**Don't:**"), up to the paragraph or heading after it.
 */
function emptied(
  seen: readonly string[],
  { line: label, end_line: last }: { line: number; end_line: number },
  gone: ReadonlySet<number>,
): boolean {
  const first = seen[label - 1] ?? '';
  // A label that is a sentence ("- Our stack is Go." over its rules) stays: it says something no invariant holds.
  if (/[.!?][*_`"')\]]*[ \t]*$/.test(seen[last - 1] ?? '')) return false;
  const item = ITEM.exec(first);
  const indent = item ? indentOf(item[1]!) : -1;
  let headed = 0;
  // A caption's list: the kind of its first item, as the splitter reads it (a list of another kind is not the caption's).
  let kind: string | undefined;
  for (let n = last + 1; n <= seen.length; n++) {
    const line = seen[n - 1]!;
    if (line.trim() === '') continue;
    const inside = item ? indentOf(/^[ \t]*/.exec(line)![0]) > indent : ITEM.test(line) || /^[ \t]/.test(line);
    if (!inside) break;
    const top = item ? undefined : /^\S/.test(line) ? ITEM.exec(line) : null;
    if (top && kind !== undefined && listKind(top[2]!) !== kind) break;
    if (top) kind = listKind(top[2]!);
    if (!gone.has(n)) return false;
    headed++;
  }
  return headed > 0;
}

/** A line as the text it quotes, when it is quoted. */
function quoted(line: string): string {
  return QUOTED.test(line) ? unquote(line) : line;
}

/** An element's opening or closing tag, as a line that the splitter read as a blank line holds it. */
const TAG = /^[ \t]*<(\/?)([A-Za-z][\w-]*)/;

/**
 * Adds to `gone` the tag lines of each element of a rule file written as elements whose every line that holds anything
 * is gone, and one is: in one pass, each open element counting the lines inside it that stay and that go, an inner
 * element one line that stays unless it goes whole. An element that stays keeps its tags, also one that a rule's lines
 * ran over. Only lines the splitter read as blank are tags: one in code is text.
 */
function emptyElements(lines: readonly string[], seen: readonly string[], gone: Set<number>): void {
  const open: { name: string; line: number; kept: number; held: number }[] = [];
  // How many elements of each name are open: a closing tag of none is a line that stays, found without a search.
  const opened = new Map<string, number>();
  const close = (e: { name: string }) => opened.set(e.name, opened.get(e.name)! - 1);
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    const tag = seen[i] === '' && l.includes('<') ? TAG.exec(quoted(l)) : null;
    const top = open.at(-1);
    if (tag !== null && tag[1] === '') {
      open.push({ name: tag[2]!, line: n, kept: 0, held: 0 });
      opened.set(tag[2]!, (opened.get(tag[2]!) ?? 0) + 1);
    } else if (tag !== null && opened.get(tag[2]!)) {
      // Elements left open inside this one (never closed) stay, with what they hold.
      let inner = open.pop()!;
      while (inner.name !== tag[2]) {
        close(inner);
        const outer = open.at(-1)!;
        outer.kept += inner.kept + 1;
        outer.held += inner.held;
        inner = open.pop()!;
      }
      close(inner);
      const emptied = inner.kept === 0 && inner.held > 0;
      if (emptied) gone.add(inner.line).add(n);
      else {
        gone.delete(inner.line);
        gone.delete(n);
      }
      const parent = open.at(-1);
      if (parent !== undefined && emptied) parent.held += inner.held;
      else if (parent !== undefined) parent.kept++;
    } else if (top !== undefined) {
      if (gone.has(n)) top.held++;
      else if (quoted(l).trim() !== '') top.kept++;
    }
  }
}

/**
 * Whether every line of the quote below the alert marker on line `marker` (1-based), up to the blank line that ends
 * it, is in `gone` (a quoted line that is blank apart, which says nothing), and there is one.
 */
function alertEmptied(lines: readonly string[], marker: number, gone: ReadonlySet<number>): boolean {
  let quoted = 0;
  for (let n = marker + 1; n <= lines.length; n++) {
    const line = lines[n - 1]!.replace(/\r?\n$|\r$/, '');
    if (line.trim() === '') break;
    if (QUOTED.test(line) && unquote(line).trim() === '') continue;
    if (!gone.has(n)) return false;
    quoted++;
  }
  return quoted > 0;
}

/** Whether every line of text the admonition `a` holds is in `gone` (blank ones apart), and there is one. */
function boxEmptied(seen: readonly string[], a: Admonition, gone: ReadonlySet<number>): boolean {
  let held = 0;
  for (let n = a.from; n <= a.to; n++) {
    if (seen[n]!.trim() === '') continue;
    if (!gone.has(n + 1)) return false;
    held++;
  }
  return held > 0;
}

/**
 * Whether a file says nothing but its headings (blank lines and rules between sections, `---`, apart): what
 * `--replace` leaves of a file whose every rule moved into the store.
 */
export function onlyHeadings(text: string): boolean {
  return text.split(/\r\n|\r|\n/).every((l) => l.trim() === '' || HEADING.test(l) || THEMATIC_BREAK.test(l));
}

/**
 * Whether the CLAUDE.md or GEMINI.md at `rel` says nothing but its headings and `@` references to the file `to`
 * (`@AGENTS.md`, each on a line of its own): a link to that file in words, which leads nowhere once it is gone.
 */
export function onlyRefersTo(text: string, rel: string, to: string, top: string): boolean {
  const refs = fileReferences(text);
  if (refs.length === 0 || refs.some((r) => resolveReference(r.ref, rel, top) !== to)) return false;
  const lines = text.split(/\r?\n/);
  for (const { line, ref } of refs) lines[line - 1] = lines[line - 1]!.split(`@${ref}`).join('');
  return onlyHeadings(lines.join('\n'));
}

/** A line that only separates sections (`---`, `***`, `___`, spaced or not). */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
