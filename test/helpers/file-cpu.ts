// Loaded before each test file only under `npm run test:cpu` (scripts/test-cpu.mjs):
// appends one line per file to the file AGENTS_FILE_CPU names: the file, its time
// in the worker, the worker's CPU and the CPU of the child processes it waited
// for while the file ran (git, the built CLI, actors, npm …), in seconds.
// Linux only: read from /proc/self/stat, which counts a child once it is reaped.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { REPO } from './cli.ts';

/** The worker's own CPU and its reaped children's, in seconds (clock ticks of 1/100 s). */
function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces: utime is field 14.
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { self: (f[11]! + f[12]!) / 100, children: (f[13]! + f[14]!) / 100 };
}

// vitest.config.ts loads this file only when AGENTS_FILE_CPU is set.
const out = process.env.AGENTS_FILE_CPU!;
let start = { self: 0, children: 0 };
let started = 0;
beforeAll(() => {
  start = cpu();
  started = performance.now();
});
afterAll(() => {
  const end = cpu();
  const file = relative(REPO, expect.getState().testPath ?? '?');
  const cells = [(performance.now() - started) / 1000, end.self - start.self, end.children - start.children].map((s) => s.toFixed(1));
  appendFileSync(out, `${[file, ...cells].join('\t')}\n`);
});
