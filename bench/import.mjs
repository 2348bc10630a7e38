// `agents import` on 1,000 instruction files of about 5 KB each (a monorepo
// with a nested AGENTS.md per package, made of the import corpus's blocks), timed
// as whole processes against its budget: import ≤ 3 × (the walk-and-read
// floor of those files + `node -e 0`), medians of paired runs in one run.
//
//   node bench/import.mjs [--runs N] [--files N] [--keep]
//
// Prints one row per measure and exits 1 when the budget is not met.
import './timed-env.mjs';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, prng } from './store.mjs';

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

const CORPUS = join(REPO, 'fixtures/import/corpus');

/** The blocks (runs of lines between blank lines) of the real instruction files of the import corpus. */
function corpusBlocks() {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else
        out.push(
          ...readFileSync(p, 'utf8')
            .replace(/^---\n[\s\S]*?\n---\n/, '')
            .split(/\n\s*\n/),
        );
    }
  };
  walk(CORPUS);
  return out.filter((b) => b.trim() !== '');
}

/**
 * One instruction file of about 5 KB, made of the corpus's own blocks in a
 * seeded order (so rules, code, tables and prose come in the density real
 * files have), each list item and paragraph marked with the package so that
 * every file says something of its own.
 */
function instructionFile(rand, blocks, n) {
  const out = [`# Package ${n}`, ''];
  let size = 0;
  while (size < 5000) {
    let block = blocks[Math.floor(rand() * blocks.length)];
    if (!block.startsWith('```') && !block.startsWith('|')) block = block.replace(/^(\s*(?:[-*+]|\d+[.)])\s+.*)$/gm, `$1 (p${n})`);
    out.push(block, '');
    size += block.length + 2;
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
  const blocks = corpusBlocks();
  let bytes = 0;
  for (let n = 0; n < FILES; n++) {
    const dir = join(top, 'packages', `p${String(n).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    const text = instructionFile(rand, blocks, n);
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
  if (argv.includes('--keep')) console.log(`  kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
