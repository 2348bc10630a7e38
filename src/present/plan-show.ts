// `agents plan show` (docs/commands.md): the plan, its effective set, waivers, latest decision and enforcement run,
// open violations and drift, as data and as text. One view, beside the lines it shares with invariant list and status.
import { cliFlags } from '../service/option-words.ts';
import { textKey } from '../core/normalise.ts';
import { escapeUnsafe as oneLine } from '../core/plain-text.ts';
import type { DecisionNode } from '../core/records.ts';
import type { Style } from '../core/style.ts';
import type { PlanShow } from '../service/plans/types.ts';
import { effectiveEntriesJson, hiddenCopyLines, planEntryMeta, waiverLine } from './effective.ts';
import { decisionJson, planJson, runJson, waiverJson } from './plan.ts';
import { openViolationsText, violationJson } from './violation.ts';
import { warningsJson } from './diagnostics.ts';

/** `plan show --format json` (docs/json-output.md). */
export function planShowJson(r: PlanShow) {
  const p = r.plan;
  return {
    plan: planJson(p),
    effective: effectiveEntriesJson(r.effective, r.waivers),
    waivers: r.waivers.map(waiverJson),
    latest_decision: r.latestDecision ? decisionJson(r.latestDecision) : null,
    latest_enforcement: r.latestEnforcement ? runJson(r.latestEnforcement) : null,
    violations: r.violations.map((v) => ({
      ...violationJson(p.id, `plans/${p.id}/violations/${v.id}.yaml`, v),
      waived: r.waived.includes(v.id),
    })),
    drift: r.drift.map((d) => ({
      kind: d.kind,
      action: d.action,
      origin_id: d.origin_id,
      plan_invariant_id: d.plan_invariant_id ?? null,
      fields: d.fields ?? [],
      text: d.text,
      action_text: d.action_text ?? null,
    })),
    warnings: warningsJson(r.warnings),
  };
}

/** `plan show` as text: the same facts as its JSON, section by section. */
export function planShowText(s: Style, r: PlanShow, agents: string): string {
  const p = r.plan;
  const lines = [s.bold(`plan ${p.id}`)];
  const rows: [string, string | undefined][] = [
    ['action', p.action],
    ['project', p.project],
    ['goal', p.goal],
    ['created at', p.created_at],
    ['created by', p.created_by],
  ];
  for (const [k, v] of rows) if (v !== undefined) lines.push(`  ${s.dim(k.padEnd(10))}  ${v.replace(/\n/g, `\n${' '.repeat(14)}`)}`);
  lines.push('', s.cyan(`Effective set (${r.effective.length})`));
  r.effective.forEach((e, i) => {
    const inv = e.invariant;
    lines.push(`  ${String(i + 1).padStart(2)}. ${inv.text}`);
    lines.push(`      ${planEntryMeta(s, inv)}`);
    for (const line of hiddenCopyLines(e, s.yellow, () => '')) lines.push(`      ${line}`);
    for (const w of r.waivers) if (w.invariant_id === inv.id) lines.push(`      ${waiverLine(s, w)}`);
  });
  lines.push('', s.cyan(`Waivers (${r.waivers.length})`));
  for (const w of r.waivers) lines.push(`  ${w.invariant_id}  ${waiverLine(s, w)}`);
  if (r.waivers.length === 0) lines.push('  none');
  lines.push('', s.cyan('Latest decision'), ...decisionLines(s, r.latestDecision, p.id, agents));
  lines.push('', s.cyan('Latest enforcement'));
  const run = r.latestEnforcement;
  if (!run) lines.push(`  none yet: run \`${cliFlags(agents).calls.strategize(p.id)}\``);
  else {
    const ok = run.records.filter((x) => x.enforced).length;
    lines.push(`  run ${run.id} at ${run.created_at} (${run.actor} actor): ${ok} of ${run.records.length} enforced`);
    if (run.error) lines.push(`  ${s.red('actor failed:')} ${oneLine(run.error)}`);
    for (const rec of run.records)
      lines.push(`    ${rec.enforced ? s.green('✓') : s.red('✗')} ${rec.invariant_id}  ${s.dim(oneLine(rec.actor_response))}`);
  }
  lines.push('', ...openViolationsText(s, r.violations, r.waived));
  lines.push('', s.cyan(`Drift from the action template (${r.drift.length})`));
  for (const d of r.drift) {
    if (d.kind === 'changed')
      lines.push(
        `  ${s.yellow('changed')}  ${d.origin_id} in ${d.action} (${(d.fields ?? []).join(', ')}): plan has "${d.text}"${d.action_text !== d.text ? `, action now "${d.action_text}"` : ''}`,
      );
    else if (d.kind === 'removed')
      lines.push(`  ${s.red('removed')}  ${d.origin_id} from ${d.action}: plan still has "${d.text}" (${d.plan_invariant_id})`);
    else {
      // The plan may hold the text already (added by hand): sync skips such an origin; say so, not "not in the plan".
      const held = r.effective.find((e) => e.invariant.scope.kind === 'plan' && textKey(e.invariant.text) === textKey(d.text));
      const where = held ? `the plan holds this text as ${held.invariant.id} (sync skips it)` : 'is not in the plan';
      lines.push(`  ${s.green('added')}    ${d.origin_id} to ${d.action}: "${d.text}" ${held ? `— ${where}` : where}`);
    }
  }
  if (r.drift.length === 0) lines.push('  none');
  return lines.join('\n');
}

/** The latest decision node, as its JSON (`latest_decision`) has it: id, type, when, by whom, which run, its summary. */
function decisionLines(s: Style, d: DecisionNode | undefined, plan: string, agents: string): string[] {
  if (!d) return [`  none yet: run \`${cliFlags(agents).calls.strategize(plan)}\``];
  const by = [d.created_by ? `by ${oneLine(d.created_by)}` : undefined, d.actor ? `${d.actor} actor` : undefined].filter(Boolean);
  const run = d.enforcement_id ? `, run ${d.enforcement_id}` : '';
  // The id, type and time as the decision tree (`plan decisions`) writes a node.
  return [`  ${d.id}  ${d.type}  ${d.created_at}${by.length ? ` (${by.join(', ')})` : ''}${run}`, `  ${s.dim(oneLine(d.summary))}`];
}
