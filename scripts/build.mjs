// Bundles the CLI and the library with esbuild: one file to load at start-up,
// with the interactive (Ink) and git code split into chunks loaded on demand.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeValidators } from './gen-validators.mjs';
import { bundledPackages, renderNotices } from './third-party-notices.mjs';

/**
 * Resolves an import as esbuild would without the plugin (marked `real`, so the
 * plugin lets that lookup through), then hands the file to the plugin's `namespace`.
 */
async function intoNamespace(b, args, namespace) {
  const real = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
  if (real.errors.length > 0) return { errors: real.errors };
  return { path: real.path, namespace };
}

/**
 * An esbuild plugin that bundles the package `pkg` as a small module whose
 * default export is `body` (a function that may answer itself and otherwise
 * evaluates the real module through `real()`, a `require` that esbuild turns
 * into a lazily initialised module).
 */
function lazyDefault(pkg, body) {
  const namespace = `lazy-${pkg}`;
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${pkg}$`) }, (args) =>
        args.pluginData === 'real' ? undefined : intoNamespace(b, args, namespace),
      );
      b.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: [
          'let loaded;',
          `const real = () => (loaded ??= require(${JSON.stringify(args.path)}).default);`,
          `export default ${body};`,
        ].join('\n'),
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/**
 * `string-width` (yargs and its help layout import two versions) builds an
 * `Intl.Segmenter` and Unicode-property regular expressions (`\p{RGI_Emoji}`
 * with the `v` flag alone costs tens of milliseconds) when its module is
 * evaluated, i.e. at every start-up, though yargs's strings are almost always
 * printable ASCII, whose width is their length in every version. Each import
 * of it is bundled as a small module that answers printable ASCII itself and
 * evaluates the real module (a `require`, which esbuild turns into a lazily
 * initialised module) only for any other string. The same answers, by
 * construction for non-ASCII and by test (test/perf/startup-guards.test.ts)
 * for ASCII. Kept for speed alone: docs/adr/0301-lazy-string-width.md gives the figure.
 */
const lazyStringWidth = lazyDefault(
  'string-width',
  "function stringWidth(input, options) { if (typeof input === 'string' && /^[\\u0020-\\u007E]*$/.test(input)) return input.length; return real()(input, options); }",
);

/**
 * A digest of everything that decides what the built tool reports: its
 * sources, its schemas and the exact versions of its dependencies. Caches of
 * checked files (`validate`) are valid for one build id only.
 */
function buildId() {
  const h = createHash('sha256');
  const add = (path) => {
    for (const d of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(path, d.name);
      if (d.isDirectory()) add(full);
      else if (d.isFile()) h.update(`${full}\0`).update(readFileSync(full)).update('\0');
    }
  };
  add('src');
  add('schemas');
  h.update(readFileSync('package-lock.json'));
  return h.digest('hex').slice(0, 16);
}

const started = Date.now();
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
writeValidators();
const result = await build({
  // validate-worker: the worker threads of a cold `validate` start it by its name (src/validate/check-pool.ts).
  entryPoints: {
    cli: 'src/cli/main.ts',
    index: 'src/index.ts',
    // The direct start of `agents mcp`, `validate --staged` and `guard hook` (docs/adr/0300-one-argument-parser.md).
    'direct-main': 'src/cli/direct-main.ts',
    'validate-worker': 'src/validate/check-worker.ts',
  },
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
  // The production builds of React and its reconciler (the development builds are several times larger and slower).
  define: { 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"', __AGENTS_BUILD_ID__: JSON.stringify(buildId()) },
  // Ink imports react-devtools-core (not installed) only when DEV=true, which the define above rules out;
  // external, that import stays a never-taken dynamic import instead of failing the build.
  external: ['react-devtools-core'],
  // Which inputs each output holds: the start-up guard tests read it (Ink and React only in lazy chunks).
  metafile: true,
  plugins: [lazyStringWidth],
});
writeFileSync(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
// The licence texts of what the bundle holds (legalComments: 'none' strips them from the code).
const root = new URL('..', import.meta.url).pathname;
const ownName = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).name;
const notices = renderNotices(bundledPackages(result.metafile, root, join(root, 'scripts/licences')), ownName);
writeFileSync(new URL('../THIRD-PARTY-NOTICES', import.meta.url), notices);
if (process.argv.includes('--verbose')) console.log(`built dist/ in ${Date.now() - started} ms`);
