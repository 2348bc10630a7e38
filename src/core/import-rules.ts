/**
 * Splits one instruction file (AGENTS.md, CLAUDE.md, a Cursor rule, …) into
 * candidate invariants: list items and short sentences that state a rule.
 * Everything else (code, command listings, tables, link lists, headings,
 * descriptions, the block `agents export` writes) is left out with its line,
 * so a reviewer sees what was not taken and why. Pure: text in, data out.
 */

import { BEGIN_PREFIX, END_MARKER } from './export.ts';
import { startsWithMarker } from './export-markers.ts';
import {
  BREAK,
  closesFence,
  EXAMPLE_MARK,
  excerpt,
  FENCE,
  findFrom,
  HEADING,
  headingText,
  indentedCodeEnd,
  indentOf,
  fileLines,
  ITEM,
  listKind,
  opensComment,
  itemEnd,
  opensIndentedCode,
  paragraphEnd,
  SETEXT,
  tableEnd,
  words,
} from './markdown-blocks.ts';
import { onlyReferences, pointsAtReference, referencesLeftOut, withoutPointers } from './import-references.ts';
import { gateCheck, guidance, isLabel, leadsIntoRules, REMEDY, unattributed, unmarked } from './import-items.ts';
import { captionOfCode, elaborations, firstItemIsRule, nestedItems, nestsBelow, ruleWithCommand, titlesList } from './import-lookahead.ts';
import { type ItemSurroundings, itemReason, negationAround } from './import-item-reason.ts';
import { readsAsEnglish } from './import-language.ts';
import { MAX_TEXT_LENGTH } from './limits.ts';
import {
  FOOTNOTE,
  holdsPlaceholder,
  isLinkDefinition,
  isLinkOnly,
  leadingImages,
  joinLines,
  keepLabelTarget,
  labelledCode,
  plain,
  saysMoreThan,
  startsWithCode,
} from './markdown-plain.ts';
import {
  AFFIRMATIVE,
  type Heading,
  headingOf,
  isCondition,
  isRule,
  joinDetail,
  MARKED,
  NEGATIVE,
  NEGATIVE_MARKS,
  NORMATIVE,
  headingNamesRules,
  labelsNameRules,
  sectionOf,
  splitSentences,
  withCondition,
} from './rule-wording.ts';
import { type LeftOutReason, SplitCandidate, type SplitFile, SplitLeftOut } from './import-split.ts';

export type { LeftOut, LeftOutReason, RuleCandidate, SplitFile } from './import-split.ts';

/**
 * The last two distinct tags of the headings below the first level and of the labels above a rule, nearest last. A
 * loop, not spreads of filtered arrays: those come in two shapes (empty or not), and each new one made the optimised
 * code be thrown away.
 */
function lastTags(headings: readonly Heading[], labels: readonly Heading[]): string[] {
  const seen = new Set<string>();
  for (const h of headings) if (h.level > 1 && h.tag !== '') seen.add(h.tag);
  for (const h of labels) if (h.tag !== '') seen.add(h.tag);
  return [...seen].slice(-2);
}

/**
 * The candidates and left-out pieces of one file's text. `frontMatter: false`: lines between a first `---` and the
 * next are Markdown (a rule, then text), not front matter. `references`: the file's agent reads `@path` as the text of
 * that file (a CLAUDE.md, a GEMINI.md), so a sentence that only points at one is no rule, and a rule's line that holds
 * one stays in its file on --replace, where the agent reads the file in.
 */
export function splitInstructions(
  text: string,
  { frontMatter = true, references = false }: { frontMatter?: boolean; references?: boolean } = {},
): SplitFile {
  const { lines, front, bodyLine, unclosed, ends, tagged, written, examples } = fileLines(text, frontMatter);
  /** The first lines of items whose rule is a quote without who said it (unattributed). */
  const attributed = new Set<number>();
  const out: SplitFile = { bodyLine, candidates: [], leftOut: [] };
  if (front !== undefined) out.frontMatter = front;
  if (unclosed) out.unclosedFrontMatter = true;
  const english = readsAsEnglish(lines);
  if (!english) out.notEnglish = true;
  let i = bodyLine - 1;
  /** The headings above, nearest last: each with its tag and the word its rules take when it heads don'ts. */
  const headings: Heading[] = [];
  /** Whether the last block was a list item (blank lines between items keep the list). */
  let inList = false;
  // The tags of the headings above, made once per heading rather than once per rule (an array shared by its rules).
  let current: string[] | undefined;
  const tags = () => (current ??= lastTags(headings, labels));
  // Whether a heading above names rules: also once per heading, not once per rule.
  let ruled: boolean | undefined;
  // The nearest label decides for the items below it ("Examples:" under a heading of rules holds no conventions), and
  // the nearest heading that names rules or what the project has ("## Tech Stack" under "# Project Conventions").
  const underRuleHeading = () => (ruled ??= labelsNameRules(labels) ?? headingNamesRules(headings));
  /** List items that head the items nested below them ("Testing:", "**Style**"), as headings do, by their indent. */
  const labels: Heading[] = [];
  // Whether a text states a rule, asked twice of a list item that is one: the last answer kept.
  let ruleText = '';
  let ruleAnswer = false;
  const rule = (text: string): boolean => (text === ruleText ? ruleAnswer : ((ruleText = text), (ruleAnswer = isRule(text))));
  /** The indents of the list items this line is nested in, and whether the nearest of them is no label. */
  const open: number[] = [];
  let underItem = false;
  /** The kind of the outermost items of the list read (`listKind`): an item of another kind starts a new list. */
  let kind = '';
  const dropLabels = (indent: number): void => {
    if (labels.length === 0 || labels.at(-1)!.level < indent) return;
    while (labels.length > 0 && labels.at(-1)!.level >= indent) labels.pop();
    current = undefined;
    ruled = undefined;
  };
  // A paragraph, or any block at the margin, ends the list, and with it the caption and labels of its items.
  const endList = (): void => {
    if (labels.length > 0) dropLabels(-1);
    open.length = 0;
    kind = '';
    underItem = false;
  };
  // A heading (`#` or setext) closes the headings at its level or below, and the list and labels read under them.
  const enterHeading = (text: string, level: number): void => {
    while (headings.length > 0 && headings.at(-1)!.level >= level) headings.pop();
    headings.push(sectionOf(text, level));
    labels.length = 0;
    open.length = 0;
    kind = '';
    current = undefined;
    ruled = undefined;
  };
  // A label heads what follows it as a heading does: the tags and whether bare phrases are conventions change with it.
  const pushLabel = (label: Heading): void => {
    labels.push(label);
    current = undefined;
    ruled = undefined;
  };
  // What itemReason reads of the text around an item: the arrays change in place, `underItem` as each item is read.
  const surroundings: ItemSurroundings = {
    lines,
    references,
    english,
    headings,
    labels,
    get underItem() {
      return underItem;
    },
    rule,
    underRuleHeading,
  };
  const leave = (from: number, to: number, reason: LeftOutReason): void => {
    out.leftOut.push(new SplitLeftOut(from + 1, to + 1, reason, excerpt(lines, from, to, written)));
  };

  let lastEnd: number | undefined;
  const closes = lines.findLastIndex((l) => l.includes('-->'));
  while (i < lines.length) {
    const line = lines[i]!;
    // "<example>" and the lines up to its closing tag show what to write or not to write: an example, no rule.
    const example = examples?.get(i);
    if (example !== undefined) {
      endList();
      leave(i, example, 'description');
      // Its excerpt is what it shows, without the mark its first line reads as.
      out.leftOut.at(-1)!.excerpt = out.leftOut.at(-1)!.excerpt.slice(EXAMPLE_MARK.length + 1);
      i = example + 1;
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    // A fence, table, comment or break at the margin is no item's: the list above it is over ("**Don't:**" no longer
    // heads the list after a code block).
    if (open.length > 0 && /^\S/.test(line) && !ITEM.test(line)) endList();
    // The block `agents export` wrote: what it holds came from a store, never goes back into one.
    if (startsWithMarker(line, BEGIN_PREFIX)) {
      // A begin marker after the last end line (found once, not searched for per line) is one line of markup, as an
      // agent reads it: the rules below it are the file's own; the block's entries are known by their ids all the same.
      lastEnd ??= lines.findLastIndex((l) => startsWithMarker(l, END_MARKER));
      const end = lastEnd > i ? findFrom(lines, i + 1, (l) => startsWithMarker(l, END_MARKER)) : i;
      leave(i, end, 'export-block');
      i = end + 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1]!;
      const end = findFrom(lines, i + 1, (l) => closesFence(l, mark));
      leave(i, end, 'code-block');
      i = end + 1;
      continue;
    }
    if (opensComment(line)) {
      const end = findFrom(lines, i, (l) => l.includes('-->'));
      leave(i, end, 'comment');
      i = end + 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      inList = false;
      enterHeading(plain(headingText(heading)), heading[1]!.length);
      leave(i, i, 'heading');
      i++;
      continue;
    }
    if (BREAK.test(line)) {
      i++;
      continue;
    }
    const table = tableEnd(lines, i);
    if (table !== undefined) {
      leave(i, table, 'table');
      i = table + 1;
      continue;
    }
    if (opensIndentedCode(line, lines[i - 1], inList)) {
      const end = indentedCodeEnd(lines, i);
      leave(i, end, 'code-block');
      i = end + 1;
      continue;
    }
    const item = ITEM.exec(line);
    inList = item !== null;
    if (item) {
      const indent = indentOf(item[1]!);
      dropLabels(indent);
      while (open.length > 0 && open.at(-1)! >= indent) open.pop();
      // A caption ("**Don't:**") heads its own list only, not the list of another kind that starts here.
      if (open.length === 0) {
        const k = listKind(item[2]!);
        if (kind !== '' && k !== kind) dropLabels(-1);
        kind = k;
      }
      // Nested below an item that is no label ("Don't create huge tickets" over "Break work into pieces"): that item,
      // not the heading, is what the rule answers to.
      underItem = open.length > 0 && labels.at(-1)?.level !== open.at(-1);
      open.push(indent);
      const end = itemEnd(lines, i, indent, ends, closes);
      // Pushed one by one: a spread of a mapped slice, empty or not, meets arrays of two shapes here, and the
      // optimised splitter is thrown away and compiled again for each new one.
      const body = [item[3]!];
      for (let n = i + 1; n <= end; n++) body.push(lines[n]!.trim());
      const raw = joinLines(body);
      // "Testing:" or "**Style**" over nested items: a label, which heads them as a heading does (a tag, and whether
      // bare phrases below it are conventions).
      const label = nestsBelow(lines, end + 1, indent) && isLabel(raw) ? plain(raw).replace(/:$/, '') : undefined;
      if (label !== undefined) {
        leave(i, end, 'heading');
        // "After merge to main:" says when the steps below it apply: each is taken with it, as under such a caption.
        const head = plain(raw);
        pushLabel(isCondition(head) ? withCondition(headingOf(label, indent), '', head) : headingOf(label, indent));
        i = end + 1;
        continue;
      }
      // "Avoid nesting blocks by:" and its nested items are one rule: the items finish its sentence.
      const children = raw.trimEnd().endsWith(':') ? nestedItems(lines, end + 1, indent, ends) : undefined;
      // A lead-in stating no rule over rules of their own ("The API has constraints:"): a label; a condition goes on each.
      if (children && leadsIntoRules(raw, children.items)) {
        leave(i, end, 'heading');
        const head = plain(raw);
        pushLabel(withCondition(headingOf(head.replace(/:$/, ''), indent), '', isCondition(head) ? head : undefined));
        i = end + 1;
        continue;
      }
      if (children && children.items.length > 0) {
        takeGroup(raw, children.items, i, children.end);
        i = children.end + 1;
        continue;
      }
      i = takeItem(raw, i, end, indent) + 1;
      continue;
    }
    const end = paragraphEnd(lines, i, ends, closes);
    // A setext heading: a line of = or - under the paragraph.
    if (SETEXT.test(lines[end + 1] ?? '')) {
      enterHeading(plain(lines.slice(i, end + 1).join(' ')), lines[end + 1]!.trim()[0] === '=' ? 1 : 2);
      leave(i, end + 1, 'heading');
      i = end + 2;
      continue;
    }
    endList();
    // Badges over a paragraph ("[![CI](…)](…)" on lines of its own) are links: their alt text is no word of its rule.
    const badges = leadingImages(lines, i, end);
    if (badges !== undefined) {
      leave(i, badges, 'link');
      i = badges + 1;
      continue;
    }
    // "✅ Use const" and "❌ Use var" on lines of their own (with hard line breaks): each line is a rule, as an item is.
    if (MARKED.test(line.trimStart()) && lines.slice(i + 1, end + 1).every((l) => MARKED.test(l.trimStart()))) {
      for (let n = i; n <= end; n++) takeItem(lines[n]!.trim().replace(/\\$/, ''), n, n, Number.MAX_SAFE_INTEGER);
      i = end + 1;
      continue;
    }
    const raw = joinLines(lines.slice(i, end + 1));
    // "**Don't:**", "Style:" or "**Don'ts**" over a list: a caption, which heads the list as a label does. One that
    // is a rule ("Avoid:") is finished by the list's items instead.
    const caption = nestsBelow(lines, end + 1, -1) ? plain(raw) : '';
    // A sentence ("Never commit secrets.") is a rule of its own over its list, not a word of which way the list goes.
    const way =
      i === end && words(caption) <= 3 && !/[.!?]$/.test(caption) && headingOf(caption.replace(/:$/, ''), -1).negation !== undefined;
    const leads = (caption.endsWith(':') || way) && !captionOfCode(lines, caption, end);
    const short = leads && words(caption) <= 3;
    // "Run it when you change:" and the list below it are one rule.
    const list =
      raw.trimEnd().endsWith(':') && !(short && !isRule(caption.replace(/:$/, ''), true))
        ? nestedItems(lines, end + 1, -1, ends)
        : undefined;
    if (list && !captionOfCode(lines, plain(raw), end) && !leadsIntoRules(raw, list.items)) {
      takeGroup(raw, list.items, i, list.end);
      i = list.end + 1;
      continue;
    }
    const introduces = leads && firstItemIsRule(lines, end + 1);
    if (
      short ||
      (i === end && titlesList(lines, caption, end)) ||
      (leads && introduces && isCondition(caption) && (i === end || splitSentences(caption).length === 1))
    ) {
      leave(i, end, 'heading');
      // "Before creating a file:" says when the rules below it apply: each is taken with it, and it gives no tag.
      const condition = isCondition(caption) ? caption : undefined;
      pushLabel(condition ? withCondition(headingOf('', -1), '', condition) : headingOf(caption.replace(/:$/, ''), -1));
    } else takeParagraph(raw, i, end, introduces);
    i = end + 1;
  }
  return out;

  /**
   * A list item that ends on line `to`, at `indent`; returns the last line it took. "Never commit .env files." and
   * a nested "This includes .env.local." are one rule: nested items that state no rule of their own finish it.
   */
  function takeItem(raw: string, from: number, to: number, indent: number): number {
    const body = raw.replace(/^\[[ xX]\]\s+/, '');
    // A rule quoted with who said it is the rule; its line, which says who, stays in its file on --replace.
    const quoted = unattributed(plain(body));
    if (quoted !== undefined) {
      // A quote that states no rule by its words ("Hello," says the lead) is what someone said, whatever the heading.
      if (!isRule(unmarked(quoted))) {
        leave(from, to, 'description');
        return to;
      }
      attributed.add(from);
    }
    const said = quoted ?? plain(body);
    // "Never push. See @docs/git.md for details.": the rule is the rest, and the pointer stays on its line (take).
    const text = references ? withoutPointers(said) || said : said;
    const reason = itemReason(surroundings, body, text, to);
    const command = reason === 'command' ? ruleWithCommand(lines, text, to) : undefined;
    if (command !== undefined) {
      take(command, from, to, false);
      return to;
    }
    // "[Docs](https://…): read before starting": the rule keeps what to read, after the label's words.
    const labelled = keepLabelTarget(body, text);
    const details = reason === undefined && rule(unmarked(text)) ? elaborations(lines, to + 1, indent) : undefined;
    if (details) {
      take(details.texts.reduce(joinDetail, labelled), from, details.end);
      return details.end;
    }
    // "`npm run validate` runs every check. Run the API tests against the real database.": the listing opens the
    // item, a rule follows it; the rule is taken, and the item's line stays, as a long paragraph's sentences are.
    const later =
      reason === 'command' || reason === 'description' || reason === 'reference'
        ? splitSentences(text)
            .slice(1)
            .filter((s) => isRule(s))
        : [];
    for (const s of later) take(s, from, to, false);
    const check = reason === undefined && (startsWithCode(body) || labelledCode(body)) ? gateCheck(text, labels, headings) : undefined;
    if (reason === undefined) take(check ?? labelled, from, to);
    else leave(from, to, reason);
    return to;
  }

  /** An item ending with a colon and the items below it: one rule when the item is one, else left out together. */
  function takeGroup(raw: string, items: string[], from: number, to: number): void {
    const head = plain(raw.replace(/^\[[ xX]\]\s+/, ''));
    // "Read these first:" over `@docs/a.md` and `@docs/b.md`: files read in, no rule to take from the caption.
    if (items.every(onlyReferences)) {
      leave(from, to, 'reference');
      return;
    }
    const texts = items.map(plain);
    const parts = texts.map((x) => x.replace(/[\s.;,]*(?:\b(?:and|or)\b[\s.;,]*)?$/, ''));
    if (parts.every((x) => /^`/.test(x) || labelledCode(x)) || items.every((x) => startsWithCode(x) && !NORMATIVE.test(x))) {
      // "These include:" and a list of commands: the rule is the head's.
      if (isRule(head.replace(/:$/, ''), true)) take(`${head} ${texts.join(', ')}.`, from, to);
      else {
        // "One commit per phase. Run `just fmt` before every commit:": the sentence that leads into them may be one.
        const sentences = splitSentences(head);
        const last = sentences.length > 1 ? sentences.pop()! : undefined;
        for (const s of sentences.filter((x) => isRule(x))) take(s, from, to, false);
        if (last !== undefined && isRule(last.replace(/:$/, ''), true)) take(`${last} ${texts.join(', ')}.`, from, to, false);
        leave(from, to, 'command');
      }
      return;
    }
    const reason = itemReason(surroundings, raw, head, to);
    if (reason !== undefined && !(reason === 'description' && isRule(head.replace(/:$/, ''), true))) leave(from, to, reason);
    else take(`${head} ${parts.join('; ')}.`, from, to);
  }

  /** A paragraph; one that `introducesList` ends with a sentence that only leads into the list below it. */
  function takeParagraph(raw: string, from: number, to: number, introducesList = false): void {
    const text = plain(raw);
    // "[style]: docs/style.md" says where a link leads; a footnote's note (below) stays with the line citing it.
    if (isLinkOnly(raw) || (!FOOTNOTE.test(raw) && lines.slice(from, to + 1).every(isLinkDefinition))) {
      leave(from, to, 'link');
      return;
    }
    if (onlyReferences(raw)) {
      leave(from, to, 'reference');
      return;
    }
    // Footnotes stay with the lines that cite them, which keep them on --replace; a template's blanks are no rule yet.
    if (FOOTNOTE.test(raw) || holdsPlaceholder(raw)) {
      leave(from, to, 'description');
      return;
    }
    if (captionOfCode(lines, text, to) || (text.endsWith(':') && words(text) <= 3)) {
      const command = ruleWithCommand(lines, text, to);
      if (command !== undefined) take(command, from, to, false);
      else leave(from, to, text.endsWith(':') && captionOfCode(lines, text, to) ? 'command' : 'description');
      return;
    }
    const sentences = splitSentences(text);
    const pointers = references ? sentences.filter(pointsAtReference) : [];
    const why = pointers.length > 0 ? 'reference' : 'description';
    // "It is your goal to … at all times:" over a list of rules: the items are the rules, not their introduction.
    const rules = (introducesList ? sentences.slice(0, -1) : sentences).filter((s) => isRule(s) && !pointers.includes(s));
    if (rules.length === 0) leave(from, to, why);
    // A short paragraph that states rules is one candidate; a long one gives its rule sentences one by one.
    else if (rules.length === sentences.length && text.length <= 400) take(text, from, to);
    else {
      for (const s of rules) take(s, from, to, false);
      if (rules.length < sentences.length) leave(from, to, why);
    }
  }

  function take(written: string, from: number, to: number, whole = true): void {
    // "❌ Use var" and, under "Don'ts" (a heading, a label or a caption), "use default exports" say the opposite of their text.
    const mark = MARKED.exec(written);
    const said = mark ? written.slice(mark[0].length) : written;
    const negation = mark
      ? NEGATIVE_MARKS.test(mark[1]!)
        ? "Don't"
        : undefined
      : underItem
        ? undefined
        : negationAround(labels, headings);
    // Unless it prohibits already, carries its own guidance, or its first sentence names the alternative ("Use const instead");
    // under a heading, also when it opens with the way it goes ("Always write tests"), which a ❌ mark overrules.
    const remedy = negation !== undefined && REMEDY.test(said) && REMEDY.test(splitSentences(said)[0]!);
    const affirms = !mark && AFFIRMATIVE.test(said);
    const rule = negation !== undefined && !NEGATIVE.test(said) && !guidance(said) && !remedy && !affirms ? `${negation}: ${said}` : said;
    const condition = (labels.findLast((l) => l.condition !== undefined) ?? headings.findLast((h) => h.condition !== undefined))?.condition;
    const text = condition === undefined || !whole ? rule : `${condition} ${rule}`;
    // A line that starts with a tag before its rule keeps it on --replace: its element needs the tag; so does one that
    // reads a file in (`See @docs/git.md for why`) that the rule's text leaves out, where alone its agent reads that
    // file. One whose every `@` file the text says goes: the block says the rule once, and reads the file in.
    const lineText = lines.slice(from, to + 1).join('\n');
    // Its lines name a file with `@` at all (none of them is in an empty text).
    const reads = references && referencesLeftOut(lineText, '');
    const tag =
      (tagged !== undefined && lines.slice(from, to + 1).some((_, k) => tagged.has(from + k))) ||
      (reads && referencesLeftOut(lineText, text));
    const all = whole && !tag && !attributed.has(from) && text.length <= MAX_TEXT_LENGTH && !saysMoreThan(lineText, text);
    if (text.length > MAX_TEXT_LENGTH) leave(from, to, 'too-long');
    else out.candidates.push(new SplitCandidate(text, from + 1, to + 1, all, all && reads, tags()));
  }
}
