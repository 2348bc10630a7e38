import { GUARD_CLIENTS, type GuardClient } from '../core/guard-clients.ts';
import type { CommandSpec } from './command.ts';
import { CliContext } from './context.ts';
import { processIo, useColor, type CliIo } from './io.ts';
import { report } from './report.ts';

/**
 * The three forms started without the argument parser, because their
 * budgets are missed through it (docs/adr/0300-one-argument-parser.md):
 * `agents mcp` (a client waits for its `initialize` answer), and the two
 * that run on every commit or every agent tool call, `agents validate
 * --staged` and `agents guard hook`. `bin/agents.js` sends a run whose
 * first command word is `mcp`, `validate` or `guard` here; this takes the
 * few options those forms have. Anything else (`--help`, a misspelt option,
 * another option, a global option such as `--format`) returns undefined,
 * and the full parser of `main` answers as for every other command.
 */
export async function directMain(args: readonly string[], io: CliIo = processIo()): Promise<number | undefined> {
  const form = directForm(args);
  if (form === undefined) return undefined;
  // The hook's answer is read by a program: never colored, and the terminal never asked (which makes Node's stdout stream).
  const color = form.command === 'guard hook' ? false : useColor(io, form.noColor);
  const ctx = new CliContext({ io, store: form.store, format: 'text', color, interactive: false });
  try {
    const spec = (await form.load()).default as CommandSpec<never>;
    return await spec.run(form.argv as never, ctx);
  } catch (error) {
    // The commands an error names carry the run's --store, as main's report says them.
    return report(io, error, color, 'text', ctx.agentsCommand());
  }
}

interface DirectForm {
  command: 'mcp' | 'validate' | 'guard hook';
  load: () => Promise<{ default: unknown }>;
  argv: Record<string, unknown>;
  store: string | undefined;
  noColor: boolean;
}

/** The form `args` is written in, when it is one of the three and holds nothing else. */
export function directForm(args: readonly string[]): DirectForm | undefined {
  let store: string | undefined;
  let noColor = false;
  const words: string[] = [];
  const flags = new Set<string>();
  let client: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--no-color') noColor = true;
    else if (a === '--store' && i + 1 < args.length && !args[i + 1]!.startsWith('-')) store = args[++i];
    else if (a.startsWith('--store=') && a.length > '--store='.length) store = a.slice('--store='.length);
    else if (a === '--client' && i + 1 < args.length) client = args[++i];
    else if (a.startsWith('--client=')) client = a.slice('--client='.length);
    else if (a === '--allow-write' || a === '--staged') flags.add(a);
    else if (a.startsWith('-')) return undefined;
    else words.push(a);
  }
  const only = (...allowed: string[]) => [...flags].every((f) => allowed.includes(f));
  const form = words.join(' ');
  if (form === 'mcp' && client === undefined && only('--allow-write')) {
    return {
      command: 'mcp',
      load: () => import('./commands/mcp.ts'),
      argv: flags.has('--allow-write') ? { allowWrite: true } : {},
      store,
      noColor,
    };
  }
  if (form === 'validate' && client === undefined && flags.has('--staged') && only('--staged')) {
    return { command: 'validate', load: () => import('./commands/validate.ts'), argv: { staged: true }, store, noColor };
  }
  if (form === 'guard hook' && flags.size === 0 && (client === undefined || GUARD_CLIENTS.includes(client as GuardClient))) {
    return {
      command: 'guard hook',
      load: () => import('./commands/guard-hook.ts'),
      argv: client === undefined ? {} : { client },
      store,
      noColor,
    };
  }
  return undefined;
}
