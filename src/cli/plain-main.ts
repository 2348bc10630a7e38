import type { CommandSpec } from './command.ts';
import { CliContext } from './context.ts';
import { canPrompt, processIo, useColor, type CliIo, type OutputFormat } from './io.ts';
import { prepareFormat } from './render.ts';
import { report } from './report.ts';

/**
 * A command taken here in its plain forms: its words, its options (a flag,
 * a flag with a `--no-` form, or an option with a value) and how many
 * positional words it takes after its words.
 */
interface PlainCommand {
  words: readonly (readonly string[])[];
  options: Readonly<Record<string, 'flag' | 'negatable' | 'value'>>;
  positional?: string;
  /** The positional takes any number of words (an array), not one. */
  many?: boolean;
  /** Options the parser refuses together (its usage error is the parser's to give). */
  conflicts?: readonly (readonly [string, string])[];
  load: () => Promise<{ default: CommandSpec<never> }>;
}

const PLAIN: readonly PlainCommand[] = [
  {
    words: [
      ['invariant', 'list'],
      ['invariant', 'ls'],
    ],
    options: { effective: 'flag', all: 'flag', global: 'flag', project: 'value', plan: 'value', action: 'value' },
    positional: 'pattern',
    load: () => import('./commands/invariant-list.ts'),
  },
  {
    // A pre-commit hook runs `validate --staged` (or `validate FILE…`) on every commit; --fix and
    // the github and sarif formats go to the full parser.
    words: [['validate']],
    positional: 'paths',
    many: true,
    options: { staged: 'flag', changed: 'flag', 'all-files': 'flag', verbose: 'flag', strict: 'flag', cache: 'negatable' },
    conflicts: [['staged', 'changed']],
    load: () => import('./commands/validate.ts'),
  },
  {
    // A review job runs `invariant diff A..B` on every pull request; --format markdown goes to the full parser.
    words: [['invariant', 'diff']],
    positional: 'range',
    options: { project: 'value', plan: 'value', 'all-projects': 'flag', staged: 'flag', 'exit-code': 'flag' },
    load: () => import('./commands/invariant-diff.ts'),
  },
];

const camel = (name: string) => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * `agents invariant list` (or `ls`), `agents validate` and `agents invariant
 * diff` in their plain forms, started without the argument parser: an agent
 * runs `list --effective` at the start of its work, a pre-commit hook runs
 * `validate --staged` on every commit and a review job `invariant diff A..B`
 * on every pull request, and loading and building the parser is a third of
 * such a run's start-up (docs/performance.md). Taken here: the global
 * options `--store`, `--format text|json|yaml`, `--no-color`,
 * `--no-input` and `--quiet`, anywhere; after the command's words, its options of the
 * table above (each at most once; a value as the next word or after `=`) and
 * its positional word. Anything else (`--help`, `-i`, `--`, an option given
 * twice, a value that starts with `-`, the words `true` or `false`, any
 * other word or option) returns undefined, and the full parser of `main`
 * answers as for every command.
 */
export async function plainMain(args: readonly string[], io: CliIo = processIo()): Promise<number | undefined> {
  const argv: Record<string, string | boolean> = {};
  const global: { store?: string; format?: OutputFormat; noColor?: boolean; noInput?: boolean; quiet?: boolean } = {};
  const words: string[] = [];
  let command: PlainCommand | undefined;
  /** The command once all its words have been seen. */
  const found = () => PLAIN.find((c) => c.words.some((w) => w.length <= words.length && w.every((word, i) => words[i] === word)));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) {
      if (a === 'true' || a === 'false') return undefined;
      words.push(a);
      continue;
    }
    if (!a.startsWith('--')) return undefined;
    const eq = a.indexOf('=');
    let name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    let value: string | undefined;
    const takeValue = (): boolean => {
      value = eq < 0 ? args[++i] : a.slice(eq + 1);
      return value !== undefined && value !== '' && !value.startsWith('-');
    };
    if (name === 'no-color' || name === 'no-input' || name === 'quiet') {
      if (eq >= 0) return undefined;
      const key = name === 'no-color' ? 'noColor' : name === 'no-input' ? 'noInput' : 'quiet';
      if (global[key]) return undefined;
      global[key] = true;
      continue;
    }
    if (name === 'store' || name === 'format') {
      if (global[name] !== undefined || !takeValue()) return undefined;
      if (name === 'format') {
        if (value !== 'text' && value !== 'json' && value !== 'yaml') return undefined;
        global.format = value;
      } else global.store = value!;
      continue;
    }
    // The command's own options, after its words only.
    command ??= found();
    if (!command || (eq >= 0 && command.options[name] !== 'value')) return undefined;
    let negated = false;
    if (!Object.hasOwn(command.options, name) && name.startsWith('no-') && command.options[name.slice(3)] === 'negatable') {
      name = name.slice(3);
      negated = true;
    }
    const kind = Object.hasOwn(command.options, name) ? command.options[name] : undefined;
    if (kind === undefined || argv[name] !== undefined) return undefined;
    if (kind === 'value') {
      if (!takeValue()) return undefined;
      argv[name] = value!;
    } else argv[name] = !negated;
    argv[camel(name)] = argv[name]!;
  }
  command = found();
  if (!command) return undefined;
  const length = command.words.find((w) => w.every((word, i) => words[i] === word))!.length;
  const rest = words.slice(length);
  if (rest.length > (command.positional ? (command.many ? Number.POSITIVE_INFINITY : 1) : 0)) return undefined;
  if (command.positional && rest.length > 0) (argv as Record<string, unknown>)[command.positional] = command.many ? rest : rest[0];
  if (command.conflicts?.some(([x, y]) => argv[x] !== undefined && argv[y] !== undefined)) return undefined;
  if (global.format !== undefined) argv.format = global.format;
  const format = global.format ?? 'text';
  const color = useColor(io, global.noColor === true);
  try {
    const [{ default: spec }] = await Promise.all([command.load(), prepareFormat(format)]);
    return await spec.run(
      argv as never,
      new CliContext({
        io,
        store: global.store,
        format,
        color,
        interactive: canPrompt(io, global.noInput === true),
        quiet: global.quiet === true,
      }),
    );
  } catch (error) {
    return report(io, error, color, format);
  }
}
