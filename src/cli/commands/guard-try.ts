import { EXIT_CODES, missingOption, missingValue } from '../../core/errors.ts';
import { namedToolAction } from '../../core/guard-clients.ts';
import { verdictJson, verdictText } from '../../present/guard.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';

interface TryArgs {
  path?: string[];
  command?: string;
  tool?: string;
  content?: string;
  cwd?: string;
}

export default defineCommand<TryArgs>({
  builder: (y) =>
    y
      .option('path', { type: 'string', array: true, requiresArg: true, describe: 'a file the action would write (repeatable)' })
      .option('command', { type: 'string', requiresArg: true, describe: 'a shell command the action would run' })
      .option('tool', {
        type: 'string',
        requiresArg: true,
        describe: 'the tool the agent would call (default: Write, Bash or the named tool)',
      })
      .option('content', { type: 'string', requiresArg: true, describe: 'text the action would write' })
      .option('cwd', { type: 'string', requiresArg: true, describe: 'the folder the action runs in (default: the current folder)' }),
  async run(argv, ctx) {
    const paths = argv.path ?? [];
    if (paths.length === 0 && argv.command === undefined && argv.tool === undefined)
      // Said as every command's missing option is: the command, what it needs, and a command that gives it.
      throw missingOption(
        'agents guard try needs --path, --command or --tool',
        (agents) =>
          `Give the action it judges: --path FILE, --command CMD or --tool NAME (\`${agents} guard try --path infra/prod.tf\`). Run \`${agents} guard try --help\` for its options.`,
        'guard try',
        ['path', 'command', 'tool'],
      );
    // An empty value (an unset shell variable) names nothing: judged, it would answer `none` for no action at all,
    // and an empty --cwd would judge the command in the current folder instead of the one meant (MCP check_action
    // refuses an empty cwd too). Each with an example of its own: the hint for an empty --tool names a tool, not a path.
    for (const [option, value, example] of [
      ...paths.map((p) => ['path', p, 'infra/prod.tf'] as const),
      ['tool', argv.tool, 'mcp__db__drop_table'] as const,
      ['command', argv.command, '"terraform apply"'] as const,
      ['cwd', argv.cwd, 'services/billing --command "terraform apply"'] as const,
    ])
      if (value !== undefined && value.trim() === '')
        throw missingValue(
          `--${option} is empty`,
          `Give --${option} a value, e.g. ${ctx.agentsCommand()} guard try --${option} ${example}`,
          option,
        );
    const { GuardService } = await import('../../service/guard-service.ts');
    const service = new GuardService(await ctx.root(), ctx.io.env, undefined, { agents: ctx.agentsCommand() });
    const tool = argv.tool ?? (argv.command !== undefined ? 'Bash' : 'Write');
    const action = service.toAction({
      tool,
      // Read as the hook reads the same tool's input: a patch's files, a command's folders, a read that writes nothing.
      ...namedToolAction(tool, {
        paths,
        ...(argv.command !== undefined ? { command: argv.command } : {}),
        ...(argv.content !== undefined ? { content: argv.content } : {}),
      }),
      // Named, not joined: the service reads `--cwd ~/x` as the hook reads a folder named so, and follows the links of
      // `--cwd lnk/..` before it folds the `..`.
      cwd: ctx.io.cwd,
      ...(argv.cwd !== undefined ? { dir: argv.cwd } : {}),
    });
    const { verdict, reason, plan } = await service.evaluate(action);
    emit(ctx, verdictJson(verdict, reason, plan), () => verdictText(ctx.style, verdict, reason));
    return verdict.decision === 'deny' || verdict.decision === 'ask' ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
