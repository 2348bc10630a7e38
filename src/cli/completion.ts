/**
 * Shell completion of the store's own names (docs/commands.md, "Shell
 * completion"): the script `agents completion` prints asks `agents` for the
 * candidates of the word being typed; yargs answers with commands and
 * options, and this module with the projects, action templates, plans and
 * invariant ids a word names.
 */
import type { StoreWordKind } from '../service/invariant-service.ts';
import { SHELLS } from './completion-scripts.ts';
import { CliContext } from './context.ts';
import type { CliIo } from './io.ts';
import { COMMANDS, commandNames, GLOBAL_OPTIONS, globalTakesValue, type LazyCommand } from './registry.ts';
import { builderOptions, positionalNames, usageOf } from './unknown-option.ts';

/** Options whose value names something in the store. */
const OPTION_WORDS: Readonly<Record<string, StoreWordKind>> = {
  '--project': 'project',
  '--plan': 'plan',
  '--action': 'template',
  '--invariant': 'any-invariant',
  '--overrides': 'any-invariant',
};

/** Whether an option as written (`--severity`, `-i`) takes the next word as its value. */
export type TakesValue = (written: string) => boolean;

/** The global options that take a value, and those naming the store's words, so that the value is not read as a command word. */
const globalValue: TakesValue = (written) => globalTakesValue(written) || Object.hasOwn(OPTION_WORDS, written);

/** The words typed that are not options nor their values, and the command they lead to. */
function commandOf(words: readonly string[], takesValue: TakesValue): { typed: string[]; entry: LazyCommand | undefined } {
  const typed: string[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    const w = words[i]!;
    if (w.startsWith('-')) {
      if (takesValue(w)) i++;
      continue;
    }
    typed.push(w);
  }
  for (const entry of COMMANDS) {
    const group = entry.group ? entry.group.split(' ') : [];
    if (typed.length > group.length && group.every((g, i) => typed[i] === g) && commandNames(entry).includes(typed[group.length]!)) {
      return { typed, entry };
    }
  }
  return { typed, entry: undefined };
}

/**
 * The words of a command line as bash hands them over, with an option's `=`
 * taken out: bash breaks words at `=` (COMP_WORDBREAKS), so `--store=DIR`
 * arrives as `--store`, `=`, `DIR`, which would read as a command named DIR.
 * An `=` being typed after an option stands for the value to come.
 */
export function unsplitWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const previous = words[i - 1];
    if (w === '=' && previous !== undefined && /^--?[^-]/.test(previous) && !words.slice(0, i).includes('--')) {
      if (i === words.length - 1) out.push('');
      continue;
    }
    out.push(w);
  }
  return out;
}

/**
 * The words as bash hands them over with a colon, at which it breaks words too (COMP_WORDBREAKS): a policy source's
 * template `policy:org/release` arrives as `policy`, `:`, `org/release`, each piece read as a word. Joined again (not
 * to an option before, nor across `--`), and `typed`: the part of the last word before the piece bash completes, which
 * each candidate is written without, as bash puts it in place of that piece alone (of the empty one after a colon
 * typed last). An empty last word is a new one.
 */
export function joinColons(words: readonly string[]): { words: string[]; typed: string } {
  const out: string[] = [];
  let typed = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const last = out.at(-1);
    const joins = i > 0 && last !== undefined && !last.startsWith('-') && !out.includes('--') && (w === ':' || words[i - 1] === ':');
    if (joins && !(i === words.length - 1 && w === '')) {
      // A colon typed last: bash completes the empty word after it, the whole word being typed before.
      typed = i === words.length - 1 ? (w === ':' ? `${last}:` : last) : '';
      out[out.length - 1] = `${last}${w}`;
    } else {
      out.push(w);
    }
  }
  return { words: out, typed };
}

/**
 * The word being typed as zsh and fish hand it over when it is an option with its value (`--format=y`), which bash
 * splits at the =: completed as the option's value, each candidate then written after `--format=`, as the shell
 * matches the whole word.
 */
export function splitJoinedOption(words: readonly string[]): { words: string[]; prefix: string } {
  const joined = /^(--[^=]+)=(.*)$/s.exec(words.at(-1) ?? '');
  if (joined === null || words.slice(0, -1).includes('--')) return { words: [...words], prefix: '' };
  return { words: [...words.slice(0, -1), joined[1]!, joined[2]!], prefix: `${joined[1]}=` };
}

/**
 * What the last of `words` (those after the program's name; the last is being
 * typed) names in the store: the value of --project, --plan or --action, or
 * the first argument of a command whose table entry says (`plan show <id>`).
 * `takesValue` tells the command's options that take a value, whose values
 * are neither that argument nor a store name (`invariant edit --severity`).
 */
export function wordKind(words: readonly string[], takesValue: TakesValue = globalValue): StoreWordKind | undefined {
  const current = words.at(-1) ?? '';
  const previous = words.at(-2);
  if (previous !== undefined && Object.hasOwn(OPTION_WORDS, previous) && takesValue(previous)) {
    const kind = OPTION_WORDS[previous];
    const entry = kind === 'template' ? commandOf(words, takesValue).entry : undefined;
    // A policy source's template is changed only in its repository: add and move take the store's own.
    return entry?.group === 'invariant' && ['add', 'move'].includes(commandNames(entry)[0]!) ? 'action' : kind;
  }
  if (current.startsWith('-') || (previous !== undefined && takesValue(previous))) return undefined;
  const { typed, entry } = commandOf(words, takesValue);
  return entry === undefined ? undefined : argumentKind(entry, typed.length);
}

/**
 * What the word being typed names in the store as the command's argument after `words` others (its own words
 * included: `plan show` then the id is 2): its table entry's kind for the first argument, or for each of a variadic
 * command's (`extends fetch [source..]`); nothing for the others, nor for files.
 */
function argumentKind(entry: LazyCommand, words: number): StoreWordKind | undefined {
  if (entry.completes === undefined || entry.completes === 'paths') return undefined;
  const index = words - (entry.group ? entry.group.split(' ').length : 0) - 1;
  return index === 0 || (index > 0 && usageOf(entry).includes('..')) ? entry.completes : undefined;
}

/** The global on/off options, each of which a command line may turn off with its `--no-` form. */
const GLOBAL_FLAGS = Object.entries(GLOBAL_OPTIONS)
  .filter(([, o]) => 'type' in o && o.type === 'boolean')
  .map(([name]) => name);

/** Global options whose value is free (a path, a text): no choices, nothing of the store. */
const FREE_GLOBALS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => 'requiresArg' in o && !('choices' in o))
    .map(([name]) => `--${name}`),
);

/**
 * Which options of the command `words` lead to take a value, and which of
 * those take a free one (a path, a text: no choices, no store name), from its
 * builder: the global ones alone when no command is named yet or its module
 * cannot be read.
 */
async function valueOptions(words: readonly string[]): Promise<{
  takesValue: TakesValue;
  free: TakesValue;
  lists: ReadonlyMap<string, readonly string[]>;
  flags: readonly string[];
  /** The flags, as written, that the command's argument is refused with (`plan activate --clear`). */
  alone: readonly string[];
}> {
  const globals = {
    takesValue: globalValue,
    free: (written: string) => FREE_GLOBALS.has(written),
    lists: new Map(),
    flags: GLOBAL_FLAGS,
    alone: [],
  };
  const { entry } = commandOf(words, globalValue);
  if (entry === undefined) return globals;
  try {
    const lists = new Map(Object.entries((await entry.load()).default.lists ?? {}).map(([name, names]) => [`--${name}`, names]));
    const { key, boolean, alias, choices, conflicts } = await builderOptions(entry);
    const flags = new Set(boolean.flatMap((name) => [name, ...(alias[name] ?? [])]));
    // yargs keeps a conflict under the name written first: `.conflicts('id', 'clear')` is `{id: ['clear']}`.
    const argument = positionalNames(entry)[0];
    const alone = Object.keys(key).filter(
      (name) => argument !== undefined && (conflicts[argument]?.includes(name) || conflicts[name]?.includes(argument)),
    );
    const valued = new Set<string>();
    const free = new Set<string>();
    for (const name of Object.keys(key)) {
      if (flags.has(name)) continue;
      for (const n of [name, ...(alias[name] ?? [])]) {
        const written = n.length === 1 ? `-${n}` : `--${n}`;
        valued.add(written);
        if (!Object.hasOwn(choices, name) && !Object.hasOwn(OPTION_WORDS, written) && !lists.has(written)) free.add(written);
      }
    }
    return {
      // The command's own, not every option naming the store's words: `export --action` is no option of export.
      takesValue: (written) => globalTakesValue(written) || valued.has(written),
      free: (written) => globals.free(written) || free.has(written),
      lists,
      alone: alone.flatMap((name) => [name, ...(alias[name] ?? [])]).map((n) => (n.length === 1 ? `-${n}` : `--${n}`)),
      flags: [
        ...new Set([
          ...GLOBAL_FLAGS,
          ...boolean.filter((name) => name.length > 1 && !/[A-Z]/.test(name) && name !== 'help' && name !== 'version'),
        ]),
      ],
    };
  } catch {
    return globals;
  }
}

/**
 * A word of the command line as the shell will read it: bash and zsh hand the words being completed over as typed,
 * quotes and backslashes included (`--store "my store"`, `--store my\\ store`), which name no folder as they are.
 */
export function shellUnquoted(word: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
    } else if (c === '\\' && i + 1 < word.length && (quote === undefined || '"\\$`'.includes(word[i + 1]!))) {
      out += word[++i];
    } else if (c === quote) {
      quote = undefined;
    } else if (quote === undefined && (c === "'" || c === '"')) {
      quote = c;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * The store's names the word being typed may complete to, or undefined when
 * the word names nothing in the store (then yargs completes it). Quiet: a
 * missing or unreadable store completes to nothing, never to an error.
 */
export async function storeCompletions(words: readonly string[], io: CliIo): Promise<string[] | undefined> {
  const { takesValue, free, lists, flags, alone } = await valueOptions(words);
  const dashes = words.indexOf('--');
  // A flag the command's argument is refused with (`plan activate --clear`): no argument is to come.
  const noArgument = words.slice(0, dashes >= 0 ? dashes : -1).some((w) => alone.includes(w));
  if (dashes >= 0 && dashes < words.length - 1) return noArgument ? [] : afterDashes(words, dashes, takesValue, io);
  const previous = words.at(-2);
  // yargs offers no `--no-` forms, yet `--no-color`, `--no-cache`, `--no-commit` are how they are used: typed up to
  // the dash, each on/off option's.
  const typing = words.at(-1) ?? '';
  if (typing.startsWith('--no-') && !(previous !== undefined && takesValue(previous))) {
    return flags.map((name) => `--no-${name}`).filter((w) => w.startsWith(typing));
  }
  // A comma list of names (`--client claude,co`): the names not listed yet, each after what is typed before the last
  // comma, since the shell matches the whole word.
  const names = previous === undefined ? undefined : lists.get(previous);
  if (names !== undefined) {
    const current = words.at(-1) ?? '';
    const before = current.slice(0, current.lastIndexOf(',') + 1);
    const listed = before.split(',');
    return names
      .filter((n) => !listed.includes(n))
      .map((n) => `${before}${n}`)
      .filter((w) => w.startsWith(current));
  }
  // The value of --store, --path, --cwd or a text is neither the store's nor yargs' to offer (it would list the
  // options, or after --store the commands): nothing, so the shell completes file names (`-o default`, `_default`).
  if (previous !== undefined && free(previous)) return [];
  const { typed, entry } = commandOf(words, takesValue);
  // A command whose arguments are files (`which`, `validate`, `import`): an empty word is one of them, not an option.
  if (typing === '' && !(previous !== undefined && takesValue(previous)) && entry?.completes === 'paths') return [];
  // `completion` is yargs' command, in no table: its one argument is a shell (yargs would offer the commands).
  if (typed[0] === 'completion' && !typing.startsWith('-') && !(previous !== undefined && takesValue(previous)))
    return typed.length === 1 ? SHELLS.filter((shell) => shell.startsWith(typing)) : [];
  const kind = wordKind(words, takesValue);
  if (kind === undefined || (noArgument && !(previous !== undefined && Object.hasOwn(OPTION_WORDS, previous)))) return undefined;
  return storeNames(words, kind, io);
}

/**
 * The candidates of a word after `--`, which is an argument whatever it looks like (`--` ends the options, and a
 * command's words go before it): the store's names when it is the first argument of a command that names one (`plan
 * show -- 01…`), else nothing (never the options or the commands yargs would offer).
 */
async function afterDashes(words: readonly string[], dashes: number, takesValue: TakesValue, io: CliIo): Promise<string[]> {
  const { typed, entry } = commandOf([...words.slice(0, dashes), ''], takesValue);
  if (entry === undefined) return [];
  const kind = argumentKind(entry, typed.length + (words.length - dashes - 2));
  return kind === undefined ? [] : storeNames(words.slice(0, dashes + 1), kind, io, words.at(-1) ?? '');
}

/**
 * The names of `kind` in the store the words typed name (their `--store`, else the one found from the current folder)
 * that start with the word being typed (`current`, by default the last of `words`).
 */
async function storeNames(words: readonly string[], kind: StoreWordKind, io: CliIo, current = words.at(-1) ?? ''): Promise<string[]> {
  let store: string | undefined;
  for (let i = 0; i < words.length - 1; i++) {
    if (words[i] === '--store') store = words[i + 1];
    else if (words[i]!.startsWith('--store=')) store = words[i]!.slice('--store='.length);
  }
  if (store !== undefined) store = shellUnquoted(store);
  try {
    // Notices (a policy source not fetched) would land in the middle of the command line being typed.
    const quiet: CliIo = {
      get stdout() {
        return io.stdout;
      },
      stderr: { write: () => true },
      get stdin() {
        return io.stdin;
      },
      env: io.env,
      cwd: io.cwd,
    };
    const ctx = new CliContext({ io: quiet, store, format: 'text', color: false, interactive: false, quiet: true });
    const [svc, { actionNames, invariantIds, sourceNames, storeWords }] = await Promise.all([
      ctx.invariants(),
      import('../service/invariant-service.ts'),
    ]);
    // The policy sources not readable (config.yaml invalid) take nothing away from the store's own names.
    const names =
      kind === 'template'
        ? await actionNames(svc).catch(() => storeWords(svc.source, 'action'))
        : kind === 'any-invariant'
          ? await invariantIds(svc).catch(() => storeWords(svc.source, 'invariant'))
          : kind === 'source'
            ? await sourceNames(svc)
            : await storeWords(svc.source, kind);
    // Ids are upper case and taken in either case: typed in lower case, offered in lower case, as the shell matches them.
    const ids = kind === 'plan' || kind === 'invariant' || kind === 'any-invariant' || kind === 'violation';
    const lower = ids && current !== current.toUpperCase();
    // A source named once (`extends fetch a b`) is named enough.
    const unnamed = kind === 'source' ? names.filter((n) => !words.slice(0, -1).includes(n)) : names;
    const offered = lower ? unnamed.map((w) => w.toLowerCase()) : unnamed;
    return offered.filter((w) => w.startsWith(current));
  } catch {
    return [];
  }
}
