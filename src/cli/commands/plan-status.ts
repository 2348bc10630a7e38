import { EXIT_CODES } from '../../core/errors.ts';
import { RELAXABLE, type RelaxableReason } from '../../core/plan-gate.ts';
import { defineCommand } from '../command.ts';
import { planStatusJson, planStatusText } from '../../present/plan-status.ts';
import { emit } from '../render.ts';
import { docsRef } from '../../core/docs-link.ts';

export default defineCommand<{ id: string; allow?: string[] }>({
  builder: (y) =>
    // The page's address goes below the options, on a line of its own: in an option's column, --help breaks it in two.
    y
      .positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' })
      .option('allow', {
        type: 'string',
        array: true,
        choices: [...RELAXABLE],
        requiresArg: true,
        describe: 'report this reason instead of failing on it (repeatable; see Reasons below)',
      })
      .epilog(`Reasons: ${docsRef('plans.md')}`),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).status(String(argv.id), argv.allow ? { allow: argv.allow as RelaxableReason[] } : {});
    emit(ctx, planStatusJson(r), () => planStatusText(r, ctx.style));
    return r.failing ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
