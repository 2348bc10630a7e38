import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { planJson, planListText } from '../../present/plan.ts';
import { emit } from '../render.ts';

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    const plans = await (await ctx.plans()).list();
    emit(ctx, plans.map(planJson), () => planListText(ctx.style, plans, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
