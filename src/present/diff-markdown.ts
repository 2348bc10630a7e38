/**
 * The pull-request comment of `invariant diff --format markdown` (docs/review.md): the report as
 * GitHub renders it, every text from the store escaped, cut where GitHub would refuse it whole.
 */
import type { FieldChange, ProjectPathsChange, WaiverChange } from '../core/diff.ts';
import { type Scope, type ScopedInvariant, actionName } from '../core/model.ts';
import { truncate } from '../core/names.ts';
import { githubMarkdownText, markdownCode } from '../core/plain-text.ts';
import { shellWord } from '../core/shell-word.ts';
import type { DiffResult, SideInfo } from '../service/review-service.ts';
import {
  inactiveFile,
  listed,
  noStoreText,
  pathsOnly,
  planProjectText,
  planText,
  policyMoveTitle,
  policyOrderTitle,
  summaryLine,
  targetCounts,
} from './diff.ts';

/** The hidden first line of the markdown report: a bot finds and updates its one comment by it. */
export const MARKDOWN_MARKER = '<!-- agents-invariant-diff -->';

/** A code span outside a table, where a `|` needs no backslash (a branch `a|b`, a glob). */
const mdCode = (text: string) => markdownCode(text, { inTable: false });

/** Escapes text for a markdown table cell or list item: no markup, no HTML, one line, nothing hidden. */
export function mdEscape(text: string): string {
  return githubMarkdownText(text);
}

function mdScope(scope: Scope): string {
  switch (scope.kind) {
    case 'global':
      return 'global';
    case 'inherited':
      return `inherited from \`${scope.source}\``;
    case 'project':
      return `project \`${scope.project}\``;
    case 'action':
      return `action \`${actionName(scope)}\``;
    case 'plan':
      return `plan \`${scope.plan}\``;
  }
}

function mdField(f: FieldChange): string {
  // A tag or a guard's regular expression may hold `|` or backticks: markdownCode keeps them inside the span and the table cell.
  const v = (x: unknown) =>
    f.field === 'scope'
      ? mdScope(x as Scope)
      : typeof x === 'string'
        ? mdEscape(x)
        : x === null
          ? '*none*'
          : markdownCode(JSON.stringify(x));
  return `${f.field}: ${v(f.before)} → ${v(f.after)}`;
}

/** A waiver's change as a list item: what it waives, for what, until when, who answers for it, and each edited field. */
function mdWaiver(c: WaiverChange): string {
  const w = (c.after ?? c.before)!;
  const scope = c.change === 'moved' ? `${mdScope(c.before!.scope)} → ${mdScope(w.scope)}` : mdScope(w.scope);
  const text = c.invariant ? ` ${mdEscape(c.invariant.text)}` : '';
  const head = `- **${c.change}** \`${w.id}\` (${scope}) waives \`${w.invariant_id}\`${text} until ${mdCode(w.expires)}, owner ${mdEscape(w.owner)}: ${mdEscape(w.reason)}`;
  const edits = c.fields
    .filter((f) => f.field !== 'scope')
    .map((f) => {
      const v = (x: unknown) => (typeof x === 'string' ? mdEscape(x) : '*none*');
      return `${f.field}: ${v(f.before)} → ${v(f.after)}`;
    });
  return edits.length > 0 ? `${head} — ${edits.join('; ')}` : head;
}

/** A project's paths as a list item: the globs added and removed. */
function mdProjectPaths(p: ProjectPathsChange): string {
  const globs = (list: string[]) => list.map(mdCode).join(', ');
  const parts: string[] = [];
  const added = pathsOnly(p.after, p.before);
  const removed = pathsOnly(p.before, p.after);
  if (added.length > 0) parts.push(`added ${globs(added)}`);
  if (removed.length > 0) parts.push(`removed ${globs(removed)}`);
  if (p.after === null) parts.push('no paths now: the project covers no files');
  return `- project \`${p.project}\`: ${parts.join('; ')}`;
}

/** A side as the range names it: a branch name may hold a backtick or `<`, so each name is a code span that holds it whole. */
function mdSide(s: SideInfo): string {
  const none = s.missingStore !== undefined ? `, ${noStoreText(s.missingStore, mdCode)}` : '';
  if (s.mergeBaseOf && s.commit)
    return `the merge base of ${mdCode(s.mergeBaseOf[0])} and ${mdCode(s.mergeBaseOf[1])} (\`${s.commit.slice(0, 12)}\`${none})`;
  if (s.commit) return `${mdCode(s.label)} (\`${s.commit.slice(0, 12)}\`${none})`;
  if (none !== '') return `the ${githubMarkdownText(s.label)} (${none.slice(2)})`;
  // A revision side without a commit is HEAD on a branch with no commit yet (the label says only that).
  return s.kind === 'revision' ? `${mdCode('HEAD')} (no commit yet)` : `the ${githubMarkdownText(s.label)}`;
}

/**
 * A pull-request comment: the marker line, a short summary, the changed
 * files, then one section per changed project and plan. Deterministic (no
 * clock, sorted), so a bot can post it once and update it on every push.
 * Its lines, each to be ended by a newline, made as they are written.
 */
export function* diffMarkdownLines(d: DiffResult): Generator<string> {
  yield* [MARKDOWN_MARKER, '### Invariant changes', '', `Comparing ${mdSide(d.before)} → ${mdSide(d.after)}: ${summaryLine(d)}.`];
  if (d.policyOrder) yield* ['', `**${policyOrderTitle(d.policyOrder, (x) => `\`${x}\``)}**`];
  for (const m of d.policySources ?? []) {
    yield* ['', `**${policyMoveTitle(m, (x) => markdownCode(x, { inTable: false }))}**`, ''];
    const item = (label: string, i: ScopedInvariant) => `- **${label}** ${mdEscape(i.text)} — \`${i.id}\``;
    for (const i of m.entered) yield item('entered', i);
    for (const i of m.left) yield item('left', i);
    for (const i of m.edited) yield item('edited', i);
    if (m.entered.length + m.left.length + m.edited.length === 0) yield '- no invariant changed';
  }
  if (d.invariants.length > 0) {
    yield* ['', '| Change | Invariant | Scope | Text |', '| --- | --- | --- | --- |'];
    for (const c of d.invariants) {
      const inv = (c.after ?? c.before)!;
      const scope = c.change === 'moved' ? `${mdScope(c.before!.scope)} → ${mdScope(c.after!.scope)}` : mdScope(inv.scope);
      const edits = c.fields.filter((f) => f.field !== 'scope').map(mdField);
      const text = edits.length > 0 ? edits.join('<br>') : mdEscape(inv.text);
      yield `| ${c.change}${inactiveFile(c) ? ' (inactive)' : ''} | \`${c.id}\` | ${scope} | ${text} |`;
    }
  }
  if (d.waivers.length > 0) {
    yield* ['', '**Waivers**', ''];
    for (const c of d.waivers) yield mdWaiver(c);
  }
  if (d.projectPaths.length > 0) {
    yield* ['', '**Project paths**', ''];
    for (const p of d.projectPaths) yield mdProjectPaths(p);
  }
  if (d.plans.length > 0) {
    yield* ['', '**Plans**', ''];
    for (const p of d.plans) yield `- ${p.change} \`${p.plan}\`: ${mdEscape(planText(p))}`;
  }
  for (const t of d.targets) {
    const title = t.target.kind === 'project' ? `Project \`${t.target.project}\`` : `Plan \`${t.target.plan}\``;
    const proj = planProjectText(t, (x) => (x ? `\`${x}\`` : '*none*'));
    yield* ['', `#### ${title}${proj}: ${targetCounts(t)}`, ''];
    // Each line is yielded as made, as in the text: a set may hold thousands of entries.
    const item = (label: string, i: ScopedInvariant, extra = '') =>
      `- **${label}** ${mdEscape(i.text)} — ${mdScope(i.scope)}, \`${i.id}\`${extra}`;
    for (const i of t.entered) yield item('entered', i);
    for (const i of t.left) yield item('left', i);
    for (const x of t.newlyShadowed)
      yield item(
        'newly shadowed',
        x.invariant,
        `, by ${mdScope(x.by.scope)} \`${x.by.id}\`${x.wasEffective ? '' : ' (hidden on arrival)'}`,
      );
    for (const x of t.noLongerShadowed)
      yield item('back in effect', x.invariant, `, was shadowed by ${mdScope(x.by.scope)} \`${x.by.id}\``);
    for (const x of t.changed) yield item('changed', x.invariant, `: ${x.fields.map(mdField).join('; ')}`);
    if (listed(t) === 0) yield '- unchanged';
  }
}

/** GitHub refuses a comment body longer than this many characters (its API answers 422). */
export const MARKDOWN_LIMIT = 65_536;

/** The filters a run was given, which the command for the whole report repeats. */
export interface MarkdownFilters {
  project?: string;
  plan?: string;
  allProjects?: boolean;
}

/**
 * `diffMarkdownLines` cut to at most `limit` characters (newlines included,
 * counted in UTF-16 units, never fewer than GitHub's characters): whole lines
 * up to the cut, then a closing line that says how many lines were left out
 * and how to see them all, with the run's filters and --store. A report that fits is written unchanged.
 */
export function* boundedMarkdownLines(
  d: DiffResult,
  limit = MARKDOWN_LIMIT,
  filters: MarkdownFilters = {},
  /** The start of the command it names: the run's, with its --store (CliContext.agentsCommand). */
  agents = 'agents',
): Generator<string> {
  // The index side is asked for with --staged; its range reads "HEAD (staged)" when none was given.
  const staged = d.after.kind === 'index';
  // Without the filters the command would report other projects than the comment did.
  const filtered = [
    ...(filters.project !== undefined ? [`--project ${shellWord(truncate(filters.project, 100))}`] : []),
    ...(filters.plan !== undefined ? [`--plan ${shellWord(truncate(filters.plan, 100))}`] : []),
    ...(filters.allProjects ? ['--all-projects'] : []),
  ];
  // The range as a shell reads it (a branch may hold `$` or `;`), left out when none was given: `HEAD` named
  // on a branch with no commit yet is refused, where no range compares with nothing.
  const given = d.range === (staged ? 'HEAD (staged)' : 'HEAD') ? undefined : d.range;
  const command = [
    `${agents} invariant diff`,
    ...(given !== undefined ? [shellWord(truncate(given, 200))] : []),
    ...(staged ? ['--staged'] : []),
    ...filtered,
  ].join(' ');
  const footer = (n: number) => [
    '',
    `**Cut short:** ${n} more line${n === 1 ? '' : 's'} did not fit in one comment (at most ${limit} characters). ` +
      `The whole report: ${mdCode(command)}, or \`--format json\`.`,
  ];
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  // Room for the closing lines with any count: the lines past it wait until the report is known to fit or not.
  const room = limit - size(footer(Number.MAX_SAFE_INTEGER));
  let used = 0;
  let held: string[] = [];
  let cut = 0;
  for (const line of diffMarkdownLines(d)) {
    if (cut > 0) {
      cut++;
      continue;
    }
    used += line.length + 1;
    if (used <= room) yield line;
    else if (used <= limit) held.push(line);
    else {
      cut = held.length + 1;
      held = [];
    }
  }
  if (cut > 0) yield* footer(cut);
  else yield* held;
}
