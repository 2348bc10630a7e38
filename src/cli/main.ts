import yargs, { type Argv } from 'yargs';
import { EXIT_CODES, UsageError } from '../core/errors.ts';
import { truncate } from '../core/names.ts';
import type { CommandSpec } from './command.ts';
import { agentsCommandOf, CliContext } from './context.ts';
import { canPrompt, formatOf, noColorOf, processIo, storeOf, refuseMainInput, useColor, type CliIo, type OutputFormat } from './io.ts';
import { prepareFormat } from './render.ts';
import { report } from './report.ts';
import { VERSION } from '../present/version.ts';
import { refuseBooleanValues } from './boolean-values.ts';
import { refuseEmptyNames } from './empty-names.ts';
import { spacedHelpNotes } from './help-layout.ts';
import {
  invalidChoice,
  missingArgumentOf,
  optionChoices,
  requiredArguments,
  unknownCommandError,
  usageFromYargs,
} from './parse-failures.ts';
import {
  asOtherCommandsOption,
  optionNames,
  refusePositionalFlags,
  refuseTypographicDashes,
  missingSubcommand,
  USAGE_HINT,
  strayOption,
  usageOf,
} from './unknown-option.ts';
import {
  COMMANDS,
  commandWordIndex,
  GLOBAL_OPTIONS,
  GROUPS,
  groupDemand,
  parentGroup,
  unknownCommand,
  type LazyCommand,
} from './registry.ts';
import { parserOptions } from './parser-options.ts';

interface GlobalArgs {
  store?: string;
  format?: OutputFormat;
  input?: boolean;
  color?: boolean;
  quiet?: boolean;
}

/** What the parse chose: the command's table entry, its loaded module and its arguments. */
type Chosen = { entry: LazyCommand; spec: CommandSpec<never>; argv: Record<string, unknown> };

/**
 * Registers a command with its words and description from the table; yargs
 * calls the builder (which loads the command's module and adds its options)
 * only for the command the arguments name, so a run loads one command module.
 */
function wire(
  y: Argv,
  entry: LazyCommand,
  choose: (c: Chosen) => void,
  building: (e: LazyCommand) => void,
  built: (b: Argv, spec: CommandSpec<never>) => void,
  dashed: boolean,
): Argv {
  let spec: CommandSpec<never> | undefined;
  const forms = typeof entry.command === 'string' ? [entry.command] : entry.command;
  return y.command({
    // yargs counts a command's required words before it reads those after `--` (`agents which -- -x`): with words
    // there, they are optional to yargs, and placeAfterDashes places them and then says which one is missing.
    command: dashed ? forms.map((f) => f.replace(/<([^>]+)>/g, '[$1]')) : [...forms],
    describe: entry.describe,
    builder: async (b: Argv) => {
      building(entry);
      spec = (await entry.load()).default;
      const parser = spec.builder(b);
      built(parser, spec);
      return parser;
    },
    handler: (argv: Record<string, unknown>) => choose({ entry, spec: spec!, argv }),
  });
}

function buildParser(
  choose: (c: Chosen) => void,
  args: readonly string[],
  columns: number | undefined,
  lists: (names: readonly string[], choices: ReturnType<typeof optionChoices>) => void,
): Argv {
  const completing = args.includes('--get-yargs-completions');
  // The command whose arguments are being parsed: a missing argument is said with its usage.
  let current: LazyCommand | undefined;
  const building = (e: LazyCommand) => {
    current = e;
  };
  // Once the command's options are known: an argument written as an option, a value for an on/off option (never read
  // as off), an empty scope name: refused.
  // The names the command takes, aliases too: an option none of them is can be the slip behind another failure.
  let taken: Set<string> | undefined;
  // The choices of the command's options and lists, which a missing value or option is answered with.
  let choices: ReturnType<typeof optionChoices> | undefined;
  const built = (b: Argv, spec: CommandSpec<never>) => {
    if (!completing)
      for (const refuse of [refusePositionalFlags(current), refuseBooleanValues, refuseTypographicDashes(current), refuseEmptyNames])
        refuse(b, args);
    const options = parserOptions(b);
    taken = new Set([...Object.keys(options.key), ...Object.values(options.alias).flat()]);
    choices = optionChoices(b, spec.lists);
    lists(options.array, choices);
  };
  const dashed = args.includes('--') && args.indexOf('--') < args.length - 1;
  const y = yargs()
    .scriptName('agents')
    .locale('en')
    // Words are never numbers: after `--` yargs would read `0x1F` as 31 and `1.50` as 1.5, and write them so. No option
    // has parts: with dot notation `--store.x=DIR` would hand the command an object for a path, and `--foo..HEAD` (a
    // range whose side looks like an option) would be named as an argument "foo", never given.
    .parserConfiguration({ 'parse-positional-numbers': false, 'dot-notation': false })
    .usage('$0 <command> [options]\n\nInvariants for AI-agent plans, kept as YAML files in git.')
    .options(GLOBAL_OPTIONS);
  for (const entry of COMMANDS) if (entry.group === undefined) wire(y, entry, choose, building, built, dashed);
  const addGroups = (py: Argv, parent: string | undefined) => {
    for (const group of GROUPS) {
      if (parentGroup(group.name) !== parent) continue;
      py.command(group.name.slice(group.name.lastIndexOf(' ') + 1), group.describe, (gy) => {
        for (const entry of COMMANDS) if (entry.group === group.name) wire(gy, entry, choose, building, built, dashed);
        addGroups(gy, group.name);
        return gy.demandCommand(1, groupDemand(group));
      });
    }
  };
  addGroups(y, undefined);
  y.demandCommand(1, 'Name a command.')
    .strict()
    .completion('completion', 'Print a shell completion script (bash, zsh, fish)')
    // Described in the words of the other options (yargs' own are capitalised), with the -h that helpAlias reads.
    .version('version', 'the version of agents', VERSION)
    .alias('help', 'h')
    .help('help', 'help for this command (also -h)')
    // The run's own stdout, not the process's: main may run inside another program (docs/library.md).
    .wrap(Math.min(100, columns || 80))
    .exitProcess(false)
    .fail((msg, err, yi) => {
      // A shell asking for completions (the script `agents completion` prints) wants candidates, not
      // errors: yargs parses the partial words again without awaiting that parse, so a throw there
      // would be an unhandled rejection.
      if (completing) return;
      // No command named, but an option no level takes (`agents --bogus`): the option is the slip, as strayOption says
      // when a command follows it.
      const group = GROUPS.find((g) => groupDemand(g) === msg)?.name;
      const demanded = msg === 'Name a command.' || group !== undefined;
      const before = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
      // A global option's value outside its choices (`agents --format jsn`) is said as with a command, before the
      // missing command: yargs checks the command first.
      const options = before.filter((a) => a.startsWith('-'));
      const refused = demanded ? (strayOption(options, group) ?? invalidChoice(before)) : undefined;
      throw refused ?? missingSubcommand(msg) ?? usageFromYargs(msg, err, args, optionNames(yi, current), current, taken, choices);
    });
  return y;
}

/** `agents completion --help`. */
const COMPLETION_HELP = `agents completion [bash|zsh|fish]

Print a shell completion script: for the shell named, else for the one SHELL
names, else for bash. Tab then completes commands, options, their choices and
the store's own names (projects, action templates, plans, invariant ids).

  agents completion >> ~/.bashrc      bash
  agents completion >> ~/.zshrc       zsh (with SHELL naming zsh)
  agents completion fish > ~/.config/fish/conf.d/agents.fish
`;

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

/**
 * Node reads the arguments as UTF-8 and puts U+FFFD for bytes that are not (a Latin-1 terminal's "café"): taken
 * as they come, the replacement would be written into the store, or name another file, with exit 0.
 */
function refuseUndecodable(args: readonly string[]): void {
  const index = args.findIndex((a) => a.includes('\uFFFD'));
  if (index < 0) return;
  throw new UsageError(
    `argument ${index + 1} (${JSON.stringify(truncate(args[index]!))}) is not UTF-8 text: its bytes were read as U+FFFD`,
    "Nothing was done. Give it in UTF-8 (set the terminal's or the script's encoding to UTF-8).",
    { argument: index + 1 },
  );
}

/**
 * Words after `--` (yargs leaves them in `_`, after the command's own words)
 * fill the command's positionals as if written before it: `invariant diff
 * -- HEAD~1` compares with HEAD~1, `invariant add --global -- -x text` adds
 * "-x text". Words no positional takes are a usage error, never ignored.
 */
function placeAfterDashes(entry: LazyCommand, argv: Record<string, unknown>): void {
  const depth = (entry.group ? entry.group.split(' ').length : 0) + 1;
  const rest = ((argv._ as unknown[] | undefined) ?? []).slice(depth).map(String);
  if (rest.length === 0) return;
  const form = usageOf(entry);
  for (const token of form.split(' ').slice(1)) {
    const m = /^[<[]([\w-]+)(\.\.)?[>\]]$/.exec(token);
    if (!m || rest.length === 0) continue;
    const name = m[1]!;
    if (m[2]) argv[name] = [...((argv[name] as unknown[] | undefined) ?? []), ...rest.splice(0)];
    else if (argv[name] === undefined) argv[name] = rest.shift();
  }
  // Required words yargs was told are optional, since it counts them before it reads those after `--` (see wire).
  const missing = requiredArguments(form).findIndex((name) => {
    const value = argv[name];
    return value === undefined || (Array.isArray(value) && value.length === 0);
  });
  if (missing >= 0) throw missingArgumentOf(entry, missing);
  if (rest.length > 0) {
    throw new UsageError(
      `unexpected argument "${truncate(rest[0]!)}"`,
      (agents) => `\`${agents} ${entry.group ? `${entry.group} ` : ''}${form}\` takes no more words; run it with --help for usage.`,
      { arguments: rest },
      'unexpected-argument',
    );
  }
}

// What `main` takes, named for callers of `agents-invariants/cli` (docs/library.md).
export type { CliIo } from './io.ts';

/**
 * Runs one CLI invocation and returns its exit code. Every error is caught
 * here, once: user errors print what, where and what to do; anything else is
 * a bug (exit 70). Words or an io of the wrong type from a program that runs
 * it reject instead, as there is no stream to say it on.
 */
export async function main(argsIn: readonly string[], given?: CliIo): Promise<number> {
  refuseMainInput(argsIn, given);
  const io = given ?? processIo();
  let chosen: Chosen | undefined;
  let output = '';
  let args = helpAlias(argsIn);
  // Errors go to stderr: coloured when it is a terminal, whatever stdout is (a log file gets no escapes); --no-color
  // is read before the parse, since the parse itself may fail.
  let errorColor = useColor(io, noColorOf(args), io.stderr);
  let format: OutputFormat = formatOf(args);
  // The start of a command an error names to run: with the run's --store, read before the parse (which may fail), then
  // the context's.
  let agents = agentsCommandOf(storeOf(args));
  // Completing an option's value typed with it (`--format=y`): the `--format=` each candidate is written after.
  let joined = '';
  try {
    // A shell asking for completions sends the partial word being typed: not an unknown command.
    const completing = args.indexOf('--get-yargs-completions');
    if (completing >= 0) {
      // The store's own names (projects, plans, ids) are offered here; yargs offers commands and options.
      const { joinColons, splitJoinedOption, storeCompletions, unsplitWords } = await import('./completion.ts');
      // Each script names its shell (SHELL=bash); bash alone splits words at a colon, zsh alone reads one in a candidate.
      const shell = io.env.SHELL ?? '';
      const typed = unsplitWords(args.slice(completing + 2));
      const colons = shell.endsWith('bash') ? joinColons(typed) : undefined;
      const split = splitJoinedOption(colons?.words ?? typed);
      args = [...args.slice(0, completing + 2), ...split.words];
      joined = split.prefix;
      const found = await storeCompletions(split.words, io);
      if (found !== undefined) {
        const written = found
          .filter((w) => w.startsWith(colons?.typed ?? ''))
          .map((w) => w.slice(colons?.typed.length ?? 0))
          .map((w) => (shell.includes('zsh') ? w.replaceAll(':', '\\:') : w));
        io.stdout.write(written.map((w) => `${joined}${w}\n`).join(''));
        return EXIT_CODES.ok;
      }
    }
    if (completing < 0) refuseUndecodable(args);
    // `completion --help` is said here, as every command's help is, not the script.
    const dashes = args.indexOf('--');
    const words = dashes >= 0 ? args.slice(0, dashes) : args;
    const commandWord = commandWordIndex(words);
    if (completing < 0 && commandWord >= 0 && words[commandWord] === 'completion') {
      if (words.includes('--help')) {
        io.stdout.write(COMPLETION_HELP);
        return EXIT_CODES.ok;
      }
      // The script is ours, not yargs': its fish script sends neither the program's name nor the word being typed,
      // and its zsh script needs a compinit a plain .zshrc never runs.
      const { COMPLETION_PROGRAM_NOTE, completionProgram, completionScript, completionShellOf } = await import('./completion-scripts.ts');
      const after = [...words.slice(0, commandWord), ...words.slice(commandWord + 1)];
      const program = completionProgram(io.env);
      // A word after `--` is an argument whatever it looks like, the shell as any other (`completion -- fish`).
      const operands = dashes >= 0 ? args.slice(dashes + 1) : [];
      io.stdout.write(completionScript(completionShellOf(after, io.env, operands), program));
      // Said at install time, on stderr (the script goes to a file): what Tab will run, and how to change it.
      if (program !== 'agents') io.stderr.write(`agents: ${COMPLETION_PROGRAM_NOTE}\n`);
      return EXIT_CODES.ok;
    }
    const unknown = completing >= 0 ? undefined : unknownCommand(args);
    if (unknown) throw strayOption(unknown.options, unknown.group) ?? unknownCommandError(unknown);
    let lists: readonly string[] = [];
    let choices: ReturnType<typeof optionChoices> | undefined;
    const argv = (await buildParser(
      (c) => (chosen = c),
      args,
      io.stdout.columns,
      (names, taking) => {
        lists = names;
        choices = taking;
      },
    )
      .parseAsync([...args], {}, (_err: unknown, _argv: unknown, out: string) => {
        output = out;
      })
      // A command's own checks run after its (asynchronous) builder, and yargs rejects with their
      // failure instead of calling `.fail`: the same usage error either way.
      .catch((error: Error) => {
        throw usageFromYargs(undefined, error, args, [], undefined, undefined, choices);
      })) as GlobalArgs & Record<string, unknown>;
    // yargs makes an array of any option given twice; unless the option is a list (--tag), which value was meant is
    // not ours to guess, nor to join ("a,b").
    // (`_` and `--` hold words, not options; a shell asking for completions is answered whatever it typed.)
    for (const [key, value] of completing >= 0 ? [] : Object.entries(chosen?.argv ?? argv)) {
      if (Array.isArray(value) && key !== '_' && key !== '--' && !/[A-Z]/.test(key) && !lists.includes(key))
        throw new UsageError(`--${key} was given more than once`, `Give one --${key}.`, { option: key });
    }
    if (!chosen) {
      // Candidates for the value of an option typed with it (`--format=y`) are written with it, as the shell matches.
      if (joined) output = output.replace(/^(?=.)/gm, joined);
      // A one-letter option is offered as `-i`, never as the `--i` yargs writes after a typed `--`.
      if (completing >= 0) output = output.replace(/^--[a-zA-Z](?:[:\t].*)?(?:\n|$)/gm, '');
      else output = spacedHelpNotes(output);
      if (output) io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      const dashes = args.indexOf('--');
      // Words after `--` never name a command (`agents -- invariant list`): yargs then runs nothing, which must not read as success.
      if (!output && dashes >= 0 && completing < 0) {
        const rest = args.slice(dashes + 1);
        throw new UsageError(
          rest.length > 0 ? `unexpected argument "${truncate(rest[0]!)}"` : 'Name a command.',
          (agents) => `A command's words go before \`--\`; after it come only its arguments. ${USAGE_HINT(agents)}`,
          { arguments: rest },
          'unexpected-argument',
        );
      }
      return EXIT_CODES.ok;
    }
    placeAfterDashes(chosen.entry, chosen.argv);
    format = argv.format ?? 'text';
    await prepareFormat(format);
    const color = useColor(io, argv.color === false);
    errorColor = useColor(io, argv.color === false, io.stderr);
    const ctx = new CliContext({
      io,
      store: argv.store,
      format,
      color,
      interactive: canPrompt(io, argv.input === false),
      quiet: argv.quiet === true,
      words: args,
    });
    agents = ctx.agentsCommand();
    // The command runs with `io.env` and `io.cwd` as the run's environment: code below the CLI
    // (git's environment, the lock wait, the ownership checks) reads them there, so a run in another
    // program's process behaves as the same run in its own (docs/adr/0080-run-environment-through-the-run.md).
    // Loaded here, not at start-up: they live in src/git, and below src/store (the signals a writer holds).
    const { withRunEnvironment } = await import('../git/run-environment.ts');
    const { runToItsStop } = await import('./stop-signals.ts');
    const { spec, argv: commandArgv } = chosen;
    return await runToItsStop(io, () => withRunEnvironment({ env: io.env, cwd: io.cwd }, () => spec.run(commandArgv as never, ctx)));
  } catch (error) {
    return await report(io, await asOtherCommandsOption(error), errorColor, format, agents);
  }
}
