// Runs a TypeScript file of this repository with Node 20 (no type stripping there):
// bundles it with esbuild into a temporary module, then imports it.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs FILE.ts [args...]');
  process.exit(2);
}
// Inside node_modules so that the bundle resolves the project's packages.
const cache = new URL('../node_modules/.cache/', import.meta.url).pathname;
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'run-ts-'));
const out = join(dir, 'entry.mjs');
await build({
  entryPoints: [resolve(entry)],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  jsx: 'automatic',
});
process.argv = [process.argv[0], resolve(entry), ...rest];
try {
  await import(pathToFileURL(out).href);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
