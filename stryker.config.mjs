// Mutation testing of the pure core and the whole-store checks: `npm run mutate`
// (not part of npm test). What survives, and why, is in docs/mutation.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: ['src/core/**/*.ts', 'src/validate/validate-tree.ts', 'src/validate/read-facts.ts', 'src/validate/checks/**/*.ts', '!src/core/schema-validators.generated.*'],
  // TypeScript 7 has no compiler API for Stryker's type checker: mutants that do not
  // type-check are caught by the tests instead (they fail to run or fail an assertion).
  checkers: [],
  // Stryker rewrites the tsconfig it copies into its sandbox with TypeScript's
  // parseConfigFileTextToJson, which TypeScript 7 no longer has. tsconfig.json has no
  // `extends` or project references to rewrite, so point it at a file that does not
  // exist: it then leaves the copy as it is.
  tsconfigFile: 'no-tsconfig-to-rewrite.json',
  coverageAnalysis: 'perTest',
  // Each run records its results; a re-run tests only mutants whose code or tests changed.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  concurrency: 2,
  timeoutMS: 20000,
  // dist/ is copied: the corpus test that must drop root's file-reading capabilities runs the built CLI.
  // tools/ holds Stryker itself; other runs' sandboxes (`--tempDirName .stryker-tmp-x`, to run two at once) are not the project.
  ignorePatterns: ['.bench', 'coverage', 'reports', 'tools', '.stryker-tmp*'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
