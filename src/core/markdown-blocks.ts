/**
 * The blocks of Markdown as instruction files write them, line by line (for
 * import-rules.ts): fences, headings, list items, tables, breaks; how deep an
 * item is nested; and a left-out block's excerpt. Pure.
 */

import { fold, QUOTED, unquote } from './markdown-plain.ts';

/** A code fence's opening line: its marker (three or more backticks or tildes) is `[1]`. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Whether `line` closes the fence opened with `mark`: as many of its character or more, and nothing else. */
export function closesFence(line: string, mark: string): boolean {
  return line.trimStart().startsWith(mark[0]!.repeat(mark.length)) && line.trim().replace(/[`~]/g, '') === '';
}
/** An ATX heading: its marks, and its text with what closes it (`headingText` cuts that off). */
export const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;

/**
 * A heading's text without the blanks and `#` marks at its end, cut by a loop: a lazy text before `[ \t#]*$` tried
 * each blank of a long run against the rest of the line.
 */
export function headingText(heading: RegExpExecArray): string {
  const text = heading[2] ?? '';
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t' || text[end - 1] === '#')) end--;
  return text.slice(0, end);
}
/**
 * A list item: its indent, marker and text. Bullets pasted from word processors (•, ◦, ▪, ‣) mark items as `-` does.
 * Besides Markdown's markers, the sub-steps written by hand that a reader takes as items, before a capital, code or
 * emphasis: a step's number (`1.1.`, and `2.1` in a nested list), and a letter in a nested list (`   a. Run it`), else
 * a line of the paragraph above them, which ran the steps into one rule. A number with no dot after it at the margin
 * is a version or a size that starts its sentence ("2.0 APIs must not be used"), which the rule keeps.
 */
export const ITEM =
  /^([ \t]*)([-*+\u2022\u25e6\u25aa\u2023]|\d{1,9}[.)]|(?:\d{1,3}(?:\.\d{1,3}){1,3}\.|(?<=^[ \t]+)\d{1,3}(?:\.\d{1,3}){1,3})(?=[ \t]+[A-Z`*_])|(?<=^[ \t]+)[a-z][.)](?=[ \t]+[A-Z`*_]))[ \t]+(.*)$/;

/**
 * Whether `line` opens indented code (four spaces or a tab): not a nested item of a list, nor an item right below a
 * line of text, which indented code cannot interrupt ("Claude must:" over "\t•\tAsk first"), nor one a word
 * processor's bullet marks, which no code starts with.
 */
export function opensIndentedCode(line: string, previous: string | undefined, inList: boolean): boolean {
  if (!/^( {4}|\t)/.test(line)) return false;
  if (!ITEM.test(line)) return true;
  return !(inList || (previous !== undefined && previous.trim() !== '') || /^[ \t]*[\u2022\u25e6\u25aa\u2023]/.test(line));
}

/** The last line of the indented code that line `from` opens ({@link opensIndentedCode}): blank lines inside it are its own, not after it. */
export function indentedCodeEnd(lines: readonly string[], from: number): number {
  let end = from;
  while (end + 1 < lines.length && (/^( {4}|\t)/.test(lines[end + 1]!) || lines[end + 1]!.trim() === '')) end++;
  while (lines[end]!.trim() === '') end--;
  return end;
}

/**
 * Which list an item's marker (`ITEM`'s `[2]`) continues: its bullet, or its number's delimiter. An item of another
 * kind starts a new list, as CommonMark reads it, and what headed the list above heads it no more.
 */
export function listKind(marker: string): string {
  // A step's number without its last dot (`2.1`) is of the list of `1.` as much as `2.1.` is.
  return marker.length === 1 || /[.)]$/.test(marker) ? marker.at(-1)! : '.';
}
const TABLE_ROW = /^ {0,3}\|.*\|?\s*$/;
const TABLE_RULE = /^ {0,3}\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** The last line of the table that starts at line `from` (a row, or a header over its rule), or undefined when none does. */
export function tableEnd(lines: readonly string[], from: number): number | undefined {
  const line = lines[from]!;
  if (!TABLE_ROW.test(line) && !(lines[from + 1] !== undefined && TABLE_RULE.test(lines[from + 1]!) && line.includes('|')))
    return undefined;
  let end = from;
  while (end + 1 < lines.length && lines[end + 1]!.includes('|') && lines[end + 1]!.trim() !== '') end++;
  return end;
}
export const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** A setext heading's underline: a line of = (level 1) or - (level 2) under a paragraph. */
export const SETEXT = /^ {0,3}(=+|-+)\s*$/;

/**
 * A line that is one element around text (`<requirement>Use tabs</requirement>`): its text is `[2]`, which may hold
 * other markup or a `<` (`<rule>Never use <div> for buttons</rule>`), not another element of its name.
 */
const ELEMENT_LINE = /^[ \t]*<([A-Za-z][\w-]*)(?:\s[^<>]*)?>((?:(?!<\/?\1[\s>/]).)*)<\/\1>[ \t]*$/;
/**
 * HTML's elements that format text within a line, which `plain` drops around it; and a collapsible section's summary,
 * whose heading would outlive its section (nothing closes a heading but another).
 */
const INLINE_ELEMENT = /^(?:a|abbr|b|code|del|em|font|i|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|tt|u|var|summary)$/i;
/** HTML's headings, which head what follows them as Markdown's do. */
const HEADING_ELEMENT = /^h[1-6]$/i;
/**
 * A line that starts by opening or closing an element: `[1]` is `/` for a closing one, `[2]` its name, `[3]` the text
 * after the tag (`</rules> Then run the tests.`), undefined when the tag is all the line holds (`<requirements>`).
 */
const TAG_LINE = /^[ \t]*<(\/?)([A-Za-z][\w-]*)(?:\s[^<>]*)?>[ \t]*(\S.*)?$/;
/** A line of text that closes an element opened above it (`Keep PRs small.</rules>`): `[1]` the text, `[2]` its name. */
const TEXT_BEFORE_CLOSE = /^(.*?\S)[ \t]*<\/([A-Za-z][\w-]*)>[ \t]*$/;
/** Elements that stand within a line of text (a break, an image): one at a line's start starts no block. */
const VOID_ELEMENT = /^(?:br|img|wbr)$/i;

/**
 * Whether the tag a line starts with before its text (TAG_LINE's match with text) opens or closes a rule file's element:
 * a closing tag of one open above it, or an opening tag in lower case, as a rule file's are (`<important>`), where
 * `<Button> components must be accessible.` names a component and `<T> is the type` a parameter, in the text.
 */
function startsElement(tag: RegExpExecArray, opened: ReadonlyMap<string, number>): boolean {
  const name = tag[2]!;
  if (INLINE_ELEMENT.test(name) || VOID_ELEMENT.test(name)) return false;
  return tag[1] === '/' ? opened.has(name) : /^[a-z][a-z0-9-]*$/.test(name);
}
/**
 * What an element of examples starts with in the lines read: a block of its own, as a comment's first line is, so that
 * no caption or item above takes what it shows as theirs (the splitter leaves the element out before reading it).
 */
export const EXAMPLE_MARK = '<!-- example -->';
/** The name of an element that shows examples (`<example>`, `<example type="invalid">`, `<bad-example>`), as Cursor's rules do. */
const EXAMPLE = /^(?:\w+[-_])?examples?(?:[-_][\w-]+)?$/i;

/**
 * A file's lines (line ends of any kind; a quote's lines read as the text they quote, line for line, so numbers and
 * `--replace` stay the file's) and, with `frontMatter`, its front matter's text (between a first `---` and the next
 * `---` or `...`) with the line its Markdown starts on (1-based); `unclosed` when no line closes the first `---`.
 * Rule files written as elements read as Markdown, line for line too: a line that is one element around text as a
 * list item of that text at the margin (`ends`: which lines, each the whole of its item), a line that only opens
 * or closes an element as a blank line, and one that opens or closes an element before text as that text starting a
 * block of its own (the line above it in `ends`); an element of examples spans the lines `examples` maps its first
 * line to.
 */
export function fileLines(text: string, frontMatter: boolean): MarkdownLines {
  const lines = (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (text.includes('>')) for (let n = 0; n < lines.length; n++) if (QUOTED.test(lines[n]!)) lines[n] = unquote(lines[n]!);
  const admonitions = text.includes(':::') || text.includes('!!!') || text.includes('???') ? readAdmonitions(lines) : undefined;
  const boxed = admonitions !== undefined && admonitions.length > 0 ? { admonitions } : {};
  // A line that starts with a tag, looked for from each line end (a regex anchored at every line start tries each place).
  if (text.includes('<') && (/^[ \t>]*<\/?[A-Za-z]/.test(text) || /\n[ \t>]*<\/?[A-Za-z]/.test(text))) {
    let fence: string | undefined;
    // Whether the last line that held anything was an element's: the lines below it are its, however deep.
    let markup = false;
    // The lines (0-based) that end the item or paragraph they are in: one element around text, as its closing tag
    // does, and the line above a tag that text follows, which that tag closes or opens an element after.
    const ends = new Set<number>();
    // The lines that start with a tag before their text: --replace keeps such a line, whose tag its element needs.
    const tagged = new Set<number>();
    // The lines read as other text than they were written (an element's as an item, a heading's as `##`): as written.
    const written = new Map<number, string>();
    // An element of examples open above (its name, first line and how many of its name are open), and those closed.
    let example: { name: string; from: number; depth: number } | undefined;
    let examples: Map<number, number> | undefined;
    // How many elements of each name the tags above opened and left open: only such a one closes after text.
    const opened = new Map<string, number>();
    // An example's first line reads as the mark of one, before the text its opening tag had after it ("<example>Use
    // var"), which its excerpt shows from there.
    const closeExample = (from: number, to: number): undefined => {
      (examples ??= new Map()).set(from, to);
      lines[from] = lines[from] === '' ? EXAMPLE_MARK : `${EXAMPLE_MARK} ${lines[from]}`;
      written.delete(from);
      return undefined;
    };
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      // A code block holds elements as text: fenced, or indented where no element is open above it.
      if (fence !== undefined) {
        if (closesFence(line, fence)) fence = undefined;
        continue;
      }
      fence = FENCE.exec(line)?.[1];
      if (fence !== undefined || line.trim() === '') continue;
      const marked: boolean = line.includes('<') && (markup || !/^( {4}|\t)/.test(line));
      const starts: RegExpExecArray | null = marked ? TAG_LINE.exec(line) : null;
      const only: RegExpExecArray | null = starts !== null && starts[3] === undefined ? starts : null;
      // At the margin: an element's indent is its nesting in other elements, no list's nor code's.
      const found: RegExpExecArray | null = !only && marked && line.includes('</') ? ELEMENT_LINE.exec(line) : null;
      // "<code>npm test</code>" and "<b>Important</b>" format a line of text, as Markdown's marks do: no rule file's item.
      const element: RegExpExecArray | null = found && !INLINE_ELEMENT.test(found[1]!) ? found : null;
      // "</rules> Then run the tests.": the tag ends the block above it as a line of its own would, and the text starts one.
      const before: RegExpExecArray | null = !only && !element ? starts : null;
      const tag: RegExpExecArray | null = only ?? (before && startsElement(before, opened) ? before : null);
      // "Keep PRs small.</rules>": the text ends its block there, as the element does, and the tag is no part of it.
      const after: RegExpExecArray | null = !tag && !element && opened.size > 0 ? TEXT_BEFORE_CLOSE.exec(line) : null;
      const closes: RegExpExecArray | null = after !== null && opened.has(after[2]!) ? after : null;
      if (tag) opened.set(tag[2]!, (opened.get(tag[2]!) ?? 0) + (tag[1] === '' ? 1 : -1));
      if (closes) opened.set(closes[2]!, opened.get(closes[2]!)! - 1);
      for (const name of [tag?.[2], closes?.[2]]) if (name !== undefined && opened.get(name)! <= 0) opened.delete(name);
      if (closes) {
        lines[n] = closes[1]!;
        ends.add(n);
        tagged.add(n);
        written.set(n, line);
        if (example !== undefined && closes[2] === example.name && --example.depth === 0) example = closeExample(example.from, n);
      } else if (tag) {
        lines[n] = tag === before ? tag[3]! : '';
        if (tag === before) {
          tagged.add(n);
          written.set(n, line);
          if (n > 0 && lines[n - 1]!.trim() !== '') ends.add(n - 1);
        }
        if (example === undefined) example = tag[1] === '' && EXAMPLE.test(tag[2]!) ? { name: tag[2]!, from: n, depth: 1 } : undefined;
        // Text after the closing tag is no longer the example's.
        else if (tag[2] === example.name && (example.depth += tag[1] === '' ? 1 : -1) === 0)
          example = closeExample(example.from, tag === before ? n - 1 : n);
      } else if (element && HEADING_ELEMENT.test(element[1]!)) {
        // "<h2>Style</h2>" heads what follows it: a heading.
        lines[n] = `${'#'.repeat(Number(element[1]![1]))} ${element[2]}`;
        written.set(n, line);
      } else if (element && example === undefined && EXAMPLE.test(element[1]!)) {
        (examples ??= new Map()).set(n, n);
        lines[n] = `${EXAMPLE_MARK} ${element[2]}`;
      } else if (element) {
        lines[n] = `- ${element[2]}`;
        ends.add(n);
        written.set(n, line);
      }
      markup = tag !== null || element !== null || closes !== null;
    }
    if (ends.size > 0 || examples || written.size > 0)
      return withFrontMatter(
        { lines, ends, written, ...(tagged.size > 0 ? { tagged } : {}), ...(examples ? { examples } : {}), ...boxed },
        frontMatter,
      );
  }
  return withFrontMatter({ lines, ...boxed }, frontMatter);
}

/** A file's lines as the splitter reads them (`fileLines`). */
export interface MarkdownLines {
  lines: string[];
  front?: string;
  bodyLine: number;
  unclosed?: true;
  /**
   * The lines (0-based) that end the item or paragraph they are in: one element around text, read as a list item
   * each, and the line above one that starts with a tag before its text.
   */
  ends?: ReadonlySet<number>;
  /**
   * The lines (0-based) that start with a tag before their text (`</rules> Then run the tests.`), or close an element
   * after it (`Keep PRs small.</rules>`), read as that text.
   */
  tagged?: ReadonlySet<number>;
  /** The lines (0-based) read as other text than the file has (an element's line as an item): the file's text, for excerpts. */
  written?: ReadonlyMap<number, string>;
  /** The elements of examples (`<example>`): each one's first line (0-based) to its last. */
  examples?: ReadonlyMap<number, number>;
  /** The admonitions (`:::danger` … `:::`, `!!! warning`), whose marker lines read as blank lines. */
  admonitions?: readonly Admonition[];
}

/** An admonition's marker lines and the lines of text it holds (0-based, inclusive; `close` for a `:::` one). */
export interface Admonition {
  marker: number;
  close?: number;
  from: number;
  to: number;
}

/** A Docusaurus (or Pandoc) admonition's opening or closing line: `:::danger`, `:::tip Title`, `::: warning`, `:::`. */
const FENCED_ADMONITION = /^ {0,3}(:{3,})[ \t]*(?:[A-Za-z][\w-]*(?:[ \t[{].*)?)?$/;
/** An MkDocs admonition's line (`!!! warning "Secrets"`, `??? note`, `???+ tip`), whose text is indented below it. */
const INDENTED_ADMONITION = /^ {0,3}(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z][\w-]*(?:[ \t]+.*)?$/;

/**
 * Reads the admonitions of `lines` as the text they hold, line for line: their marker lines as blank lines (markup,
 * as a GitHub alert's is), an MkDocs one's indented text at the margin, where it would read as code. Outside code.
 */
function readAdmonitions(lines: string[]): Admonition[] {
  const out: Admonition[] = [];
  let fence: string | undefined;
  let open: Admonition | undefined;
  let colons = '';
  let body: Admonition | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (body !== undefined) {
      if (line.trim() === '') continue;
      if (/^( {4}|\t)/.test(line)) {
        lines[n] = line.replace(/^( {4}|\t)/, '');
        body.to = n;
        continue;
      }
      body = undefined;
    }
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    fence = FENCE.exec(line)?.[1];
    if (fence !== undefined) continue;
    const fenced = FENCED_ADMONITION.exec(line);
    if (fenced !== null) {
      lines[n] = '';
      // A bare `:::` of the opening's colons closes it (one nested inside takes more or fewer, `::::` around `:::`).
      if (open !== undefined && line.trim() === colons) {
        out.push({ ...open, close: n, to: n - 1 });
        open = undefined;
      } else if (open === undefined) {
        open = { marker: n, from: n + 1, to: n };
        colons = fenced[1]!;
      }
    } else if (INDENTED_ADMONITION.test(line)) {
      lines[n] = '';
      body = { marker: n, from: n + 1, to: n };
      out.push(body);
    }
  }
  return out;
}

function withFrontMatter(
  read: Pick<MarkdownLines, 'lines' | 'ends' | 'tagged' | 'written' | 'examples' | 'admonitions'>,
  frontMatter: boolean,
): MarkdownLines {
  const { lines } = read;
  if (!frontMatter || lines[0]?.trim() !== '---') return { ...read, bodyLine: 1 };
  const close = lines.findIndex((l, n) => n > 0 && (l.trim() === '---' || l.trim() === '...'));
  return close > 0 ? { ...read, front: lines.slice(1, close).join('\n'), bodyLine: close + 2 } : { ...read, bodyLine: 1, unclosed: true };
}

/**
 * A line that opens an HTML comment left out whole: it starts with `<!--` and holds nothing after the comment,
 * when it closes there (`<!-- note --> Never use eval.` leaves its text to read).
 */
export function opensComment(line: string): boolean {
  return line.trimStart().startsWith('<!--') && !/-->\s*\S/.test(line.slice(line.lastIndexOf('-->')));
}

/** A line that starts a block of its own: it never continues the item or paragraph above it. */
export function endsBlock(line: string): boolean {
  return (
    line.trim() === '' ||
    ITEM.test(line) ||
    FENCE.test(line) ||
    HEADING.test(line) ||
    TABLE_ROW.test(line) ||
    line.trimStart().startsWith('<!--')
  );
}

/**
 * The last line of the list item at `indent` that starts at `from`: its lazy and indented continuation lines, up to a
 * nested item, a fence or a blank line; an element's line (`ends`) is all its item. `closes`: the last line of the file
 * that holds `-->`.
 */
export function itemEnd(
  lines: readonly string[],
  from: number,
  indent: number,
  ends: ReadonlySet<number> | undefined,
  closes: number,
): number {
  let end = from;
  while (end + 1 < lines.length) {
    const next = lines[end + 1]!;
    if (endsBlock(next) || ends?.has(end)) break;
    if (next.length - next.trimStart().length <= indent && BREAK.test(next)) break;
    end++;
  }
  return commentEnd(lines, from, end, closes);
}

/** The last line of the paragraph that starts at `from`: up to a blank line, the start of another block or a setext underline. */
export function paragraphEnd(lines: readonly string[], from: number, ends: ReadonlySet<number> | undefined, closes: number): number {
  let end = from;
  while (end + 1 < lines.length) {
    const next = lines[end + 1]!;
    if (endsBlock(next) || ends?.has(end) || SETEXT.test(next)) break;
    end++;
  }
  return commentEnd(lines, from, end, closes);
}

/**
 * `end`, or the line that closes an HTML comment the lines `from`…`end` open and leave open (`- Use pnpm. <!--` over
 * `- Use yarn.` and `-->`): what it holds is commented out, never an item or a rule of its own. A comment no line
 * closes is left as it is.
 */
function commentEnd(lines: readonly string[], from: number, end: number, closes: number): number {
  // `closes`, the last line holding `-->`, spares a search to the end of the file per item when no line closes it.
  if (closes <= end) return end;
  const text = lines.slice(from, end + 1).join('\n');
  if (!text.includes('<!--')) return end;
  const prose = text.replace(/(`+)[^`]*?\1/g, '');
  if (prose.lastIndexOf('<!--') <= prose.lastIndexOf('-->')) return end;
  return findFrom(lines, end + 1, (l) => l.includes('-->'));
}

/** `line` read as a list item, when it is indented more than `indent` (a sibling, the usual next line, is not matched at all). */
export function deeperItem(line: string | undefined, indent: number): RegExpExecArray | null {
  if (line === undefined) return null;
  const c = line.charCodeAt(Math.max(indent, 0));
  // Indented more than `indent` means white space at column `indent` (a tab counts four: left to the match).
  return indent >= 0 && c !== 32 && c !== 9 && !line.slice(0, indent + 1).includes('\t') ? null : ITEM.exec(line);
}

/** The width of a list item's indent, a tab counting four. */
export function indentOf(indent: string): number {
  return indent.includes('\t') ? indent.replace(/\t/g, '    ').length : indent.length;
}

/** The words of a plain text (`plain`'s: its white space single spaces, trimmed), as splitting it at white space counts them. */
export function words(text: string): number {
  let n = 1;
  for (let at = text.indexOf(' '); at >= 0; at = text.indexOf(' ', at + 1)) n++;
  return n;
}

export function findFrom(lines: readonly string[], from: number, test: (l: string) => boolean): number {
  for (let n = from; n < lines.length; n++) if (test(lines[n]!)) return n;
  return lines.length - 1;
}

/**
 * The first words of lines `from`..`to` joined, as one line of at most 80
 * characters. Folded a line at a time, and no further than the excerpt
 * shows: a code block of a thousand lines is not joined to show 77 characters,
 * nor a line of a thousand characters folded whole. `written`: the lines as the
 * file has them where they were read as other text (`fileLines`).
 */
export function excerpt(lines: readonly string[], from: number, to: number, written?: ReadonlyMap<number, string>): string {
  let t = '';
  for (let n = from; n <= to && t.length <= 80; n++) {
    // Folding the joined lines is folding each line and joining the non-empty ones with a space.
    const l = foldedStart(written?.get(n) ?? lines[n]!, 81 - (t === '' ? 0 : t.length + 1));
    if (l !== '') t = t === '' ? l : `${t} ${l}`;
  }
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}

/**
 * The start of `fold(line)`, at least `want` characters of it when it has
 * them (else all of it): folding the start of a line gives the start of the
 * folded line, so the rest, which an excerpt never shows, is left alone.
 */
function foldedStart(line: string, want: number): string {
  for (let end = want + 40; end < line.length; end *= 2) {
    const start = fold(line.slice(0, end));
    if (start.length >= want) return start;
  }
  return fold(line);
}
