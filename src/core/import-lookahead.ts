/**
 * What the lines after a block of an instruction file hold, for import-rules.ts
 * to decide what the block is: the items nested below it, a fence a caption
 * introduces, the command a rule ends with. Pure: lines in, answers out.
 */

import { BREAK, closesFence, deeperItem, endsBlock, FENCE, indentOf, ITEM, listKind, words } from './markdown-blocks.ts';
import { guidance, ownRule, unmarked } from './import-items.ts';
import { isLinkOnly, plain, startsWithCode } from './markdown-plain.ts';
import { headingOf, isRule, keepsTo, NORMATIVE } from './rule-wording.ts';

/**
 * The items nested right below the item that ends on line `from - 1` (indented more than `indent`) that state
 * no rule of their own, up to the first that does (it stands alone) or the end of the nesting; with their last line.
 */
export function elaborations(lines: readonly string[], from: number, indent: number): { texts: string[]; end: number } | undefined {
  const texts: string[] = [];
  let end = from - 1;
  for (let n = from; n < lines.length; ) {
    while (n < lines.length && lines[n]!.trim() === '') n++;
    const m = deeperItem(lines[n], indent);
    if (!m || indentOf(m[1]!) <= indent) break;
    const body = [m[3]!];
    let last = n;
    while (last + 1 < lines.length && !endsBlock(lines[last + 1]!) && !BREAK.test(lines[last + 1]!)) body.push(lines[++last]!.trim());
    const markdown = body.join(' ');
    const text = plain(markdown);
    if (text === '' || ownRule(text) || guidance(text) || text.endsWith(':') || startsWithCode(markdown) || isLinkOnly(markdown)) break;
    texts.push(text);
    end = last;
    n = last + 1;
  }
  return texts.length > 0 ? { texts, end } : undefined;
}

/** A line ending with a colon that introduces a code block ("Run the tests:"): a caption, not a rule. */
export function captionOfCode(lines: readonly string[], text: string, to: number): boolean {
  if (!text.endsWith(':')) return false;
  let n = to + 1;
  while (n < lines.length && lines[n]!.trim() === '') n++;
  const next = lines[n] ?? '';
  return FENCE.test(next.trimStart()) || (/^( {4}|\t)/.test(next) && !ITEM.test(next));
}

/**
 * "Make sure the tests pass with the race detector on:" over a fence of one command: a rule that ends with its
 * command, as one written inline does. Its line stays on --replace (the command below it goes on saying it).
 */
export function ruleWithCommand(lines: readonly string[], caption: string, to: number): string | undefined {
  if (!caption.endsWith(':')) return undefined;
  let n = to + 1;
  while (n < lines.length && lines[n]!.trim() === '') n++;
  const fence = FENCE.exec(lines[n] ?? '');
  const command = lines[n + 1]?.trim();
  const one = fence && command && !closesFence(command, fence[1]!) && closesFence(lines[n + 2] ?? '', fence[1]!);
  // "Run the type checks after moving files:" says when, which a caption of how ("Run all checks:") does not.
  if (one && (NORMATIVE.test(caption) || (WHEN.test(caption) && isRule(caption.slice(0, -1))))) return `${caption} ${command}`;
  // "Maintain the established directory structure:" over a tree: a rule of its own, which the block only shows. Its
  // sentence is the invariant (a block's lines folded into it lose their layout); its line and the block stay in the
  // file. One that points at the block ("Use this layout:") says nothing without it.
  const body = caption.slice(0, -1);
  return keepsTo(body) && !POINTS_AT_BLOCK.test(body) && captionOfCode(lines, caption, to) ? `${body}.` : undefined;
}

/** Words that say when a step is taken ("after moving files", "before every commit"). */
const WHEN = /\b(after|before|whenever|every time|each time)\b/i;

/** Words that point at what follows a caption ("Use this layout:", "Follow the format below:"). */
const POINTS_AT_BLOCK = /\b(this|these|that|those|following|below|above|as follows|like|such as|e\.g|for example|here)\b/i;

/** Whether the first list item after blank lines from `from` states a rule of its own (its first line). */
export function firstItemIsRule(lines: readonly string[], from: number): boolean {
  let n = from;
  while (n < lines.length && lines[n]!.trim() === '') n++;
  const m = ITEM.exec(lines[n] ?? '');
  const text = m ? plain(m[3]!.replace(/^\[[ xX]\]\s+/, '')) : '';
  return text !== '' && (isRule(unmarked(text)) || guidance(text));
}

/**
 * Whether the one-line paragraph `caption` on line `at` (0-based), right over its list and unpunctuated ("What Copilot
 * must avoid", "Commit & PR guidance"), is a heading written as a line: unless it is a rule the items below it do not
 * state themselves (nor turn, as a heading of don'ts does).
 */
export function titlesList(lines: readonly string[], caption: string, at: number): boolean {
  if (caption === '' || !ITEM.test(lines[at + 1] ?? '') || /\p{P}$/u.test(caption) || words(caption) > 8) return false;
  return !isRule(caption) || firstItemIsRule(lines, at + 1) || headingOf(caption, -1).negation !== undefined;
}

/** Whether the line after blank ones from `from` is an item nested deeper than `indent`. */
export function nestsBelow(lines: readonly string[], from: number, indent: number): boolean {
  let n = from;
  while (n < lines.length && lines[n]!.trim() === '') n++;
  const m = deeperItem(lines[n], indent);
  return m !== null && indentOf(m[1]!) > indent;
}

/**
 * The items nested below the item that ends on line `from - 1` (indented more than `indent`), with their last line;
 * an item on one of the lines of `ends` (a rule file's `<rule>…</rule>`, or a line a tag and text follow) takes no
 * line after it.
 */
export function nestedItems(
  lines: readonly string[],
  from: number,
  indent: number,
  ends?: ReadonlySet<number>,
): { items: string[]; end: number } | undefined {
  const items: string[] = [];
  let end = from - 1;
  // The first item's indent and kind: an item as shallow of another kind starts a list of its own.
  let first = 0;
  let kind = '';
  for (let n = from; n < lines.length; n++) {
    const l = lines[n]!;
    if (l.trim() === '') continue;
    const m = ITEM.exec(l);
    const at = l.length - l.trimStart().length;
    if (m && indentOf(m[1]!) > indent) {
      if (items.length === 0) [first, kind] = [indentOf(m[1]!), listKind(m[2]!)];
      else if (indentOf(m[1]!) <= first && listKind(m[2]!) !== kind) break;
      items.push(m[3]!);
    }
    // A line not indented past the first item's marker goes on with an item only right below it, never after a blank
    // line; a heading, a table or a comment right below it starts a block of its own (a fence too).
    else if (
      !m &&
      at > indent &&
      items.length > 0 &&
      !ends?.has(end) &&
      !FENCE.test(l.trimStart()) &&
      !endsBlock(l) &&
      (at > first || n === end + 1)
    )
      items[items.length - 1] += ` ${l.trim()}`;
    else break;
    end = n;
  }
  // Only short fragments finish the sentence above them; a list of full rules stands on its own.
  const fragments = items.length <= 8 && items.every((x) => words(plain(x)) <= 12);
  return items.length > 0 && fragments ? { items, end } : undefined;
}
