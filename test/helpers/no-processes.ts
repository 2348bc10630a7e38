/**
 * Set up by `npm run test:unit` (vitest.unit.config.ts) only: every way to start a
 * process throws, naming the file, so a test file that starts git, the CLI or any
 * other program cannot slip into the in-process set. Such a file belongs in
 * test/process-tests.ts.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { beforeAll, expect } from 'vitest';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;
const state = globalThis as { agentsNoProcesses?: { file: string } };

if (!state.agentsNoProcesses) {
  const current = { file: '' };
  state.agentsNoProcesses = current;
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
    childProcess[name] = (command: unknown) => {
      throw new Error(
        `${current.file} starts a process (${name} ${String(command)}): npm run test:unit runs only tests that start none; list the file in test/process-tests.ts`,
      );
    };
  }
  // ES module imports of node:child_process see the replaced functions too.
  syncBuiltinESMExports();
}

beforeAll(() => {
  if (state.agentsNoProcesses) state.agentsNoProcesses.file = expect.getState().testPath ?? '';
});
