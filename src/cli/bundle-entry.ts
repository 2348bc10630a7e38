import type { CliIo } from './io.ts';

/**
 * What bin/agents.js runs: the parser's `main` and the direct starts, in one
 * CommonJS bundle whose compiled code is kept between runs
 * (docs/adr/0302-cli-bundle-with-code-cache.md). `main` is imported when
 * called, so that a direct start never evaluates yargs and the command table.
 */
export { directMain } from './direct-main.ts';
export { fullModules } from './full-modules.ts';

export async function main(args: readonly string[], io?: CliIo): Promise<number> {
  return (await import('./main.ts')).main(args, io);
}
