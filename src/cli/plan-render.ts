import { escapeUnsafe } from '../core/plain-text.ts';
import type { Plan } from '../core/model.ts';
import type { DecisionNode, DecisionTreeNode, EnforcementRun, Violation } from '../core/records.ts';
import type { EffectiveEntry } from '../core/resolve.ts';
import { effectiveEntryJson } from './render.ts';
import type { Style } from './style.ts';
import type { ScopedWaiver } from '../core/waivers.ts';

/** The stable JSON shape of a plan (docs/json-output.md). */
export function planJson(plan: Plan) {
  return {
    id: plan.id,
    action: plan.action ?? null,
    project: plan.project ?? null,
    goal: plan.goal ?? null,
    created_at: plan.created_at ?? null,
    created_by: plan.created_by ?? null,
  };
}

export function decisionJson(node: DecisionNode) {
  return {
    id: node.id,
    type: node.type,
    parent_id: node.parent_id,
    created_at: node.created_at,
    created_by: node.created_by ?? null,
    summary: node.summary,
    enforcement_id: node.enforcement_id ?? null,
    actor: node.actor ?? null,
  };
}

export function runJson(run: EnforcementRun) {
  return {
    id: run.id,
    decision_id: run.decision_id,
    created_at: run.created_at,
    created_by: run.created_by ?? null,
    actor: run.actor,
    model: run.model ?? null,
    prompt_version: run.prompt_version ?? null,
    error: run.error ?? null,
    records: run.records.map((r) => ({
      invariant_id: r.invariant_id,
      enforced: r.enforced,
      actor_response: r.actor_response,
      decision_id: r.decision_id,
    })),
  };
}

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

/** The stable JSON shape of a waiver (docs/json-output.md); `holds` when the caller judged it at a time. */
export function waiverJson(w: ScopedWaiver & { holds?: boolean }) {
  return {
    id: w.id,
    invariant_id: w.invariant_id,
    scope: w.scope.kind,
    plan: w.scope.kind === 'plan' ? w.scope.plan : null,
    project: w.scope.kind === 'project' ? w.scope.project : null,
    reason: w.reason,
    owner: w.owner,
    expires: w.expires,
    ...(w.holds !== undefined ? { holds: w.holds } : {}),
    created_at: w.created_at,
    created_by: w.created_by ?? null,
    path: w.path,
  };
}

/** One line for a waiver: "waived until 2026-12-31 by Ops (project myapp): reason", or "expired …". */
export function waiverLine(s: Style, w: ScopedWaiver & { holds: boolean }): string {
  const where = w.scope.kind === 'plan' ? 'plan' : `project ${w.scope.project}`;
  const head = w.holds ? s.yellow(`waived until ${w.expires}`) : s.red(`waiver expired ${w.expires}`);
  return `${head} ${s.dim(`(${where}, ${w.id}, owner ${w.owner})`)}: ${w.reason}`;
}

export function treeJson(nodes: readonly DecisionTreeNode[]): unknown[] {
  return nodes.map((n) => ({ ...decisionJson(n.node), children: treeJson(n.children) }));
}

/** The decision tree with box-drawing branches, one node a line. */
export function treeText(s: Style, roots: readonly DecisionTreeNode[]): string[] {
  const lines: string[] = [];
  const walk = (n: DecisionTreeNode, prefix: string, last: boolean, root: boolean) => {
    const branch = root ? '' : last ? '└─ ' : '├─ ';
    const d = n.node;
    lines.push(`${prefix}${branch}${s.bold(d.id)}  ${d.type}  ${s.dim(d.created_at)}`);
    const inner = root ? prefix : `${prefix}${last ? '   ' : '│  '}`;
    lines.push(`${inner}${n.children.length ? '│  ' : '   '}${escapeUnsafe(d.summary)}`);
    n.children.forEach((c, i) => {
      walk(c, inner, i === n.children.length - 1, false);
    });
  };
  roots.forEach((r, i) => {
    if (i > 0) lines.push('');
    walk(r, '', true, true);
  });
  return lines;
}

export function severityLabel(s: Style, severity: string): string {
  return severity === 'error' ? s.red(severity) : severity === 'warning' ? s.yellow(severity) : severity;
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
): Generator<ReturnType<typeof effectiveEntryJson> & { waivers: ReturnType<typeof waiverJson>[] }> {
  const by = new Map<string, (ScopedWaiver & { holds?: boolean })[]>();
  for (const w of waivers) by.set(w.invariant_id, [...(by.get(w.invariant_id) ?? []), w]);
  for (const e of entries) yield { ...effectiveEntryJson(e), waivers: (by.get(e.invariant.id) ?? []).map(waiverJson) };
}
