import { EXIT_CODES } from '../../core/errors.ts';
import { EXTENDS_LOCK_FILE } from '../../core/extends.ts';
import { ExtendsService } from '../../service/extends-service.ts';
import { defineCommand } from '../command.ts';
import { updateJson, updateText } from '../../present/extends.ts';
import { emit } from '../render.ts';
import { makeStyle } from '../../core/style.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { staleExports } from '../stale-exports.ts';
import { ignoredByGit } from '../ignored-by-git.ts';

interface UpdateArgs {
  source?: string[];
  acceptMovedTag?: boolean;
  dryRun?: boolean;
}

export default defineCommand<UpdateArgs>({
  builder: (y) =>
    y
      .positional('source', { type: 'string', array: true, describe: 'the sources to move (default: all)' })
      .option('accept-moved-tag', { type: 'boolean', describe: 'follow a tag that now names another commit (force-pushed at the source)' })
      .option('dry-run', { type: 'boolean', describe: 'report the move without writing the lock' }),
  async run(argv, ctx) {
    const invariants = await ctx.invariants();
    const service = new ExtendsService(invariants);
    // A stop that comes as the lock is written lets it be written whole, then ends the run as the signal asks, not 0.
    const r = await abortOnStopSignals(
      'git was stopped and extends.lock.yaml was not written.',
      (signal) => service.update(argv.source ?? [], { acceptMovedTag: argv.acceptMovedTag ?? false, dryRun: argv.dryRun ?? false, signal }),
      (done) => (done.written ? 'extends.lock.yaml was written.' : 'the sources were checked; extends.lock.yaml was not written.'),
    );
    const s = makeStyle(ctx.color);
    const refused = r.moves.filter((m) => m.movedTag && !argv.acceptMovedTag);
    const stale = r.written ? await staleExports(ctx) : [];
    // The lock is committed with the repository: one git ignores leaves every clone with sources not pinned.
    const ignored = r.written ? await ignoredByGit(invariants.root, [EXTENDS_LOCK_FILE]) : undefined;
    if (ignored)
      ctx.notice(
        `git ignores ${ignored.path} (${ignored.rule}): ${EXTENDS_LOCK_FILE} will not be committed, and a clone will find its sources not pinned; remove that rule, or add \`!${ignored.path}\` after it`,
      );
    const report = { result: r, refused, stale, ...(ignored ? { ignored } : {}) };
    emit(ctx, updateJson(report), () => updateText(s, report, ctx.agentsCommand()));
    return refused.length > 0 ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
