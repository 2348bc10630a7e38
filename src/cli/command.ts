import type { Argv } from 'yargs';
import type { CliContext } from './context.ts';

/** One CLI command: its yargs wiring and what it runs once the arguments are parsed. */
export interface CommandSpec<A = Record<string, unknown>> {
  command: string | string[];
  describe: string;
  builder: (y: Argv) => Argv;
  /** Returns the exit code. */
  run: (argv: A, ctx: CliContext) => Promise<number>;
}

export function defineCommand<A>(spec: CommandSpec<A>): CommandSpec<A> {
  return spec;
}
