/**
 * An option the command does not take (docs/json-output.md, `unknown-option`): a slip is answered with the
 * command's options close to it by spelling; an option another command takes (`plan use --global`) is said as
 * that command's, since the spelling of an unrelated option (--goal) is not what the user meant.
 */
import yargs, { type Argv } from 'yargs';
import { closestNames, hintWithGuess, someNames } from '../core/closest.ts';
import { type CommandHint, UsageError } from '../core/errors.ts';
import { truncate } from '../core/names.ts';
import { COMMANDS, commandNames, GLOBAL_OPTION_NAMES, GROUPS, groupDemand, type LazyCommand } from './registry.ts';
import { type ParserOptions, parserConflicts, parserOptions } from './parser-options.ts';

/**
 * Where to read the commands and their options. The parse's hints are CommandHints: the run's `agents`, with the
 * --store it was given, starts the commands they name (AgentsError.hintFor), as every hint's do.
 */
export const USAGE_HINT: CommandHint = (agents) =>
  `Run \`${agents} --help\` for the commands, or \`${agents} COMMAND --help\` for the options of one.`;

/** A group given without a subcommand (`agents plan`, yargs' demand `msg`): its subcommands, and its --help to read what each does. */
export function missingSubcommand(msg: string | null | undefined): UsageError | undefined {
  const group = GROUPS.find((g) => groupDemand(g) === msg);
  return group && new UsageError(groupDemand(group), (agents) => `Run \`${agents} ${group.name} --help\` for what each does.`);
}

/**
 * Where to read a command's options: that command's --help when it is known (`agents plan status --help`), else its
 * group's, which lists the group's commands (`agents invariant --help`), else USAGE_HINT.
 */
export function usageHint(command: LazyCommand | undefined, group?: string): CommandHint {
  if (command) return (agents) => `Run \`${agents} ${wordsOf(command)} --help\` for its options.`;
  if (group)
    return (agents) =>
      `Run \`${agents} ${group} --help\` for its commands, or \`${agents} ${group} COMMAND --help\` for the options of one.`;
  return USAGE_HINT;
}

/** `usageHint(command, group)`, after "Did you mean …?" when there are `suggestions` (hintWithGuess), and `before` it. */
export function guessHint(suggestions: readonly string[], command: LazyCommand | undefined, before = '', group?: string): CommandHint {
  const usage = usageHint(command, group);
  return (agents) => hintWithGuess(suggestions, `${before}${usage(agents)}`);
}

/** The flags that name a scope: a command that takes some of them is pointed to those. */
const SCOPE_OPTIONS = ['global', 'project', 'plan', 'action'];

/**
 * Options a user would try from other tools, with the options meant: offered where the command takes one of them,
 * since no spelling leads from `--until` to `--expires`. Only where the meaning is plain.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  until: ['expires'],
  expiry: ['expires'],
  expiration: ['expires'],
  deadline: ['expires'],
  message: ['reason', 'note', 'details'],
  comment: ['reason', 'note', 'details'],
  why: ['reason'],
  reason: ['note', 'details'],
  note: ['reason', 'details'],
  details: ['reason', 'note'],
  level: ['severity'],
  priority: ['severity'],
  force: ['yes'],
  scope: SCOPE_OPTIONS,
  json: ['format json'],
  yaml: ['format yaml'],
};

/**
 * A file's key written as a flag with a value (`--active false`, as `active: false` reads), where the command sets it
 * with a pair of flags: the one the value means, since the one close in spelling (--activate) may do the opposite.
 */
const FLAG_PAIRS: Readonly<Record<string, readonly [on: string, off: string]>> = {
  active: ['activate', 'deactivate'],
  inactive: ['deactivate', 'activate'],
};

const OFF_WORDS = new Set(['false', 'no', 'off', '0']);

/** The value written for the option `written` in `args`: after its `=`, or the word after it. */
function valueWritten(written: string, args: readonly string[]): string | undefined {
  const at = args.findIndex((a) => a === written || a.startsWith(`${written}=`));
  if (at < 0) return undefined;
  const a = args[at]!;
  return a.startsWith(`${written}=`) ? a.slice(written.length + 1) : args[at + 1];
}

/** The options of `options` (long names) meant by `name` (SYNONYMS), as written (`--expires`, `--format json`). */
function synonymsOf(name: string, options: readonly string[], value: string | undefined): string[] {
  const pair = Object.hasOwn(FLAG_PAIRS, name) ? FLAG_PAIRS[name]! : undefined;
  const meant = pair
    ? [OFF_WORDS.has(value?.toLowerCase() ?? '') ? pair[1] : pair[0]]
    : Object.hasOwn(SYNONYMS, name)
      ? SYNONYMS[name]!
      : [];
  return meant.filter((o) => options.includes(o.split(' ')[0]!)).map((o) => `--${o}`);
}

/** An unknown option, with the command it was given to, so that the other commands' options can be looked at. */
export class UnknownOptionError extends UsageError {
  constructor(
    readonly written: string,
    readonly known: readonly string[],
    all: readonly string[],
    readonly command: LazyCommand | undefined,
    close: readonly string[],
    /** Of `close`, those meant by the word written (SYNONYMS) rather than close to it in spelling. */
    readonly synonyms: readonly string[] = [],
    /** The group it was given to when no command of it was named (`agents invariant --bogus`). */
    readonly group?: string,
  ) {
    super(
      `unknown option ${truncate(written)}`,
      guessHint(close, command, '', group),
      { arguments: [...all], suggestions: [...close] },
      'unknown-option',
    );
  }
}

/**
 * An option as written (`--formt`, `--no-colour`) that is none of `options`
 * (long names), with the ones close to it, negated as it was written
 * ("--no-colour": did you mean --no-color?). `all`: every unknown argument;
 * `command`: the command it was given to; `args`: the words of the run, when `all` is yargs' list; `group`: the group
 * it was given to, when no command of it was named.
 */
export function unknownOptionError(
  written: string,
  options: readonly string[],
  all: readonly string[] = [written],
  command?: LazyCommand,
  args?: readonly string[],
  group?: string,
): UnknownOptionError {
  const negated = written.startsWith('--no-');
  const name = optionName(written);
  // `--no-active` is `--active false`; a negated synonym means nothing the table knows.
  const pair = Object.hasOwn(FLAG_PAIRS, name);
  const synonyms = negated && !pair ? [] : synonymsOf(name, options, negated ? 'false' : valueWritten(written, args ?? all));
  const spelt = closestNames(name, options).map((n) => (negated ? `--no-${n}` : `--${n}`));
  // A pair's flag is the one the value means: the other, close in spelling (or --action), would do something else.
  const close = pair ? synonyms : [...new Set([...synonyms, ...spelt])];
  return new UnknownOptionError(written, options, args ? unknownAmong(all, written, args) : all, command, close, synonyms, group);
}

/**
 * A long option written with one dash (`-effective`, `-format`), which yargs reads as one-letter flags: said as the
 * slip it is, with the option meant (`--effective`) when `options` (long names) has it, else the ones close to it.
 * Undefined for anything else (`-h`, `--global`, a word).
 */
export function singleDashOption(
  written: string,
  options: readonly string[],
  command?: LazyCommand,
  group?: string,
): UsageError | undefined {
  const m = /^-([a-z][a-z-]+)$/i.exec(written.replace(/=.*$/s, ''));
  if (!m) return undefined;
  const name = m[1]!.replace(/^no-/, '');
  const close = (options.includes(name) ? [name] : closestNames(name, options)).map((n) => `--${m[1]!.startsWith('no-') ? 'no-' : ''}${n}`);
  return new UsageError(
    `unknown option -${truncate(m[1]!)}`,
    guessHint(close, command, 'Long options start with two dashes. ', group),
    { arguments: [`-${m[1]}`], suggestions: close },
    'unknown-option',
  );
}

/**
 * Refuses an option written with a typographic dash (`—global`, `–tag`), as word processors and chats turn `--`
 * into: yargs takes it for a word, so `invariant add --global —tag data "…"` would write "—tag data …" as the text
 * and `invariant list —effective` search for it. `parser` is the command's, once its builder has added its options;
 * `command`: the command given, whose --help the hint names.
 */
export const refuseTypographicDashes =
  (command?: LazyCommand) =>
  (parser: Argv, args: readonly string[]): void => {
    const { key } = parserOptions(parser);
    for (const a of args) {
      if (a === '--') return;
      const m = /^([\u2010-\u2015\u2212\ufe58\ufe63\uff0d]+)([a-z][a-z0-9-]*)(?:=|$)/is.exec(a);
      if (!m || !Object.hasOwn(key, m[2]!.replace(/^no-/, ''))) continue;
      const dash = `U+${m[1]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      const meant = `--${m[2]}`;
      throw new UsageError(
        `unknown option ${truncate(m[1]! + m[2]!)}: it starts with a typographic dash (${dash}), not two hyphens`,
        guessHint([meant], command),
        { arguments: [m[1]! + m[2]!], suggestions: [meant] },
        'unknown-option',
      );
    }
  };

/** A command's usage as the table writes it (`use <action>`), its first form. */
export function usageOf(entry: LazyCommand): string {
  return typeof entry.command === 'string' ? entry.command : entry.command[0]!;
}

/** The names of a command's arguments (`id` of `show <id>`, `paths` of `validate [paths..]`), in order. */
export function positionalNames(entry: LazyCommand | undefined): string[] {
  return entry ? [...usageOf(entry).matchAll(/[<[]([^>\].]+)(?:\.\.)?[>\]]/g)].map((m) => m[1]!) : [];
}

/**
 * Refuses an argument of the command written as an option (`plan use --action NS/NAME`, `invariant add --text T`):
 * yargs keeps each argument under its name and takes such a flag for it, so it was read though no --help lists it,
 * ignored beside the argument itself, or joined to it (`--text a b` added "a b"). Said as the unknown option it is,
 * with the command's usage, where the argument goes.
 */
export function refusePositionalFlags(command: LazyCommand | undefined): (parser: Argv, args: readonly string[]) => void {
  const names = positionalNames(command);
  return (_parser, args) => {
    if (!command || names.length === 0) return;
    for (const a of args) {
      if (a === '--') return;
      const written = a.replace(/=.*$/s, '');
      if (!written.startsWith('--') || !names.includes(written.slice(2).replace(/^no-/, ''))) continue;
      const words = wordsOf(command);
      throw new UsageError(
        `${truncate(written)} is not an option of ${words}: ${written.slice(2).replace(/^no-/, '')} is its argument`,
        (agents) =>
          `Give it after the command's words, without the option: ${agents} ${words} ${usageOf(command).split(' ').slice(1).join(' ')}. Run \`${agents} ${words} --help\` for its options.`,
        { arguments: [written], suggestions: [] },
        'unknown-option',
      );
    }
  };
}

/**
 * The unknown arguments named beside the unknown option `written`: given before a command's words with no `=`
 * (`agents --bogus invariant list`), yargs takes the next word as its value and counts the command's words and
 * arguments after it as stray, so only the options among `all` are named then.
 */
function unknownAmong(all: readonly string[], written: string, args: readonly string[]): string[] {
  const next = args[args.indexOf(written) + 1];
  const words = COMMANDS.flatMap((c) => [...(c.group?.split(' ') ?? []), ...commandNames(c)]);
  return args.includes(written) && next !== undefined && words.includes(next) ? all.filter((a) => a.startsWith('-')) : [...all];
}

function optionName(written: string): string {
  return written.replace(/^--?/, '').replace(/^no-/, '');
}

/** A command's words after `agents` (`plan use`). */
function wordsOf(entry: LazyCommand): string {
  return `${entry.group ? `${entry.group} ` : ''}${commandNames(entry)[0]}`;
}

/**
 * The options a command's builder adds, as yargs keeps them, with the names it refuses together (`conflicts`, each
 * with those it conflicts with); loaded on demand, never at start-up.
 */
export async function builderOptions(
  entry: LazyCommand,
): Promise<ParserOptions & { conflicts: Readonly<Record<string, readonly (string | undefined)[]>> }> {
  const parser = (await entry.load()).default.builder(yargs());
  return { ...parserOptions(parser), conflicts: parserConflicts(parser) };
}

/** The long options a command's builder adds (loaded on this error path only, never at start-up). */
async function optionsOf(entry: LazyCommand): Promise<string[]> {
  const { key } = await builderOptions(entry);
  return Object.keys(key).filter((k) => k.length > 1 && !/[A-Z]/.test(k));
}

/**
 * `error` said as the option of the other commands that take it, when it is an unknown option that some other
 * command takes; otherwise `error` as it is. Given before any command's words (`agents --global invariant list`),
 * every command that takes it is named, and where it goes.
 */
export async function asOtherCommandsOption(error: unknown): Promise<unknown> {
  if (!(error instanceof UnknownOptionError)) return error;
  // An option this command has for what the word means (`invariant waive --note`: --reason) is what the user was after.
  if (error.synonyms.length > 0) return error;
  const { command, known } = error;
  const name = optionName(error.written);
  const owners: string[] = [];
  for (const entry of COMMANDS) {
    if (entry === command) continue;
    // A module that cannot be looked at leaves the error as it was: the slip is still said.
    const options = await optionsOf(entry).catch((): string[] => []);
    if (options.includes(name)) owners.push(wordsOf(entry));
  }
  if (owners.length === 0) return error;
  if (command === undefined) {
    // Given after a group's word (`agents invariant --project x list`): that group's commands, and where the option
    // goes among its words; the group's own word is already right.
    const group = error.group;
    const inGroup = group === undefined ? [] : owners.filter((o) => o.startsWith(`${group} `));
    const prefix = inGroup.length > 0 ? `${group} ` : '';
    const some = someNames(inGroup.length > 0 ? inGroup : owners, { shown: 4 });
    return new UsageError(
      error.message,
      (agents) =>
        `It is an option of ${some}: give it after the command's words (\`${agents} ${prefix}COMMAND ${truncate(error.written)}\`).`,
      error.detail,
      'unknown-option',
    );
  }
  const some = someNames(owners, { shown: 4 });
  const words = wordsOf(command);
  const scopes = SCOPE_OPTIONS.includes(name) ? SCOPE_OPTIONS.filter((s) => known.includes(s)) : [];
  const instead = scopes.length > 0 ? ` ${words} takes ${scopes.map((s) => `--${s}`).join(' or ')}.` : '';
  return new UsageError(
    `${truncate(error.written)} is not an option of ${words}`,
    (agents) => `It is an option of ${some}.${instead} Run \`${agents} ${words} --help\` for its options.`,
    { ...error.detail, suggestions: scopes.map((s) => `--${s}`) },
    'unknown-option',
  );
}

/** The first long option of `args` (before `--`) that is none of `taken`, as written without its value. */
export function unknownIn(args: readonly string[], taken: ReadonlySet<string>): string | undefined {
  for (const a of args) {
    if (a === '--') return undefined;
    if (!a.startsWith('--') || a.startsWith('--get-yargs-completions')) continue;
    const written = a.replace(/=.*$/s, '');
    const name = written.slice(2);
    if (!taken.has(name) && !(name.startsWith('no-') && taken.has(name.slice(3)))) return written;
  }
  return undefined;
}

/** The long options the failing command describes (yargs hands `.fail` the usage of that command), its arguments left out. */
export function optionNames(usage: unknown, command: LazyCommand | undefined): string[] {
  const described = (usage as { getDescriptions?: () => Record<string, unknown> } | undefined)?.getDescriptions?.() ?? {};
  const positionals = positionalNames(command);
  return Object.keys(described).filter((k) => k.length > 1 && !/[A-Z]/.test(k) && !positionals.includes(k));
}

/**
 * A mistyped option before the command (`agents --formt json invariant list`): it
 * takes no value, so the word after it reads as a command ("unknown command
 * json"); the option is what the user got wrong, and what is said. `group`: the
 * group it was given after (`agents invariant --bogus list`), whose --help lists
 * what it takes.
 */
export function strayOption(options: readonly string[], group?: string): UsageError | undefined {
  for (const option of options) {
    const written = option.replace(/=.*$/, '');
    const name = written.replace(/^--?/, '').replace(/^no-/, '');
    const dashed = singleDashOption(written, GLOBAL_OPTION_NAMES, undefined, group);
    if (dashed) return dashed;
    if (written === '-h' || GLOBAL_OPTION_NAMES.includes(name) || written.startsWith('--get-yargs-completions')) continue;
    return unknownOptionError(written, GLOBAL_OPTION_NAMES, [written], undefined, undefined, group);
  }
  return undefined;
}
