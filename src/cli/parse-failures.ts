/**
 * The parser's refusals as usage errors (exit 2): what yargs reports when it
 * fails (a missing argument, option or value, options that exclude each other,
 * a value outside its choices, an unknown option), and a command word the
 * table does not hold, each with its code, what was given and what to do.
 */
import { closestNames, hintWithGuess } from '../core/closest.ts';
import type { Argv } from 'yargs';
import { type CommandHint, conflictingOptions, missingArgument, missingOption, missingValue, UsageError } from '../core/errors.ts';
import { truncate } from '../core/names.ts';
import { optionWithValue } from './option-value.ts';
import { parserOptions } from './parser-options.ts';
import { GLOBAL_OPTIONS, GROUPS, namesAt, type LazyCommand } from './registry.ts';
import { guessHint, positionalNames, singleDashOption, unknownIn, unknownOptionError, usageHint, usageOf } from './unknown-option.ts';

/** What each positional argument of the command table names, as a missing one is said. */
const ARGUMENT_NAMES: Record<string, string> = {
  id: 'an id (or a unique prefix of 4 or more characters)',
  action: 'an action template, NS/NAME',
  name: 'a project name',
  paths: 'a path',
};

/**
 * The command that lists what a missing argument names, by the command (`plan use <action>`) or its group (`plan
 * <id>`): a newcomer who left the id out does not know it yet. None for the commands that make the thing they name.
 */
const LISTINGS: Record<string, readonly [command: string, what: string]> = {
  'invariant <id>': ['invariant list', 'the invariants and their ids'],
  'invariant violation <id>': ['invariant violation list', 'the violations and their ids'],
  'plan <id>': ['plan list', 'the plans and their ids'],
  'plan use <action>': ['action list', 'the action templates'],
  'project remove <name>': ['project list', 'the projects'],
};

/** The values an option takes: its yargs `choices`, or the names of a comma-separated list (a command's `lists`). */
export interface OptionChoices {
  values: readonly string[];
  list: boolean;
}

/** The global options' choices (`--format`): what an option left without its value takes before any command is read. */
const GLOBAL_CHOICES: Readonly<Record<string, OptionChoices>> = Object.fromEntries(
  Object.entries(GLOBAL_OPTIONS).flatMap(([name, o]) => ('choices' in o ? [[name, { values: o.choices, list: false }]] : [])),
);

/**
 * The choices of every option `parser` takes (the global ones too) and of the command's `lists`, by the option's name:
 * what a missing value or option is answered with, so that the user need not open the command's help to name one.
 */
export function optionChoices(
  parser: Argv | undefined,
  lists: Readonly<Record<string, readonly string[]>> = {},
): Readonly<Record<string, OptionChoices>> {
  const out: Record<string, OptionChoices> = { ...GLOBAL_CHOICES };
  if (parser)
    for (const [name, values] of Object.entries(parserOptions(parser).choices))
      if (Array.isArray(values)) out[name] = { values: values.map(String), list: false };
  for (const [name, values] of Object.entries(lists)) out[name] = { values, list: true };
  return out;
}

/** The values an option takes, as a hint says them: `one of text, json, yaml`. */
function choicesWords(choices: OptionChoices): string {
  return `${choices.list ? 'one or more of' : 'one of'} ${choices.values.join(', ')}${choices.list ? ', comma-separated' : ''}`;
}

/**
 * A parse failure of yargs as one line and a hint (exit 2). yargs reports a
 * missing option value by throwing its own error class (YError), which is a
 * user's slip, not a bug; any other exception from inside the parser is.
 * `choices`: the options' choices (`optionChoices`), which a missing value or option is answered with.
 */
export function usageFromYargs(
  msg: string | null | undefined,
  err: Error | undefined,
  args: readonly string[],
  known: readonly string[] = [],
  command?: LazyCommand,
  taken?: ReadonlySet<string>,
  choices: Readonly<Record<string, OptionChoices>> = GLOBAL_CHOICES,
): Error {
  if (err && err.name !== 'YError') return err;
  const text = (msg || err?.message || 'invalid arguments').replace(/\s*\n\s*/g, ' ').trim();
  const short = /^Not enough non-option arguments: got (\d+), need at least \d+$/.exec(text);
  // yargs says how many arguments it got; the command's usage says which one is missing.
  // An unknown option takes the word after it as its value (`plan use --global x/y`): that option is the slip, not
  // the argument or option it took.
  const stray = (short || /^Missing required arguments?: /.test(text)) && taken && command ? unknownIn(args, taken) : undefined;
  if (stray) return unknownOptionError(stray, known, [stray], command);
  if (short && command) return missingArgumentOf(command, Number(short[1]));
  const required = /^Missing required arguments?: (.+)$/.exec(text);
  if (required && command) {
    // A required option left out: named as it is written, with the command whose option it is.
    const usage = usageOf(command);
    const words = `${command.group ? `${command.group} ` : ''}${usage.split(' ')[0]}`;
    const options = required[1]!.split(', ').map((o) => `--${o}`);
    const listed = options.length === 1 ? options[0]! : `${options.slice(0, -1).join(', ')} and ${options.at(-1)}`;
    const names = options.map((o) => o.slice(2));
    const withChoices = names.filter((n) => Object.hasOwn(choices, n));
    const values = (n: string) => (Object.hasOwn(choices, n) ? ` (${choicesWords(choices[n]!)})` : '');
    return missingOption(
      `agents ${words} needs ${listed}`,
      (agents) =>
        `Give ${names.map((n) => `${optionWithValue(n)}${values(n)}`).join(' ')}. Run \`${agents} ${words} --help\` for its options.`,
      words,
      names,
      Object.fromEntries(withChoices.map((n) => [n, choices[n]!.values])),
    );
  }
  const missing = /^Not enough arguments following: (\S+)$/.exec(text);
  if (missing) {
    const flag = `--${missing[1]}`;
    const taking = Object.hasOwn(choices, missing[1]!) ? choices[missing[1]!] : undefined;
    // An option with choices is answered with them (none starts with "-"); a free one with how to give any value.
    return missingValue(
      `${flag} needs a value`,
      taking
        ? `Give it as ${optionWithValue(missing[1]!)}, ${choicesWords(taking)}.`
        : `Give it as ${optionWithValue(missing[1]!)}; a value that starts with "-" goes after an equals sign (${flag}=-value).`,
      missing[1]!,
      taking?.values,
    );
  }
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(text);
  if (exclusive) {
    // A positional argument (`plan activate [id]`) is named as the usage writes it, not as an option it is not.
    const positionals = positionalNames(command);
    const shown = (name: string) => (positionals.includes(name) ? name.toUpperCase() : `--${name}`);
    const [a, b] = [shown(exclusive[1]!), shown(exclusive[2]!)];
    return conflictingOptions(`${a} and ${b} cannot be combined`, guessHint([], command, 'Choose one of them. '), [
      exclusive[1]!,
      exclusive[2]!,
    ]);
  }
  // The first option whose values are refused, when yargs names several.
  const invalid = /^Invalid values: Argument: (\S+), Given: (.*?), Choices: (.*?)(?: Argument: \S+, Given: .*)?$/.exec(text);
  if (invalid) {
    // yargs writes each value as JSON, joined by commas: a list of them read back, or the text itself if it is not one.
    const values = (list: string): unknown[] => {
      try {
        return JSON.parse(`[${list}]`) as unknown[];
      } catch {
        return [list];
      }
    };
    return invalidValue(invalid[1]!, values(invalid[2]!), values(invalid[3]!), command);
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
    const all = names.map((n) => written(n)?.replace(/=.*$/, '') ?? n);
    // A mistyped option gets the options of this command that are close to it ("--globl": --global).
    if (flag) return unknownOptionError(flag.replace(/=.*$/, ''), known, all, command, args);
    // A long option written with one dash (`-effective`) reads as one-letter flags, most of them unknown: the word is the slip.
    const before = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
    for (const a of before) {
      const dashed = a.includes(first) ? singleDashOption(a, known, command) : undefined;
      if (dashed) return dashed;
    }
    return new UsageError(
      `unexpected argument "${truncate(first)}"`,
      usageHint(command),
      { arguments: all, suggestions: [] },
      'unexpected-argument',
    );
  }
  return new UsageError(text, usageHint(command));
}

/** `command` without its required argument number `index` (from 0) of its usage, said with that usage. */
export function missingArgumentOf(command: LazyCommand, index: number): UsageError {
  const usage = usageOf(command);
  const words = `${command.group ? `${command.group} ` : ''}${usage.split(' ')[0]}`;
  const needed = requiredArguments(usage);
  const missing = needed[index] ?? needed[0] ?? 'argument';
  const listing = LISTINGS[`${words} <${missing}>`] ?? LISTINGS[`${command.group} <${missing}>`];
  return missingArgument(
    `agents ${words} needs ${ARGUMENT_NAMES[missing] ?? `<${missing}>`}`,
    (agents) =>
      `Usage: ${agents} ${words} ${usage.split(' ').slice(1).join(' ')} [options]. ${
        listing === undefined ? '' : `\`${agents} ${listing[0]}\` lists ${listing[1]}. `
      }Run \`${agents} ${words} --help\` for its options.`,
    words,
    missing,
  );
}

/** The names of a usage's required arguments (`<id>`, `<paths..>`), in order. */
export function requiredArguments(usage: string): string[] {
  return [...usage.matchAll(/<([^>.]+)(?:\.\.)?>/g)].map((m) => m[1]!);
}

/** An option's values outside its choices: a misspelt choice (`--format jsn`) is answered with the choices close to it. */
function invalidValue(option: string, given: readonly unknown[], choices: readonly unknown[], command?: LazyCommand): UsageError {
  const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');
  const first = given[0] === undefined ? null : String(given[0]);
  const names = choices.filter((c): c is string => typeof c === 'string');
  const close = given.length === 1 && first !== null ? closestNames(first, names) : [];
  return new UsageError(
    `--${option} ${list(given)} is not one of ${list(choices)}`,
    guessHint(close, command),
    // The value refused as written (the first, when several were), as every other invalid-value names it.
    { option, value: first, suggestions: close },
    'invalid-value',
  );
}

/** A global option given a value outside its choices (`--format jsn`). */
export function invalidChoice(args: readonly string[]): Error | undefined {
  for (const [name, option] of Object.entries(GLOBAL_OPTIONS)) {
    if (!('choices' in option)) continue;
    const at = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (at < 0) continue;
    const value = args[at]!.includes('=') ? args[at]!.slice(args[at]!.indexOf('=') + 1) : args[at + 1];
    if (value === undefined || (option.choices as readonly string[]).includes(value)) continue;
    return invalidValue(name, [value], option.choices);
  }
  return undefined;
}

/** An unknown command word as a usage error that suggests a real command by spelling, never an unrelated one. */
export function unknownCommandError(found: { group: string | undefined; word: string }): UsageError {
  const names = namesAt(found.group);
  const prefix = found.group ? `${found.group} ` : '';
  const close = closestNames(found.word, names).map((n) => `${prefix}${n}`);
  // A subcommand given without its group (`agents list`): the groups that have it.
  const grouped =
    found.group === undefined ? GROUPS.filter((g) => namesAt(g.name).includes(found.word)).map((g) => `${g.name} ${found.word}`) : [];
  const suggestions = [...close, ...grouped];
  const all = [...new Set(names)].filter((n) => n !== 'completion').join(', ');
  const listing = `The ${found.group ?? 'agents'} commands are: ${all}.`;
  const hint: CommandHint = (agents) =>
    suggestions.length > 0
      ? hintWithGuess(
          suggestions.map((n) => `\`${agents} ${n}\``),
          listing,
        )
      : `${listing} Run \`${agents} ${prefix}--help\` for what each does.`;
  return new UsageError(
    `unknown command "${prefix}${truncate(found.word)}"`,
    hint,
    { command: `${prefix}${found.word}`, suggestions },
    'unknown-command',
  );
}
