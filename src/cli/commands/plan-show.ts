import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { planShowJson, planShowText } from '../../present/plan-show.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string }>({
  builder: (y) => y.positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).show(String(argv.id));
    emit(ctx, planShowJson(r), () => planShowText(ctx.style, r, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
