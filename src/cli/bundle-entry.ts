import { currentFolder } from '../store/current-folder.ts';
import { processIo, type CliIo } from './io.ts';
import { reportBeforeParse } from './report.ts';

/**
 * What bin/agents.js runs: the parser's `main` and the direct starts, in one
 * CommonJS bundle whose compiled code is kept between runs
 * (docs/adr/0302-cli-bundle-with-code-cache.md). `main` is imported when
 * called, so that a direct start never evaluates yargs and the command table.
 */
export { directMain } from './direct-main.ts';
export { fullModules } from './full-modules.ts';

export async function main(args: readonly string[], io?: CliIo): Promise<number> {
  if (io === undefined) {
    // The parser reads the current folder as it loads: a removed one is said here, before it would end in a trace.
    try {
      currentFolder();
    } catch (error) {
      return reportBeforeParse(processIo(), error, args);
    }
  }
  return (await import('./main.ts')).main(args, io);
}
