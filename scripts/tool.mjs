// Runs a maintainer tool (Stryker, changesets) from tools/, a package of its
// own kept out of the devDependencies: installing this repository from git,
// as the pre-commit framework does for every user of the hook, then fetches
// only what the build and the tests need (CONTRIBUTING.md, "Maintainer tools").
//
//   node scripts/tool.mjs stryker run …      (npm run mutate)
//   node scripts/tool.mjs changeset …        (npm run changeset)
//
// tools/ is installed from its lock file (npm ci) on first use, and again
// whenever tools/package.json or tools/package-lock.json change.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = join(root, 'tools');
const [bin, ...args] = process.argv.slice(2);
const known = new Set(['stryker', 'changeset']);
if (!known.has(bin)) {
  process.stderr.write(`tool.mjs: no maintainer tool "${bin ?? ''}": one of ${[...known].join(', ')}.\n`);
  process.exit(2);
}

const digest = createHash('sha256')
  .update(readFileSync(join(tools, 'package.json')))
  .update(readFileSync(join(tools, 'package-lock.json')))
  .digest('hex');
const stamp = join(tools, 'node_modules', '.installed-from');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
  process.stderr.write('Installing the maintainer tools from tools/package-lock.json (once) …\n');
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: tools,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (npm.status !== 0) {
    process.stderr.write('tool.mjs: `npm ci` in tools/ failed (above); nothing was run.\n');
    process.exit(npm.status ?? 1);
  }
  writeFileSync(stamp, digest);
}

// From the repository's root: the tools read its configuration (stryker.config.mjs, .changeset/)
// and resolve the repository's own vitest from its node_modules.
const run = spawnSync(join(tools, 'node_modules', '.bin', bin), args, { cwd: root, stdio: 'inherit' });
if (run.error) {
  process.stderr.write(`tool.mjs: could not run ${bin}: ${run.error.message}\n`);
  process.exit(1);
}
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
