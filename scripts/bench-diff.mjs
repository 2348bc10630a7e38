// Times `agents invariant diff A..B` on a generated store of 10,000 invariants
// with 100 changed files, against `node -e 0` (the floor of any Node CLI).
// Usage: node scripts/bench-diff.mjs [runs]   (build first: npm run build)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/agents.js', import.meta.url));
const RUNS = Number(process.argv[2] ?? 7);
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'b@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'b@example.com',
  NO_COLOR: '1',
};
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = (prefix, n) => {
  let s = '';
  for (let i = 0; i < 10; i++, n = Math.floor(n / 32)) s = CROCKFORD[n % 32] + s;
  return `01J${prefix}`.padEnd(16, '0') + s;
};
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });

function write(root, rel, text) {
  const full = join(root, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
}
const invariant = (id, text, severity = 'error') =>
  `id: ${id}\ntext: ${JSON.stringify(text)}\nseverity: ${severity}\nactive: true\ncreated_at: 2026-11-29T12:00:00Z\n`;

/** 100 global, 50 projects × 148, 250 plans × 10 (each targeting a project): 10,000 invariants. */
function generate(dir) {
  const store = join(dir, '.agents');
  const files = [];
  for (let i = 0; i < 100; i++) files.push([`global/${ulid('G', i)}.yaml`, `Global rule number ${i}`]);
  for (let p = 0; p < 50; p++)
    for (let i = 0; i < 148; i++) files.push([`projects/proj-${p}/${ulid('P', p * 1000 + i)}.yaml`, `Project ${p} rule ${i}`]);
  for (let x = 0; x < 250; x++) {
    const plan = ulid('X', x);
    write(store, `plans/${plan}/plan.yaml`, `id: ${plan}\nproject: proj-${x % 50}\n`);
    for (let i = 0; i < 10; i++) files.push([`plans/${plan}/${ulid('Q', x * 100 + i)}.yaml`, `Plan ${x} step rule ${i}`]);
  }
  for (const [rel, text] of files) write(store, rel, invariant(rel.slice(rel.lastIndexOf('/') + 1, -5), text));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'tag', 'base');
  return { store, files };
}

function change(dir, store, files, picks, tag) {
  git(dir, 'checkout', '-q', '-B', tag, 'base');
  for (const [rel, text] of picks(files))
    write(store, rel, invariant(rel.slice(rel.lastIndexOf('/') + 1, -5), `${text}, edited`, 'warning'));
  git(dir, 'commit', '-q', '-am', tag);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function once(cmd, args, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const dir = mkdtempSync(join(tmpdir(), 'agents-bench-diff-'));
try {
  const { store, files } = generate(dir);
  const projectFiles = files.filter(([rel]) => rel.startsWith('projects/'));
  // A: 100 project files in 10 projects (those projects and their plans re-resolved).
  change(dir, store, files, () => projectFiles.filter((_, i) => i % 148 < 10).slice(0, 100), 'projects-only');
  // B: 100 files of which 10 are global (every project and plan re-resolved).
  change(dir, store, files, (all) => [...all.slice(0, 10), ...projectFiles.filter((_, i) => i % 75 === 0).slice(0, 90)], 'with-global');
  // Interleaved, so that a busy machine slows the floor and the diffs alike.
  const cases = [['node -e 0', [process.execPath, ['-e', '0']]]];
  for (const tag of ['projects-only', 'with-global'])
    cases.push([`agents invariant diff base..${tag}`, [process.execPath, [BIN, 'invariant', 'diff', `base..${tag}`, '--format', 'json']]]);
  const times = cases.map(() => []);
  for (let i = 0; i < RUNS; i++)
    cases.forEach(([, [cmd, args]], k) => {
      times[k].push(once(cmd, args, dir));
    });
  const floor = median(times[0]);
  console.log(`store: ${files.length} invariants, 250 plans, 50 projects, 100 changed files; median of ${RUNS} interleaved runs`);
  cases.forEach(([name], k) => {
    const ms = median(times[k]);
    console.log(
      `${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms${k === 0 ? '' : `  (${(ms / floor).toFixed(1)}× node -e 0, +${(ms - floor).toFixed(0)} ms)`}`,
    );
  });
} finally {
  if (process.env.KEEP) console.log(dir);
  else rmSync(dir, { recursive: true, force: true });
}
