import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { planJson, treeJson, treeText } from '../../present/plan.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string }>({
  builder: (y) => y.positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).decisions(String(argv.id));
    const s = ctx.style;
    emit(ctx, { plan: planJson(r.plan), nodes: treeJson(r.tree) }, () => {
      const n = r.nodes.length;
      const head = s.bold(`Decision tree of plan ${r.plan.id}: ${n} node${n === 1 ? '' : 's'}`);
      if (n === 0) return `${head}\n  (empty: run \`agents plan strategize ${r.plan.id}\`)`;
      return [head, '', ...treeText(s, r.tree)].join('\n');
    });
    return EXIT_CODES.ok;
  },
});
