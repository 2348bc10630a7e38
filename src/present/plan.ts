import { cliFlags } from '../service/option-words.ts';
import type { Plan } from '../core/model.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import type { DecisionNode, DecisionTreeNode, EnforcementRun } from '../core/records.ts';
import { WAIVER_SCOPE_KINDS, type ScopedWaiver } from '../core/waivers.ts';
import { BOOLEAN, enumOf, type JsonSchema, nullable, objectOf, STRING } from './schema.ts';

/** The stable JSON shape of a plan (docs/json-output.md). */
/** How `plan sync` changes a promoted copy's active state, in words (text output and the confirmation screen). */
export function activeChangeText(before: { active: boolean }, after: { active: boolean }): string | undefined {
  if (before.active === after.active) return undefined;
  return after.active ? 'activated (its origin in the action is active)' : 'deactivated (the action deactivated its origin)';
}

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

/**
 * The decision tree as one flat list in tree order (each node after its parent, children by id), each node with its
 * `depth` (0 for a root): a plan strategized thousands of times is a chain thousands deep, which nested objects could
 * not be printed as (nor read by most JSON readers).
 */
export function treeJson(roots: readonly DecisionTreeNode[]): unknown[] {
  const out: unknown[] = [];
  for (const { node, depth } of treeOrder(roots)) out.push({ ...decisionJson(node.node), depth });
  return out;
}

/** The nodes of a tree, each after its parent, with its depth: walked with a stack of its own, however deep. */
function* treeOrder(roots: readonly DecisionTreeNode[]): Generator<{ node: DecisionTreeNode; depth: number; last: boolean }> {
  const stack = [...roots].reverse().map((node, i) => ({ node, depth: 0, last: i === 0 }));
  while (stack.length > 0) {
    const top = stack.pop()!;
    yield top;
    const { children } = top.node;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i]!, depth: top.depth + 1, last: i === children.length - 1 });
  }
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

/** What `invariant waive` did: the waiver written, the expired ones of its invariant it replaced, and the commit. */
export interface Waived {
  waiver: ScopedWaiver;
  replaced?: readonly { id: string; path: string }[];
  commit?: string;
}

/** The JSON of `invariant waive`: the waiver, the expired waivers it replaced, and the commit. */
export function waivedJson(r: Waived) {
  return { ...waiverJson(r.waiver), replaced: r.replaced ?? [], commit: r.commit ?? null };
}

export function waivedText(s: Style, r: Waived): string {
  const w = r.waiver;
  return [
    `${s.green('waived')} ${w.invariant_id} for ${w.scope.kind === 'plan' ? `plan ${w.scope.plan}` : `project ${w.scope.project}`} until ${w.expires} (owner ${w.owner})`,
    `  ${w.reason}`,
    `  ${w.path}`,
    ...(r.replaced ?? []).map((x) => `  replaces expired waiver ${x.id} (${x.path}, removed)`),
    ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
  ].join('\n');
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

/**
 * The decision tree with box-drawing branches, one node a line. An only child (the next run of a plan, the usual
 * case) goes on at its parent's column, so that a history of runs reads down the page however long it is; a fork
 * branches. Walked without recursion.
 */
export function treeText(s: Style, roots: readonly DecisionTreeNode[]): string[] {
  const lines: string[] = [];
  // The column each depth's node starts at (what the branches above it leave open), and whether it is an only child.
  const columns: string[] = [];
  const childCount: number[] = [];
  for (const { node: n, depth, last } of treeOrder(roots)) {
    if (depth === 0 && lines.length > 0) lines.push('');
    const above = depth === 0 ? '' : columns[depth - 1]!;
    const only = depth > 0 && childCount[depth - 1] === 1;
    const branch = depth === 0 || only ? '' : last ? '└─ ' : '├─ ';
    const d = n.node;
    lines.push(`${above}${branch}${s.bold(d.id)}  ${d.type}  ${s.dim(d.created_at)}`);
    const column = branch === '' ? above : `${above}${last ? '   ' : '│  '}`;
    columns[depth] = column;
    childCount[depth] = n.children.length;
    lines.push(`${column}${n.children.length ? '│  ' : '   '}${escapeUnsafe(d.summary)}`);
  }
  return lines;
}

/**
 * What a run whose plan's effective set changed while the actor ran means (`plan strategize` and the MCP tool
 * `record_reconciliation` both say it): recorded, stale, to be run again.
 */
export function setChangedText(plan: string, c: { added: number; removed: number; edited: number }, agents: string): string {
  return `the effective set changed while the actor ran (${c.added} added, ${c.removed} removed, ${c.edited} edited): the run is recorded, and stale; run \`${cliFlags(agents).calls.strategize(plan)}\` again`;
}

/** The text of `plan list`: each plan with its action, project and creation, its goal indented under it. */
export function planListText(s: Style, plans: readonly Plan[], agents: string, filtered = false): string {
  // Filtered (--project, --action), none matched: the store may hold other plans, so no "create one" is offered.
  if (plans.length === 0 && filtered) return 'No plans match.';
  if (plans.length === 0) return `No plans. Create one with \`${cliFlags(agents).calls.newPlan()}\`.`;
  const lines: string[] = [];
  for (const p of plans) {
    const meta = [p.action ? `action ${p.action}` : null, p.project ? `project ${p.project}` : null, p.created_at ?? null]
      .filter(Boolean)
      .join(' · ');
    lines.push(`${s.bold(p.id)}  ${s.dim(meta)}`);
    // Every line of a goal indented, as plan show does, so that none reads as a plan of the list.
    if (p.goal) lines.push(`  ${p.goal.replace(/\n/g, '\n  ')}`);
  }
  lines.push('', s.dim(`${plans.length} plan${plans.length === 1 ? '' : 's'}`));
  return lines.join('\n');
}

/** The JSON of `plan decisions`: the plan and its decision tree. */
export function decisionsJson(plan: Plan, tree: readonly DecisionTreeNode[]) {
  return { plan: planJson(plan), nodes: treeJson(tree) };
}

/** The text of `plan decisions`: a head counting the nodes, then the tree (or what to run when it is empty). */
export function decisionsText(s: Style, plan: Plan, tree: readonly DecisionTreeNode[], n: number, agents: string): string {
  const head = s.bold(`Decision tree of plan ${plan.id}: ${n} node${n === 1 ? '' : 's'}`);
  if (n === 0) return `${head}\n  (empty: run \`${cliFlags(agents).calls.strategize(plan.id)}\`)`;
  return [head, '', ...treeText(s, tree)].join('\n');
}
