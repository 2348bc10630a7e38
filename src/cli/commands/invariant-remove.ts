import { loadTui } from '../tui-loader.ts';
import { AgentsError, EXIT_CODES } from '../../core/errors.ts';
import type { ShowResult } from '../../service/invariant-service.ts';
import { defineCommand } from '../command.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { emit } from '../render.ts';
import { removedJson, removedText, strandedNotes } from '../../present/invariant-write.ts';
import { showIncompleteText } from '../../present/invariant.ts';

export default defineCommand<{ id: string; yes?: boolean; commit?: boolean }>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'do not ask for confirmation' })
      .option('commit', { type: 'boolean', describe: 'commit the deletion with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const service = await ctx.invariants();
    const found = await service.resolveId(String(argv.id));
    // What it shadows now comes back into effect once it is gone: said with --yes as the confirmation says it.
    // An invalid file can still be removed (that is how one gets rid of it); then nothing is known of its copies.
    // Another file that stops show (an invalid extends.lock.yaml) stops the removal too, as it stops every writer.
    let info: ShowResult | undefined;
    try {
      info = await service.show(found.id);
    } catch (error) {
      const ownFile = error instanceof AgentsError && error.diagnostics.some((d) => d.file === found.path);
      if (!ownFile || error.exitCode !== EXIT_CODES.invalidStore) throw error;
    }
    if (!argv.yes) {
      requireInteractive(ctx);
      const shown = info ?? (await service.show(found.id));
      info = shown;
      const { runConfirmRemove } = await loadTui();
      const yes = await ctx.onScreen(() => runConfirmRemove(tuiIo(ctx), shown));
      if (!yes) {
        // As every form: a no (n, Enter, Esc) writes nothing and fails with exit 1.
        ctx.io.stderr.write('Nothing removed.\n');
        return EXIT_CODES.checkFailed;
      }
    }
    const done = await service.remove(found.id, argv.commit !== undefined ? { commit: argv.commit } : {});
    const removed = {
      id: found.id,
      path: found.path,
      scope: found.scope,
      ...(done.keptProject ? { keptProject: done.keptProject } : {}),
      ...(done.commit ? { commit: done.commit } : {}),
      ...(info ? { shown: info } : {}),
      ...(done.strandedWaivers ? { strandedWaivers: done.strandedWaivers } : {}),
    };
    emit(ctx, removedJson(removed, ctx.agentsCommand()), () => removedText(ctx.style, removed, ctx.agentsCommand()));
    // The files not read are said on stderr, as show says them.
    const incomplete = info ? showIncompleteText(info, ctx.agentsCommand()) : undefined;
    if (incomplete) ctx.notice(incomplete);
    for (const note of strandedNotes(removed, ctx.agentsCommand())) ctx.notice(note);
    return EXIT_CODES.ok;
  },
});
