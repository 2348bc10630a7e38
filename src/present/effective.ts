import { describeScope, SCOPE_KINDS, type ScopedInvariant } from '../core/model.ts';
import { quoteText } from '../core/plain-text.ts';
import { type EffectiveEntry, shadowScope } from '../core/resolve.ts';
import type { Style } from '../core/style.ts';
import type { ScopedWaiver } from '../core/waivers.ts';
import type { EffectiveResult, WaiverState } from '../service/invariant-service.ts';
import { INVARIANT_SCHEMA, invariantJson, type InvariantJson, SHADOW_SCHEMA, shadowJson, type ShadowJson } from './invariant.ts';
import { WAIVER_SCHEMA, waiverJson } from './plan.ts';
import { severityLabel } from './violation.ts';
import { WARNING_SCHEMA, warningsJson } from './diagnostics.ts';
import { warningLine } from '../core/diagnostics.ts';
import { arrayOf, enumOf, INTEGER, type JsonSchema, nullable, objectOf, STRING } from './schema.ts';

/** The scopes an effective set can hold, highest precedence first: "plan > project > global > inherited". */
export const PRECEDENCE_LINE = SCOPE_KINDS.filter((k) => k !== 'action').join(' > ');

/** One entry of an effective set: copies hidden by accident (`shadows`) apart from those hidden on purpose (`overridden`, named by an `overrides` field). */
export type EffectiveEntryJson = InvariantJson & { shadows: ShadowJson[]; overridden: ShadowJson[] };

export function effectiveEntryJson(e: EffectiveEntry): EffectiveEntryJson {
  return {
    ...invariantJson(e.invariant),
    shadows: e.shadows.filter((r) => !r.overridden).map(shadowJson),
    overridden: e.shadows.filter((r) => r.overridden).map(shadowJson),
  };
}

/**
 * The entries of an effective set as `invariant list --effective --format
 * json`, `plan show` and the MCP server give them (docs/json-output.md): each
 * invariant with the copies it shadows or overrides and its waivers.
 */
export function effectiveEntriesJson(entries: readonly EffectiveEntry[], waivers: readonly (ScopedWaiver & { holds?: boolean })[]) {
  return [...effectiveEntriesJsonEach(entries, waivers)];
}

/** The same entries, each built as it is asked for (a long list is streamed: cli/render.ts, emitList). */
export function* effectiveEntriesJsonEach(
  entries: readonly EffectiveEntry[],
  waivers: readonly (ScopedWaiver & { holds?: boolean })[],
): Generator<EffectiveEntryJson & { waivers: ReturnType<typeof waiverJson>[] }> {
  const by = waiversById(waivers);
  for (const e of entries) yield { ...effectiveEntryJson(e), waivers: (by.get(e.invariant.id) ?? []).map(waiverJson) };
}

export const EFFECTIVE_ENTRY_SCHEMA: JsonSchema = {
  ...INVARIANT_SCHEMA,
  properties: {
    ...(INVARIANT_SCHEMA.properties as Record<string, JsonSchema>),
    shadows: arrayOf(SHADOW_SCHEMA),
    overridden: arrayOf(SHADOW_SCHEMA),
    waivers: arrayOf(WAIVER_SCHEMA),
  },
  required: [...(INVARIANT_SCHEMA.required as string[]), 'shadows', 'overridden', 'waivers'],
};

/** The text lines under an effective entry: "shadows global 01…" or, for a copy hidden on purpose, "overrides global 01…". */
export function hiddenCopyLines(e: EffectiveEntry, label: (word: string) => string, withPath: (path: string) => string): string[] {
  return e.shadows.map((r) => `${label(r.overridden ? 'overrides' : 'shadows')} ${shadowScope(r)} ${r.id}${withPath(r.path)}`);
}

/** The waivers of each invariant, in their order. */
export function waiversById<W extends { invariant_id: string }>(waivers: readonly W[]): Map<string, W[]> {
  const by = new Map<string, W[]>();
  for (const w of waivers) {
    const list = by.get(w.invariant_id);
    if (list) list.push(w);
    else by.set(w.invariant_id, [w]);
  }
  return by;
}

/** What a waiver says under the entry it waives, in parts: "waived until DATE" (or "waiver expired DATE"), where, why. */
function waiverWords(w: ReturnType<typeof waiverJson>): { head: string; where: string; reason: string } {
  return {
    head: w.holds === false ? `waiver expired ${w.expires}` : `waived until ${w.expires}`,
    where: `(${w.scope === 'plan' ? 'plan' : `project ${w.project}`}, ${w.id}, owner ${w.owner})`,
    reason: w.reason,
  };
}

/** One line for a waiver: "waived until 2026-12-31 (project myapp, 01…, owner Ops): reason", or "waiver expired …". */
export function waiverLine(s: Style, w: ScopedWaiver & { holds: boolean }): string {
  const { head, where, reason } = waiverWords(waiverJson(w));
  return `${w.holds ? s.yellow(head) : s.red(head)} ${s.dim(where)}: ${reason}`;
}

/** The same line without style, as the terminal UI's detail pane colours it whole. */
export function waiverPlainLine(w: ScopedWaiver & { holds: boolean }): string {
  const { head, where, reason } = waiverWords(waiverJson(w));
  return `${head} ${where}: ${reason}`;
}

/** What the dim line under an invariant says of it first, in every listing of a set: id, severity, inactive, tags. */
function metaParts(s: Style, inv: ScopedInvariant): string[] {
  const parts = [inv.id, severityLabel(s, inv.severity)];
  if (!inv.active) parts.push(s.yellow('inactive'));
  if (inv.tags.length) parts.push(inv.tags.map((t) => `#${t}`).join(' '));
  return parts;
}

/** The dim line under an invariant: id, severity, inactive, tags, where it was promoted from. */
export function invariantMeta(s: Style, inv: ScopedInvariant): string {
  const parts = metaParts(s, inv);
  if (inv.source?.kind === 'action') parts.push(`source: action ${inv.source.ref ?? '?'} (${inv.source.origin_id ?? '?'})`);
  else if (inv.source?.kind === 'plan') parts.push('source: plan');
  return s.dim(parts.join(' · '));
}

/** The dim line under an entry of `plan show`'s set: the same first parts, then its scope and where it came from. */
export function planEntryMeta(s: Style, inv: ScopedInvariant): string {
  const from =
    inv.source?.kind === 'action'
      ? `promoted from action ${inv.source.ref} (${inv.source.origin_id})`
      : inv.source?.kind === 'plan'
        ? 'added to the plan'
        : describeScope(inv.scope);
  return s.dim([...metaParts(s, inv), inv.scope.kind, from].join(' · '));
}

type Target = EffectiveResult['target'];

/** One scope's part of an effective set, as every view groups it: the heading and, per kept invariant, its waivers and the copies it hides. */
export interface EffectiveGroup {
  /** `describeScope` of the group's scope: "project myapp", "inherited policy". */
  label: string;
  entries: { entry: EffectiveEntry; index: number; waivers: WaiverState[] }[];
}

/** The entries of an effective set grouped by scope, in precedence order (the CLI text and the TUI show these groups). */
export function effectiveGroups(result: { entries: readonly EffectiveEntry[]; waivers: readonly WaiverState[] }): EffectiveGroup[] {
  const waivers = waiversById(result.waivers);
  const groups: EffectiveGroup[] = [];
  for (const [index, entry] of result.entries.entries()) {
    const label = describeScope(entry.invariant.scope);
    if (groups.at(-1)?.label !== label) groups.push({ label, entries: [] });
    groups.at(-1)!.entries.push({ entry, index, waivers: waivers.get(entry.invariant.id) ?? [] });
  }
  return groups;
}

function targetTitle(t: { kind: 'project' | 'plan'; project?: string | null; plan?: string | null }): string {
  return t.kind === 'project' ? `project ${t.project}` : `plan ${t.plan}${t.project ? ` (project ${t.project})` : ''}`;
}

/** Entries of an effective set whose lines `effectiveLines` hands on as one piece. */
const ENTRIES_PER_PIECE = 256;

/**
 * `invariant list --effective` as text, a line or a piece of entries at a
 * time (a long set is streamed). The entries' lines are built by a plain
 * function, not yielded one by one: V8 compiled the generator's hot loop in
 * the background, and a listing of a thousand entries then waited at exit
 * for that compile (docs/performance-log.md).
 */
export function* effectiveLines(
  s: Style,
  result: { target: Target; entries: readonly EffectiveEntry[]; waivers: readonly WaiverState[] },
  pattern?: string,
) {
  const n = result.entries.length;
  // Filtered, the entries are those the pattern matched: said so, never given as the size of the whole set.
  const matching = pattern === undefined ? '' : ` matching ${quoteText(pattern)}`;
  yield s.bold(`Effective set of ${targetTitle(result.target)}: ${n} invariant${n === 1 ? '' : 's'}${matching}`) +
    s.dim(`  (${PRECEDENCE_LINE})`);
  for (const group of effectiveGroups(result)) {
    yield '';
    yield s.cyan(group.label);
    for (let at = 0; at < group.entries.length; at += ENTRIES_PER_PIECE) {
      yield entriesText(s, group.entries.slice(at, at + ENTRIES_PER_PIECE));
    }
  }
  if (n === 0) {
    yield '';
    yield '  (none)';
  }
}

/** The lines of some kept invariants: each one's numbered line, its dim line, the copies it hides and its waivers. */
function entriesText(s: Style, entries: EffectiveGroup['entries']): string {
  const lines: string[] = [];
  for (const { entry: e, index: i, waivers } of entries) {
    lines.push(`  ${String(i + 1).padStart(2)}. ${e.invariant.text}`, `      ${invariantMeta(s, e.invariant)}`);
    for (const line of hiddenCopyLines(e, s.yellow, (p) => `  ${s.dim(p)}`)) lines.push(`      ${line}`);
    for (const w of waivers) lines.push(`      ${waiverLine(s, w)}`);
  }
  return lines.join('\n');
}

/**
 * An effective set as the MCP tools and resources give it: the entries of
 * `invariant list --effective --format json` (docs/json-output.md), wrapped in
 * an object with the target, since structured content is an object.
 */
export interface EffectiveData {
  /** `path`: the file asked about, when the project was found from it. */
  target: { kind: 'project' | 'plan'; project: string | null; plan: string | null; path?: string };
  count: number;
  invariants: ReturnType<typeof effectiveEntriesJson>;
  /** What the set lacks (a plan whose project is gone, code `unknown-project`); `[]` when nothing. */
  warnings: ReturnType<typeof warningsJson>;
}

export function effectiveData(result: EffectiveResult): EffectiveData {
  const t = result.target;
  return {
    target: { kind: t.kind, project: t.project ?? null, plan: t.kind === 'plan' ? t.plan : null },
    count: result.entries.length,
    invariants: effectiveEntriesJson(result.entries, result.waivers),
    warnings: warningsJson(result.warnings),
  };
}

export const EFFECTIVE_DATA_SCHEMA: JsonSchema = objectOf(
  {
    target: objectOf({ kind: enumOf(['project', 'plan']), project: nullable('string'), plan: nullable('string'), path: STRING }, [
      'kind',
      'project',
      'plan',
    ]),
    count: INTEGER,
    invariants: arrayOf(EFFECTIVE_ENTRY_SCHEMA),
    warnings: arrayOf(WARNING_SCHEMA),
  },
  ['target', 'count', 'invariants', 'warnings'],
);

/**
 * The effective set as Markdown, grouped by scope, for a model's context or a person. `from`: how many entries of the
 * set come before `data.invariants` (a page of it), so that entries keep their numbers.
 */
export function effectiveMarkdown(data: EffectiveData, pattern?: string, from = 0): string {
  const n = data.count;
  // Filtered, the entries are those the pattern matched: an agent must not read them as all that applies.
  const counted =
    pattern === undefined
      ? `${n} ${n === 1 ? 'invariant applies' : 'invariants apply'}`
      : `${n} of the invariants that apply ${n === 1 ? 'matches' : 'match'} the pattern ${quoteText(pattern)} (others may apply too: ask without a pattern for the whole set)`;
  const lines = [
    `# Invariants of ${targetTitle(data.target)}`,
    '',
    `${counted} (precedence: ${PRECEDENCE_LINE}). Severity \`error\`: never break it; \`warning\`: avoid breaking it; \`info\`: keep in mind.`,
  ];
  // A set short of what should apply (a plan whose project is gone) says so before its entries, in the notice's words.
  for (const w of data.warnings) lines.push('', warningLine(w));
  if (n === 0 && pattern === undefined) lines.push('', 'No invariant applies: the set is empty.');
  let group = '';
  data.invariants.forEach((inv, i) => {
    const label =
      inv.scope === 'plan'
        ? `plan ${inv.plan}`
        : inv.scope === 'project'
          ? `project ${inv.project}`
          : inv.scope === 'inherited'
            ? `inherited ${inv.inherited_from}`
            : inv.scope;
    if (label !== group) {
      group = label;
      lines.push('', `## ${label}`, '');
    }
    const meta = [`\`${inv.id}\``, inv.severity, ...(inv.tags.length ? [inv.tags.map((t) => `#${t}`).join(' ')] : [])].join(' · ');
    lines.push(`${from + i + 1}. ${inv.text.replace(/\n/g, ' ')} (${meta})`);
    if (inv.rationale) lines.push(`   Why: ${inv.rationale.replace(/\n/g, ' ')}`);
    const named = (s: ShadowJson) => `${shadowScope({ scope: s.scope, inheritedFrom: s.inherited_from })} ${s.id}`;
    for (const s of inv.shadows) lines.push(`   Shadows ${named(s)}.`);
    for (const s of inv.overridden) lines.push(`   Overrides ${named(s)}.`);
    // As the CLI's text says them: an agent told only that an invariant applies would keep to what the target waived.
    for (const w of inv.waivers) {
      const { head, where, reason } = waiverWords(w);
      lines.push(`   ${head[0]!.toUpperCase()}${head.slice(1)} ${where}: ${reason.replace(/\n/g, ' ')}`);
    }
  });
  return lines.join('\n');
}
