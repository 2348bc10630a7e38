// Runs the stress tests at full scale (AGENTS_STRESS=1): the racing writers, the
// kill campaigns and the fuzzers that `npm test` runs at a smaller scale. Not part
// of npm test; extra vitest arguments are passed on (e.g. a file to run alone).
import { spawnSync } from 'node:child_process';

const files = [
  'test/reliability/concurrency.test.ts',
  'test/reliability/crash.test.ts',
  'test/reliability/plans.test.ts',
  'test/reliability/fuzz.test.ts',
];
const extra = process.argv.slice(2);
const r = spawnSync('npx', ['vitest', 'run', ...(extra.length > 0 ? extra : files)], {
  stdio: 'inherit',
  env: { ...process.env, AGENTS_STRESS: '1' },
});
process.exit(r.status ?? 1);
