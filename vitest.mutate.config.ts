import { defineConfig } from 'vitest/config';

// The tests that exercise src/core and the whole-store checks (src/validate/checks/, validate-tree.ts) in process (Stryker
// mutates the sources; tests that spawn the built CLI run dist/ and cannot see a mutant).
export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts', 'test/extends/core.test.ts', 'test/validate/corpus.test.ts', 'test/validate/validate.test.ts', 'test/validate/checks.test.ts', 'test/validate/checks-edges.test.ts', 'test/service/**/*.test.ts'],
    testTimeout: 30_000,
    maxWorkers: 1,
    // Each mutant runs the property tests again: fewer cases each (test/helpers/fc-runs.ts).
    env: { NO_COLOR: '1', CI: '', FC_NUM_RUNS: '100' },
  },
});
