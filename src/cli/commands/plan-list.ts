import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { planJson } from '../../present/plan.ts';
import { emit } from '../render.ts';

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    const plans = await (await ctx.plans()).list();
    const s = ctx.style;
    emit(ctx, plans.map(planJson), () => {
      if (plans.length === 0) return 'No plans. Create one with `agents plan use NS/NAME`.';
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
    });
    return EXIT_CODES.ok;
  },
});
