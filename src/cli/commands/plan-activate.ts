import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { ambiguousMatches } from '../../core/id-prefix.ts';
import { defineCommand } from '../command.ts';
import { activePlanJson, activePlanText } from '../../present/active-plan.ts';
import { emit } from '../render.ts';

interface ActivateArgs {
  id?: string;
  clear?: boolean;
}

export default defineCommand<ActivateArgs>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'plan id or unique prefix (none: show the active plan)' })
      .option('clear', { type: 'boolean', describe: 'no plan is active any more' })
      .conflicts('id', 'clear'),
  async run(argv, ctx) {
    const [{ changeActivePlan, guardDir, readActivePlan }, root] = await Promise.all([import('../../store/guard-files.ts'), ctx.root()]);
    const dir = guardDir(root);
    // Outside a repository no plan can be active, so --clear has nothing to clear: answered as the plain form.
    if (dir === undefined && argv.id !== undefined)
      throw new UsageError(
        'the store is not in a git repository: there is no place outside it to keep the active plan',
        "Set AGENTS_PLAN=ID in the agent's environment instead.",
      );
    // Read only to be shown: --clear and ID replace whatever stands there (a file that cannot be read too).
    let plan: string | null = argv.clear || argv.id !== undefined ? null : (readActivePlan(dir) ?? null);
    if (argv.clear) {
      if (dir !== undefined) await changeActivePlan(dir, () => null, { notice: (m) => ctx.notice(m) });
      plan = null;
    } else if (argv.id !== undefined) {
      // Read whole, so that a plan.yaml the hook could not read is refused here (exit 3, its file:line:col), not made
      // active; written under the plan's lock, so that a `plan remove` running meanwhile clears it or refuses it.
      plan = await (await ctx.plans()).activate(argv.id, dir!);
    }
    const env = ctx.io.env.AGENTS_PLAN?.trim() || null;
    // Shown, the plan in effect is looked up: one the store does not hold leaves the guard hook to guard.on_error.
    const named = env ?? plan;
    let missing: string | null = null;
    // An ambiguous prefix names plans of the store, more than one: said so with them (pickId's refusal), not as none.
    let matches: string[] = [];
    if (argv.id === undefined && !argv.clear && named !== null) {
      missing = await (await ctx.invariants()).readPlan(named).then(
        () => null,
        (error: unknown) => {
          if (!(error instanceof UsageError)) throw error;
          matches = ambiguousMatches(error) ?? [];
          return error.message;
        },
      );
    }
    const state = { plan, env, missing, matches };
    emit(ctx, activePlanJson(state), () => activePlanText(state, ctx.agentsCommand()));
    return missing === null ? EXIT_CODES.ok : EXIT_CODES.checkFailed;
  },
});
