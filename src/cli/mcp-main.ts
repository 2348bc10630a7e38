import { CliContext } from './context.ts';
import { processIo, useColor, type CliIo } from './io.ts';
import { report } from './report.ts';

/**
 * `agents mcp` started without the argument parser. An MCP client spawns the
 * server and waits for its `initialize` answer, whose budget the parser's
 * start-up alone would miss (docs/adr/0300-one-argument-parser.md):
 * `bin/agents.js` sends `agents mcp …` here, and this takes the few options
 * the command has. Anything else (`--help`, a
 * misspelt option, a global option such as `--format`) returns undefined, and
 * the full parser of `main` answers as for every other command.
 */
export async function mcpMain(args: readonly string[], io: CliIo = processIo()): Promise<number | undefined> {
  let store: string | undefined;
  let allowWrite = false;
  let noColor = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--allow-write') allowWrite = true;
    else if (a === '--no-color') noColor = true;
    else if (a === '--store' && i + 1 < args.length && !args[i + 1]!.startsWith('-')) store = args[++i];
    else if (a.startsWith('--store=') && a.length > '--store='.length) store = a.slice('--store='.length);
    else return undefined;
  }
  const color = useColor(io, noColor);
  try {
    const { default: spec } = await import('./commands/mcp.ts');
    return await spec.run({ allowWrite }, new CliContext({ io, store, format: 'text', color, interactive: false }));
  } catch (error) {
    return report(io, error, color, 'text');
  }
}
