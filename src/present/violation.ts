import { SEVERITIES } from '../core/model.ts';
import type { Violation } from '../core/records.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import type { ListedViolation } from '../service/plans/types.ts';
import { type JsonSchema, nullable, objectOf, enumOf, STRING } from './schema.ts';

/** The stable JSON shape of a violation (docs/json-output.md). */
export function violationJson(plan: string, path: string, v: Violation) {
  return {
    id: v.id,
    plan,
    invariant_id: v.invariant_id,
    violated_text: v.violated_text,
    severity: v.severity,
    details: v.details ?? null,
    created_at: v.created_at,
    created_by: v.created_by ?? null,
    resolved: v.resolved ? { at: v.resolved.at, by: v.resolved.by ?? null, note: v.resolved.note ?? null } : null,
    path,
  };
}

export const VIOLATION_SCHEMA: JsonSchema = objectOf(
  {
    id: STRING,
    plan: STRING,
    invariant_id: STRING,
    violated_text: STRING,
    severity: enumOf(SEVERITIES),
    details: nullable('string'),
    created_at: STRING,
    created_by: nullable('string'),
    resolved: { type: ['object', 'null'] },
    path: STRING,
  },
  ['id', 'plan', 'invariant_id', 'violated_text', 'severity', 'details', 'created_at', 'created_by', 'resolved', 'path'],
);

/** The text of `invariant violation add`: the violation recorded, the text it broke, and its file. */
export function recordedText(s: Style, r: ListedViolation): string {
  return [
    `${s.green('recorded')} ${severityLabel(s, r.violation.severity)} violation ${s.bold(r.violation.id)} of ${r.violation.invariant_id} in plan ${r.plan}`,
    `  ${r.violation.violated_text}`,
    `  ${r.path}`,
  ].join('\n');
}

/** The line the MCP tool record_violation answers beside its structured content (violationJson). */
export function recordedLine(data: ReturnType<typeof violationJson>): string {
  return `Recorded ${data.severity} violation ${data.id} of ${data.invariant_id} ("${data.violated_text}") in plan ${data.plan}: ${data.path}`;
}

/** The JSON of `invariant violation list`: each violation with waived, true while a waiver covers it now. */
export function violationListJson(items: readonly ListedViolation[]) {
  return items.map((i) => ({ ...violationJson(i.plan, i.path, i.violation), waived: i.waived === true }));
}

/** The text of `invariant violation list`: the violations under their plan, then how many. */
export function violationListText(s: Style, items: readonly ListedViolation[]): string {
  if (items.length === 0) return 'No violations.';
  const lines: string[] = [];
  let plan = '';
  for (const { plan: p, violation: v, waived } of items) {
    if (p !== plan) {
      if (plan) lines.push('');
      plan = p;
      lines.push(s.cyan(`plan ${p}`));
    }
    lines.push(
      `  ${severityLabel(s, v.severity)}  ${v.id}  ${v.violated_text}${v.resolved ? `  ${s.green('resolved')}` : waived ? `  ${s.dim('waived')}` : ''}`,
    );
    const details = detailLines(v.details);
    lines.push(`    ${s.dim(`invariant ${v.invariant_id} · ${v.created_at}${details.length === 1 ? ` · ${details[0]}` : ''}`)}`);
    if (details.length > 1) lines.push(...details.map((l) => `      ${s.dim(l)}`));
    if (v.resolved)
      lines.push(
        `    ${s.dim(`resolved ${v.resolved.at}${v.resolved.by ? ` by ${v.resolved.by}` : ''}${v.resolved.note ? `: ${escapeUnsafe(v.resolved.note)}` : ''}`)}`,
      );
  }
  lines.push('', s.dim(`${items.length} violation${items.length === 1 ? '' : 's'}`));
  return lines.join('\n');
}

/** A severity coloured as every surface shows it: error red, warning yellow, info plain. */
export function severityLabel(s: Style, severity: string): string {
  return severity === 'error' ? s.red(severity) : severity === 'warning' ? s.yellow(severity) : severity;
}

/**
 * A plan's open violations as `plan show` lists them: those a waiver covers now (`waived`, their ids) said to be, and
 * counted as `plan status` counts them ("; 2 waived"), so the two never disagree on what stands.
 */
export function openViolationsText(s: Style, violations: readonly Violation[], waived: readonly string[]): string[] {
  const covered = new Set(waived);
  const n = violations.filter((v) => covered.has(v.id)).length;
  const lines = [s.cyan(`Open violations (${violations.length}${n ? `; ${n} waived` : ''})`)];
  for (const v of violations) {
    const mark = covered.has(v.id) ? `${s.dim('(waived)')} ` : '';
    const details = detailLines(v.details);
    lines.push(
      `  ${severityLabel(s, v.severity)}  ${v.id}  ${mark}${v.violated_text}${details.length === 1 ? s.dim(` — ${details[0]}`) : ''}`,
    );
    if (details.length > 1) lines.push(...details.map((l) => `      ${s.dim(l)}`));
  }
  if (violations.length === 0) lines.push('  none');
  return lines;
}

/**
 * A violation's details (the one field of it that may hold several lines) as its lines, which text output shows one
 * under another rather than joined with a literal \n; each line escaped as one (a carriage return, a control
 * character), blank ends dropped.
 */
export function detailLines(text: string | undefined): string[] {
  if (!text) return [];
  const lines = text.split(/\r?\n/).map((l) => escapeUnsafe(l));
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  return lines;
}
