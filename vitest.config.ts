import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { GIT_ENV } from './test/helpers/git.ts';
import { hermeticEnv } from './test/helpers/hermetic-env.ts';
import { suiteTmpRoot } from './test/helpers/tmp-root.ts';

/**
 * The slowest files, longest first: they start first, so that no long file starts last and runs
 * alone at the end. vitest orders files by durations it caches in node_modules, which a fresh clone
 * (CI) does not have. The rest keep vitest's order. Measured durations: docs/performance-log.md,
 * "Where the test suite's time goes"; the decision: docs/adr/0084-test-suite-cost-and-file-order.md.
 */
const SLOW_FIRST = [
  'test/validate/hooks.test.ts',
  'test/actors/agent-actor.test.ts',
  'test/package/package.test.ts',
  'test/e2e/guard-agents.test.ts',
  'test/e2e/tui-pty.test.ts',
  'test/reliability/git-environment.test.ts',
  'test/perf/startup-guards.test.ts',
  'test/plans/strategize.test.ts',
  'test/reliability/special-files.test.ts',
  'test/extends/extends.test.ts',
  'test/e2e/mcp.test.ts',
  'test/e2e/form-pty.test.ts',
  'test/reliability/control-characters.test.ts',
  'test/reliability/plans.test.ts',
  'test/reliability/crash.test.ts',
  'test/validate/long-reports.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.endsWith(`/${s}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map(({ f }) => f);
  }
}

// The run's temporary folders on a tmpfs when the machine has one and TMPDIR is not set
// (docs/adr/0117-test-folders-on-a-tmpfs.md); every process the tests start inherits it.
const tmpRoot = suiteTmpRoot();
if (tmpRoot) {
  process.env.TMPDIR = tmpRoot;
  process.env.AGENTS_TEST_TMP_ROOT = tmpRoot;
}
// A home folder of the run's own and none of the machine's client, CLI or git variables, for the
// workers and every process they start (test/helpers/hermetic-env.ts).
hermeticEnv(process.env, tmpRoot);

// `npm run test:shuffle` passes --sequence.shuffle: vitest's random order of files, not this one.
const shuffled = process.argv.some((a) => a.startsWith('--sequence.shuffle'));

/** The product's sources, whose imports of string-width get the stand-in as the dependencies' do. */
const SOURCES = fileURLToPath(new URL('./src/', import.meta.url));
/** The stand-in's module id: the real module's path after the prefix, in hex (a path in node_modules would be left to Node). */
const ASCII_WIDTH = '\0ascii-string-width:';

/**
 * Every import of `string-width` by a dependency (yargs, its help layout cliui and wrap-ansi) or a source gets a stand-in that
 * answers printable ASCII by its length and asks the real module for any other string: the same answers, as in the
 * bundle (scripts/build.mjs, docs/adr/0301-lazy-string-width.md), without its extra columns. yargs lays out a
 * command's help after every command it runs, which with the real module was most of an in-process run's CPU
 * (docs/performance-log.md has the measure).
 */
const asciiStringWidth: Plugin = {
  name: 'ascii-string-width',
  enforce: 'pre',
  async resolveId(id, importer, options) {
    // The tests' own imports keep the real module: they compare the stand-ins with it (test/perf/startup-guards.test.ts).
    if (id !== 'string-width' || !importer || !(importer.includes('/node_modules/') || importer.startsWith(SOURCES))) return null;
    const real = await this.resolve(id, importer, { ...options, skipSelf: true });
    return real ? `${ASCII_WIDTH}${Buffer.from(real.id).toString('hex')}` : null;
  },
  load(id) {
    if (!id.startsWith(ASCII_WIDTH)) return null;
    return [
      `import real from ${JSON.stringify(Buffer.from(id.slice(ASCII_WIDTH.length), 'hex').toString())};`,
      'export default function stringWidth(input, options) {',
      "  if (typeof input === 'string' && /^[\\u0020-\\u007E]*$/.test(input)) return input.length;",
      '  return real(input, options);',
      '}',
    ].join('\n');
  },
};

export default defineConfig({
  plugins: [asciiStringWidth],
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // `npm run test:cpu` (scripts/test-cpu.mjs): each file's CPU, its workers' and its child processes'.
    // Every file waits for the removal of its temporary folders (test/helpers/tmp-cleanup.ts).
    globalSetup: ['test/helpers/tmp-root-teardown.ts'],
    setupFiles: ['test/helpers/tmp-cleanup.ts', ...(process.env.AGENTS_FILE_CPU ? ['test/helpers/file-cpu.ts'] : [])],
    // At most 30 s a test, on a shared, sometimes busy 2-core machine; the few
    // slower ones (kill campaigns, fuzzing, the package, the pre-commit
    // framework, the pseudo-terminal suites) set their own, with a comment saying why.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three workers on two cores: a third of the suite's time is spent waiting on processes it
    // started (agent clients, the pre-commit framework, terminals), which a third worker fills
    // (docs/adr/0108-three-test-workers.md).
    maxWorkers: 3,
    // Test files share a worker's module graph, so the sources are not re-imported and re-transformed
    // for each file. Safe because no test mocks modules and src/ keeps no state across runs that a
    // test could leak (docs/adr/0081-test-files-share-worker-modules.md); `npm run test:shuffle`
    // checks no test depends on another's order.
    isolate: false,
    // Run through vite rather than Node's own import, so that their imports of string-width reach the stand-in above.
    server: { deps: { inline: ['yargs', 'cliui', 'wrap-ansi'] } },
    sequence: shuffled ? {} : { sequencer: SlowFirst },
    // git's fixed test identity for the CLI run in-process (test/helpers/main.ts):
    // git reads it from the process's environment, as the spawned CLI gets it (test/helpers/cli.ts).
    //
    // NODE_EXTRA_CA_CERTS is emptied for every process the tests start: Node.js 20 parses the whole
    // bundle it names at each start, before any code runs, and neither the CLI nor an actor opens a
    // TLS connection. npm may, so the pre-commit framework's test hands the value back to it as
    // AGENTS_TEST_REGISTRY_CA (docs/adr/0084-test-suite-cost-and-file-order.md).
    env: {
      NO_COLOR: '1',
      CI: '',
      ...GIT_ENV,
      NODE_EXTRA_CA_CERTS: '',
      AGENTS_TEST_REGISTRY_CA: process.env.NODE_EXTRA_CA_CERTS ?? '',
    },
  },
});
