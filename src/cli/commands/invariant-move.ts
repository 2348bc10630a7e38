import { EXIT_CODES } from '../../core/errors.ts';
import { describeScope } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { emit, keptProjectNote } from '../render.ts';
import { relationNotes } from '../../present/invariant-write.ts';
import { invariantJson, nearJson, shadowJson } from '../../present/invariant.ts';
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
    const s = ctx.style;
    emit(
      ctx,
      {
        ...invariantJson(r.invariant),
        file: r.file,
        from: { scope: r.before.scope.kind, path: r.before.path },
        shadows: r.shadows.map((i) => shadowJson({ id: i.id, scope: i.scope, path: i.path })),
        shadowed_by: r.shadowedBy.map((i) => shadowJson({ id: i.id, scope: i.scope, path: i.path })),
        near_duplicates: r.near.map(nearJson),
        kept_project: r.keptProject ?? null,
        created_project: r.createdProject ?? null,
        commit: r.commit ?? null,
      },
      () => {
        const lines = [
          `${s.green('moved')} ${s.bold(r.invariant.id)} from ${describeScope(r.before.scope)} to ${describeScope(r.invariant.scope)}`,
          `  ${r.file}`,
        ];
        if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
        lines.push(...relationNotes(r, s.yellow));
        if (r.keptProject) lines.push(keptProjectNote(r.keptProject));
        return lines.join('\n');
      },
    );
    return EXIT_CODES.ok;
  },
});
