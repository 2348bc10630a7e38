import yargs, { type Argv } from 'yargs';
import { caretExcerpt, location } from '../core/diagnostics.ts';
import { AgentsError, EXIT_CODES, UsageError } from '../core/errors.ts';
import type { CommandSpec } from './command.ts';
import { canPrompt, processIo, useColor, type CliContext, type CliIo, type OutputFormat } from './io.ts';
import { prepareFormat } from './render.ts';
import { safeJson, safeText } from './safe-output.ts';
import { makeStyle } from './style.ts';
import { VERSION } from './version.ts';
import { COMMANDS, GROUPS, guessCommand, parentGroup, type LazyCommand } from './registry.ts';

interface GlobalArgs {
  store?: string;
  format?: OutputFormat;
  input?: boolean;
  color?: boolean;
}

/** What the parse chose: the command's spec when its module was loaded, else only its table entry. */
type Chosen = { entry: LazyCommand; spec?: CommandSpec<never>; argv: Record<string, unknown> };

type Loaded = Map<LazyCommand, CommandSpec<never>>;

/** Registers a command: fully when its module is loaded, else with its name and description only (for help). */
function wire(y: Argv, entry: LazyCommand, loaded: Loaded, choose: (c: Chosen) => void): Argv {
  const spec = loaded.get(entry);
  return y.command({
    command: spec?.command ?? [...(typeof entry.command === 'string' ? [entry.command] : entry.command)],
    describe: spec?.describe ?? entry.describe,
    // Not strict: the stub does not know the command's options; the second parse checks them.
    builder: spec ? spec.builder : (b: Argv) => b.strict(false),
    handler: (argv: Record<string, unknown>) => choose(spec ? { entry, spec, argv } : { entry, argv }),
  });
}

function buildParser(loaded: Loaded, choose: (c: Chosen) => void): Argv {
  const y = yargs()
    .scriptName('agents')
    .locale('en')
    .usage('$0 <command> [options]\n\nInvariants for AI-agent plans, kept as YAML files in git.')
    .option('store', { type: 'string', describe: 'store folder (default: .agents/ found upwards; env AGENTS_STORE)', requiresArg: true, global: true })
    .option('format', { choices: ['text', 'json', 'yaml'], describe: 'output format', global: true })
    .option('input', { type: 'boolean', default: true, describe: 'allow prompts (--no-input: never prompt)', global: true })
    .option('color', { type: 'boolean', default: true, describe: 'colour output (--no-color, or env NO_COLOR)', global: true });
  for (const entry of COMMANDS) if (entry.group === undefined) wire(y, entry, loaded, choose);
  const addGroups = (py: Argv, parent: string | undefined) => {
    for (const group of GROUPS) {
      if (parentGroup(group.name) !== parent) continue;
      py.command(group.name.slice(group.name.lastIndexOf(' ') + 1), group.describe, (gy) => {
        for (const entry of COMMANDS) if (entry.group === group.name) wire(gy, entry, loaded, choose);
        addGroups(gy, group.name);
        return gy.demandCommand(1, group.demand);
      });
    }
  };
  addGroups(y, undefined);
  y.demandCommand(1, 'Name a command.')
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
  skipHelpCache(y);
  return y;
}

type UsageInternals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };

/**
 * yargs renders the whole help text after every command handler, to have it
 * ready should the handler fail; ours only record which command was chosen
 * and cannot fail, so that rendering (a tenth of a command's start-up) is
 * skipped. Help asked for, and usage errors, still render it as before.
 */
function skipHelpCache(y: Argv): void {
  const usage = (y as unknown as UsageInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
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
    const loaded: Loaded = new Map();
    const guess = guessCommand(args);
    if (guess) loaded.set(guess, (await guess.load()).default);
    const parse = async () => {
      chosen = undefined;
      output = '';
      return (await buildParser(loaded, (c) => (chosen = c)).parseAsync([...args], {}, (_err: unknown, _argv: unknown, out: string) => {
        output = out;
      })) as GlobalArgs & Record<string, unknown>;
    };
    let argv = await parse();
    const picked = chosen as Chosen | undefined;
    if (picked && !picked.spec) {
      // The guess missed: load the command yargs chose and parse again with its options.
      loaded.set(picked.entry, (await picked.entry.load()).default);
      argv = await parse();
    }
    if (!chosen || !chosen.spec) {
      if (output) io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      return EXIT_CODES.ok;
    }
    format = argv.format ?? 'text';
    await prepareFormat(format);
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
    io.stderr.write(safeText(`${lines.join('\n')}\n`, color));
    if (format === 'json' && error.diagnostics.length > 0) {
      io.stdout.write(`${safeJson({ ok: false, error: error.message, diagnostics: error.diagnostics.map(({ lineText: _l, ...d }) => d) })}\n`);
    }
    return error.exitCode;
  }
  const e = error as Error;
  io.stderr.write(
    `${s.red('internal error:')} this is a bug in agents ${VERSION}, not something you did.\n` +
      `Please report it with the command you ran and this trace:\n${safeText(e?.stack ?? String(error), false)}\n`,
  );
  return EXIT_CODES.internal;
}
