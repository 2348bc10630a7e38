import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';
import { movedJson, movedText, strandedNotes, writtenUnreadText } from '../../present/invariant-write.ts';
import { scopeFromArgs, scopeOptions, type ScopeArgs } from '../scope-options.ts';

interface MoveArgs extends ScopeArgs {
  id: string;
  commit?: boolean;
  'new-project'?: boolean;
}

export default defineCommand<MoveArgs>({
  builder: (y) =>
    scopeOptions(y.positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' }), 'move to')
      .option('commit', {
        type: 'boolean',
        describe: 'commit the move with git (default: commit: in config.yaml)',
      })
      .option('new-project', {
        type: 'boolean',
        describe: "create --project P even when its name is close to an existing project's (else refused as a likely typo)",
      }),
  async run(argv, ctx) {
    const service = await ctx.invariants();
    const to = scopeFromArgs(argv, true, 'invariant move')!;
    // A duplicate in the destination is exit 1, reported (also in JSON) by main's one catch.
    const r = await service.move(String(argv.id), to, {
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
      ...(argv['new-project'] ? { newProject: true } : {}),
    });
    if (r.createdProject !== undefined) ctx.notice(`created project ${r.createdProject} (projects/${r.createdProject}/)`);
    // On stderr in every format, as add says it: the notes are of the files read.
    const unread = writtenUnreadText(r, ctx.agentsCommand());
    if (unread) ctx.notice(unread);
    for (const note of strandedNotes(r, ctx.agentsCommand())) ctx.notice(note);
    emit(ctx, movedJson(r, ctx.agentsCommand()), () => movedText(ctx.style, r, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
