import { canPrompt, processIo, useColor, type CliIo, type OutputFormat } from './io.ts';
import { prepareFormat } from './render.ts';
import { report } from './report.ts';

/** The options `invariant list` takes in its plain forms, and whether each takes a value. */
const LIST_OPTIONS: Readonly<Record<string, 'flag' | 'value'>> = {
  effective: 'flag',
  all: 'flag',
  global: 'flag',
  project: 'value',
  plan: 'value',
  action: 'value',
};

/**
 * `agents invariant list` (or `ls`) in its plain forms, started without the
 * argument parser: an agent or a hook runs `list --effective` at the start of
 * its work, and the parser is a third of that run's start-up
 * (docs/performance.md). It takes the global options `--store`, `--format`,
 * `--no-color` and `--no-input`, the list options `--effective`, `--all`,
 * `--global`, `--project P`, `--plan ID`, `--action NS/NAME` (each at most
 * once, a value as the next word or after `=`) and one pattern. Anything else
 * (`--help`, `-i`, `--`, an option given twice, a value that starts with
 * `-`, the words `true` or `false`, any other word or option) returns
 * undefined, and the full parser of `main` answers as for every command.
 */
export async function listMain(args: readonly string[], io: CliIo = processIo()): Promise<number | undefined> {
  const argv: Record<string, string | boolean> = {};
  const global: { store?: string; format?: OutputFormat; noColor?: boolean; noInput?: boolean } = {};
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) {
      if (a === 'true' || a === 'false') return undefined;
      words.push(a);
      continue;
    }
    if (!a.startsWith('--')) return undefined;
    const eq = a.indexOf('=');
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    let value: string | undefined;
    const takeValue = (): boolean => {
      value = eq < 0 ? args[++i] : a.slice(eq + 1);
      return value !== undefined && value !== '' && !value.startsWith('-');
    };
    if (name === 'no-color' || name === 'no-input') {
      if (eq >= 0) return undefined;
      const key = name === 'no-color' ? 'noColor' : 'noInput';
      if (global[key]) return undefined;
      global[key] = true;
    } else if (name === 'store' || name === 'format') {
      if (global[name] !== undefined || !takeValue()) return undefined;
      if (name === 'format') {
        if (value !== 'text' && value !== 'json' && value !== 'yaml') return undefined;
        global.format = value;
      } else global.store = value!;
    } else if (Object.hasOwn(LIST_OPTIONS, name) && words.length >= 2) {
      // The list options after the command's words only.
      if (argv[name] !== undefined) return undefined;
      if (LIST_OPTIONS[name] === 'flag') {
        if (eq >= 0) return undefined;
        argv[name] = true;
      } else {
        if (!takeValue()) return undefined;
        argv[name] = value!;
      }
    } else return undefined;
  }
  if (words.length < 2 || words.length > 3 || words[0] !== 'invariant' || (words[1] !== 'list' && words[1] !== 'ls')) return undefined;
  if (words[2] !== undefined) argv.pattern = words[2];
  const format = global.format ?? 'text';
  const color = useColor(io, global.noColor === true);
  try {
    const [{ default: spec }] = await Promise.all([import('./commands/invariant-list.ts'), prepareFormat(format)]);
    return await spec.run(argv as never, { io, store: global.store, format, color, interactive: canPrompt(io, global.noInput === true) });
  } catch (error) {
    return report(io, error, color, format);
  }
}
