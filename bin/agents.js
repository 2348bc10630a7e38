#!/usr/bin/env node
// Thin shim (docs/architecture.md): calls main(argv, io) and sets the exit code.
// Every argument, `--version` and `--help` included, goes to the one parser in main.
let cli;
try {
  cli = await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
  process.stderr.write('agents is not built: run `npm run build` (npm ci does it) in the package folder.\n');
  process.exitCode = 70;
}
if (cli) process.exitCode = await cli.main(process.argv.slice(2));
