// Bundles the CLI and the library with esbuild: one file to load at start-up,
// with the interactive (Ink) and git code split into chunks loaded on demand.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { writeValidators } from './gen-validators.mjs';

const started = Date.now();
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
writeValidators();
const result = await build({
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // CommonJS dependencies (ajv) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __agentsRequire } from 'node:module'; const require = __agentsRequire(import.meta.url);" },
  jsx: 'automatic',
  define: { 'process.env.DEV': '"false"' },
  // Ink imports react-devtools-core (not installed) only when DEV=true, which the define above rules out;
  // external, that import stays a never-taken dynamic import instead of failing the build.
  external: ['react-devtools-core'],
  // Which inputs each output holds: the start-up guard tests read it (Ink and React only in lazy chunks).
  metafile: true,
});
writeFileSync(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
if (process.argv.includes('--verbose')) console.log(`built dist/ in ${Date.now() - started} ms`);
