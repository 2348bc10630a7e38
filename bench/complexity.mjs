// Rows of bench/run.mjs (section "complexity", docs/benchmarks.md): no check grows faster than the store.
//  - The stores of bench/gen-store.mjs (templated texts, many sharing a half): 10,000 and 100,000
//    invariants (with and without modelines), and 2,000 / 20,000 invariants in 100 / 1,000 projects
//    with three disjoint path globs each.
//  - The guard: `validate --no-cache --profile` gives each whole-store check's time at the two sizes
//    of a pair; a check whose time grows more than 1.3 times as fast as the walk-and-read floor's
//    (bench/floor.mjs, timed beside it, less its own start, the floor on an empty folder: the checks are
//    timed inside the process) fails the row, and `npm run bench` exits 1. A check that takes less than
//    2% of the floor at the larger size (or under 20 ms) is too small to time: shown, not judged.
//  - The budgets of the cold path on those stores: cold `validate` against the floor, `validate --staged`
//    with one invariant staged and `invariant list --effective --project P` against `node -e 0`, and the
//    peak memory of each command on 100,000.
// Kept apart from run.mjs's other blocks; run.mjs passes its helpers in.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git } from './store.mjs';

const GEN = fileURLToPath(new URL('./gen-store.mjs', import.meta.url));
/** How much faster than the floor's a check's time may grow between the two sizes. */
const GROWTH = 1.3;

/** Writes a store with bench/gen-store.mjs (the budgets' stores: same arguments, same seeds). */
function generate(dir, n, projects, seed, env = {}) {
  const r = spawnSync(process.execPath, [GEN, join(dir, '.agents'), String(n), String(projects), '0.05', String(seed)], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`gen-store.mjs failed: ${r.stderr}`);
  return join(dir, '.agents');
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The `--profile` table of one run: step → CPU ms less the garbage collection within it (a pause of the whole
 * heap lands on whichever step runs, and grows with the heap: the check's own work is what must stay linear).
 */
function profileOf(stderr) {
  const out = new Map();
  const at = stderr.indexOf('profile:\n');
  if (at < 0) return out;
  for (const line of stderr.slice(at).split('\n').slice(2)) {
    const m = /^ {2}(\S+) +(\d+\.\d) +(\d+\.\d) +(\d+\.\d)$/.exec(line);
    if (!m) break;
    // CPU time, not the clock's: on a shared machine the process waits for a core at random moments.
    out.set(m[1], Math.max(0, Number(m[3]) - Number(m[4])));
  }
  return out;
}

/**
 * Runs `validate --no-cache --profile` on the two stores and the floor beside each, interleaved
 * (small, its floor, large, its floor), `runs` times: each step's median ms and the floors' medians.
 */
function profilePair({ agents, node, FLOOR, spawn, work }, small, large, runs) {
  const empty = mkdtempSync(join(work, 'empty-'));
  const steps = [new Map(), new Map()];
  const floors = [[], []];
  const totals = [[], []];
  const starts = [];
  for (let run = 0; run < runs; run++) {
    for (const [i, store] of [small, large].entries()) {
      // One thread for garbage collection: the CPU time of a step is then its own and its pauses' (subtracted).
      const [nodePath, bin, ...args] = agents('--store', store, 'validate', '--no-cache', '--profile', '--quiet');
      const cmd = { argv: [nodePath, '--single-threaded-gc', bin, ...args] };
      const t = process.hrtime.bigint();
      const r = spawn(cmd, { capture: true });
      totals[i].push(Number(process.hrtime.bigint() - t) / 1e6);
      if (r.status !== 0 && r.status !== 1) throw new Error(`validate failed (${r.status}): ${r.stderr.slice(0, 300)}`);
      for (const [step, ms] of profileOf(r.stderr)) steps[i].set(step, [...(steps[i].get(step) ?? []), ms]);
      const f = process.hrtime.bigint();
      spawn({ argv: node(FLOOR, store) });
      floors[i].push(Number(process.hrtime.bigint() - f) / 1e6);
    }
    // The floor's own start (node and its module loader), on a folder with nothing to walk: three samples a
    // round, since the smaller store's floor is only a few times this and its growth is divided by the difference.
    for (let k = 0; k < 3; k++) {
      const n = process.hrtime.bigint();
      spawn({ argv: node(FLOOR, empty) });
      starts.push(Number(process.hrtime.bigint() - n) / 1e6);
    }
  }
  const med = (m) => new Map([...m].map(([k, v]) => [k, median(v)]));
  // A check is timed inside the process: its floor is the walk and read alone, without the floor's own start.
  const start = median(starts);
  const net = floors.map((f) => Math.max(1, median(f) - start));
  return { steps: steps.map(med), floors: floors.map(median), net, start, totals: totals.map(median) };
}

export async function complexityRows(h) {
  const { measure, row, memoryRow, rows, budgets, agents, node, FLOOR, work, log, RUNS } = h;
  const dir = (name) => join(work, 'complexity', name);
  const t = Date.now();
  const s10k = generate(dir('s10k'), 10_000, 100, 11);
  const s100k = generate(dir('s100k'), 100_000, 1_000, 11);
  const m10k = generate(dir('s10k-modelines'), 10_000, 100, 11, { MODELINE: '1' });
  const m100k = generate(dir('s100k-modelines'), 100_000, 1_000, 11, { MODELINE: '1' });
  const p100 = generate(dir('p100'), 2_000, 100, 7, { PATHS: '3' });
  const p1000 = generate(dir('p1000'), 20_000, 1_000, 7, { PATHS: '3' });
  log(`generated the complexity stores (gen-store.mjs) in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  let failed = 0;
  const runs = Math.max(3, Math.ceil(RUNS / 2));
  for (const [label, small, large] of [
    ['10,000 → 100,000', s10k, s100k],
    ['10,000 → 100,000, modelines', m10k, m100k],
    ['100 → 1,000 projects', p100, p1000],
  ]) {
    const { steps, floors, net, start, totals } = profilePair(h, small, large, runs);
    const floorGrowth = net[1] / net[0];
    const processGrowth = floors[1] / floors[0];
    log(
      `  complexity ${label}: floor ${floors[0].toFixed(0)} → ${floors[1].toFixed(0)} ms, ${net[0].toFixed(0)} → ${net[1].toFixed(0)} ms without the floor's own start (${start.toFixed(0)} ms): ${floorGrowth.toFixed(2)}×`,
    );
    const judge = (name, a, b, floorGrowth) => {
      const growth = b / a;
      const tiny = b < Math.max(20, 0.02 * floors[1]);
      const ok = tiny || growth <= GROWTH * floorGrowth;
      if (!ok) failed++;
      const measured = `${growth.toFixed(2)}× (${a.toFixed(1)} → ${b.toFixed(1)} ms)`;
      const target = `≤ ${(GROWTH * floorGrowth).toFixed(2)}× (${GROWTH} × the floor's ${floorGrowth.toFixed(2)}×)`;
      rows.push({
        name: `growth of ${name}`,
        store: label,
        ms: `${b.toFixed(1)} ms`,
        baseline: 'the same at the smaller size',
        baselineMs: `${a.toFixed(1)} ms`,
        ratio: `${growth.toFixed(2)}×`,
        budget: target,
        rss: '',
        baselineRss: '',
      });
      budgets.push({
        what: `growth of ${name} (${label})`,
        budget: target,
        measured: tiny ? `${measured}, too small to judge` : measured,
        met: ok,
      });
      log(`    ${name.padEnd(22)} ${measured.padEnd(34)} ${tiny ? 'too small to judge' : ok ? 'ok' : 'GROWS FASTER THAN THE STORE'}`);
    };
    for (const [step, b] of steps[1]) if (step !== 'total') judge(`${step} (validate --profile)`, steps[0].get(step) ?? 0, b, floorGrowth);
    // The whole process against the whole floor process: both start node once.
    judge('validate --no-cache (whole process)', totals[0], totals[1], processGrowth);
  }

  // The budgets on the stores themselves: cold validate against the floor, and its peak memory.
  for (const [label, store] of [
    ['s100k', s100k],
    ['s100k, modelines', m100k],
    ['p1000', p1000],
  ]) {
    const big = label.startsWith('s100k');
    const [cold, floor] = measure(
      [{ argv: agents('--store', store, 'validate', '--no-cache', '--quiet') }, { argv: node(FLOOR, store) }],
      runs,
    );
    row('validate --no-cache (cold)', label, cold, floor, 'walk-and-read floor', { max: 2 }, big ? 300 : undefined);
  }

  // p1000 in a git repository: the pre-commit hook with one invariant staged, and an agent's effective set.
  const repo = dir('p1000');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'store');
  const cacheFile = join(repo, '.git/agents/validate-index.cache');
  const saved = join(work, 'complexity', 'p1000-index-cache');
  spawn(h, { argv: agents('validate', '--staged', '--all-files'), cwd: repo });
  copyFileSync(cacheFile, saved);
  const id = '01KBENCH0000000000000000ZZ';
  mkdirSync(join(p1000, 'projects', 'p7'), { recursive: true });
  writeFileSync(
    join(p1000, 'projects', 'p7', `${id}.yaml`),
    `id: ${id}\ntext: "The billing service must keep one ledger per tenant."\ncreated_at: "2026-12-02T00:00:00Z"\n`,
  );
  git(repo, 'add', '-A');
  const before = () => copyFileSync(saved, cacheFile);
  const NODE0 = { argv: node('-e', '0') };
  const [n0, staged, list, which] = measure(
    [
      NODE0,
      { argv: agents('validate', '--staged'), cwd: repo, before },
      { argv: agents('invariant', 'list', '--effective', '--project', 'p7'), cwd: repo },
      { argv: agents('which', 'services/p7/m1/src/a.ts'), cwd: repo },
    ],
    RUNS,
  );
  row('validate --staged (1 invariant staged)', 'p1000, git', staged, n0, 'node -e 0', { max: 1.5 });
  row('invariant list --effective --project P', 'p1000, git', list, n0, 'node -e 0', { max: 2 });
  row('which FILE', 'p1000, git', which, n0, 'node -e 0', { max: 2 });

  // Peak memory of each command on 100,000 invariants.
  const [profiled, json, listBig] = measure(
    [
      { argv: agents('--store', s100k, 'validate', '--no-cache', '--profile', '--quiet') },
      { argv: agents('--store', s100k, 'validate', '--no-cache', '--format', 'json') },
      { argv: agents('--store', s100k, 'invariant', 'list', '--effective', '--project', 'p7', '--format', 'json') },
    ],
    1,
  );
  memoryRow('validate --no-cache --profile', 's100k', profiled, 300);
  memoryRow('validate --no-cache --format json', 's100k', json, 300);
  memoryRow('invariant list --effective --project P --format json', 's100k', listBig, 300);
  return failed;
}

function spawn(h, cmd) {
  return h.spawn(cmd, { capture: true });
}
