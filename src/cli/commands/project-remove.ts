import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { projectRemovedJson, projectRemovedText } from '../../present/project.ts';
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
    emit(ctx, projectRemovedJson(r), () => projectRemovedText(ctx.style, r));
    return EXIT_CODES.ok;
  },
});
