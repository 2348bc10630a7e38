// The whole-store validate budgets of bench/run.mjs (docs/benchmarks.md), on
// 100,000 invariants in 1,000 projects (bench/gen-store.mjs, 5% in global/,
// seed 11) inside a git repository, each against the walk-and-read floor
// (bench/floor.mjs) measured interleaved in the same run, median of at least
// 10 runs: cold (`--no-cache`: every file checked, as in a fresh clone) ≤ 2×,
// warm (answered from the cache the previous run left) ≤ 1.3×.
// Kept apart from run.mjs's other blocks; run.mjs passes its helpers in.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git } from './store.mjs';

const GEN = fileURLToPath(new URL('./gen-store.mjs', import.meta.url));

/** The block itself. `h` holds run.mjs's helpers: measure, row, agents, node, FLOOR, RUNS, work, log. */
export function validateBudgetRows(h, size = 100_000) {
  const { measure, row, agents, node, FLOOR, work, log } = h;
  const runs = Math.max(10, h.RUNS);
  const label = `${size.toLocaleString('en')} in 1,000 projects`;
  const t = Date.now();
  const repo = join(work, `templated-${size}`);
  const root = join(repo, '.agents');
  const r = spawnSync(process.execPath, [GEN, root, String(size), '1000', '0.05', '11'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gen-store.mjs failed: ${r.stderr}`);
  git(repo, 'init', '-q', '-b', 'main');
  log(`\nvalidate budgets: generated ${size} invariants in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  // The warm-up run of the warm command leaves the cache its timed runs answer from.
  const [cold, warm, floor] = measure(
    [
      { argv: agents('--store', root, 'validate', '--no-cache') },
      { argv: agents('--store', root, 'validate') },
      { argv: node(FLOOR, root) },
    ],
    runs,
  );
  row('validate, cold (--no-cache)', label, cold, floor, 'walk-and-read floor', { max: 2 });
  row('validate, warm (from its cache)', label, warm, floor, 'walk-and-read floor', { max: 1.3 });
}
