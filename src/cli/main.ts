import yargs, { type Argv } from 'yargs';
import { caretExcerpt, location } from '../core/diagnostics.ts';
import { AgentsError, EXIT_CODES, UsageError } from '../core/errors.ts';
import type { CommandSpec } from './command.ts';
import { canPrompt, processIo, useColor, type CliContext, type CliIo, type OutputFormat } from './io.ts';
import { makeStyle } from './style.ts';
import { VERSION } from './version.ts';
import init from './commands/init.ts';
import invariantAdd from './commands/invariant-add.ts';
import invariantList from './commands/invariant-list.ts';
import invariantShow from './commands/invariant-show.ts';
import invariantRemove from './commands/invariant-remove.ts';
import { violationAdd, violationList } from './commands/invariant-violation.ts';
import planUse from './commands/plan-use.ts';
import planList from './commands/plan-list.ts';
import planShow from './commands/plan-show.ts';
import planStrategize from './commands/plan-strategize.ts';
import planDecisions from './commands/plan-decisions.ts';
import planStatus from './commands/plan-status.ts';

interface GlobalArgs {
  store?: string;
  format?: OutputFormat;
  input?: boolean;
  color?: boolean;
}

type Chosen = { spec: CommandSpec<never>; argv: Record<string, unknown> };

function wire(y: Argv, spec: CommandSpec<never>, choose: (c: Chosen) => void): Argv {
  return y.command({
    command: spec.command,
    describe: spec.describe,
    builder: spec.builder,
    handler: (argv: Record<string, unknown>) => choose({ spec, argv }),
  });
}

function buildParser(choose: (c: Chosen) => void): Argv {
  const y = yargs()
    .scriptName('agents')
    .locale('en')
    .usage('$0 <command> [options]\n\nInvariants for AI-agent plans, kept as YAML files in git.')
    .option('store', { type: 'string', describe: 'store folder (default: .agents/ found upwards; env AGENTS_STORE)', requiresArg: true, global: true })
    .option('format', { choices: ['text', 'json', 'yaml'], describe: 'output format', global: true })
    .option('input', { type: 'boolean', default: true, describe: 'allow prompts (--no-input: never prompt)', global: true })
    .option('color', { type: 'boolean', default: true, describe: 'colour output (--no-color, or env NO_COLOR)', global: true });
  wire(y, init as CommandSpec<never>, choose);
  y.command('invariant', 'Add, list, show and remove invariants; record violations', (iy) => {
    for (const spec of [invariantAdd, invariantList, invariantShow, invariantRemove]) wire(iy, spec as CommandSpec<never>, choose);
    iy.command('violation', 'Record and list invariant violations of plans', (vy) => {
      for (const spec of [violationAdd, violationList]) wire(vy, spec as CommandSpec<never>, choose);
      return vy.demandCommand(1, 'Name a subcommand: add or list.');
    });
    return iy.demandCommand(1, 'Name a subcommand: add, list, show, remove or violation.');
  });
  y.command('plan', 'Create plans from action templates, reconcile their invariants, track violations', (py) => {
    for (const spec of [planUse, planList, planShow, planStrategize, planDecisions, planStatus]) wire(py, spec as CommandSpec<never>, choose);
    return py.demandCommand(1, 'Name a subcommand: use, list, show, strategize, decisions or status.');
  });
  return y
    .demandCommand(1, 'Name a command.')
    .strict()
    .recommendCommands()
    .completion('completion', 'Print a shell completion script (bash/zsh)')
    .version(VERSION)
    .alias('help', 'h')
    .help()
    .wrap(Math.min(100, process.stdout.columns || 80))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err) throw err;
      throw new UsageError(msg ?? 'invalid arguments', 'Run `agents --help` (or `agents COMMAND --help`) for usage.');
    });
}

/**
 * Runs one CLI invocation and returns its exit code. Every error is caught
 * here, once: user errors print what, where and what to do; anything else is
 * a bug (exit 70).
 */
export async function main(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  let chosen: Chosen | undefined;
  let output = '';
  const noColorEnv = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
  let color = !noColorEnv && Boolean(io.stderr.isTTY);
  let format: OutputFormat = 'text';
  try {
    const parser = buildParser((c) => (chosen = c));
    const argv = (await parser.parseAsync([...args], {}, (_err: unknown, _argv: unknown, out: string) => {
      output = out;
    })) as GlobalArgs & Record<string, unknown>;
    if (!chosen) {
      if (output) io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      return EXIT_CODES.ok;
    }
    format = argv.format ?? 'text';
    color = useColor(io, argv.color === false);
    const ctx: CliContext = {
      io,
      store: argv.store,
      format,
      color,
      interactive: canPrompt(io, argv.input === false),
    };
    return await chosen.spec.run(chosen.argv as never, ctx);
  } catch (error) {
    return report(io, error, color, format);
  }
}

function report(io: CliIo, error: unknown, color: boolean, format: OutputFormat): number {
  const s = makeStyle(color);
  if (error instanceof AgentsError) {
    const lines = [`${s.red('error:')} ${error.message}`];
    const shown = error.diagnostics.slice(0, 20);
    for (const d of shown) {
      lines.push(`  ${location(d)}  ${d.code}  ${d.message}`);
      const excerpt = caretExcerpt(d);
      if (excerpt) lines.push(excerpt.replace(/^/gm, '    '));
      if (d.hint) lines.push(`    ${s.dim(d.hint)}`);
    }
    if (error.diagnostics.length > shown.length) lines.push(`  … and ${error.diagnostics.length - shown.length} more (run \`agents validate\`)`);
    if (error.hint) lines.push(`${s.dim('hint:')} ${error.hint}`);
    io.stderr.write(`${lines.join('\n')}\n`);
    if (format === 'json' && error.diagnostics.length > 0) {
      io.stdout.write(`${JSON.stringify({ ok: false, error: error.message, diagnostics: error.diagnostics.map(({ lineText: _l, ...d }) => d) }, null, 2)}\n`);
    }
    return error.exitCode;
  }
  const e = error as Error;
  io.stderr.write(
    `${s.red('internal error:')} this is a bug in agents ${VERSION}, not something you did.\n` +
      `Please report it with the command you ran and this trace:\n${e?.stack ?? String(error)}\n`,
  );
  return EXIT_CODES.internal;
}
