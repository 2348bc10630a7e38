import { defineConfig } from 'vitest/config';
import { GIT_ENV } from './test/helpers/git.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // At most 30 s a test, on a shared, sometimes busy 2-core machine; the few
    // slower ones (kill campaigns, fuzzing, the package, the pre-commit
    // framework, the pseudo-terminal suites) set their own, with a comment saying why.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
    // Test files share a worker's module graph: each file re-importing (and re-transforming) the
    // sources cost about 0.7 s of CPU a file, a minute a run. Safe because no test mocks modules and
    // src/ keeps no state across runs that a test could leak (docs/decisions.md, "Test files share
    // their worker's modules"); `npm run test:shuffle` checks no test depends on another's order.
    isolate: false,
    // git's fixed test identity for the CLI run in-process (test/helpers/main.ts):
    // git reads it from the process's environment, as the spawned CLI gets it (test/helpers/cli.ts).
    env: { NO_COLOR: '1', CI: '', ...GIT_ENV },
  },
});
