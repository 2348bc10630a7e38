#!/usr/bin/env node
// Thin shim (docs/architecture.md): runs the CLI's bundle and sets the exit code.
// Every argument goes to the one parser in main, except the forms that miss
// their start-up budgets through it (docs/adr/0300-one-argument-parser.md):
// `--version` alone, answered here from package.json, and `agents mcp`,
// `agents validate --staged` and `agents guard hook`, started by `directMain`
// (which hands any other form back to main).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
// A reader that stops early (`agents … | head`) closes the pipe: end as a program stopped by SIGPIPE does, without a trace.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const { loadBundle, refreshCache, startsDirectly } = await import('./load-bundle.js');
  const file = fileURLToPath(new URL('../dist/agents.cjs', import.meta.url));
  const direct = startsDirectly(args);
  let loaded;
  try {
    loaded = loadBundle(file, { direct });
  } catch (error) {
    if (error?.code !== 'ENOENT') throw error;
    process.stderr.write('agents is not built: run `npm run build` (npm ci does it) in the package folder.\n');
    process.exitCode = 70;
  }
  if (loaded) {
    refreshCache(loaded);
    let code;
    if (direct) code = await loaded.exports.directMain(args);
    code ??= await loaded.exports.main(args);
    process.exitCode = code;
  }
}
