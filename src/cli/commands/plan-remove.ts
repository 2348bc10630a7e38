import { loadTui } from '../tui-loader.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import { normalisePrefix } from '../../core/id-prefix.ts';
import type { Plan } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { planRemovedJson, planRemovedNotes, planRemovedText } from '../../present/plan-remove.ts';
import { emit } from '../render.ts';

interface RemoveArgs {
  id: string;
  yes?: boolean;
  commit?: boolean;
}

export default defineCommand<RemoveArgs>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'do not ask for confirmation' })
      .option('commit', { type: 'boolean', describe: 'commit the removal with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const service = await ctx.plans();
    const confirm = async (plan: Plan): Promise<boolean> => {
      requireInteractive(ctx, '--yes', {
        hint: `Nothing was removed. Run again with --yes to remove plan ${plan.id}.`,
        detail: { plan: plan.id },
      });
      const { runConfirmPlanRemove } = await loadTui();
      return ctx.onScreen(() => runConfirmPlanRemove(tuiIo(ctx), plan));
    };
    // A stop while it asks or waits for the plan's lock removes nothing; once the folder is renamed away, the plan is gone whole.
    const r = await abortOnStopSignals(
      'the plan was left as it was; nothing was removed.',
      (signal) =>
        service.remove(String(argv.id), {
          ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
          signal,
          ...(argv.yes ? {} : { confirm }),
        }),
      (done) =>
        done === null
          ? 'nothing was removed.'
          : `plan ${done.plan.id} was removed whole${done.commit === undefined ? '' : ` (commit ${done.commit.slice(0, 12)})`}.`,
    );
    if (r === null) {
      // As every form answered no (n, Enter or Esc): nothing changed, exit 1 (docs/tui.md).
      ctx.io.stderr.write('Nothing removed.\n');
      return EXIT_CODES.checkFailed;
    }
    const agents = ctx.agentsCommand();
    emit(ctx, planRemovedJson(r), () => planRemovedText(ctx.style, r));
    for (const note of planRemovedNotes(r, agents)) ctx.notice(note);
    // AGENTS_PLAN is the agent's environment, which this command cannot change: said when it names the plan removed.
    const env = normalisePrefix(ctx.io.env.AGENTS_PLAN ?? '');
    if (env !== undefined && r.plan.id.startsWith(env))
      ctx.notice(`AGENTS_PLAN still names ${r.plan.id}, which is gone: unset it in the agent's environment.`);
    return EXIT_CODES.ok;
  },
});
