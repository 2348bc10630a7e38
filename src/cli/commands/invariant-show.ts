import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { invariantJson, showIncompleteText, showRelationsJson, showText } from '../../present/invariant.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string }>({
  builder: (y) => y.positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await (await ctx.invariants()).show(String(argv.id));
    emit(ctx, { ...invariantJson(r.invariant), ...showRelationsJson(r, ctx.agentsCommand()) }, () => showText(r, ctx.style));
    // On stderr in every format, as JSON says it in its `incomplete` field too.
    const incomplete = showIncompleteText(r, ctx.agentsCommand());
    if (incomplete) ctx.notice(incomplete);
    return EXIT_CODES.ok;
  },
});
