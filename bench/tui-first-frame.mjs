// Time to first frame of `agents tui` on a generated store, in a real
// pseudo-terminal (`script`): from spawning the process to (a) its first
// frame ("reading the store…") and (b) the first frame with the list drawn.
//
//   node bench/tui-first-frame.mjs [--size 10000] [--runs 5]
//
// A benchmark, not a test: .ci/run never runs it.
import './timed-env.mjs';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateStore } from './store.mjs';

const argv = process.argv.slice(2);
const value = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const size = value('--size', 10_000);
const runs = value('--runs', 5);
const BIN = fileURLToPath(new URL('../bin/agents.js', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'agents-tui-bench-'));
const store = join(dir, '.agents');
const { stats } = generateStore(store, size);

function once() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NO_COLOR: '1', TERM: 'xterm-256color' };
    delete env.CI;
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    const child = spawn(
      'script',
      [
        '-qfec',
        `stty cols 80 rows 24; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} --store ${JSON.stringify(store)} tui`,
        '/dev/null',
      ],
      { env },
    );
    let out = '';
    const times = {};
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no list after 120 s; output:\n${out.slice(-2000)}`));
    }, 120_000);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (times.firstFrame === undefined && out.includes('agents')) times.firstFrame = ms();
      if (times.list === undefined && out.includes('shown of')) {
        times.list = ms();
        child.stdin.write('q');
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (times.list === undefined) reject(new Error(`exit ${code} before the list; output:\n${out.slice(-2000)}`));
      else resolve(times);
    });
  });
}

// For comparison: the same store read by the plain listing (whole process, output discarded).
function listOnce() {
  const env = { ...process.env, NO_COLOR: '1', CI: 'true' };
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, '--store', store, 'invariant', 'list', '--all', '--format', 'json'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
  });
}
const lists = [];
for (let i = 0; i < runs; i++) lists.push(await listOnce());

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`agents tui, store of ${stats.invariants} invariants (${stats.files} files), ${runs} runs, median:`);
console.log(`  first frame      ${median(results.map((r) => r.firstFrame)).toFixed(0)} ms`);
console.log(`  list drawn       ${median(results.map((r) => r.list)).toFixed(0)} ms`);
console.log(`  (invariant list --all --format json, whole process: ${median(lists).toFixed(0)} ms)`);
