import { loadTui } from '../tui-loader.ts';
import { AgentsError, EXIT_CODES } from '../../core/errors.ts';
import type { ShowResult } from '../../service/invariant-service.ts';
import { describeScope } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { emit } from '../render.ts';
import { keptProjectNote } from '../../present/invariant-write.ts';
import { shadowJson, showIncompleteText, showRelationsJson } from '../../present/invariant.ts';

export default defineCommand<{ id: string; yes?: boolean; commit?: boolean }>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'do not ask for confirmation' })
      .option('commit', { type: 'boolean', describe: 'commit the deletion with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const service = await ctx.invariants();
    const s = ctx.style;
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
    const back = info?.shadow.shadows ?? [];
    // Other files not read: a copy in one of them may come back too, so "nothing comes back" is not said as known.
    const incomplete = info ? showIncompleteText(info) : undefined;
    emit(
      ctx,
      {
        removed: found.id,
        path: found.path,
        scope: found.scope.kind,
        kept_project: done.keptProject ?? null,
        commit: done.commit ?? null,
        back_in_effect: info ? back.map((o) => shadowJson({ id: o.id, scope: o.scope, path: o.path })) : null,
        incomplete: info ? showRelationsJson(info).incomplete : null,
      },
      () => {
        const lines = [`${s.green('removed')} ${found.id} from ${describeScope(found.scope)} (${found.path})`];
        if (done.commit) lines.push(`  committed ${done.commit.slice(0, 12)}`);
        if (!info) lines.push('  (the file was invalid: which copies it shadowed is not known)');
        else if (back.length === 0)
          lines.push(
            incomplete ? '  it shadowed nothing of the files read' : '  it shadowed nothing; no other copy comes back into effect',
          );
        else {
          lines.push(`  ${s.yellow('back in effect')} (it shadowed ${back.length === 1 ? 'this copy' : 'these copies'}):`);
          for (const o of back) lines.push(`    ${describeScope(o.scope)} ${o.id}  ${o.path}`);
        }
        if (done.keptProject) lines.push(keptProjectNote(done.keptProject));
        return lines.join('\n');
      },
    );
    if (incomplete) ctx.notice(incomplete);
    return EXIT_CODES.ok;
  },
});
