import type { Plan } from '../core/model.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import type { DecisionNode, DecisionTreeNode, EnforcementRun } from '../core/records.ts';
import { WAIVER_SCOPE_KINDS, type ScopedWaiver } from '../core/waivers.ts';
import { BOOLEAN, enumOf, type JsonSchema, nullable, objectOf, STRING } from './schema.ts';

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

export const PLAN_SCHEMA: JsonSchema = objectOf(
  {
    id: STRING,
    action: nullable('string'),
    project: nullable('string'),
    goal: nullable('string'),
    created_at: nullable('string'),
    created_by: nullable('string'),
  },
  ['id', 'action', 'project', 'goal', 'created_at', 'created_by'],
);

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
      digest: r.digest ?? null,
    })),
  };
}

export function treeJson(nodes: readonly DecisionTreeNode[]): unknown[] {
  return nodes.map((n) => ({ ...decisionJson(n.node), children: treeJson(n.children) }));
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

export const WAIVER_SCHEMA: JsonSchema = objectOf(
  {
    id: STRING,
    invariant_id: STRING,
    scope: enumOf(WAIVER_SCOPE_KINDS),
    plan: nullable('string'),
    project: nullable('string'),
    reason: STRING,
    owner: STRING,
    expires: STRING,
    holds: BOOLEAN,
    created_at: STRING,
    created_by: nullable('string'),
    path: STRING,
  },
  ['id', 'invariant_id', 'scope', 'plan', 'project', 'reason', 'owner', 'expires', 'created_at', 'created_by', 'path'],
);

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
