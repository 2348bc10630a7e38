import { actionName, describeScope, type Guard, type Scope, SCOPE_KINDS, SEVERITIES, type ScopedInvariant } from '../core/model.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import { arrayOf, BOOLEAN, enumOf, type JsonSchema, nullable, objectOf, STRING } from './schema.ts';

/** The stable JSON shape of one invariant (docs/json-output.md). */
export interface InvariantJson {
  id: string;
  text: string;
  severity: string;
  active: boolean;
  scope: (typeof SCOPE_KINDS)[number];
  /** Only on an inherited invariant: the name of the policy source it comes from (docs/extends.md). */
  inherited_from?: string;
  /** Only on an inherited invariant marked `locked: true`. */
  locked?: true;
  project: string | null;
  action: string | null;
  plan: string | null;
  path: string;
  tags: string[];
  rationale: string | null;
  overrides: string | null;
  created_at: string | null;
  created_by: string | null;
  source: { kind: string; ref: string | null; origin_id: string | null } | null;
  /** Only on an invariant with a guard (docs/guard.md). */
  guard?: Guard;
  /** Where `agents import` found it (docs/import.md), or null. */
  imported_from: { file: string; line: number } | null;
}

export function invariantJson(inv: ScopedInvariant): InvariantJson {
  const s = inv.scope;
  return {
    id: inv.id,
    text: inv.text,
    severity: inv.severity,
    active: inv.active,
    scope: s.kind,
    project: s.kind === 'project' ? s.project : null,
    action: s.kind === 'action' ? actionName(s) : null,
    plan: s.kind === 'plan' ? s.plan : null,
    path: inv.path,
    tags: inv.tags,
    rationale: inv.rationale ?? null,
    overrides: inv.overrides ?? null,
    created_at: inv.created_at ?? null,
    created_by: inv.created_by ?? null,
    source: inv.source ? { kind: inv.source.kind, ref: inv.source.ref ?? null, origin_id: inv.source.origin_id ?? null } : null,
    imported_from: inv.imported_from ? { file: inv.imported_from.file, line: inv.imported_from.line } : null,
    ...(s.kind === 'inherited' ? { inherited_from: s.source } : {}),
    ...(inv.locked ? { locked: true as const } : {}),
    ...(inv.guard ? { guard: inv.guard } : {}),
  };
}

export interface ShadowJson {
  id: string;
  scope: string;
  path: string;
  /** An inherited copy's source, as an inherited invariant's own JSON names it. */
  inherited_from?: string;
}

export function shadowJson(s: { id: string; scope: Scope | string; path: string; inheritedFrom?: string }): ShadowJson {
  const source = typeof s.scope === 'string' ? s.inheritedFrom : s.scope.kind === 'inherited' ? s.scope.source : undefined;
  return {
    id: s.id,
    scope: typeof s.scope === 'string' ? s.scope : s.scope.kind,
    path: s.path,
    ...(source !== undefined ? { inherited_from: source } : {}),
  };
}

/** A near-duplicate in JSON: the other invariant and how near it is. */
export function nearJson(m: { invariant: ScopedInvariant; kind: string }): {
  id: string;
  scope: string;
  path: string;
  text: string;
  kind: string;
} {
  return { id: m.invariant.id, scope: m.invariant.scope.kind, path: m.invariant.path, text: m.invariant.text, kind: m.kind };
}

export const SHADOW_SCHEMA: JsonSchema = objectOf({ id: STRING, scope: enumOf(SCOPE_KINDS), path: STRING, inherited_from: STRING }, [
  'id',
  'scope',
  'path',
]);

export const INVARIANT_SCHEMA: JsonSchema = objectOf(
  {
    id: STRING,
    text: STRING,
    severity: enumOf(SEVERITIES),
    active: BOOLEAN,
    scope: enumOf(SCOPE_KINDS),
    inherited_from: STRING,
    locked: { const: true },
    project: nullable('string'),
    action: nullable('string'),
    plan: nullable('string'),
    path: STRING,
    tags: arrayOf(STRING),
    rationale: nullable('string'),
    overrides: nullable('string'),
    created_at: nullable('string'),
    created_by: nullable('string'),
    source: { type: ['object', 'null'] },
    imported_from: { type: ['object', 'null'] },
    guard: { type: 'object' },
  },
  ['id', 'text', 'severity', 'active', 'scope', 'path', 'tags'],
);

/** What `show` says of an invariant besides its fields: where it applies and the copies it shadows or is shadowed by. */
export interface ShownInvariant {
  invariant: ScopedInvariant;
  appliesTo: string;
  plansTargeting?: string[];
  shadow: { shadows: readonly ScopedInvariant[]; shadowedBy: readonly ScopedInvariant[] };
  /** The problems of the store's invalid files, which were not read: copies and plans there are not in the relations. */
  incomplete?: readonly Diagnostic[];
  /** Why the policy sources' invariants were not read (a source not pinned or fetched yet): their copies are not in the relations. */
  inheritedMissing?: string;
}

/** What `show` says when files of the store are invalid: how many problems, in which files, and the command that shows them. */
export interface IncompleteJson {
  problems: number;
  files: string[];
  command: string;
}

/**
 * `incomplete` of every JSON answer about an invariant's copies: null when every file was read. `agents` is the start
 * of a command to paste (the CLI's with its --store, CliContext.agentsCommand), so that the command validates this store.
 */
export function incompleteJson(problems: readonly Diagnostic[] | undefined, agents: string): IncompleteJson | null {
  if (!problems?.length) return null;
  return { problems: problems.length, files: [...new Set(problems.map((d) => d.file))].sort(), command: `${agents} validate` };
}

export function showRelationsJson(
  r: ShownInvariant,
  agents: string,
): {
  applies_to: string;
  plans_targeting: string[] | null;
  shadows: ShadowJson[];
  shadowed_by: ShadowJson[];
  incomplete: IncompleteJson | null;
} {
  return {
    applies_to: r.appliesTo,
    plans_targeting: r.plansTargeting ?? null,
    shadows: r.shadow.shadows.map(shadowJson),
    shadowed_by: r.shadow.shadowedBy.map(shadowJson),
    incomplete: incompleteJson(r.incomplete, agents),
  };
}

export const SHOW_RELATIONS_SCHEMA: Record<string, JsonSchema> = {
  applies_to: STRING,
  plans_targeting: { type: ['array', 'null'], items: STRING },
  shadows: arrayOf(SHADOW_SCHEMA),
  shadowed_by: arrayOf(SHADOW_SCHEMA),
  incomplete: {
    ...objectOf({ problems: { type: 'integer' }, files: arrayOf(STRING), command: STRING }, ['problems', 'files', 'command']),
    type: ['object', 'null'],
  },
};

/**
 * The warning an answer about an invariant's copies gives when files of the store are invalid and were not read:
 * `missing` (what the answer lists) may lack what is in them. Null when every file was read.
 */
export function unreadFilesText(problems: readonly Diagnostic[] | undefined, missing: string, agents: string): string | undefined {
  const inc = incompleteJson(problems, agents);
  if (!inc) return undefined;
  const files = inc.files.map((f) => escapeUnsafe(f));
  const which =
    files.length === 1
      ? `${files[0]} is invalid`
      : `${files.length} files are invalid (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})`;
  return `warning: ${missing} may be missing, as ${which} and ${files.length === 1 ? 'was' : 'were'} not read: run \`${inc.command}\` to see the ${inc.problems === 1 ? 'problem' : `${inc.problems} problems`}`;
}

/**
 * The warning `show` gives beside the invariant when files of the store are invalid (the CLI on stderr, the MCP
 * `show_invariant` in its text): a copy it shadows or a plan targeting it may be in one of them, so the relations
 * shown may be short.
 */
export function showIncompleteText(r: ShownInvariant, agents: string): string | undefined {
  return unreadText(
    unreadFilesText(r.incomplete, 'the copies it shadows or is shadowed by and the plans targeting it', agents),
    r.inheritedMissing,
    'a copy it shadows or is shadowed by',
  );
}

/**
 * The warning about invalid files not read (`files`, from unreadFilesText) and, when the policy sources' invariants
 * could not be read (`inheritedMissing`, the command that reads them), that `missing` there may be missing too.
 */
export function unreadText(files: string | undefined, inheritedMissing: string | undefined, missing: string): string | undefined {
  const sources =
    inheritedMissing !== undefined
      ? `warning: ${missing} in the policy sources may be missing, as their invariants were not read: ${inheritedMissing}`
      : undefined;
  return files !== undefined && sources !== undefined ? `${files} · ${sources}` : (files ?? sources);
}

/**
 * The copies of an invariant's text it hides and is hidden by, each with the word the effective set says it by
 * (src/core/resolve.ts): `overrides` / `overridden by` where a copy of the text names the hidden one in `overrides`,
 * `shadows` / `shadowed by` for one hidden by accident.
 */
export function relationWords(
  inv: Pick<ScopedInvariant, 'id' | 'overrides'>,
  shadow: ShownInvariant['shadow'],
): { hides: [word: string, other: ScopedInvariant][]; hiddenBy: [word: string, other: ScopedInvariant][] } {
  const named = new Set([inv, ...shadow.shadows, ...shadow.shadowedBy].map((i) => i.overrides));
  return {
    hides: shadow.shadows.map((o) => [named.has(o.id) ? 'overrides' : 'shadows', o]),
    hiddenBy: shadow.shadowedBy.map((o) => [named.has(inv.id) ? 'overridden by' : 'shadowed by', o]),
  };
}

/** `invariant show` and the MCP `show_invariant` as text: one "key  value" row each. */
export function showText(r: ShownInvariant, s: Style): string {
  const inv = r.invariant;
  const rows: [string, string][] = [
    ['id', inv.id],
    ['text', inv.text],
    ['scope', describeScope(inv.scope)],
    ['severity', inv.severity],
    ['active', String(inv.active)],
  ];
  if (inv.locked) rows.push(['locked', 'true']);
  if (inv.tags.length) rows.push(['tags', inv.tags.join(', ')]);
  if (inv.rationale) rows.push(['rationale', inv.rationale]);
  if (inv.overrides) rows.push(['overrides', inv.overrides]);
  if (inv.created_at) rows.push(['created at', inv.created_at]);
  if (inv.created_by) rows.push(['created by', inv.created_by]);
  if (inv.source) rows.push(['source', [inv.source.kind, inv.source.ref, inv.source.origin_id].filter(Boolean).join(' ')]);
  if (inv.imported_from) rows.push(['imported from', `${inv.imported_from.file}:${inv.imported_from.line}`]);
  for (const [kind, list] of Object.entries(inv.guard ?? {})) if (list && list.length > 0) rows.push([`guard ${kind}`, list.join(', ')]);
  rows.push(['path', inv.path]);
  rows.push(['applies to', r.appliesTo]);
  const { hides, hiddenBy } = relationWords(inv, r.shadow);
  for (const [word, o] of [...hides, ...hiddenBy]) rows.push([word, `${describeScope(o.scope)} ${o.id}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${s.dim(k.padEnd(width))}  ${v.replace(/\n/g, `\n${' '.repeat(width + 2)}`)}`).join('\n');
}

/** One invariant of a plain listing (`invariant list`, the MCP `list_invariants`): its fields and, listing the whole store, its shadow relations. */
export function listedJson({ invariant, shadow }: { invariant: ScopedInvariant; shadow?: ShownInvariant['shadow'] }): InvariantJson & {
  shadowed_by?: ShadowJson[];
  shadows?: ShadowJson[];
} {
  return {
    ...invariantJson(invariant),
    ...(shadow ? { shadowed_by: shadow.shadowedBy.map(shadowJson), shadows: shadow.shadows.map(shadowJson) } : {}),
  };
}

export const LISTED_SCHEMA: JsonSchema = {
  ...INVARIANT_SCHEMA,
  properties: {
    ...(INVARIANT_SCHEMA.properties as Record<string, JsonSchema>),
    shadows: arrayOf(SHADOW_SCHEMA),
    shadowed_by: arrayOf(SHADOW_SCHEMA),
  },
};

/**
 * What a plain listing that found nothing says (`invariant list`, the MCP `list_invariants`): a scope or pattern
 * matched nothing, or only inactive invariants; or, with neither, the store holds no invariant yet, or only inactive
 * ones (`inactive` of them, left out unless `all` asks for them, which `showAll` names in the caller's words). `agents`
 * starts the command that adds the first: the run's, with its --store (CliContext.agentsCommand).
 */
export function emptyListText(filtered: boolean, inactive: number, showAll: string, agents: string): string {
  if (filtered && inactive > 0)
    return `No active invariants match: ${inactive} inactive ${inactive === 1 ? 'one does' : 'ones do'} (${showAll} lists them).`;
  if (filtered) return 'No invariants match.';
  if (inactive > 0) return `No active invariants: the store holds ${inactive} inactive (${showAll} lists them).`;
  return `The store holds no invariants yet. Add one: ${agents} invariant add --global "TEXT"`;
}
