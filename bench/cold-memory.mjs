// Rows of bench/run.mjs for the cold path and bounded memory (docs/benchmarks.md):
//  - `validate` with no cache (outside git, as on a fresh clone) on 100,000
//    invariants, with and without modelines, against the walk-and-read floor,
//    with every core (the default), one thread (--jobs 1) and two (--jobs 2);
//  - the peak memory of each command on 100,000: validate cold (text, json),
//    validate with its cache, invariant list --all and --format yaml, the
//    diff of a first commit, list --effective --format json of a project of
//    100,000 invariants, and the TUI's first frame on that store.
// Kept apart from run.mjs's other blocks; run.mjs passes its helpers in.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { BIG_PROJECT, generateBigProjectStore } from './big-project.mjs';
import { generateStore, git } from './store.mjs';

/** Rewrites every YAML file of the store without its first line when that line is the modeline. */
function dropModelines(dir) {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, d.name);
    if (d.isDirectory()) dropModelines(full);
    else if (d.name.endsWith('.yaml')) {
      const text = readFileSync(full, 'utf8');
      if (text.startsWith('# yaml-language-server:')) writeFileSync(full, text.slice(text.indexOf('\n') + 1));
    }
  }
}

/** Peak RSS (MiB) of the TUI from its start to the first frame with the list drawn, in a real pseudo-terminal (`script`). */
function tuiPeak({ BIN, TIME, work, store }) {
  if (!TIME || !existsSync('/usr/bin/script')) return Promise.resolve(undefined);
  const out = join(work, 'tui-rss.txt');
  rmSync(out, { force: true });
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: '1', TERM: 'xterm-256color' };
    delete env.CI;
    const cmd = `stty cols 80 rows 24; exec ${TIME} -f %M -o ${JSON.stringify(out)} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} --store ${JSON.stringify(store)} tui`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env });
    let text = '';
    let sent = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      if (text.length > 100_000) text = text.slice(-10_000);
      if (!sent && text.includes('shown of')) {
        sent = true;
        child.stdin.write('q');
      }
    });
    child.on('close', () => {
      clearTimeout(timer);
      if (!sent || !existsSync(out)) return resolve(undefined);
      const kib = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
      resolve(Number.isFinite(kib) ? kib / 1024 : undefined);
    });
  });
}

/**
 * The block itself. `h` holds run.mjs's helpers: measure, row, memoryRow, agents, node, FLOOR, BIN, TIME, work, log, RUNS.
 */
export async function coldAndMemoryRows(h, size = 100_000) {
  const { measure, row, memoryRow, agents, node, FLOOR, work, log } = h;
  const label = size.toLocaleString('en');
  const runs = Math.max(1, Math.min(h.RUNS, 3));
  const all = availableParallelism();
  log(`\ncold validate and memory: ${label} invariants, outside git (no cache); ${all} cores`);

  const t = Date.now();
  const withML = join(work, `cold-${size}`, '.agents');
  const info = generateStore(withML, size);
  const without = join(work, `cold-nomodeline-${size}`, '.agents');
  generateStore(without, size);
  dropModelines(without);
  log(
    `generated two stores of ${size} invariants (${info.stats.files} files each; one without modelines) in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );

  for (const [what, root] of [
    ['validate, cold (no cache), modelines', withML],
    ['validate, cold (no cache), no modelines', without],
  ]) {
    const [dflt, one, two, floor] = measure(
      [
        { argv: agents('--store', root, 'validate') },
        { argv: agents('--store', root, 'validate', '--jobs', '1') },
        { argv: agents('--store', root, 'validate', '--jobs', '2') },
        { argv: node(FLOOR, root) },
      ],
      runs,
    );
    row(`${what}, all ${all} cores`, label, dflt, floor, 'walk-and-read floor', { max: 2 }, 300);
    row(`${what}, --jobs 1`, label, one, floor, 'walk-and-read floor');
    row(`${what}, --jobs 2`, label, two, floor, 'walk-and-read floor');
  }

  // Peak memory of each command on 100,000 (one run each; the budget is 300 MiB).
  const [coldJson] = measure([{ argv: agents('--store', without, 'validate', '--format', 'json') }], 1);
  memoryRow('peak memory: validate --format json, cold, no modelines', label, coldJson, 300);
  // Warm: inside a repository, after a run that left the cache.
  const warmRepo = join(work, `cold-${size}`);
  git(warmRepo, 'init', '-q', '-b', 'main');
  const [warm] = measure([{ argv: agents('--store', withML, 'validate') }], 1);
  memoryRow('peak memory: validate, with its cache', label, warm, 300);
  // The other commands that read the whole store, and print an entry or more for each invariant.
  const [listText] = measure([{ argv: agents('--store', without, 'invariant', 'list', '--all') }], 1);
  memoryRow('peak memory: invariant list --all', label, listText, 300);
  const [listYaml] = measure([{ argv: agents('--store', without, 'invariant', 'list', '--format', 'yaml') }], 1);
  memoryRow('peak memory: invariant list --format yaml', label, listYaml, 300);
  // The repository has no commit: every invariant is new, and every global one enters each project's set.
  const [diff] = measure([{ argv: agents('--store', withML, 'invariant', 'diff'), cwd: warmRepo }], 1);
  memoryRow('peak memory: invariant diff, every invariant new (a first commit)', label, diff, 300);

  const big = join(work, `big-project-${size}`, '.agents');
  mkdirSync(big, { recursive: true });
  generateBigProjectStore(big, size);
  const [list] = measure(
    [{ argv: agents('--store', big, 'invariant', 'list', '--effective', '--project', BIG_PROJECT, '--format', 'json') }],
    1,
  );
  memoryRow(`peak memory: list --effective --format json (a project of ${label})`, label, list, 300);
  const tui = await tuiPeak({ ...h, store: big });
  memoryRow(`peak memory: tui, to the first frame with the list (a project of ${label})`, label, { rss: tui, ms: undefined }, 300);
}
