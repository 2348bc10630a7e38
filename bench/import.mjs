// `agents import` on 1,000 instruction files of about 5 KB each (a monorepo
// with a nested AGENTS.md per package, rules, code, tables and prose), timed
// as whole processes against its budget: import ≤ 3 × (the walk-and-read
// floor of those files + `node -e 0`), medians of paired runs in one run.
//
//   node bench/import.mjs [--runs N] [--files N]
//
// Prints one row per measure and exits 1 when the budget is not met.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, prng, sentence } from './store.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(REPO, 'bin/agents.js');
const FLOOR = join(REPO, 'bench/floor.mjs');
const argv = process.argv.slice(2);
const value = (name, d) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : d;
};
const RUNS = value('--runs', 7);
const FILES = value('--files', 1000);

/** One instruction file of about 5 KB: headings, rule items, a code block, a table, prose. */
function instructionFile(rand, n) {
  const out = [`# Package ${n}`, '', `This package holds ${sentence(rand, 8).toLowerCase()}`, ''];
  for (let section = 0; out.join('\n').length < 4600; section++) {
    out.push(`## ${['Code style', 'Testing', 'Pull requests', 'Security', 'Layout'][section % 5]} ${section}`, '');
    for (let i = 0; i < 6; i++) out.push(`- ${['Never', 'Always', 'Use', 'Prefer', 'Do not'][i % 5]} ${sentence(rand, 9).toLowerCase()}`);
    out.push(
      '',
      '```bash',
      `npm run test -- --filter ${n}`,
      '```',
      '',
      '| Command | What |',
      '|---|---|',
      '| `npm test` | runs the tests |',
      '',
    );
    out.push(`${sentence(rand, 14)} Keep ${sentence(rand, 6).toLowerCase()}`, '');
  }
  return `${out.join('\n')}\n`;
}

function run(cmd, args, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: '1', CI: 'true' } });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 400)}`);
  return ms;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'agents-bench-import-'));
try {
  const top = join(work, 'repo');
  mkdirSync(join(top, '.agents/global'), { recursive: true });
  mkdirSync(join(top, '.agents/projects'), { recursive: true });
  git(work, 'init', '-q', top);
  const rand = prng(17);
  let bytes = 0;
  for (let n = 0; n < FILES; n++) {
    const dir = join(top, 'packages', `p${String(n).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    const text = instructionFile(rand, n);
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, 'AGENTS.md'), text);
  }
  git(top, 'add', '-A');
  const rows = { node: [], floor: [], dryRun: [] };
  for (let i = 0; i < RUNS; i++) {
    rows.node.push(run(process.execPath, ['-e', '0'], top));
    rows.floor.push(run(process.execPath, [FLOOR, join(top, 'packages')], top));
    rows.dryRun.push(run(process.execPath, [BIN, '--format', 'json', 'import', '--dry-run'], top));
  }
  const base = median(rows.node) + median(rows.floor);
  const ratio = median(rows.dryRun) / base;
  // One write of everything, for the record (a store of the result; not part of the budget).
  const yes = run(process.execPath, [BIN, 'import', '--yes'], top);
  console.log(`import: ${FILES} files, ${(bytes / FILES / 1024).toFixed(1)} KB each`);
  console.log(`  node -e 0                 ${median(rows.node).toFixed(0)} ms`);
  console.log(`  walk-and-read floor       ${median(rows.floor).toFixed(0)} ms`);
  console.log(`  import --dry-run          ${median(rows.dryRun).toFixed(0)} ms  = ${ratio.toFixed(2)}× (floor + node -e 0); budget 3×`);
  console.log(`  import --yes (one run)    ${yes.toFixed(0)} ms (writes the invariants and a project per package)`);
  process.exitCode = ratio <= 3 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
