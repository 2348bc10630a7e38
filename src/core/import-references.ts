// The files a CLAUDE.md or GEMINI.md has its agent read: Claude Code and
// Gemini CLI take `@path` in those files as "read this file too" (relative
// to the file, or from the top with `/`), outside code. An import names the
// ones it does not import, so that no rule the agent follows is left behind
// unsaid.
import { closesFence, FENCE } from './markdown-blocks.ts';
import type { ImportKind } from './import-sources.ts';
import { isRule, splitSentences } from './rule-wording.ts';

/** The kinds whose agents follow `@path`. */
export const REFERENCING_KINDS: readonly ImportKind[] = Object.freeze(['claude-md', 'gemini-md']);

/** `@` at the start of a line or after white space, then a path: no white space, quotes, brackets or another `@`. */
const REFERENCE = /(?:^|\s)@([^\s@`'"<>()[\]{}]+)/g;

/** Each `@path` of `text` outside code blocks and code spans, with its 1-based line; trailing punctuation is not the path's. */
export function fileReferences(text: string): { line: number; ref: string }[] {
  const out: { line: number; ref: string }[] = [];
  const lines = text.split(/\r?\n/);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    for (const { ref } of referencesIn(line)) out.push({ line: i + 1, ref });
  }
  return out;
}

/**
 * The repository-relative path `ref` names from the file at `rel` (itself
 * repository-relative): relative to the file's folder, or from the top for
 * `/…` when that is inside `top`. Undefined for a path outside the
 * repository, or in the home folder (`~/…`).
 */
export function resolveReference(ref: string, rel: string, top: string): string | undefined {
  if (ref.startsWith('~')) return undefined;
  let joined: string;
  if (ref.startsWith('/')) {
    const root = top.endsWith('/') ? top : `${top}/`;
    if (!ref.startsWith(root)) return undefined;
    joined = ref.slice(root.length);
  } else {
    const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    joined = dir === '' ? ref : `${dir}/${ref}`;
  }
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}

/**
 * Whether a path an `@` names that no file holds is a file's (a name with an extension, `docs/rules.md`), said as
 * missing, rather than a mention or a package (`@octocat`, `@types/node`), which the agents read as nothing either.
 */
export function namesAFile(path: string): boolean {
  return /(?:^|\/)[^/]*[^/.]\.[A-Za-z0-9]{1,10}$/.test(path);
}

/** Each `@path` of one line or item, code spans apart, with where its `@` is; a path's trailing punctuation is not the path's. */
function referencesIn(markdown: string): { at: number; ref: string; length: number }[] {
  if (!markdown.includes('@')) return [];
  const prose = markdown.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));
  const out: { at: number; ref: string; length: number }[] = [];
  for (const m of prose.matchAll(REFERENCE)) {
    // Trailing punctuation cut by a loop: `[.,;:!?]+$` tries each mark of a long run inside the path against the rest.
    let end = m[1]!.length;
    while (end > 0 && '.,;:!?'.includes(m[1]![end - 1]!)) end--;
    const ref = m[1]!.slice(0, end);
    if (ref !== '' && !ref.includes('://')) out.push({ at: m.index + m[0].indexOf('@'), ref, length: end + 1 });
  }
  return out;
}

/** `text` without the references `refs` (in order, as referencesIn finds them), in one pass. */
function without(text: string, refs: readonly { at: number; length: number }[]): string {
  let out = '';
  let from = 0;
  for (const r of refs) {
    out += text.slice(from, r.at);
    from = r.at + r.length;
  }
  return out + text.slice(from);
}

/**
 * Whether a line, item or paragraph says nothing but `@path` references (`@docs/style.md`, `- @./a.md @./b.md`):
 * the place where Claude Code or Gemini CLI puts the files' text, which is no rule of its own.
 */
export function onlyReferences(markdown: string): boolean {
  const refs = referencesIn(markdown);
  if (refs.length === 0) return false;
  return without(markdown, refs).replace(/[\s\p{P}*_>]/gu, '') === '';
}

/** A reference that names a file (`docs/style.md`, `./rules`, `README`), not a package or a person (`@types/node`). */
const FILE_LIKE = (ref: string): boolean => namesAFile(ref) || /^(?:\.{1,2}\/|\/|~\/)/.test(ref) || /^[A-Z][A-Z0-9_-]+$/.test(ref);

/**
 * Whether the `@path` files of a rule's lines are not all in its `text` (a pointer sentence beside it was left out:
 * "Never force-push. See @docs/git.md for why."). When all are, the block the rule moves to reads them in as the
 * lines did, so the lines may go; else they stay, the only place the agent is told to read that file.
 */
export function referencesLeftOut(markdown: string, text: string): boolean {
  const said = new Set(referencesIn(text).map((r) => r.ref));
  return referencesIn(markdown).some((r) => FILE_LIKE(r.ref) && !said.has(r.ref));
}

/**
 * Words that send the agent to read or keep to a file, as a pointer's verb ("Read", "Follow the conventions in"); not
 * "use" or "apply", which say what to do with it ("Use @docs/pr.md for pull requests").
 */
const POINTER_VERB =
  /^(?:(?:(?:you\s+)?(?:must|should|need\s+to|have\s+to)|always|please|also|first|then|carefully)\s+)*(?:read(?:\s+through)?|see(?:\s+also)?|refer\s+to|consult|check(?:\s+out)?|review|study|look\s+at|go\s+through|follow|observe|respect|obey|adhere\s+to|comply\s+with|stick\s+to|keep\s+to|conform\s+to|abide\s+by)(?:\s+and\s+(?:follow|apply|obey|respect|observe|adhere\s+to))?\b/i;

/** What may stand between two files a pointer names: a clause of what the first is for, then "and" or a comma. */
const POINTER_BETWEEN =
  /^(?:\s+(?:for|before|when|whenever|if|while|after|to|as|on|in)\b[^,;@]{0,80}?)?[\s,&/]*(?:(?:and|or)\s+(?:(?:see|read)\s+)?)?$/i;

/** What may follow the file a pointer names: when or what for, in one clause ("before editing", "for the overview"). */
const POINTER_TAIL =
  /^(?:\s*[(\u2014\u2013-]?\s*(?:for|before|when|whenever|if|while|after|to|as|first|too|also|on|prior|in)\b[^,;]*)?[.!)]?$/i;

/**
 * Whether a sentence only points at files to read through `@path`, which its agent reads in their place: "Read
 * @docs/style.md before editing.", "See @README for the overview.", "When writing tests, follow the conventions in
 * @docs/testing.md.", "Git workflow: @docs/git.md". Such a sentence is no rule by itself: the rules are the file's. A
 * rule about the file (`Never edit @src/generated.ts by hand`) or beside the pointer (`Run the tests, see @docs/t.md`)
 * is none.
 */
export function pointsAtReference(text: string): boolean {
  const refs = referencesIn(text);
  if (refs.length === 0 || !refs.some((r) => FILE_LIKE(r.ref))) return false;
  const first = refs[0]!;
  const last = refs.at(-1)!;
  // Between two files, "and", "or" and punctuation, after what the first is for: "@README for the overview and @x".
  for (let k = 1; k < refs.length; k++) {
    const between = text.slice(refs[k - 1]!.at + refs[k - 1]!.length, refs[k]!.at);
    if (!POINTER_BETWEEN.test(between)) return false;
  }
  const before = text
    .slice(0, first.at)
    .trim()
    .replace(/^(?:(?:when|before|after|if|while|for|whenever|on|in)\b[^,]{1,80},\s*)/i, '');
  const after = text.slice(last.at + last.length);
  if (!POINTER_TAIL.test(after)) return false;
  const verb = POINTER_VERB.exec(before);
  // "Read @x", "Follow the conventions in @x": the verb and at most a few words naming what the file holds.
  if (verb !== null) return before.slice(verb[0].length).trim().split(/\s+/).filter(Boolean).length <= 6;
  // "Git workflow @docs/git.md", "Style guide: @docs/style.md": a label naming the file, stating nothing itself.
  const label = before.replace(/[:\u2014\u2013-]\s*$/, '').trim();
  return after.trim().replace(/[.!]$/, '') === '' && label !== '' && label.split(/\s+/).length <= 6 && !isRule(label);
}

/**
 * `text` without its sentences that only point at a file to read (pointsAtReference): "Never push to main. See
 * @docs/git.md for details." is "Never push to main."; '' when every sentence does.
 */
export function withoutPointers(text: string): string {
  if (!text.includes('@')) return text;
  const sentences = splitSentences(text);
  const kept = sentences.filter((s) => !pointsAtReference(s));
  return kept.length === sentences.length ? text : kept.join(' ');
}
