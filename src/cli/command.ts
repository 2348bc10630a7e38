import type { Argv } from 'yargs';
import type { CliContext } from './context.ts';

/**
 * One CLI command's module: its options and what it runs once the arguments
 * are parsed. Its words and description are in the command table
 * (src/cli/registry.ts), which help and the parser read without loading it.
 */
export interface CommandSpec<A = Record<string, unknown>> {
  builder: (y: Argv) => Argv;
  /**
   * Options that take a comma-separated list of these names (`--client claude,codex`), which yargs cannot hold to
   * `choices`: shell completion offers them as it offers an option's choices.
   */
  lists?: Readonly<Record<string, readonly string[]>>;
  /** Returns the exit code. */
  run: (argv: A, ctx: CliContext) => Promise<number>;
}

export function defineCommand<A>(spec: CommandSpec<A>): CommandSpec<A> {
  return spec;
}
