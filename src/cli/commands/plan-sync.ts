import { loadTui } from '../tui-loader.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import type { SyncResult } from '../../service/plan-service.ts';
import { defineCommand } from '../command.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { syncJson, syncStrandedNotes, syncText } from '../../present/plan-sync.ts';
import { emit } from '../render.ts';

interface SyncArgs {
  id: string;
  yes?: boolean;
  dryRun?: boolean;
  commit?: boolean;
}

export default defineCommand<SyncArgs>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'apply without asking' })
      .option('dry-run', { type: 'boolean', describe: 'only show the changes; write nothing' })
      .option('commit', { type: 'boolean', describe: 'commit the changed files with git (default: commit: in config.yaml)' })
      .conflicts('yes', 'dry-run'),
  async run(argv, ctx) {
    const service = await ctx.plans();
    const s = ctx.style;
    const commit = argv.commit !== undefined ? { commit: argv.commit } : {};
    let declined = false;
    let r: SyncResult;
    const confirm = async (preview: SyncResult): Promise<boolean> => {
      // No terminal to ask in: what it would change, and which flag applies it.
      requireInteractive(ctx, '--yes', {
        shown: () => syncText(s, preview),
        hint: `Nothing was changed. Run again with --yes to apply the ${preview.changes.length === 1 ? 'change' : `${preview.changes.length} changes`} shown.`,
        detail: { changes: preview.changes.length },
      });
      const { runConfirmSync } = await loadTui();
      declined = !(await ctx.onScreen(() => runConfirmSync(tuiIo(ctx), preview)));
      return !declined;
    };
    if (argv.dryRun) r = await service.sync(String(argv.id), { apply: false });
    else {
      // A stop before the first write cancels the sync; once the plan's files are being written, they are written whole,
      // and the run then ends as the signal asks.
      r = await abortOnStopSignals(
        'the plan was left as it was; nothing was synced.',
        (signal) =>
          service.sync(String(argv.id), {
            apply: true,
            ...commit,
            signal,
            ...(argv.yes ? {} : { confirm }),
          }),
        (done) =>
          !done.applied || done.changes.length === 0
            ? 'nothing was synced.'
            : `plan ${done.plan.id} was synced whole (${done.changes.length} ${done.changes.length === 1 ? 'change' : 'changes'}${done.commit === undefined ? '' : `, commit ${done.commit.slice(0, 12)}`}): nothing is left to sync.`,
      );
    }
    if (declined) {
      // As every form answered no (n or Esc): nothing changed, exit 1 (docs/tui.md).
      ctx.io.stderr.write('Nothing synced.\n');
      return EXIT_CODES.checkFailed;
    }
    for (const note of syncStrandedNotes(r, ctx.agentsCommand())) ctx.notice(note);
    emit(ctx, syncJson(r), () => syncText(s, r));
    return EXIT_CODES.ok;
  },
});
