import { stringify } from 'yaml';
import type { Invariant, Plan } from './model.ts';
import type { DecisionNode, EnforcementRun, Violation } from './records.ts';
import { schemaRef } from './layout.ts';
import { UsageError } from './errors.ts';
import { findUnsafeText, unsafeTextMessage } from './plain-text.ts';
import type { SchemaName } from './schemas.ts';
import type { Waiver } from './waivers.ts';
import { assertSchemaValid } from './write-check.ts';

/** The first line of every file a writer emits, so editors validate as you type. */
export function modeline(rel: string, schema: string): string {
  return `# yaml-language-server: $schema=${schemaRef(rel, schema)}`;
}

/** Refuses (exit 2) text that could hide from a reviewer, before a byte is written (docs/store-format.md, "Plain text only"). */
function refuseUnsafeText(rel: string, schema: string, data: Record<string, unknown>): void {
  const [first] = findUnsafeText(schema, data);
  if (!first) return;
  const field = first.path[0];
  const where = field === 'created_by' ? ' (it comes from git: user.name and user.email, or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)' : '';
  throw new UsageError(`cannot write ${rel}: ${unsafeTextMessage(first)}`, `Nothing was written. Remove the character${where}; tab is allowed, and a newline only in rationale, goal, details and descriptions.`, {
    field: first.path.join('.'),
    character: `U+${first.codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
  });
}

/**
 * The YAML text of a document, exactly as writers emit it, without the
 * schema check: the layer the YAML reader's tests exercise with any data.
 * Writers never call it directly; they go through `document` below.
 */
export function yamlDocument(rel: string, schema: SchemaName, data: Record<string, unknown>): string {
  const body = stringify(data, { lineWidth: 0, defaultKeyType: 'PLAIN', version: '1.2' });
  return `${modeline(rel, schema)}\n${body}`;
}

/**
 * Every writer's document passes here: no hidden text (a pure check of its
 * own, core/plain-text.ts), then its schema, before any text (let alone a
 * byte on disk) is made.
 */
function document(rel: string, schema: SchemaName, data: Record<string, unknown>): string {
  refuseUnsafeText(rel, schema, data);
  assertSchemaValid(schema, rel, data);
  return yamlDocument(rel, schema, data);
}

/** An invariant's fields as its file holds them, keys in the documented order. */
export function invariantFields(inv: Invariant): Record<string, unknown> {
  const data: Record<string, unknown> = { id: inv.id, text: inv.text, severity: inv.severity, active: inv.active };
  if (inv.tags.length > 0) data.tags = inv.tags;
  if (inv.rationale !== undefined) data.rationale = inv.rationale;
  if (inv.overrides !== undefined) data.overrides = inv.overrides;
  if (inv.created_at !== undefined) data.created_at = inv.created_at;
  if (inv.created_by !== undefined) data.created_by = inv.created_by;
  if (inv.source !== undefined) data.source = { ...inv.source };
  return data;
}

/** Canonical text of an invariant file, keys in the documented order. */
export function formatInvariantFile(rel: string, inv: Invariant): string {
  return document(rel, 'invariant.schema.json', invariantFields(inv));
}

export function formatPlanFile(rel: string, plan: Plan): string {
  const data: Record<string, unknown> = { id: plan.id };
  for (const key of ['action', 'project', 'goal', 'created_at', 'created_by'] as const) {
    if (plan[key] !== undefined) data[key] = plan[key];
  }
  return document(rel, 'plan.schema.json', data);
}

/** action.yaml of an action template (schemas/action.schema.json). */
export function formatActionFile(rel: string, meta: { description?: string }): string {
  return document(rel, 'action.schema.json', ordered(meta, ['description']));
}

export function formatConfigFile(): string {
  return [
    '# yaml-language-server: $schema=schemas/config.schema.json',
    'version: 1',
    '# Whether add, remove and plan use commit their change with git.',
    'commit: false',
    'reconciliation:',
    '  # command: the actor program, argv without a shell, run in this folder.',
    '  # command: [node, actors/my-actor.mjs]',
    '  actor: command',
    '  timeout_ms: 60000',
    "# What `agents export` writes into agents' instruction files (docs/export.md):",
    '# export:',
    '#   targets: [agents-md, claude-md, cursor]',
    '',
  ].join('\n');
}

/** Generic YAML document with a modeline, for records written under a plan. */
export function formatRecordFile(rel: string, schema: SchemaName, data: Record<string, unknown>): string {
  return document(rel, schema, data);
}

function ordered<T extends object>(value: T, keys: readonly (keyof T)[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) data[key as string] = value[key];
  return data;
}

export function formatDecisionFile(rel: string, node: DecisionNode): string {
  return document(rel, 'decision.schema.json', ordered(node, ['id', 'type', 'parent_id', 'created_at', 'created_by', 'summary', 'enforcement_id', 'actor']));
}

export function formatEnforcementFile(rel: string, run: EnforcementRun): string {
  const data = ordered(run, ['id', 'decision_id', 'created_at', 'created_by', 'actor', 'error', 'set_digest']);
  data.records = run.records.map((r) => ordered(r, ['invariant_id', 'enforced', 'actor_response', 'decision_id']));
  return document(rel, 'enforcement.schema.json', data);
}

export function formatViolationFile(rel: string, v: Violation): string {
  const data = ordered(v, ['id', 'invariant_id', 'violated_text', 'severity', 'details', 'created_at', 'created_by']);
  if (v.resolved !== undefined) data.resolved = ordered(v.resolved, ['at', 'by', 'note']);
  return document(rel, 'violation.schema.json', data);
}

/** A waiver file (schemas/waiver.schema.json). */
export function formatWaiverFile(rel: string, w: Waiver): string {
  return document(rel, 'waiver.schema.json', ordered(w, ['id', 'invariant_id', 'reason', 'owner', 'expires', 'created_at', 'created_by']));
}
