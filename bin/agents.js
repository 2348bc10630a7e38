#!/usr/bin/env node
// Thin shim (SPEC 10): calls main(argv, io) and sets the exit code.
// `--version` is answered here, before any module of the tool is loaded.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  let cli;
  try {
    cli = await import('../dist/cli.js');
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
      process.stderr.write('agents is not built: run `npm run build` (npm ci does it) in the package folder.\n');
      process.exitCode = 70;
    } else throw error;
  }
  if (cli) process.exitCode = await cli.main(args);
}
