#!/usr/bin/env node
// Thin shim (docs/architecture.md): calls main(argv) and sets the exit code.
// Every argument goes to the one parser in main, except two forms that miss
// their start-up budgets through it (docs/adr/0300-one-argument-parser.md):
// `--version` alone, answered here from package.json, and `agents mcp` with
// only the options its start reads, started by dist/mcp-main.js (which hands
// anything else back to main).
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

/**
 * Where the word `mcp` is when only options the MCP start-up reads come
 * before it (`agents --store DIR mcp`, as client configurations write it), or -1.
 */
function mcpWord() {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === 'mcp') return i;
    if (a === '--store') i++;
    else if (!a.startsWith('--store=') && a !== '--no-color') return -1;
  }
  return -1;
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  let code;
  const m = mcpWord();
  if (m >= 0) {
    const mcp = await load('../dist/mcp-main.js');
    if (mcp) code = await mcp.mcpMain(args.filter((_, i) => i !== m));
  }
  if (code === undefined && process.exitCode !== 70) {
    const cli = await load('../dist/cli.js');
    if (cli) code = await cli.main(args);
  }
  if (code !== undefined) process.exitCode = code;
}
