import type { Options } from 'yargs';
import type { StoreWordKind } from '../service/invariant-service.ts';
import type { CommandSpec } from './command.ts';

/**
 * Every command, as yargs lists it in help, with its module loaded on demand.
 * This table is the one place a command's words and description are written:
 * start-up pays only for yargs and this table, and a command's module (its
 * options, its run, and what it imports: the store reader, yaml, the
 * validators, git) is loaded by yargs only once the command is chosen.
 */
export interface LazyCommand {
  /** The group it belongs to (`invariant`), or none for a top-level command. */
  group?: string;
  command: string | readonly string[];
  describe: string;
  /**
   * What its first argument names in the store (each argument of a variadic one, `[source..]`), for shell completion
   * (src/cli/completion.ts); `paths`: its arguments are files and folders, which the shell completes.
   */
  completes?: StoreWordKind | 'paths';
  load: () => Promise<{ default: CommandSpec<never> }>;
}

export interface CommandGroup {
  /** The words that lead to it: `invariant`, or `invariant violation` for a group inside a group. */
  name: string;
  describe: string;
}

export const GROUPS: readonly CommandGroup[] = [
  {
    name: 'invariant',
    describe: 'Add, list, show, edit, move, remove, diff, log and waive invariants; record violations',
  },
  {
    name: 'invariant violation',
    describe: 'Record, list and resolve invariant violations of plans',
  },
  {
    name: 'plan',
    describe: 'Create plans from action templates, reconcile their invariants, track violations',
  },
  { name: 'action', describe: 'Create and list action templates' },
  { name: 'project', describe: 'Create, list and remove projects' },
  { name: 'extends', describe: 'Pin and fetch the policy sources this store inherits from' },
  {
    name: 'guard',
    describe: "Enforce invariants' guards in agents' tool hooks and over git diffs",
  },
];

export const COMMANDS: readonly LazyCommand[] = [
  { command: 'init', describe: 'Create a store (.agents/ at the top of the git repository)', load: () => import('./commands/init.ts') },
  {
    command: 'import [paths..]',
    completes: 'paths',
    describe: 'Turn the rules of AGENTS.md, CLAUDE.md, Cursor and other instruction files into invariants (review, then write)',
    load: () => import('./commands/import.ts'),
  },
  {
    group: 'invariant',
    command: 'add [text..]',
    describe: 'Add an invariant to exactly one scope',
    load: () => import('./commands/invariant-add.ts'),
  },
  {
    group: 'invariant',
    command: ['list [pattern]', 'ls'],
    describe: 'List invariants, or the effective set of a project or plan',
    load: () => import('./commands/invariant-list.ts'),
  },
  {
    group: 'invariant',
    command: 'show <id>',
    completes: 'any-invariant',
    describe: 'Show everything about one invariant, and where it applies',
    load: () => import('./commands/invariant-show.ts'),
  },
  {
    group: 'invariant',
    command: 'edit <id>',
    completes: 'invariant',
    describe: 'Change an invariant: text, severity, tags, rationale, active, overrides (a form in a terminal without flags)',
    load: () => import('./commands/invariant-edit.ts'),
  },
  {
    group: 'invariant',
    command: ['move <id>', 'mv'],
    completes: 'invariant',
    describe: 'Move an invariant to another scope, keeping its id',
    load: () => import('./commands/invariant-move.ts'),
  },
  {
    group: 'invariant',
    command: ['remove <id>', 'rm'],
    completes: 'invariant',
    describe: 'Delete an invariant (asks first unless --yes)',
    load: () => import('./commands/invariant-remove.ts'),
  },
  {
    group: 'invariant',
    command: 'diff [range]',
    describe: 'What changed in the effective sets between two revisions (A..B, A...B, A, or HEAD against the working tree)',
    load: () => import('./commands/invariant-diff.ts'),
  },
  {
    group: 'invariant',
    command: 'waive <id>',
    completes: 'any-invariant',
    describe: 'Record a time-boxed exception for an invariant in a plan or project',
    load: () => import('./commands/invariant-waive.ts'),
  },
  {
    group: 'invariant',
    command: 'log <id>',
    completes: 'invariant',
    describe: "One invariant's history from git: commits, authors, dates, text changes, moves and its removal",
    load: () => import('./commands/invariant-log.ts'),
  },
  {
    command: 'export',
    describe: "Write effective sets into agents' instruction files (AGENTS.md, CLAUDE.md, Copilot, Cursor and more)",
    load: () => import('./commands/export.ts'),
  },
  {
    command: 'which <paths..>',
    completes: 'paths',
    describe: 'Print the project(s) whose paths (project.yaml) hold each file or folder',
    load: () => import('./commands/which.ts'),
  },
  {
    command: 'mcp',
    describe: 'Serve the store to AI agents over the Model Context Protocol (stdio): effective sets, invariants, plan status, violations',
    load: () => import('./commands/mcp.ts'),
  },
  { command: 'tui', describe: 'Browse, filter, add and remove invariants in the terminal UI', load: () => import('./commands/tui.ts') },
  {
    command: 'validate [paths..]',
    completes: 'paths',
    describe: 'Check the store: YAML, schemas, ids, layout, repeated texts, references',
    load: () => import('./commands/validate.ts'),
  },
  {
    group: 'invariant violation',
    command: 'add',
    describe: "Record a violation of an invariant of a plan's effective set",
    load: () => import('./commands/invariant-violation-add.ts'),
  },
  {
    group: 'invariant violation',
    command: ['list', 'ls'],
    describe: 'List recorded violations',
    load: () => import('./commands/invariant-violation-list.ts'),
  },
  {
    group: 'invariant violation',
    command: 'resolve <id>',
    completes: 'violation',
    describe: 'Mark a violation resolved (the record is kept)',
    load: () => import('./commands/invariant-violation-resolve.ts'),
  },
  {
    group: 'plan',
    command: 'use <action>',
    completes: 'template',
    describe: 'Create a plan from an action template, promoting its invariants',
    load: () => import('./commands/plan-use.ts'),
  },
  { group: 'plan', command: ['list', 'ls'], describe: 'List plans', load: () => import('./commands/plan-list.ts') },
  {
    group: 'plan',
    command: 'show <id>',
    completes: 'plan',
    describe: 'Show a plan: metadata, effective set with provenance, latest enforcement, violations, drift',
    load: () => import('./commands/plan-show.ts'),
  },
  {
    group: 'plan',
    command: 'sync <id>',
    completes: 'plan',
    describe: "Apply an action template's changes to a plan's promoted invariants (asks first unless --yes)",
    load: () => import('./commands/plan-sync.ts'),
  },
  {
    group: 'plan',
    command: ['remove <id>', 'rm'],
    completes: 'plan',
    describe: 'Remove a finished plan with its invariants, records and waivers (asks first unless --yes)',
    load: () => import('./commands/plan-remove.ts'),
  },
  {
    group: 'plan',
    command: 'strategize <id>',
    completes: 'plan',
    describe: "Ask an actor (a command, an AI agent, an LLM or you) how each of a plan's invariants is to be enforced, and record the run",
    load: () => import('./commands/plan-strategize.ts'),
  },
  {
    group: 'plan',
    command: 'decisions <id>',
    completes: 'plan',
    describe: "Print a plan's decision tree",
    load: () => import('./commands/plan-decisions.ts'),
  },
  {
    group: 'plan',
    command: 'status <id>',
    completes: 'plan',
    describe:
      'The plan gate: exit 1 when the plan was never reconciled, a run failed, is incomplete or stale, an error invariant is unenforced, or an error violation stands',
    load: () => import('./commands/plan-status.ts'),
  },
  {
    group: 'action',
    command: 'add <action>',
    describe: 'Create an action template (actions/NS/NAME/action.yaml)',
    load: () => import('./commands/action-add.ts'),
  },
  {
    group: 'action',
    command: ['list', 'ls'],
    describe: 'List action templates with their invariant and plan counts',
    load: () => import('./commands/action-list.ts'),
  },
  {
    group: 'project',
    command: 'add <name>',
    describe: 'Create a project (projects/NAME/project.yaml)',
    load: () => import('./commands/project-add.ts'),
  },
  {
    group: 'project',
    command: ['remove <name>', 'rm'],
    completes: 'project',
    describe: 'Remove a project that holds no invariants, waivers or paths and that no plan targets',
    load: () => import('./commands/project-remove.ts'),
  },
  {
    group: 'project',
    command: ['list', 'ls'],
    describe: 'List projects with their invariant and plan counts',
    load: () => import('./commands/project-list.ts'),
  },
  {
    group: 'extends',
    command: 'fetch [source..]',
    completes: 'source',
    describe: 'Fetch the pinned commits of the policy sources into the cache (one shallow fetch each)',
    load: () => import('./commands/extends-fetch.ts'),
  },
  {
    group: 'extends',
    command: 'update [source..]',
    completes: 'source',
    describe: 'Move the pins of the policy sources to what their refs name now, and show what that changes',
    load: () => import('./commands/extends-update.ts'),
  },
  {
    group: 'guard',
    command: 'hook',
    describe: "Decide one agent tool call against the store's guards (the command a client's PreToolUse/BeforeTool hook runs)",
    load: () => import('./commands/guard-hook.ts'),
  },
  {
    group: 'guard',
    command: 'install',
    describe: "Write the guard hook into agent clients' project settings",
    load: () => import('./commands/guard-install.ts'),
  },
  {
    group: 'guard',
    command: 'check [range]',
    describe: 'Check a git diff (staged, or a revision range) against the guards',
    load: () => import('./commands/guard-check.ts'),
  },
  {
    group: 'guard',
    command: 'try',
    describe: 'Show which invariant would decide an action, and why (for writing guards)',
    load: () => import('./commands/guard-try.ts'),
  },
  {
    group: 'plan',
    command: 'activate [id]',
    completes: 'plan',
    describe: 'Show or set the active plan: the one the guard hook records violations in (kept outside the store)',
    load: () => import('./commands/plan-activate.ts'),
  },
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

/** The options every command takes, as main's parser is given them: the one place they are written. */
export const GLOBAL_OPTIONS = {
  store: {
    type: 'string',
    describe: 'store folder (default: .agents/ found upwards; env AGENTS_STORE)',
    requiresArg: true,
    global: true,
  },
  format: { choices: ['text', 'json', 'yaml'], requiresArg: true, describe: 'output format', global: true },
  input: { type: 'boolean', default: true, describe: 'allow prompts (--no-input: never prompt)', global: true },
  color: { type: 'boolean', default: true, describe: 'colour output (--no-color, or env NO_COLOR)', global: true },
  quiet: { type: 'boolean', describe: 'no progress display on stderr during long work', global: true },
} as const satisfies Record<string, Options>;

/** Every option a command line may hold before its command, by its long name; the on/off ones also as `--no-…`. */
export const GLOBAL_OPTION_NAMES: readonly string[] = [...Object.keys(GLOBAL_OPTIONS), 'version', 'help'];

/** Global options that take a value (so the word after them is not a command). */
const VALUE_OPTIONS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => 'requiresArg' in o)
    .map(([name]) => `--${name}`),
);

/**
 * What a group given without a subcommand (`agents plan`) is told: its subcommands, from the table above (so a
 * command added to the group is named), each by its first name.
 */
export function groupDemand(group: Pick<CommandGroup, 'name'>): string {
  const names = [
    ...COMMANDS.filter((c) => c.group === group.name).map((c) => commandNames(c)[0]!),
    ...GROUPS.filter((g) => parentGroup(g.name) === group.name).map((g) => g.name.slice(g.name.lastIndexOf(' ') + 1)),
  ];
  return `Name a subcommand: ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}.`;
}

/** The names a command word may take at one level: the commands and groups of `group` (the top level when undefined). */
export function namesAt(group: string | undefined): string[] {
  const names: string[] = [];
  for (const c of COMMANDS) if (c.group === group) names.push(...commandNames(c));
  for (const g of GROUPS) if (parentGroup(g.name) === group) names.push(g.name.slice(g.name.lastIndexOf(' ') + 1));
  if (group === undefined) names.push('completion');
  return names;
}

/** Whether a global option as written (`--store`) takes the next word as its value. */
export function globalTakesValue(written: string): boolean {
  return VALUE_OPTIONS.has(written);
}

/**
 * Where the first command word of `args` is (`completion` in `agents --store DIR completion`): the first word that is
 * neither an option nor a global option's value, before any `--`; -1 when there is none.
 */
export function commandWordIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return -1;
    if (!a.startsWith('-')) return i;
    if (VALUE_OPTIONS.has(a) && !(args[i + 1] ?? '-').startsWith('-')) i++;
  }
  return -1;
}

/**
 * The first word of `args` that names no command where a command is
 * expected (`edit` in `invariant edit ID`), with the words before it; or
 * undefined when every command word is known. Words after a command are
 * its own arguments and are not looked at.
 */
export function unknownCommand(args: readonly string[]): { group: string | undefined; word: string; options: string[] } | undefined {
  let group: string | undefined;
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a.startsWith('-')) {
      options.push(a);
      // The value of a global option is not a command word (unless it is missing: the next word is a flag).
      if (VALUE_OPTIONS.has(a) && !(args[i + 1] ?? '-').startsWith('-')) i++;
      continue;
    }
    const deeper = group === undefined ? a : `${group} ${a}`;
    if (GROUPS.some((g) => g.name === deeper)) {
      group = deeper;
      continue;
    }
    return namesAt(group).includes(a) ? undefined : { group, word: a, options };
  }
  return undefined;
}
