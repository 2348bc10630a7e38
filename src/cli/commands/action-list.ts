import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    const actions = await (await ctx.scopes()).listActions();
    const s = ctx.style;
    emit(ctx, actions, () => {
      if (actions.length === 0) return 'No action templates. Create one with `agents action add NS/NAME`.';
      const lines: string[] = [];
      for (const a of actions) {
        const from = a.source === null ? '' : ` · from policy source ${a.source}`;
        lines.push(
          `${s.bold(a.action)}  ${s.dim(`${a.active} active of ${a.invariants} invariant${a.invariants === 1 ? '' : 's'} · ${a.plans} plan${a.plans === 1 ? '' : 's'}${from}`)}`,
        );
        if (a.description) lines.push(`  ${a.description}`);
      }
      lines.push('', s.dim(`${actions.length} action template${actions.length === 1 ? '' : 's'}`));
      return lines.join('\n');
    });
    return EXIT_CODES.ok;
  },
});
