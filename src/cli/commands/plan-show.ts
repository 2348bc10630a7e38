import { escapeUnsafe as oneLine } from '../../core/plain-text.ts';
import { textKey } from '../../core/normalise.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { decisionJson, planJson, runJson, waiverJson } from '../../present/plan.ts';
import { effectiveEntriesJson, planEntryMeta, waiverLine } from '../../present/effective.ts';
import { openViolationsText, violationJson } from '../../present/violation.ts';
import { emit } from '../render.ts';
import { hiddenCopyLines } from '../../present/effective.ts';

export default defineCommand<{ id: string }>({
  builder: (y) => y.positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).show(String(argv.id));
    const s = ctx.style;
    const p = r.plan;
    emit(
      ctx,
      {
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
      },
      () => {
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
        lines.push('', s.cyan('Latest enforcement'));
        const run = r.latestEnforcement;
        if (!run) lines.push(`  none yet: run \`agents plan strategize ${p.id}\``);
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
      },
    );
    return EXIT_CODES.ok;
  },
});
