import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { decisionsJson, decisionsText } from '../../present/plan.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string }>({
  builder: (y) => y.positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).decisions(String(argv.id));
    emit(ctx, decisionsJson(r.plan, r.tree), () => decisionsText(ctx.style, r.plan, r.tree, r.nodes.length, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
