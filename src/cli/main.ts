import yargs, { type Argv } from 'yargs';
import { didYouMean, closestNames } from '../core/closest.ts';
import { EXIT_CODES, UsageError } from '../core/errors.ts';
import type { CommandSpec } from './command.ts';
import { CliContext } from './context.ts';
import { canPrompt, processIo, useColor, type CliIo, type OutputFormat } from './io.ts';
import { prepareFormat } from './render.ts';
import { report } from './report.ts';
import { VERSION } from './version.ts';
import { COMMANDS, GROUPS, guessCommand, namesAt, parentGroup, unknownCommand, type LazyCommand } from './registry.ts';

interface GlobalArgs {
  store?: string;
  format?: OutputFormat;
  input?: boolean;
  color?: boolean;
  quiet?: boolean;
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

function buildParser(loaded: Loaded, choose: (c: Chosen) => void, args: readonly string[], columns: number | undefined): Argv {
  const y = yargs()
    .scriptName('agents')
    .locale('en')
    .usage('$0 <command> [options]\n\nInvariants for AI-agent plans, kept as YAML files in git.')
    .option('store', {
      type: 'string',
      describe: 'store folder (default: .agents/ found upwards; env AGENTS_STORE)',
      requiresArg: true,
      global: true,
    })
    .option('format', { choices: ['text', 'json', 'yaml'], requiresArg: true, describe: 'output format', global: true })
    .option('input', { type: 'boolean', default: true, describe: 'allow prompts (--no-input: never prompt)', global: true })
    .option('color', { type: 'boolean', default: true, describe: 'colour output (--no-color, or env NO_COLOR)', global: true })
    .option('quiet', { type: 'boolean', describe: 'no progress display on stderr during long work', global: true });
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
    .completion('completion', 'Print a shell completion script (bash/zsh)')
    .version(VERSION)
    .alias('help', 'h')
    .help()
    // The run's own stdout, not the process's: main may run inside another program (docs/library.md).
    .wrap(Math.min(100, columns || 80))
    .exitProcess(false)
    .fail((msg, err) => {
      throw usageFromYargs(msg, err, args);
    });
  skipHelpCache(y);
  return y;
}

const USAGE_HINT = 'Run `agents --help` (or `agents COMMAND --help`) for usage.';

/**
 * A parse failure of yargs as one line and a hint (exit 2). yargs reports a
 * missing option value by throwing its own error class (YError), which is a
 * user's slip, not a bug; any other exception from inside the parser is.
 */
function usageFromYargs(msg: string | null | undefined, err: Error | undefined, args: readonly string[]): Error {
  if (err && err.name !== 'YError') return err;
  const text = (msg || err?.message || 'invalid arguments').replace(/\s*\n\s*/g, ' ').trim();
  const missing = /^Not enough arguments following: (\S+)$/.exec(text);
  if (missing) {
    const flag = `--${missing[1]}`;
    return new UsageError(
      `${flag} needs a value`,
      `Give it as ${flag} VALUE; a value that starts with "-" goes after an equals sign (${flag}=-value).`,
      { option: missing[1] },
      'missing-value',
    );
  }
  const invalid = /^Invalid values: Argument: (\S+), Given: (.*), Choices: (.*)$/.exec(text);
  if (invalid) {
    return new UsageError(`--${invalid[1]} ${invalid[2]} is not one of ${invalid[3]}`, USAGE_HINT, { option: invalid[1] }, 'invalid-value');
  }
  const unknown = /^Unknown arguments?: (.*)$/.exec(text);
  if (unknown) {
    // yargs names each unknown option twice (kebab and camel case) and mixes in stray words.
    const names = unknown[1]!
      .split(', ')
      .filter((n, _i, all) => !(/[A-Z]/.test(n) && all.includes(n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))));
    const written = (n: string) =>
      args.find((a) => a === `--${n}` || a.startsWith(`--${n}=`) || a === `--no-${n}` || a.startsWith(`--no-${n}=`) || a === `-${n}`);
    const first = names[0] ?? '';
    const flag = written(first);
    const shown = flag ? flag.replace(/=.*$/, '') : first;
    return new UsageError(
      flag ? `unknown option ${shown}` : `unexpected argument "${first}"`,
      `${USAGE_HINT.replace(/\.$/, '')} lists what it takes.`,
      { arguments: names.map((n) => written(n)?.replace(/=.*$/, '') ?? n) },
      flag ? 'unknown-option' : 'unexpected-argument',
    );
  }
  return new UsageError(text, USAGE_HINT);
}

/** `-h` means `--help` wherever `--help` works (yargs knows the alias only at the top level). */
function helpAlias(args: readonly string[]): string[] {
  const out: string[] = [];
  let rest = false;
  for (const a of args) {
    if (a === '--') rest = true;
    out.push(!rest && a === '-h' ? '--help' : a);
  }
  return out;
}

/** An unknown command word as a usage error that suggests a real command by spelling, never an unrelated one. */
function unknownCommandError(found: { group: string | undefined; word: string }): UsageError {
  const names = namesAt(found.group);
  const prefix = found.group ? `${found.group} ` : '';
  const suggestions = closestNames(found.word, names).map((n) => `${prefix}${n}`);
  const all = [...new Set(names)].filter((n) => n !== 'completion').join(', ');
  const listing = `The ${found.group ?? 'agents'} commands are: ${all}.`;
  const guess = didYouMean(suggestions.map((n) => `\`agents ${n}\``));
  const hint = guess
    ? `${guess[0]!.toUpperCase()}${guess.slice(1)} ${listing}`
    : `${listing} Run \`agents ${prefix}--help\` for what each does.`;
  return new UsageError(
    `unknown command "${prefix}${found.word}"`,
    hint,
    { command: `${prefix}${found.word}`, suggestions },
    'unknown-command',
  );
}

/** Whether `--format json` was asked for, read before yargs parses (a usage error must answer in JSON too). */
function formatOf(args: readonly string[]): OutputFormat {
  let format: OutputFormat = 'text';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const value = a === '--format' ? args[i + 1] : a.startsWith('--format=') ? a.slice('--format='.length) : undefined;
    if (value === 'json' || value === 'yaml' || value === 'text') format = value;
  }
  return format;
}

/**
 * Words after `--` (yargs leaves them in `_`, after the command's own words)
 * fill the command's positionals as if written before it: `invariant diff
 * -- HEAD~1` compares with HEAD~1, `invariant add --global -- -x text` adds
 * "-x text". Words no positional takes are a usage error, never ignored.
 */
function placeAfterDashes(entry: LazyCommand, spec: CommandSpec<never>, argv: Record<string, unknown>): void {
  const depth = (entry.group ? entry.group.split(' ').length : 0) + 1;
  const rest = ((argv._ as unknown[] | undefined) ?? []).slice(depth).map(String);
  if (rest.length === 0) return;
  const form = typeof spec.command === 'string' ? spec.command : spec.command[0]!;
  for (const token of form.split(' ').slice(1)) {
    const m = /^[<[]([\w-]+)(\.\.)?[>\]]$/.exec(token);
    if (!m || rest.length === 0) continue;
    const name = m[1]!;
    if (m[2]) argv[name] = [...((argv[name] as unknown[] | undefined) ?? []), ...rest.splice(0)];
    else if (argv[name] === undefined) argv[name] = rest.shift();
  }
  if (rest.length > 0) {
    throw new UsageError(
      `unexpected argument "${rest[0]}"`,
      `\`agents ${entry.group ? `${entry.group} ` : ''}${form}\` takes no more words; run it with --help for usage.`,
      { arguments: rest },
      'unexpected-argument',
    );
  }
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
export async function main(argsIn: readonly string[], io: CliIo = processIo()): Promise<number> {
  let chosen: Chosen | undefined;
  let output = '';
  const noColorEnv = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
  let color = !noColorEnv && Boolean(io.stderr.isTTY);
  const args = helpAlias(argsIn);
  let format: OutputFormat = formatOf(args);
  try {
    const unknown = unknownCommand(args);
    if (unknown) throw unknownCommandError(unknown);
    const loaded: Loaded = new Map();
    const guess = guessCommand(args);
    if (guess) loaded.set(guess, (await guess.load()).default);
    const parse = async () => {
      chosen = undefined;
      output = '';
      return (await buildParser(loaded, (c) => (chosen = c), args, io.stdout.columns).parseAsync(
        [...args],
        {},
        (_err: unknown, _argv: unknown, out: string) => {
          output = out;
        },
      )) as GlobalArgs & Record<string, unknown>;
    };
    let argv = await parse();
    const picked = chosen as Chosen | undefined;
    if (picked && !picked.spec) {
      // The guess missed: load the command yargs chose and parse again with its options.
      loaded.set(picked.entry, (await picked.entry.load()).default);
      argv = await parse();
    }
    if (!chosen?.spec) {
      if (output) io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      return EXIT_CODES.ok;
    }
    placeAfterDashes(chosen.entry, chosen.spec, chosen.argv);
    format = argv.format ?? 'text';
    await prepareFormat(format);
    color = useColor(io, argv.color === false);
    const ctx = new CliContext({
      io,
      store: argv.store,
      format,
      color,
      interactive: canPrompt(io, argv.input === false),
      quiet: argv.quiet === true,
    });
    // The command runs with `io.env` and `io.cwd` as the run's environment: code below the CLI
    // (git's environment, the lock wait, the ownership checks) reads them there, so a run in another
    // program's process behaves as the same run in its own (docs/adr/0080-run-environment-through-the-run.md).
    // Loaded here, not at start-up: it lives in src/git.
    const { withRunEnvironment } = await import('../git/run-environment.ts');
    const { spec, argv: commandArgv } = chosen;
    return await withRunEnvironment({ env: io.env, cwd: io.cwd }, () => spec.run(commandArgv as never, ctx));
  } catch (error) {
    return await report(io, error, color, format);
  }
}
