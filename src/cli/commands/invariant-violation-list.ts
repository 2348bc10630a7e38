import { escapeUnsafe as oneLine } from '../../core/plain-text.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import { SEVERITIES, type Severity } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { detailLines, severityLabel, violationJson } from '../../present/violation.ts';
import { emit } from '../render.ts';

export default defineCommand<{ plan?: string; severity?: Severity }>({
  builder: (y) =>
    y
      .option('plan', { type: 'string', requiresArg: true, describe: 'only this plan (id or unique prefix)' })
      .option('severity', { choices: [...SEVERITIES], requiresArg: true, describe: 'only this severity' }),
  async run(argv, ctx) {
    const items = await (await ctx.plans()).listViolations({
      ...(argv.plan !== undefined ? { plan: String(argv.plan) } : {}),
      ...(argv.severity !== undefined ? { severity: argv.severity } : {}),
    });
    const s = ctx.style;
    emit(
      ctx,
      items.map((i) => ({ ...violationJson(i.plan, i.path, i.violation), waived: i.waived === true })),
      () => {
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
              `    ${s.dim(`resolved ${v.resolved.at}${v.resolved.by ? ` by ${v.resolved.by}` : ''}${v.resolved.note ? `: ${oneLine(v.resolved.note)}` : ''}`)}`,
            );
        }
        lines.push('', s.dim(`${items.length} violation${items.length === 1 ? '' : 's'}`));
        return lines.join('\n');
      },
    );
    return EXIT_CODES.ok;
  },
});
