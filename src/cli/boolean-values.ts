import type { Argv } from 'yargs';
import { UsageError } from '../core/errors.ts';

/**
 * Refuses a value written to an on/off option (`--strict=yes`, `--fix=1`, `--no-cache=0`), before the command
 * runs. yargs reads `--flag=true` and `--flag=false` as such, and every other value as false without a word, so a
 * hook or CI step written `--strict=yes` silently ran without it. Those two stay accepted; anything else is a usage
 * error naming the option and the value (docs/commands.md, "Options"). `parser` is the command's, once its builder
 * has added its options; `args` the run's words (none after `--`, which are not options).
 */
export function refuseBooleanValues(parser: Argv, args: readonly string[]): void {
  const booleans = new Set((parser as unknown as { getOptions(): { boolean: string[] } }).getOptions().boolean);
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  for (const name of [...booleans]) booleans.add(kebab(name));
  for (const a of args) {
    if (a === '--') break;
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
