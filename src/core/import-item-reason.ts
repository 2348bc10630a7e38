/**
 * Why a list item of an instruction file is no rule (a command listing, a link, a description, …), asked by
 * `splitInstructions` of each item with what it knows of the text around it: the headings and labels above, whether
 * the item is nested below another, whether the file reads as English. Pure.
 */

import { gateCheck, labelled, unmarked } from './import-items.ts';
import { captionOfCode } from './import-lookahead.ts';
import { onlyReferences, withoutPointers } from './import-references.ts';
import type { LeftOutReason } from './import-split.ts';
import { words } from './markdown-blocks.ts';
import { holdsPlaceholder, isLinkOnly, labelledCode, startsWithCode } from './markdown-plain.ts';
import { DESCRIBING, type Heading, isRule, labelsRule, NORMATIVE, namesForm, namesVerb, SAYS_WHERE } from './rule-wording.ts';

/** What an item is read in: the file's lines and what the reader found above the item. */
export interface ItemSurroundings {
  lines: readonly string[];
  /** The file's agent reads `@path` as that file's text (a CLAUDE.md, a GEMINI.md). */
  references: boolean;
  english: boolean;
  /** The headings above, nearest last, and the labels of the items the item is nested in. */
  headings: readonly Heading[];
  labels: readonly Heading[];
  /** Nested below an item that is no label: that item, not the heading, is what it answers to. */
  underItem: boolean;
  /** `isRule`, as the reader keeps its last answer. */
  rule: (text: string) => boolean;
  /** Whether the nearest label or heading that decides names rules, so that a bare phrase is a convention. */
  underRuleHeading: () => boolean;
}

/** The word of the nearest label, else heading, that says which way its rules go ("Frontend" under "Don'ts": "Don't"). */
export function negationAround(labels: readonly Heading[], headings: readonly Heading[]): string | undefined {
  for (const around of [labels, headings])
    for (let k = around.length - 1; k >= 0; k--) if (around[k]!.negation !== undefined) return around[k]!.negation || undefined;
  return undefined;
}

/** Why a list item is not a rule, or undefined when it is one. */
export function itemReason(at: ItemSurroundings, body: string, marked: string, to: number): LeftOutReason | undefined {
  const { lines, references, english, labels, headings, rule } = at;
  // "✅ Use const" is judged as "Use const": a mark says which way a rule goes, not whether an item is one.
  const text = unmarked(marked);
  // "@docs/style.md": where the agent reads a file in, not a rule; nor is "Read @docs/style.md first" in its file.
  if (onlyReferences(body) || (references && withoutPointers(text) === '')) return 'reference';
  // "1.0.0", "—": no words, no rule; nor a template's line still to fill in ("Tone: {{tone}}").
  if (!/\p{L}/u.test(text) || holdsPlaceholder(body)) return 'description';
  if (isLinkOnly(body)) return 'link';
  if (captionOfCode(lines, text, to)) return 'command';
  // Another language's item is taken as it stands, unless it holds no words but its code ("**ビルド:** `npm run build`").
  if (!english) return labelledCode(body) || !/\p{L}/u.test(body.replace(/`[^`]*`/g, '')) ? 'command' : undefined;
  // "`npm test` runs the tests" and "**Build:** `npm run build`" are listings; "`main` must stay green" is a rule, and
  // so is a command under "Before committing" (a check to pass: takeItem words it).
  const check = () => gateCheck(text, labels, headings) !== undefined;
  // Under a heading of don'ts that names its verb ("## Never Run" over "`git push --force`"), what not to run or touch.
  if (startsWithCode(body))
    return NORMATIVE.test(text) || check() || (!at.underItem && namesVerb(negationAround(labels, headings))) ? undefined : 'command';
  // "**Build:** `npm run build`" lists a command; "Ensure the submodule is current: `git submodule update`" is a rule.
  if (labelledCode(body) && !labelsRule(text.slice(0, text.indexOf(':')))) return check() ? undefined : 'command';
  // "Title format: `feat(scope): …`": the form to keep to, under any heading, as "Use the format: …" is.
  if (labelledCode(body) && namesForm(text.slice(0, text.indexOf(':')))) return undefined;
  // "Test commands:", a label over the items below it.
  if (/:$/.test(text) && words(text) <= 3) return 'description';
  // "Purpose: Provide a terminal interface": a description, whatever its verb.
  const label = labelled(text);
  if (label && DESCRIBING.test(label.label)) return 'description';
  if (rule(text)) return undefined;
  // "Error Handling: Implement robust error handling": a short label, then a rule.
  if (label && words(label.label) <= 5 && isRule(label.rest)) return undefined;
  if (/:$/.test(text)) return 'description';
  // A bare phrase is a convention under a heading of rules ("2-space indentation"), else a description.
  return at.underRuleHeading() && words(text) <= 40 && !SAYS_WHERE.test(text) ? undefined : 'description';
}
