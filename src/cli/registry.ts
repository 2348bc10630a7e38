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
  /** The words that lead to it: `invariant`, or `invariant violation` for a group inside a group. */
  name: string;
  describe: string;
  /** Said when the group is given without a subcommand. */
  demand: string;
}

export const GROUPS: readonly CommandGroup[] = [
  { name: 'invariant', describe: 'Add, list, show, remove, diff and trace invariants; record violations', demand: 'Name a subcommand: add, list, show, remove, diff, log or violation.' },
  { name: 'invariant violation', describe: 'Record and list invariant violations of plans', demand: 'Name a subcommand: add or list.' },
  { name: 'plan', describe: 'Create plans from action templates, reconcile their invariants, track violations', demand: 'Name a subcommand: use, list, show, strategize, decisions or status.' },
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
  { group: 'invariant violation', command: 'add', describe: "Record a violation of an invariant of a plan's effective set", load: () => import('./commands/invariant-violation-add.ts') },
  { group: 'invariant violation', command: ['list', 'ls'], describe: 'List recorded violations', load: () => import('./commands/invariant-violation-list.ts') },
  { group: 'plan', command: 'use <action>', describe: 'Create a plan from an action template, promoting its invariants', load: () => import('./commands/plan-use.ts') },
  { group: 'plan', command: ['list', 'ls'], describe: 'List plans', load: () => import('./commands/plan-list.ts') },
  { group: 'plan', command: 'show <id>', describe: 'Show a plan: metadata, effective set with provenance, latest enforcement, violations, drift', load: () => import('./commands/plan-show.ts') },
  { group: 'plan', command: 'strategize <id>', describe: 'Run the Invariant Reconciliation Actor on a plan and record the run', load: () => import('./commands/plan-strategize.ts') },
  { group: 'plan', command: 'decisions <id>', describe: "Print a plan's decision tree", load: () => import('./commands/plan-decisions.ts') },
  { group: 'plan', command: 'status <id>', describe: 'The plan gate: exit 1 when a run failed, is incomplete or stale, an error invariant is unenforced, or an error violation stands', load: () => import('./commands/plan-status.ts') },
];

/** The group a group sits in (`invariant` for `invariant violation`), or undefined at the top. */
export function parentGroup(name: string): string | undefined {
  const at = name.lastIndexOf(' ');
  return at < 0 ? undefined : name.slice(0, at);
}

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
  for (let i = 0; i < args.length && words.length < 3; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  let group: string | undefined;
  let at = 0;
  for (; at < words.length; at++) {
    const deeper = group === undefined ? words[at]! : `${group} ${words[at]}`;
    if (!GROUPS.some((g) => g.name === deeper)) break;
    group = deeper;
  }
  const name = words[at];
  if (name === undefined) return undefined;
  return COMMANDS.find((c) => c.group === group && commandNames(c).includes(name));
}
