import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { waivedJson, waivedText } from '../../present/plan.ts';
import type { WaiveInput } from '../../service/plans/types.ts';
import { emit } from '../render.ts';

/** The service's input, the invariant given as the positional `id`. */
type WaiveArgs = Omit<WaiveInput, 'invariant'> & { id: string };

export default defineCommand<WaiveArgs>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'invariant id or unique prefix (in the effective set of the plan or project)' })
      .option('plan', { type: 'string', requiresArg: true, describe: 'waive it for this plan (id or unique prefix)' })
      .option('project', { type: 'string', requiresArg: true, describe: 'waive it for this project and the plans that target it' })
      .option('reason', { type: 'string', requiresArg: true, demandOption: true, describe: 'why the exception is granted' })
      .option('owner', { type: 'string', requiresArg: true, demandOption: true, describe: 'who answers for it (a person or a team)' })
      .option('expires', {
        type: 'string',
        requiresArg: true,
        demandOption: true,
        describe: 'YYYY-MM-DD (holds through that day, UTC) or an RFC 3339 date-time',
      })
      .option('commit', { type: 'boolean', describe: 'commit the waiver with git (default: commit: in config.yaml)' })
      .conflicts('plan', 'project'),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).waive({
      invariant: String(argv.id),
      ...(argv.plan !== undefined ? { plan: String(argv.plan) } : {}),
      ...(argv.project !== undefined ? { project: String(argv.project) } : {}),
      reason: String(argv.reason),
      owner: String(argv.owner),
      expires: String(argv.expires),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    emit(ctx, waivedJson(r), () => waivedText(ctx.style, r));
    return EXIT_CODES.ok;
  },
});
