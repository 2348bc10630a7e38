// Runs the suite once and prints where its CPU goes, file by file: each file's
// time in its worker, the worker's CPU while it ran, and the CPU of the processes
// it started (test/helpers/file-cpu.ts). Not part of npm test; extra vitest
// arguments are passed on. Linux only (/proc). See
// docs/adr/0084-test-suite-cost-and-file-order.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'agents-test-cpu-'));
const out = join(dir, 'files.tsv');
const r = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, AGENTS_FILE_CPU: out },
});
let rows = [];
try {
  rows = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
    .map(([file, wall, self, children]) => ({ file, wall: Number(wall), self: Number(self), children: Number(children) }))
    .sort((a, b) => b.self + b.children - (a.self + a.children));
} catch {
  process.stderr.write('test:cpu: no file reported its CPU\n');
}
rmSync(dir, { recursive: true, force: true });
const sum = (k) => rows.reduce((s, row) => s + row[k], 0);
const cell = (n) => n.toFixed(1).padStart(7);
if (rows.length > 0) {
  process.stdout.write(`\n${'CPU s'.padStart(7)}${'worker'.padStart(7)}${'started'.padStart(8)}${'time s'.padStart(7)}  file\n`);
  for (const row of rows)
    process.stdout.write(`${cell(row.self + row.children)}${cell(row.self)} ${cell(row.children)}${cell(row.wall)}  ${row.file}\n`);
  process.stdout.write(
    `${cell(sum('self') + sum('children'))}${cell(sum('self'))} ${cell(sum('children'))}${cell(sum('wall'))}  ${rows.length} files\n`,
  );
}
process.exit(r.status ?? 1);
