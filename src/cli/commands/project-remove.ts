import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';

export default defineCommand<{ name: string; commit?: boolean }>({
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'the project name' })
      .option('commit', { type: 'boolean', describe: 'commit the removal with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const { removeProject } = await import('../../service/project-remove.ts');
    const r = await removeProject(await ctx.invariants(), {
      project: String(argv.name),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    const s = ctx.style;
    emit(ctx, { project: r.project, folder: r.folder, removed: r.removed, commit: r.commit ?? null }, () =>
      [
        `${s.yellow('removed')} project ${s.bold(r.project)} (${r.folder}/)`,
        ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
      ].join('\n'),
    );
    return EXIT_CODES.ok;
  },
});
