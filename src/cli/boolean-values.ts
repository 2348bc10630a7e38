import type { Argv } from 'yargs';
import { UsageError } from '../core/errors.ts';
import { optionWithValue } from './option-value.ts';
import { parserOptions } from './parser-options.ts';

/**
 * Refuses a value written to an on/off option (`--strict=yes`, `--fix=1`, `--no-cache=0`), before the command
 * runs. yargs reads `--flag=true` and `--flag=false` as such, and every other value as false without a word, so a
 * hook or CI step written `--strict=yes` silently ran without it. Those two stay accepted; anything else is a usage
 * error naming the option and the value (docs/commands.md, "Options"). `parser` is the command's, once its builder
 * has added its options; `args` the run's words (none after `--`, which are not options).
 * The `--no-` form of an option that takes a value (`--no-store`, `--no-project`) is refused as the unknown option
 * it is: yargs would hand the command `false` for a path, a name or a list.
 */
export function refuseBooleanValues(parser: Argv, args: readonly string[]): void {
  const options = parserOptions(parser);
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const booleans = new Set(options.boolean.flatMap((name) => [name, kebab(name)]));
  const valued = new Set(Object.keys(options.key).flatMap((name) => [name, kebab(name)]));
  for (const name of booleans) valued.delete(name);
  for (const a of args) {
    if (a === '--') break;
    const negatedValued = /^--no-([^=]+)/s.exec(a);
    if (negatedValued && valued.has(negatedValued[1]!)) {
      const name = negatedValued[1]!;
      throw new UsageError(
        `unknown option --no-${name}`,
        `--${name} takes a value and has no --no- form: give ${optionWithValue(name)}, or leave it out.`,
        { arguments: [`--no-${name}`], suggestions: [] },
        'unknown-option',
      );
    }
    const m = /^--(no-)?([^=]+)=(.*)$/s.exec(a);
    if (!m || !booleans.has(m[2]!)) continue;
    const [, negated, name, value] = m;
    if (!negated && (value === 'true' || value === 'false')) continue;
    const flag = `--${negated ?? ''}${name}`;
    throw new UsageError(
      negated
        ? `${flag} takes no value, not ${JSON.stringify(value)}`
        : `${flag} takes no value but true or false, not ${JSON.stringify(value)}`,
      negated
        ? `Give it alone: ${flag}.`
        : `Give it alone to turn it on (--${name}), or leave it out; --${name}=true and --${name}=false are the only values it takes.`,
      { option: name, value },
      'invalid-value',
    );
  }
}
