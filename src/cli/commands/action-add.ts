import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { actionAddedJson, actionAddedText } from '../../present/action.ts';
import { emit } from '../render.ts';

interface ActionAddArgs {
  action: string;
  description?: string;
  commit?: boolean;
}

export default defineCommand<ActionAddArgs>({
  builder: (y) =>
    y
      .positional('action', { type: 'string', describe: 'the action template, NS/NAME (e.g. local/code-coverage)' })
      .option('description', { type: 'string', requiresArg: true, describe: 'what the template is for' })
      .option('commit', { type: 'boolean', describe: 'commit action.yaml with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const r = await (await ctx.scopes()).addAction({
      action: String(argv.action),
      ...(argv.description !== undefined ? { description: String(argv.description) } : {}),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    emit(ctx, actionAddedJson(r), () => actionAddedText(ctx.style, r, ctx.agentsCommand()));
    return EXIT_CODES.ok;
  },
});
