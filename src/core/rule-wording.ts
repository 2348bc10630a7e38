/**
 * The words of instruction files that make a rule (import-rules.ts reads their
 * Markdown): which sentences state one, which way a rule goes (a "Don'ts"
 * heading, a ❌ mark), and the tags headings give. Pure.
 */

import { withoutAccents } from './normalise.ts';

/** Words that make a sentence a rule wherever they stand. */
export const NORMATIVE =
  /\b(must|mustn't|never|always|should|shouldn't|shall|do not|don't|does not need|is required|are required|required to|mandatory|forbidden|prohibited|not allowed|is not permitted|make sure|ensure|avoid|prefer|only use|need to|needs to|have to|has to|at all times|under no circumstances)\b/i;

/** Verbs a rule may start with, in the imperative (lower case), as one expression over the word. */
const IMPERATIVE = new RegExp(
  `^(?:${(
    'use run add keep write avoid prefer ensure follow do make include put place name test document check validate ' +
    'update create remove delete commit push format lint wrap return handle log store import export call pass set define ' +
    'declare mark treat consider ask verify confirm review limit split group sort reuse favor favour stick respect leave ' +
    'apply annotate comment explain describe mention reference cite prefix start end stop fix refactor rename move migrate ' +
    'upgrade pin lock bump release tag sign encrypt escape sanitize sanitise guard protect catch throw raise emit print ' +
    'install build deploy target support gate require read look search plan break prioritize prioritise minimize minimise ' +
    'maximize maximise preserve maintain omit skip exclude disable enable wait retry clean close match mirror align colocate ' +
    'co-locate default hide expose isolate mock stub measure cache batch normalize normalise store write keep report ' +
    'never always only no dont prefer rely favour stay think communicate respond reply answer implement optimize optimise ' +
    'utilize utilise organize organise reduce replace extract share separate highlight invoke generate adhere provide ' +
    'suggest encourage remember pay be keep register explore consult assign delay choose defer convert save send pick let ' +
    'copy configure tell notify inform attach squash rebase try give discuss link merge publish improve modify mimic ' +
    'emulate analyze analyse inspect investigate simplify justify propose summarize summarise regenerate rerun re-run ' +
    'restart rebuild reload recompile execute clone revert restore undo amend append prepend capture ' +
    'purge flush prune trim collect gather inject prevent allow reject deny forbid refuse obey honor ' +
    'honour comply abide heed leverage embrace aim strive opt seek refrain abstain double-check cross-check ' +
    'recheck re-check proofread escalate reproduce diagnose resolve understand learn study examine evaluate ' +
    'assess compare prepare finish reach warn grep indent capitalize capitalise memoize memoise ' +
    'await terminate rotate revoke redact populate substitute backport ' +
    'deprecate cherry-pick unstage uninstall paste'
  )
    .split(' ')
    .join('|')})$`,
);

/**
 * Verbs that are as often a noun or an adjective at the start of a description ("Open source licences", "Clear
 * separation of concerns", "File names"): a rule starts with one when its object follows ("Open an issue", "Clear the
 * cache"), or after a word that places a step ("Then open a PR").
 */
const VERB_WITH_OBJECT =
  /^(?:open|clear|file|list|show|display|request|draft|complete|stage|flag|alert|archive|seed|bundle|inline|debug|watch|monitor|mask|hash|fetch|pull|compile|load|parse|scan|audit|contact|address|trigger|upload|download|cover|focus|kill|swap|cancel|abort|debounce|throttle|edit|change)$/;
/** The words that open a verb's object: "the", "a", "all", "your"…, and "on" ("Focus on one change"). */
const OBJECT_START = /^(?:the|a|an|all|any|each|every|your|our|its|their|it|them|this|that|these|those|one|new|up|out|only|on)$/;

/** Headings under which short phrases ("2-space indentation") are conventions, hence rules. */
export const RULE_HEADING =
  /\b(rules?|guidelines?|conventions?|style|standards?|practices?|do'?s|don'?ts?|do not|must|policy|policies|requirements?|constraints?|boundaries|guardrails?|principles?|security|safety|restrictions?|expectations?|etiquette|instructions?|preferences?|testing|tests|commits?|pull requests?|prs?|reviews?|anti-?patterns?|avoid|never)\b/i;

/**
 * Headings of what a project is or has (its stack, layout, commands): a phrase below one describes, though a heading
 * above it names rules ("## Tech Stack" under "# Project Conventions").
 */
export const DESCRIBING_HEADING =
  /\b(tech(nology|nologies)? stack|stack|technolog(y|ies)|overview|architecture|structure|layout|directory|directories|about|glossary|terminology|concepts|background|context|summary|description|references|resources|setup|installation|commands|tasks|features)\b/i;

/** A mark of a rule before its text: ✅ (do) or ❌ (do not), and their kin. */
export const MARKED = /^(\u2705|\u2714|\u2611|\u{1F44D}|\u274C|\u2717|\u2718|\u{1F6AB}|\u26D4|\u274E|\u{1F44E})\uFE0F?\s*/u;
export const NEGATIVE_MARKS = /^(\u274C|\u2717|\u2718|\u{1F6AB}|\u26D4|\u274E|\u{1F44E})$/u;

/** Words that make a rule a prohibition already: under a heading of don'ts, such a rule is taken as it is. */
export const NEGATIVE = /\b(never|don'?t|do not|avoid|no|not|mustn'?t|shouldn'?t|cannot|can'?t|forbidden|prohibited|refrain)\b/i;

/**
 * Words that open a rule with the way it goes ("Always write tests", "Make sure CI passes"): under a heading of
 * don'ts such a rule is taken as it is, since "Don't: Always write tests" says the opposite of its file. A word
 * joined to the next ("Always-on logging") names a thing, which the heading's word still negates.
 */
export const AFFIRMATIVE = /^(?:you\s+(?:should\s+)?)?(?:always|must|make sure|be sure)\s/i;

/** The words that open a heading or label of things not to do. */
const NOT_TO_DO = "don'?t'?s?|donts|do not|never|avoid|anti-?patterns?|bad practices|forbidden|prohibited|not allowed|must not|mustn'?t";
/** Headings and labels whose items are things not to do, and the word each such item is taken with. */
const NEGATING = new RegExp(`^[\\W_]*(${NOT_TO_DO})\\b`, 'i');
/** "What NOT to do", "What agents should never do", "Things not to do". */
const NOT_TO_DO_PHRASE = /^[\W_]*(what|things|stuff)\b[^.!?:]{0,40}\b(not|never)\b[\s\w]{0,10}\bdo\b/i;
/** "Things that will get your PR rejected", "Reasons for rejection": what is listed there is not to be done. */
const REJECTED = /\b(rejected|rejection)\b/i;
/** "Things to avoid", "What to avoid". */
const THINGS_TO_AVOID = /^[\W_]*(what|things|stuff|patterns|practices)\b[\s\w]{0,20}\bavoid\b/i;
/** A heading or label that is nothing but such a word ("Don'ts", "**Never**"). */
const NEGATING_ONLY = new RegExp(`^[\\W_]*(${NOT_TO_DO})[\\W_]*$`, 'i');
/** A heading or label of things to do and nothing else ("Do", "Do's ✅"). */
const DO_ONLY = /^[\W_]*do'?s?[\W_]*$/i;

/** Typographic apostrophes as the straight one the patterns above are written with ("Don’ts"). */
function straightQuotes(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'");
}

/** Whether a heading or label is nothing but a word of things not to do ("Don't:", "Never"). */
export function onlyNegates(text: string): boolean {
  return NEGATING_ONLY.test(straightQuotes(text));
}

/** The word a rule under `heading` (quotes straightened) is prefixed with ("Don't" for "Don'ts"), or undefined when it negates nothing. */
function negationOf(heading: string): string | undefined {
  // A section number goes first ("9. Don'ts"); "What NOT to do" and "Things to avoid" say it in a phrase.
  const text = heading.replace(/^[\W_]*\d+(?:\.\d+)*[.)]?\s+/, '');
  if (NOT_TO_DO_PHRASE.test(text)) return "Don't";
  if (THINGS_TO_AVOID.test(text)) return 'Avoid';
  if (REJECTED.test(text)) return 'Not allowed';
  const m = NEGATING.exec(text);
  if (!m) return undefined;
  const word = m[1]!.toLowerCase();
  // "Do Not Modify" over "vendor/", "Never Edit" over "generated files": the verb says what not to do with them.
  const verb = /^\s+([A-Za-z]+)/.exec(text.slice(m[0].length))?.[1]?.toLowerCase();
  if (
    verb !== undefined &&
    /^(don|do not|never|must)/.test(word) &&
    verb !== 'do' &&
    (IMPERATIVE.test(verb) || VERB_WITH_OBJECT.test(verb) || HEADING_VERB.test(verb))
  )
    return text.replace(/[\s:.!]+$/, '');
  if (word.startsWith('don')) return "Don't";
  if (word === 'do not') return 'Do not';
  if (word === 'never') return 'Never';
  if (word.startsWith('must')) return 'Must not';
  if (word === 'avoid' || word.startsWith('anti') || word === 'bad practices') return 'Avoid';
  return 'Not allowed';
}

/** Whether the word a heading of don'ts gives its rules names what not to do ("Do Not Touch"), not only that ("Don't"). */
export function namesVerb(negation: string | undefined): boolean {
  return negation !== undefined && !/^(Don't|Do not|Never|Must not|Avoid|Not allowed)$/.test(negation);
}

/**
 * Verbs a heading of don'ts names after its word ("Do Not Touch", "Never Edit"), beyond those a rule starts with (and
 * those that start one before their object: after "Do Not", "Open" is one).
 */
const HEADING_VERB =
  /^(touch|alter|overwrite|rewrite|reformat|hardcode|repeat|assume|guess|ignore|bypass|leak|introduce|downgrade|mix|duplicate|nest|mutate)$/;

/** A rule and a nested item that finishes it: "Use tabs" and "except in YAML" read "Use tabs, except in YAML". */
export function joinDetail(rule: string, detail: string): string {
  const fragment = /^\p{Ll}/u.test(detail);
  if (fragment && rule.endsWith('.') && !/\b(e\.g|i\.e|etc|vs|cf)\.$/i.test(rule)) return `${rule.slice(0, -1)}, ${detail}`;
  if (/[.!?:;,]$/.test(rule)) return `${rule} ${detail}`;
  return fragment ? `${rule}, ${detail}` : `${rule}. ${detail}`;
}

/** Labels that introduce a description, not a rule ("Purpose: …"). */
export const DESCRIBING =
  /^\W*(purpose|overview|description|goal|goals|summary|about|context|background|what it does|role|examples?|e\.g\.?)\W*$/i;

/**
 * A sentence that says what the file itself is or holds ("This document defines how agents should work", "These rules
 * define the workflow"): it describes the file, whatever words of a rule it quotes.
 */
const ABOUT_THE_FILE =
  /^[\p{P}\s]*(?:(?:this|the)\s+(?:document|file|guide|page|readme|(?:[\w.-]+\.md))|these\s+(?:rules|instructions|guidelines))\s+(?:(?:define|describe|explain|contain|provide|give|cover|outline|list|document|set out|capture|summari[sz]e|collect|tell|help)s?|specif(?:y|ies))\b/iu;

/**
 * Verbs of keeping to a form, a layout or a tool, which open a label over code as a rule the code completes ("Use
 * conventional commit format: `<type>: <subject>`"), where a label of running one names a command ("Run tests:
 * `npm test`"). A verb with its object, not a noun alone ("Name: `api`", "Use cases: `a`").
 */
const CONFORMING =
  /^[\p{P}\s]*(?:use|follow|adhere to|stick to|conform to|match|keep|maintain|prefer|respect|mirror|preserve)\s+(?!cases?\b)\S+\s+\S/iu;

/** Whether the label before a colon and code states a rule: by its words, or by a verb of keeping to what the code shows. */
export function labelsRule(label: string): boolean {
  return NORMATIVE.test(label) || keepsTo(label) || namesForm(label);
}

/** Whether a label before a colon and code names the form the code shows ("Title format: `feat(scope): …`"). */
export function namesForm(label: string): boolean {
  return FORM_LABEL.test(label);
}

/**
 * A label that names the form of a thing ("Title format", "Branch naming", "Commit message convention"): the code after
 * it is the form to keep to, not a command; "Format" alone, or after a verb of running ("Check format"), names a task.
 */
const FORM_LABEL =
  /^[\p{P}\s]*(?!(?:check|run|fix|apply|verify|lint|auto|test|enforce)\b)[\p{L}][\p{L}\d'-]*(?:\s+[\p{L}\d'-]+){0,3}\s+(?:format|naming(?:\s+conventions?)?|conventions?|pattern|syntax|scheme)[\p{P}\s]*$/iu;

/** Whether a text opens with a verb of keeping to a form, a layout or a tool, and its object ("Use conventional commits"). */
export function keepsTo(text: string): boolean {
  return CONFORMING.test(text);
}

/**
 * A sentence that says where things are ("Test files are located in tests/", "CI plans are located in
 * .github/workflows/"): a description, though its first word is also a verb ("Test", "Build").
 */
export const SAYS_WHERE = /\b(?:is|are)\s+(?:located|stored|kept|found|placed)\s+(?:in|under|at|inside|within)\b/i;

/**
 * "to ensure" and "to make sure" say what something is for ("It covers setup to ensure consistency"), as does "helps
 * ensure" ("This helps ensure the guidelines are read"), not what to do; after a word of weight ("It is important to
 * ensure…", "Remember to make sure…") they still ask it.
 */
const PURPOSE =
  /(?<!\b(?:important|essential|crucial|critical|vital|necessary|remember|careful|need|needs|have|has|want|required|sure|best|wise)\s+)\b(?:in order )?to (?:ensure|make sure)\b|\bhelps? (?:to )?(?:ensure|make sure)\b/gi;

/** The words a leading clause of a rule starts with: "When X, run Y.", "Before committing:". */
const CONDITION = /^(for|when|if|before|after|in|on|during|unless|while|once|where|whenever)\b/i;

/**
 * A sentence that states a rule: normative words, or the imperative (also after a leading clause: "When X, run Y.", "In
 * `cli/`: delay imports."). `head`: the text heads a list without its colon ("Do", "Build"), which its items finish.
 */
export function isRule(text: string, head = false): boolean {
  if (ABOUT_THE_FILE.test(text)) return false;
  if (NORMATIVE.test(text.includes(' to ') || text.includes('help') ? text.replace(PURPOSE, '') : text)) return true;
  if (SAYS_WHERE.test(text)) return false;
  if (startsImperative(text, !head)) return true;
  const clause = CONDITION.test(text) ? /^[^,:]{1,120}[,:]\s*(.*)$/.exec(text) : null;
  return clause !== null && startsImperative(clause[1]!, false);
}

/** A one-line caption that says when the rules of the list below it apply ("Before creating a file:"). */
export function isCondition(caption: string): boolean {
  return (
    (CONDITION.test(caption) || PERMISSION.test(caption)) &&
    !ASIDE.test(caption) &&
    caption.endsWith(':') &&
    caption.split(/\s+/).length <= 20 &&
    !NORMATIVE.test(caption)
  );
}

/**
 * A caption of what an agent may do ("Allowed without asking:", "You may:"): its items are permissions, which a verb
 * alone below it would turn into orders ("Read files"), so each is taken with it as its condition is. "You can" says
 * so alone, as a caption of a list ("You may use these tools:") or with "without asking": "You can find docs here"
 * heads what follows, not a permission.
 */
const PERMISSION =
  /^[\p{P}\s]*(?:(?:allowed|permitted)(?=\s+(?:without|to)\b|[\s:]*$)|you (?:may|can)(?:\s+also)?(?=[\s:]*$|.*:\s*$|.*\bwithout (?:asking|approval|a prompt|permission)\b)|(?:ok|okay|fine|safe|free) to\b|no need to ask\b|without (?:asking|approval|a prompt)\b)/iu;

/** "For example:", "In short:": they open with a word of a condition, yet say when nothing applies. */
const ASIDE =
  /^(for (example|instance)|in (short|summary|general|particular|practice|brief|other words)|on (the other hand|top of that))\b/i;

/** A word of courtesy before an imperative ("Please", "Kindly"), and the space after it. */
const POLITE = /^([\p{P}\s]*)(?:please|kindly),?\s+(?=[A-Za-z])/iu;

/** A one-word label and the space after it, before more text ("**fix**: "). */
const TERM = /^[\p{P}\s]*[A-Za-z][\w'-]*:\s+(?=\S)/u;

/** `alone`: the text is all the sentence says (not a head over its list, nor the rule after "When unsure, "). */
function startsImperative(text: string, alone: boolean): boolean {
  // "**fix**: Bug fix" names a term, not an action: a one-word label leaves it to the words after it. A loop, not a
  // call per label: a line of a hundred thousand labels must not exhaust the stack.
  for (let term = TERM.exec(text); term; term = TERM.exec(text)) text = text.slice(term[0].length);
  // "Please use tabs": the courtesy asks what the verb after it says.
  text = text.replace(POLITE, '');
  // "Fully read the guide": an adverb may come before the verb.
  const m = /^[\p{P}\s]*([A-Za-z][A-Za-z'-]*)(?:\s+([a-z]+))?/u.exec(text);
  const first = m?.[1]?.toLowerCase().replace(/'/g, '');
  if (first === undefined) return false;
  // "End." or "Stop" alone, and "End of file text", name a thing or close a text: the verb has nothing to act on. A
  // head ("Build:") has its list for that, and "When unsure, ask." its clause; a longer "Use of X is …" says more.
  if (alone && m![2] === undefined && /^[\p{P}\s]*$/u.test(text.slice(m![0].length))) return false;
  if (m![2] === 'of' && first !== 'think' && /^\s*\S+(?:\s+\S+){0,3}\s*$/.test(text)) return false;
  if (IMPERATIVE.test(first)) return true;
  if (
    VERB_WITH_OBJECT.test(first) &&
    ((m![2] !== undefined && OBJECT_START.test(m![2])) || namesPath(text.slice(m![0].indexOf(m![1]!) + m![1]!.length)))
  )
    return true;
  return (
    (first.endsWith('ly') || SEQUENCING.test(first)) && m![2] !== undefined && (IMPERATIVE.test(m![2]) || VERB_WITH_OBJECT.test(m![2]))
  );
}

/**
 * Whether the word after a verb names a file or a folder ("Clear .next/", "Open src/index.ts"): its object, written as
 * code, which the plain text keeps as it stands, where a noun's next word ("Clear separation") names none.
 */
function namesPath(rest: string): boolean {
  const word = /^\s+(\S+)/.exec(rest)?.[1]?.replace(/[.,;:!?)"']+$/, '');
  if (word === undefined || /^(?:e\.g|i\.e)$/i.test(word)) return false;
  return word.includes('/') || /^\.[A-Za-z]/.test(word) || /^[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(word);
}

/** Words that place a step among others before its verb ("Also link to the docs", "Then run the tests"). */
const SEQUENCING = /^(also|then|instead|next|finally|first|afterwards)$/;

/** Sentences: split after . ! ? followed by a space and a capital or a quote, keeping abbreviations such as "e.g." whole. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /[.!?](?=\s+["'(\p{Lu}`])/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 4), m.index + 1).toLowerCase();
    if (/\b(e\.g|i\.e|etc|vs|cf)\.$/.test(before)) continue;
    out.push(text.slice(start, m.index + 1).trim());
    start = m.index + 1;
  }
  const last = text.slice(start).trim();
  if (last !== '') out.push(last);
  return out;
}

/** A heading as a tag: lower case, words joined by hyphens, at most 64 characters. */
export function tagOf(heading: string): string {
  return withoutAccents(heading.toLowerCase())
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/** A heading, or a list item or caption heading the items below it: at its level (or indent). */
export interface Heading {
  level: number;
  text: string;
  tag: string;
  /**
   * The word each rule below it takes when it heads things not to do ("Don't"); '' when it heads things to do
   * ("Do's"); undefined when it says neither, and the heading or label around it decides.
   */
  negation: string | undefined;
  /** A caption's condition, which each rule below it is taken with ("Before creating a file:"). */
  condition: string | undefined;
}

/** A heading of the file: one of what an agent may do ("### Allowed without asking") is the condition of each rule below it. */
export function sectionOf(text: string, level: number): Heading {
  const heading = headingOf(text, level);
  return PERMISSION.test(text) ? withCondition(heading, heading.tag, `${text.replace(/[\s:]+$/, '')}:`) : heading;
}

/**
 * A heading with another tag and a condition. Every heading has one shape, its condition there even when undefined:
 * the splitter's optimised code reads headings of one shape, where spreads made others and that code was compiled again.
 */
export function withCondition(heading: Heading, tag: string, condition: string | undefined): Heading {
  return { level: heading.level, text: heading.text, tag, negation: heading.negation, condition };
}

export function headingOf(text: string, level: number): Heading {
  const straight = straightQuotes(text);
  const doOnly = DO_ONLY.test(straight);
  // One that only says which way its rules go ("Do", "Don'ts", "Never") gives no tag.
  const tag = doOnly || NEGATING_ONLY.test(straight) ? '' : tagOf(text);
  return { level, text, tag, negation: negationOf(straight) ?? (doOnly ? '' : undefined), condition: undefined };
}

/**
 * Whether the nearest label names rules ("Style"), or what things are ("Examples", "Commands", a longer phrase):
 * undefined when none does, as the name of a topic ("React", "Frontend") leaves it to the label or heading above, as
 * it passes a heading's way on.
 */
export function labelsNameRules(labels: readonly Heading[]): boolean | undefined {
  for (let k = labels.length - 1; k >= 0; k--) {
    const text = labels[k]!.text;
    if (RULE_HEADING.test(text)) return true;
    if (DESCRIBING_HEADING.test(text) || DESCRIBING.test(text) || /\bexamples?\b/i.test(text)) return false;
    // Only a topic's name passes it on: a longer label ("Except for well-known abbreviations") says what its items are.
    if (text.split(/\s+/).length > 3 || /^\W*(?:except|unless|but|other than|apart from)\b/i.test(text)) return false;
  }
  return undefined;
}

/**
 * Whether the nearest heading that says either names rules, not what the project is or has. A title that calls the
 * file instructions ("# Copilot Instructions for X") says what every agent's file is: it speaks for the items right
 * below it, not for those of a section of their own ("## Development Gotchas"), as "# Go Rules" does for its sections.
 */
export function headingNamesRules(headings: readonly Heading[]): boolean {
  for (let k = headings.length - 1; k >= 0; k--) {
    const text =
      headings[k]!.level === 1 && k < headings.length - 1 ? headings[k]!.text.replace(/\binstructions?\b/gi, '') : headings[k]!.text;
    if (RULE_HEADING.test(text)) return true;
    if (DESCRIBING_HEADING.test(text)) return false;
  }
  return false;
}
