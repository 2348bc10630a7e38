import type { Argv } from 'yargs';
import type { Guard } from '../core/model.ts';
import { docsRef } from '../core/docs-link.ts';

/** `--guard-write GLOB`, `--guard-command RE`, `--guard-content RE`, `--guard-tool NAME` (each repeatable) of `invariant add` and `edit`. */
export interface GuardArgs {
  'guard-write'?: string[];
  'guard-command'?: string[];
  'guard-content'?: string[];
  'guard-tool'?: string[];
}

export function guardOptions<T>(y: Argv<T>, verb: string): Argv<T> {
  const list = (describe: string) => ({ type: 'string' as const, array: true, nargs: 1, requiresArg: true, describe });
  // The guide's address goes below the options, on a line of its own: in an option's column, --help breaks it in two.
  return y
    .epilog(`Guards: ${docsRef('guard.md')}`)
    .option('guard-write', list(`${verb} a glob (from the repository top) of files an agent may not write (repeatable; see Guards below)`))
    .option('guard-command', list(`${verb} a regular expression (RE2) a shell command may not match (repeatable)`))
    .option('guard-content', list(`${verb} a regular expression (RE2) the text an agent writes may not contain (repeatable)`))
    .option('guard-tool', list(`${verb} a tool name an agent may not call (repeatable)`));
}

/** The guard the flags give, or undefined when none is given. */
export function guardFromArgs(argv: GuardArgs): Guard | undefined {
  const guard: Guard = {};
  for (const kind of ['write', 'command', 'content', 'tool'] as const) {
    const v = argv[`guard-${kind}`];
    if (v !== undefined && v.length > 0) guard[kind] = [...new Set(v.map(String))];
  }
  return Object.keys(guard).length > 0 ? guard : undefined;
}
