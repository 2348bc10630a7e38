import { EXIT_CODES } from '../../core/errors.ts';
import { actionName } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { planJson, planListText } from '../../present/plan.ts';
import { emit } from '../render.ts';

interface PlanListArgs {
  project?: string;
  action?: string;
}

export default defineCommand<PlanListArgs>({
  builder: (y) =>
    y.option('project', { type: 'string', requiresArg: true, describe: 'only the plans that target project P' }).option('action', {
      type: 'string',
      requiresArg: true,
      describe: 'only the plans made from action template NS/NAME (or SOURCE:NS/NAME)',
    }),
  async run(argv, ctx) {
    const invariants = argv.project !== undefined || argv.action !== undefined ? await ctx.invariants() : undefined;
    // The template's name as a plan records it (SOURCE:NS/NAME for a policy source's), its shape checked first.
    const scope = argv.action !== undefined ? await invariants!.resolveScope({ action: argv.action }) : undefined;
    const action = scope?.kind === 'action' ? actionName(scope) : undefined;
    const plans = (await (await ctx.plans()).list()).filter(
      (p) => (argv.project === undefined || p.project === argv.project) && (action === undefined || p.action === action),
    );
    if (plans.length === 0) {
      // A filter that names no project or template is a typo, refused with the close names, not an empty list; a
      // plan whose project's folder is gone still matches its name above.
      if (argv.project !== undefined) await invariants!.requireProject(argv.project);
      if (scope?.kind === 'action') await (await import('../../service/invariant-service.ts')).requireAction(invariants!, scope);
    }
    const filtered = argv.project !== undefined || action !== undefined;
    emit(ctx, plans.map(planJson), () => planListText(ctx.style, plans, ctx.agentsCommand(), filtered));
    return EXIT_CODES.ok;
  },
});
