import type { Argv } from 'yargs';
import { type CommandHint, missingValue } from '../core/errors.ts';
import { parserOptions } from './parser-options.ts';

/** The options that name a scope, or the invariant a violation is of, and what each takes, for the hint. */
const NAMING: Readonly<Record<string, CommandHint>> = {
  project: (agents) => `a project name (\`${agents} project list\` shows them)`,
  plan: (agents) => `a plan id or a unique prefix of one (\`${agents} plan list\` shows them)`,
  action: (agents) => `an action template, NS/NAME (\`${agents} action list\` shows them)`,
  invariant: (agents) => `an invariant id or a unique prefix of one (\`${agents} plan show PLAN\` shows the plan's)`,
};

/**
 * Refuses an empty scope name (`--project ""`, `--plan=`, an unset shell variable: `--project "$APP"`) as the
 * missing value it is (docs/json-output.md, `missing-value`), naming the option, whichever command takes it; a
 * name's own rule would say only "project is empty". `parser` is the command's, once its builder has added its
 * options; `args` the run's words (none after `--`, which are not options).
 */
export function refuseEmptyNames(parser: Argv, args: readonly string[]): void {
  const { key } = parserOptions(parser);
  for (const [i, a] of args.entries()) {
    if (a === '--') return;
    const m = /^--([a-z]+)(?:=(.*))?$/s.exec(a);
    if (!m || !Object.hasOwn(NAMING, m[1]!) || !Object.hasOwn(key, m[1]!)) continue;
    const value = m[2] ?? args[i + 1];
    if (value === undefined || value.trim() !== '') continue;
    throw missingValue(
      `--${m[1]} is empty`,
      (agents) => `Give ${NAMING[m[1]!]!(agents)}; an unset shell variable gives an empty one.`,
      m[1]!,
    );
  }
}
