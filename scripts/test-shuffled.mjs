// Runs the suite in shuffled order under three seeds (or those given), so that
// no test passes only because another ran before it. Not part of npm test.
import { spawnSync } from 'node:child_process';

const seeds = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['1', '2024', '777'];
for (const seed of seeds) {
  process.stderr.write(`\n== vitest run --sequence.shuffle --sequence.seed=${seed}\n`);
  const r = spawnSync('npx', ['vitest', 'run', '--sequence.shuffle', `--sequence.seed=${seed}`], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`Failed with seed ${seed}: re-run it with npm run test:shuffle -- ${seed}\n`);
    process.exit(r.status ?? 1);
  }
}
