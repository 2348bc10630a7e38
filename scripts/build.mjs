// Bundles with esbuild: the library, the terminal UI and the validation
// worker as ES modules split into chunks loaded on demand; the command line
// as one CommonJS bundle with V8's code cache beside it
// (docs/adr/0302-cli-bundle-with-code-cache.md).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputsDigest, STAMP } from './build-inputs.mjs';
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
 * into a lazily initialised module). `except`: importers that get
 * `exceptBody` instead.
 */
function lazyDefault(pkg, body, { except = new Set(), exceptBody = body } = {}) {
  const namespace = `lazy-${pkg}`;
  const exceptNamespace = `${namespace}-own`;
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${pkg}$`) }, (args) =>
        args.pluginData === 'real' ? undefined : intoNamespace(b, args, except.has(args.importer) ? exceptNamespace : namespace),
      );
      for (const [ns, text] of [
        [namespace, body],
        [exceptNamespace, exceptBody],
      ])
        b.onLoad({ filter: /.*/, namespace: ns }, (args) => ({
          contents: [
            'let loaded;',
            `const real = () => (loaded ??= require(${JSON.stringify(args.path)}).default);`,
            `export default ${text};`,
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
 *
 * For any other string it adds the columns a terminal draws that string-width
 * leaves out (src/present/terminal-width.ts: a skin tone after its emoji, Thai SARA AM), so that
 * Ink lays out and fills its rows as the terminal draws them, as the screens'
 * own cuts measure them; that module's own import gets the plain count.
 */
const TERMINAL_WIDTH = fileURLToPath(new URL('../src/present/terminal-width.ts', import.meta.url));
/** The stand-ins' first statement, the same in both: printable ASCII is answered by its length. */
const ASCII_WIDTH = "if (typeof input === 'string' && /^[\\u0020-\\u007E]*$/.test(input)) return input.length;";
const lazyStringWidth = lazyDefault(
  'string-width',
  `function stringWidth(input, options) { ${ASCII_WIDTH} const n = real()(input, options); return typeof input === 'string' ? n + require(${JSON.stringify(TERMINAL_WIDTH)}).extraColumns(input) : n; }`,
  {
    except: new Set([TERMINAL_WIDTH]),
    exceptBody: `function stringWidth(input, options) { ${ASCII_WIDTH} return real()(input, options); }`,
  },
);

/**
 * yargs' platform shim imports node:assert for two checks of its own use, and
 * the module costs every parsed command about 2 ms to load: that one import is
 * bundled as src/cli/yargs-assert.ts. Every other importer of `assert` (the
 * signal-exit the terminal UI bundles calls `assert.equal`) keeps Node's.
 * docs/adr/0116-yargs-assertions-without-node-assert.md gives the figure.
 */
const yargsAssert = {
  name: 'yargs-assert',
  setup(b) {
    const shim = fileURLToPath(new URL('../src/cli/yargs-assert.ts', import.meta.url));
    b.onResolve({ filter: /^assert$/ }, (args) =>
      /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]/.test(args.importer) ? { path: shim } : undefined,
    );
  },
};

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

/**
 * In the CommonJS bundle, `cli/tui-loader.ts` imports the terminal UI's ES
 * module build (Ink has top-level awaits, which CommonJS cannot hold) through
 * the function bin/load-bundle.js hands the bundle.
 */
const tuiFromEsm = {
  name: 'tui-from-esm',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]tui-loader\.ts$/ }, () => ({
      contents: "export function loadTui() { return __agentsImportEsm('./tui.js'); }",
      loader: 'js',
    }));
  },
};

/** The same for undici (the llm actor behind a proxy): a megabyte the command line's bundle need not read at each start. */
const undiciFromEsm = {
  name: 'undici-from-esm',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]enforce[\\/]proxy-loader\.ts$/ }, () => ({
      contents: "export function loadUndici() { return __agentsImportEsm('./undici.js'); }",
      loader: 'js',
    }));
  },
};

/**
 * In the CommonJS bundle, `await import('node:x')` becomes a `require` (a
 * script compiled by bin/load-bundle.js may not call `import()`).
 */
const builtinsRequired = {
  name: 'builtins-required',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * The modules of the guard hook's own bundle (docs/adr/0508-the-guard-hook-bundle.md) that it imports on demand
 * and still holds: what a call with a current index runs. Every other module its code imports on demand (the
 * index's rebuild, a violation's record, the other commands) it takes from the full bundle.
 */
const HOOK_HOLDS = new Set([
  'src/cli/commands/guard-hook.ts',
  'src/service/guard-service.ts',
  'src/store/discover.ts',
  'src/core/guard-patterns.ts',
  'src/service/pattern-thread.ts',
]);

/**
 * The modules of the commit hook's own bundle (docs/adr/0512-the-commit-hook-bundle.md) that it imports on demand
 * and still holds: what `validate --staged` runs when the commit stages no store file. Checking staged files takes
 * the rest from the full bundle.
 */
const COMMIT_HOOK_HOLDS = new Set([
  'src/cli/commands/validate.ts',
  'src/git/index-tree.ts',
  'src/git/changed.ts',
  'src/git/repo.ts',
  'src/store/git-dir.ts',
  'src/store/discover.ts',
]);

/**
 * In a hook's bundle, `await import('./x.ts')` of a module outside the ones it `holds` becomes the full bundle's copy of
 * it, through the `__agentsFull` bin/load-bundle.js hands the bundle (which loads the full bundle on first use);
 * each such module's path from the top is added to `asked`.
 */
function fromFullBundle(asked, holds) {
  return {
    name: 'from-full-bundle',
    setup(b) {
      b.onResolve({ filter: /^\./ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'real') return undefined;
        const real = await intoNamespace(b, args, 'full-bundle');
        if (real.errors) return real;
        const key = relative(root, real.path).split(sep).join('/');
        if (holds.has(key)) return { path: real.path };
        asked.add(key);
        return { path: key, namespace: 'full-bundle' };
      });
      b.onLoad({ filter: /.*/, namespace: 'full-bundle' }, (args) => ({
        contents: `module.exports = __agentsFull(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * In the full bundle, `src/cli/full-modules.ts` lists the modules the hook's bundle asks for, each evaluated on
 * first use (a `require`, which esbuild turns into a lazily initialised module).
 */
function fullModuleMap(asked) {
  return {
    name: 'full-module-map',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]full-modules\.ts$/ }, () => ({
        contents: `export const fullModules = {${[...asked]
          .sort()
          .map((key) => `\n  ${JSON.stringify(key)}: () => require(${JSON.stringify(`../../${key}`)}),`)
          .join('')}\n};\n`,
        resolveDir: join(root, 'src/cli'),
        loader: 'ts',
      }));
    },
  };
}

/** The first line of dist/agents.cjs: bin/load-bundle.js takes a cache only if it repeats this digest. */
const HEADER_PLACEHOLDER = `// agents-invariants build ${'0'.repeat(16)}\n`;

const started = Date.now();
const root = new URL('..', import.meta.url).pathname;
// Nothing to do when dist/ was built, whole, from exactly these inputs (npm ci builds, then npm test asks again;
// npm pack builds again after the install that built). --force builds regardless.
const inputs = inputsDigest(root);
const built = (() => {
  try {
    return readFileSync(join(root, STAMP), 'utf8');
  } catch {
    return '';
  }
})();
if (built === inputs && !process.argv.includes('--force')) {
  if (process.argv.includes('--verbose')) console.log('dist/ is up to date');
  process.exit(0);
}
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
writeValidators();
const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Written beside the output but named by no file: the package leaves them out (they would weigh more than the
  // rest of it, ADR 0302), and a file naming a map it lacks makes bundlers and debuggers warn at each load. The
  // command line's bundle is compiled by vm.Script, which --enable-source-maps does not follow.
  sourcemap: 'external',
  legalComments: 'none',
  logLevel: 'warning',
  jsx: 'automatic',
  // The production builds of React and its reconciler (the development builds are several times larger and slower).
  define: { 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"', __AGENTS_BUILD_ID__: JSON.stringify(buildId()) },
  // Ink imports react-devtools-core (not installed) only when DEV=true, which the define above rules out;
  // external, that import stays a never-taken dynamic import instead of failing the build.
  external: ['react-devtools-core'],
  // jsonc-parser's `main` is a UMD build whose factory requires its parts by computed paths, which a bundle cannot
  // follow; its ES module build is the same code, bundled as any other.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Which inputs each output holds: the start-up guard tests read it (Ink and React only in lazy chunks).
  metafile: true,
};
const modules = await build({
  ...common,
  entryPoints: {
    // The library, and its `./cli` export.
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    // What the CommonJS bundle imports for the terminal UI.
    tui: 'src/tui/index.ts',
    // The direct starts as ES modules: the start-up tests trace what each command loads through them
    // (test/helpers/esm-agents.mjs), which the CommonJS bundle, one script, cannot show.
    'direct-main': 'src/cli/direct-main.ts',
    // The worker threads of a cold `validate` start it by its name (src/validate/check-pool.ts).
    'validate-worker': 'src/validate/check-worker.ts',
    // The guard hook's pattern thread, started by its path when one run may outlast the hook's deadline (src/service/pattern-thread.ts).
    'pattern-worker': 'src/service/pattern-worker.ts',
    // What the llm actor takes from undici, imported by the CommonJS bundle (src/enforce/proxy-loader.ts).
    undici: 'src/enforce/undici-entry.ts',
  },
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (ajv) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __agentsRequire } from 'node:module'; const require = __agentsRequire(import.meta.url);" },
  plugins: [lazyStringWidth, yargsAssert],
});
// The CommonJS bundles (the command line's, the guard hook's): each one function bin/load-bundle.js calls as Node
// calls a CommonJS module's, with two more arguments, read and compiled whole at every start, so with no comments or
// indentation, and so pure ASCII (a one-byte string for V8).
const script = {
  ...common,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { ...common.define, 'import.meta.url': '__agentsModuleUrl' },
  banner: {
    js: `${HEADER_PLACEHOLDER}(function (exports, require, module, __filename, __dirname, __agentsImportEsm, __agentsFull) {'use strict';const __agentsModuleUrl = require('node:url').pathToFileURL(__filename).href;`,
  },
  footer: { js: '})' },
  minifyWhitespace: true,
};
// The hook's first: it names the modules the command line's must hand it.
const fromFull = new Set();
const hook = await build({
  ...script,
  entryPoints: { hook: 'src/cli/hook-entry.ts' },
  plugins: [fromFullBundle(fromFull, HOOK_HOLDS), lazyStringWidth, yargsAssert, tuiFromEsm, undiciFromEsm, builtinsRequired],
});
const commitHook = await build({
  ...script,
  entryPoints: { 'commit-hook': 'src/cli/commit-hook-entry.ts' },
  plugins: [fromFullBundle(fromFull, COMMIT_HOOK_HOLDS), lazyStringWidth, yargsAssert, tuiFromEsm, undiciFromEsm, builtinsRequired],
});
const commandLine = await build({
  ...script,
  entryPoints: { agents: 'src/cli/bundle-entry.ts' },
  plugins: [fullModuleMap(fromFull), lazyStringWidth, yargsAssert, tuiFromEsm, undiciFromEsm, builtinsRequired],
});
for (const name of ['agents.cjs', 'hook.cjs', 'commit-hook.cjs']) {
  // The header's digest, written over the placeholder (same length: the source map's lines stay).
  const file = new URL(`../dist/${name}`, import.meta.url);
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith(HEADER_PLACEHOLDER)) throw new Error(`dist/${name} does not start with its header`);
  // bin/load-bundle.js reads it as Latin-1, which is ASCII's fast path only while it holds nothing else.
  const notAscii = /[^\x00-\x7f]/.exec(text);
  if (notAscii)
    throw new Error(`dist/${name} holds a character outside ASCII at offset ${notAscii.index}: write it as an escape in the source`);
  writeFileSync(file, text.replace('0'.repeat(16), createHash('sha256').update(text).digest('hex').slice(0, 16)));
}
const meta = {
  inputs: { ...modules.metafile.inputs, ...commandLine.metafile.inputs, ...hook.metafile.inputs, ...commitHook.metafile.inputs },
  outputs: { ...modules.metafile.outputs, ...commandLine.metafile.outputs, ...hook.metafile.outputs, ...commitHook.metafile.outputs },
};
writeFileSync(new URL('../dist/meta.json', import.meta.url), JSON.stringify(meta));
// V8's code for the commands people run most, compiled by running them (scripts/code-cache.mjs).
execFileSync(process.execPath, [new URL('./code-cache.mjs', import.meta.url).pathname], {
  stdio: 'inherit',
  // It opens no TLS connection: Node need not parse a certificate bundle first.
  env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
});
// The licence texts of what the bundles hold (legalComments: 'none' strips them from the code).
const ownName = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).name;
const notices = renderNotices(bundledPackages(meta, root, join(root, 'scripts/licences')), ownName);
writeFileSync(new URL('../THIRD-PARTY-NOTICES', import.meta.url), notices);
// Written last: a build stopped part-way leaves no stamp, and the next one builds. Taken again: the build
// may have regenerated src/core/schema-validators.generated.js, one of its inputs.
writeFileSync(join(root, STAMP), inputsDigest(root));
if (process.argv.includes('--verbose')) console.log(`built dist/ in ${Date.now() - started} ms`);
