import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    const projects = await (await ctx.scopes()).listProjects();
    const s = ctx.style;
    emit(ctx, projects, () => {
      if (projects.length === 0) return 'No projects. Create one with `agents project add NAME`.';
      const width = Math.max(...projects.map((p) => p.project.length));
      const lines = projects.map(
        (p) =>
          `${s.bold(p.project.padEnd(width))}  ${p.active} active of ${p.invariants} invariant${p.invariants === 1 ? '' : 's'} · ${p.plans} plan${p.plans === 1 ? '' : 's'}`,
      );
      lines.push('', s.dim(`${projects.length} project${projects.length === 1 ? '' : 's'}`));
      return lines.join('\n');
    });
    return EXIT_CODES.ok;
  },
});
