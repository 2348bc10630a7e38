#!/usr/bin/env node
// Thin shim (docs/architecture.md): calls main(argv, io) and sets the exit code.
// `--version` and `--help` are answered here, before any module of the tool is
// loaded (`--help` from the text the build rendered with the parser), and
// `agents mcp` starts without the argument parser (dist/mcp-main.js), since an
// MCP client waits on its start-up, as do `agents invariant list` and
// `agents validate` in their plain forms (dist/plain-main.js); each hands
// anything unusual back to main.
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

/**
 * `agents --help`: the text the build rendered with the full parser
 * (dist/help.json) for this width; false when the build has none for it.
 */
function printHelp() {
  let help;
  try {
    help = JSON.parse(readFileSync(new URL('../dist/help.json', import.meta.url), 'utf8'));
  } catch {
    return false;
  }
  const text = help[String(Math.min(100, process.stdout.columns || 80))];
  if (typeof text !== 'string') return false;
  process.stdout.write(text);
  return true;
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h') && printHelp()) {
  // Answered from the build, before any module of the tool is loaded.
} else {
  let code;
  const m = mcpWord();
  if (m >= 0) {
    const mcp = await load('../dist/mcp-main.js');
    if (mcp) code = await mcp.mcpMain(args.filter((_, i) => i !== m));
  }
  // `agents invariant list`, `agents validate` and `agents invariant diff` in their plain forms, without the argument parser too (dist/plain-main.js).
  else if (args.includes('list') || args.includes('ls') || args.includes('validate') || args.includes('diff')) {
    const plain = await load('../dist/plain-main.js');
    if (plain) code = await plain.plainMain(args);
  }
  if (code === undefined && process.exitCode !== 70) {
    const cli = await load('../dist/cli.js');
    if (cli) code = await cli.main(args);
  }
  if (code !== undefined) process.exitCode = code;
}
