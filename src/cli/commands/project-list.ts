import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { projectListJson, projectListText } from '../../present/project.ts';
import { emit } from '../render.ts';

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    const projects = await (await ctx.scopes()).listProjects();
    emit(ctx, projectListJson(projects), () => projectListText(ctx.style, projects, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
