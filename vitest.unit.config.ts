import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { PROCESS_TESTS } from './test/process-tests.ts';
import base from './vitest.config.ts';

// `npm run test:unit`: the tests that run in this process, for the inner loop of a change.
// The files that start processes (test/process-tests.ts) run in `npm test`; here a file that
// starts one fails, so the list cannot silently fall behind.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
      setupFiles: ['test/helpers/no-processes.ts'],
      // In-process tests keep both cores busy: the third worker of npm test only waits on processes (ADR 0108).
      maxWorkers: 2,
      // Each property runs at most 150 cases here (test/helpers/fc-runs.ts); npm test runs every case.
      env: { FC_NUM_RUNS: process.env.FC_NUM_RUNS ?? '150' },
      experimental: { fsModuleCache: true },
    },
  }),
);
