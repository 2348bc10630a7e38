#!/usr/bin/env node
// Thin shim (docs/architecture.md): runs the CLI's bundle and sets the exit code.
// Every argument goes to the one parser in main, except the forms that miss
// their start-up budgets through it (docs/adr/0300-one-argument-parser.md):
// `--version` alone, answered here from package.json, and `agents mcp`,
// `agents validate --staged` and `agents guard hook`, started by `directMain`
// (which hands any other form back to main); the two hooks each from a bundle
// of its own (docs/adr/0508-the-guard-hook-bundle.md,
// docs/adr/0512-the-commit-hook-bundle.md). CommonJS (bin/package.json), as
// the bundle is: a run never starts Node's ES module loader
// (docs/adr/0302-cli-bundle-with-code-cache.md).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);

async function run() {
  const { loadBundle, refreshCache, startsAsHook, startsDirectly } = require('./load-bundle.js');
  const load = (name, options) => {
    try {
      const loaded = loadBundle(join(__dirname, '..', 'dist', name), options);
      refreshCache(loaded);
      return loaded;
    } catch (error) {
      if (error?.code !== 'ENOENT') throw error;
      process.stderr.write('agents is not built: run `npm run build` (npm ci does it) in the package folder.\n');
      process.exitCode = 70;
      return undefined;
    }
  };
  let code;
  // `agents guard hook` and `agents validate --staged` each have a bundle of their own (docs/adr/0508, 0512); any
  // form it does not take goes on as every other command does.
  const hookBundle = startsAsHook(args);
  if (hookBundle !== undefined) {
    const hook = load(hookBundle);
    if (hook === undefined) return;
    code = await hook.exports.hookMain(args);
    if (code !== undefined) {
      process.exitCode = code;
      return;
    }
  }
  const direct = startsDirectly(args);
  const loaded = load('agents.cjs', { direct });
  if (loaded === undefined) return;
  if (direct) code = await loaded.exports.directMain(args);
  code ??= await loaded.exports.main(args);
  process.exitCode = code;
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // A reader that stops early closes the pipe: end as a program stopped by SIGPIPE does, without a trace
  // (the bundle's runs do the same where they first write: src/cli/io.ts).
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(141);
    // Any other failure (a full disk) is said in one line with exit 2, as the bundle's runs say it.
    process.stderr.write(
      `error: cannot write the output: ${error.message}\nhint: Make room where the output goes, then run the command again.\n`,
    );
    process.exit(2);
  });
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  // main reports every error it meets; anything else is left to Node, which shows it and exits with 1.
  run();
}
