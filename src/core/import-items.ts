/**
 * What a list item of an instruction file is when it is more than a rule
 * (import-rules.ts splits the file): a label over the items nested below it,
 * a lead-in to rules of their own, guidance after a label, a ✅ or ❌ mark.
 * Pure.
 */

import { words } from './markdown-blocks.ts';
import { isLinkOnly, plain, startsWithCode } from './markdown-plain.ts';
import { type Heading, isCondition, isRule, MARKED, onlyNegates } from './rule-wording.ts';

/**
 * A list item that may head the items nested below it: a short phrase that states no rule ("Testing:", "**Style**",
 * "Frontend (React)"), not code, a link, or a label followed by its own text ("Error handling: Use Result types").
 */
export function isLabel(markdown: string): boolean {
  const text = plain(markdown.replace(/^\[[ xX]\]\s+/, ''));
  if (text === '' || /:\s*\S/.test(text) || words(text) > 6) return false;
  // "Strict mode on." is a sentence, a rule of its own however short: a label ends with a colon or is a bare phrase.
  if (/[^.]\.$/.test(text)) return false;
  if (startsWithCode(markdown) || isLinkOnly(markdown)) return false;
  // "Don't:" and "Never:" are rules by their words, yet only head the prohibitions below them.
  const head = text.replace(/:$/, '');
  return !isRule(head, true) || onlyNegates(head);
}

/** A text without the ✅ or ❌ before it. */
export function unmarked(text: string): string {
  return text.charCodeAt(0) < 0x2000 ? text : text.replace(MARKED, '');
}

/** A rule that names what to do instead: under "Don'ts" it is the remedy, not a prohibition. */
export const REMEDY = /\b(instead|rather than)\b/i;

/**
 * A label (up to 40 characters) and the text after it ("Purpose: Provide a terminal interface"), or null. The label
 * ends at a colon before white space, so the scheme of a link it names ("https://x.dev: read it first") is no end.
 */
export function labelled(text: string): { label: string; rest: string } | null {
  const m = text.includes(':') ? /^((?:[^:]|:(?=\S)){1,40}):\s+(.+)$/.exec(text) : null;
  return m === null ? null : { label: m[1]!, rest: m[2]! };
}

/** "Custom colors: Stick to the palette": a short label, then guidance that is a rule by its own words (taken as it is under "Don'ts"). */
export function guidance(text: string): boolean {
  const m = labelled(text);
  return m !== null && words(m.label) <= 5 && isRule(m.rest);
}

/**
 * Whether a line ending with a colon that states no rule leads into items of which one at least is a rule of its own,
 * a sentence: then they are not its ending, and are taken one by one (with it, when it says when they apply), the
 * others left out as what they are; else a rule among them would go with a head that is none.
 */
export function leadsIntoRules(raw: string, items: readonly string[]): boolean {
  const head = plain(raw.replace(/^\[[ xX]\]\s+/, '')).replace(/:$/, '');
  if (items.length === 0 || isRule(head, true)) return false;
  // Under a condition ("When a task is done:"), "mark it done" is a step of its own, as "Mark it done" is anywhere.
  const steps = isCondition(`${head}:`);
  return items.some((x) => {
    const text = unmarked(plain(x.replace(/^\[[ xX]\]\s+/, '')));
    return (steps || /^\p{Lu}/u.test(text)) && isRule(text);
  });
}

/**
 * Whether a nested item states a rule of its own, so stands alone; one that goes on with the sentence above it
 * ("except data migrations, which must say so") finishes that rule instead, whatever words of its own it has.
 */
export function ownRule(text: string): boolean {
  return isRule(text) && !/^(except|unless|including|excluding|but|other than|apart from|save for|with the exception of)\b/.test(text);
}

/**
 * Headings of checks a change must pass before it is done or goes on: "Before committing" (pushing, merging, opening a
 * PR, submitting, releasing), "After changes" (edits); not a setup step's ("After cloning", "Before you start").
 */
const GATE =
  /\b(definition of done|acceptance criteria|quality gates?|checklist|pre-?commit|pre-?push|done when)\b|^before\s+(?:(?:you|each|every|any|a|the|your)\s+)?(?:commit|push|merg|open\w*\s+(?:a\s+|the\s+|your\s+)?(?:pr\b|pull|merge)|submit|releas|finish|complet|hand|pr\b|pull request)|^after\s+(?:(?:making|make|any|each|every|all|your|code|you)\s+)*(?:changes?|chang(?:ing|ed)|edits?|edit(?:ing|ed)|modif)/i;

/**
 * The text of a command item that the label or heading above it makes a check to pass ("Before committing" over
 * "`npm test`", "Definition of Done" over "**Tests pass:** `npm test`"), hence a rule: with the heading when it says
 * when (a label's condition goes on each of its rules already); undefined where no such heading is above.
 */
export function gateCheck(text: string, labels: readonly Heading[], headings: readonly Heading[]): string | undefined {
  const above = labels.at(-1) ?? headings.at(-1);
  // A caption that says when ("Before committing:" over its list) holds its words as the condition its rules take.
  if (above === undefined || !GATE.test(above.condition ?? above.text)) return undefined;
  return labels.length === 0 && /^(before|after)\s/i.test(above.text) ? `${above.text}: ${text}` : text;
}

/** A verb that says who said a quote ("says the lead", "the CTO said"). */
const SAID = String.raw`(?:says|said|writes|wrote|insists|insisted|reminds(?:\s+us)?|notes|noted|puts\s+it)`;
/**
 * `"Always write tests," says the lead.`, `“Never push,” the CTO said.`, `"Keep PRs small." — Ana`: the quote ends a
 * sentence or a comma follows it, which `"npm test" must pass, as the lead says` does not.
 */
const QUOTE_FIRST = new RegExp(
  String.raw`^["\u201c](?:(?<ended>[^"\u201c\u201d]+?[,.!?])["\u201d],?|(?<bare>[^"\u201c\u201d]+?)["\u201d],)\s+(?:(?:[^"\u201c\u201d\s]+\s+){0,3}${SAID}\b[^"\u201c\u201d]{0,60}|[\u2014\u2013-]{1,2}\s*[^"\u201c\u201d\s][^"\u201c\u201d]{0,59})$`,
  'iu',
);
/** `The lead says: "Always write tests."`, `As the lead says, “Keep PRs small.”`. */
const QUOTE_LAST = new RegExp(
  String.raw`^[^"\u201c\u201d]{1,60}?\b${SAID}[,:]?\s+["\u201c](?<ended>[^"\u201c\u201d]+?)["\u201d]\.?$`,
  'iu',
);

/**
 * The rule a list item quotes when all it adds is who said it: `"Always write tests," says the lead.` is "Always
 * write tests.", judged as any item is. Undefined when the item is no such quote.
 */
export function unattributed(text: string): string | undefined {
  if (!/["\u201c]/.test(text)) return undefined;
  const groups = (QUOTE_FIRST.exec(text) ?? QUOTE_LAST.exec(text))?.groups;
  const quote = (groups?.ended ?? groups?.bare)?.trim();
  if (quote === undefined || !/\p{L}/u.test(quote)) return undefined;
  // The comma that led into the attribution ends the sentence now.
  return /[.!?]$/.test(quote) ? quote : `${quote.replace(/[,;:]$/, '')}.`;
}
