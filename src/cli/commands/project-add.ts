import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { projectAddedJson, projectAddedText } from '../../present/project.ts';
import { emit } from '../render.ts';

export default defineCommand<{ name: string; description?: string; path?: string[]; commit?: boolean }>({
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'the project name (^[a-z0-9][a-z0-9._-]{0,63}$)' })
      .option('description', { type: 'string', requiresArg: true, describe: 'what the project is (description: in project.yaml)' })
      .option('path', {
        type: 'string',
        array: true,
        requiresArg: true,
        describe: 'a glob of the repository files the project covers, e.g. services/billing/** (repeat for more)',
      })
      .option('commit', { type: 'boolean', describe: 'commit the new folder with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const r = await (await ctx.scopes()).addProject({
      project: String(argv.name),
      ...(argv.description !== undefined ? { description: String(argv.description) } : {}),
      ...(argv.path !== undefined ? { paths: argv.path.map(String) } : {}),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    emit(ctx, projectAddedJson(r), () => projectAddedText(ctx.style, r, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
