import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Generous: tests that spawn the CLI many times run on a shared, sometimes busy 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
    env: { NO_COLOR: '1', CI: '' },
  },
});
