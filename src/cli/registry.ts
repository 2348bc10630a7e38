import type { CommandSpec } from './command.ts';

/**
 * Every command, as yargs lists it in help, with its module loaded on demand.
 * Start-up pays only for yargs and this table: a command's module (and what it
 * imports: the store reader, yaml, the validators, git) is loaded only when
 * that command runs. `command` and `describe` repeat the module's own (a test
 * keeps them equal).
 */
export interface LazyCommand {
  /** The group it belongs to (`invariant`), or none for a top-level command. */
  group?: string;
  command: string | readonly string[];
  describe: string;
  load: () => Promise<{ default: CommandSpec<never> }>;
}

export interface CommandGroup {
  name: string;
  describe: string;
  /** Said when the group is given without a subcommand. */
  demand: string;
}

export const GROUPS: readonly CommandGroup[] = [
  { name: 'invariant', describe: 'Add, list, show, remove, diff and trace invariants', demand: 'Name a subcommand: add, list, show, remove, diff or log.' },
];

export const COMMANDS: readonly LazyCommand[] = [
  { command: 'init', describe: 'Create a store (.agents/ at the top of the git repository)', load: () => import('./commands/init.ts') },
  { group: 'invariant', command: 'add [text..]', describe: 'Add an invariant to exactly one scope', load: () => import('./commands/invariant-add.ts') },
  { group: 'invariant', command: ['list [pattern]', 'ls'], describe: 'List invariants, or the effective set of a project or plan', load: () => import('./commands/invariant-list.ts') },
  { group: 'invariant', command: 'show <id>', describe: 'Show everything about one invariant, and where it applies', load: () => import('./commands/invariant-show.ts') },
  { group: 'invariant', command: ['remove <id>', 'rm'], describe: 'Delete an invariant (asks first unless --yes)', load: () => import('./commands/invariant-remove.ts') },
  { group: 'invariant', command: 'diff [range]', describe: 'What changed in the effective sets between two revisions (A..B, A...B, A, or HEAD against the working tree)', load: () => import('./commands/invariant-diff.ts') },
  { group: 'invariant', command: 'log <id>', describe: "One invariant's history from git: commits, authors, dates, text changes, moves and its removal", load: () => import('./commands/invariant-log.ts') },
  { command: 'tui', describe: 'Browse, filter, add and remove invariants in the terminal UI', load: () => import('./commands/tui.ts') },
  { command: 'validate [paths..]', describe: 'Check the store: YAML, schemas, ids, layout, duplicates, shadows, references', load: () => import('./commands/validate.ts') },
];

/** The names a command answers to: "list" and "ls" for `['list [pattern]', 'ls']`. */
export function commandNames(c: Pick<LazyCommand, 'command'>): string[] {
  const forms = typeof c.command === 'string' ? [c.command] : [...c.command];
  return forms.map((f) => f.split(' ')[0]!);
}

/** Global options that take a value (so the word after them is not a command). */
const VALUE_OPTIONS = new Set(['--store', '--format']);

/**
 * The command `args` most likely name, from their first words. Only a guess
 * to load one module before parsing: yargs still parses everything, and a
 * wrong guess costs a second parse, never a wrong result.
 */
export function guessCommand(args: readonly string[]): LazyCommand | undefined {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  const [first, second] = words;
  if (first === undefined) return undefined;
  if (GROUPS.some((g) => g.name === first)) {
    return second === undefined ? undefined : COMMANDS.find((c) => c.group === first && commandNames(c).includes(second));
  }
  return COMMANDS.find((c) => c.group === undefined && commandNames(c).includes(first));
}
