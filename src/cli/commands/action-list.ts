import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { actionListJson, actionListText } from '../../present/action.ts';
import { emit } from '../render.ts';

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    const actions = await (await ctx.scopes()).listActions();
    emit(ctx, actionListJson(actions), () => actionListText(ctx.style, actions, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
