#!/usr/bin/env node
// Thin shim (docs/architecture.md): calls main(argv) and sets the exit code.
// Every argument goes to the one parser in main, except the forms that miss
// their start-up budgets through it (docs/adr/0300-one-argument-parser.md):
// `--version` alone, answered here from package.json, and `agents mcp`,
// `agents validate --staged` and `agents guard hook`, started by
// dist/direct-main.js (which hands any other form back to main).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);

/** A module of the build, or undefined (exit 70, said once) when the package is not built. */
async function load(file) {
  try {
    return await import(file);
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(file.slice(3))) {
      process.stderr.write('agents is not built: run `npm run build` (npm ci does it) in the package folder.\n');
      process.exitCode = 70;
      return undefined;
    }
    throw error;
  }
}

/** The first command word, past the options before it (`agents --store DIR mcp`, as client configurations write it). */
function firstWord() {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--store') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  let code;
  const word = firstWord();
  if (word === 'mcp' || word === 'validate' || word === 'guard') {
    const direct = await load('../dist/direct-main.js');
    if (direct) code = await direct.directMain(args);
  }
  if (code === undefined && process.exitCode !== 70) {
    const cli = await load('../dist/cli.js');
    if (cli) code = await cli.main(args);
  }
  if (code !== undefined) process.exitCode = code;
}
