// A store of N invariants in P projects plus global/, with templated texts (a
// subject, a verb, an object and a counter, as stores generated per service
// are: many texts share one half). The store the validate budgets of
// bench/run.mjs are measured on (100,000 invariants in 1,000 projects, 5% in
// global/, seed 11). Deterministic: one seed, one store, byte for byte.
//   node bench/templated-store.mjs STORE N PROJECTS [GLOBAL_FRACTION=0.05] [SEED=1]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SUBJECTS = [
  'The deploy pipeline',
  'Every public API',
  'The billing service',
  'Schema migrations',
  'Each release branch',
  'The auth module',
  'Background jobs',
  'The CLI',
  'Config loading',
  'Log output',
];
const VERBS = ['must', 'must never', 'should', 'is required to', 'shall'];
const OBJECTS = [
  'validate input before writing to the database',
  'emit a structured audit event',
  'run idempotently when retried',
  'keep p99 latency under 200 ms',
  'avoid network calls at import time',
  'preserve backward compatibility for one minor version',
  'redact secrets from error messages',
  'hold at most one lock at a time',
];
const SEVERITIES = ['error', 'warning', 'info'];
const TAGS = ['api', 'db', 'security', 'perf', 'ci', 'release', 'ux', 'observability', 'billing', 'auth', 'infra', 'docs'];

/**
 * Writes the store at `root` and returns how many invariants it holds.
 * `modeline` starts each file with the editor's schema modeline, as `agents invariant add` writes it.
 */
export function generateTemplatedStore(root, n, projects, { globalFraction = 0.05, seed = 1, modeline = false } = {}) {
  // xorshift32: a seeded generator, so the store never depends on Math.random.
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const ulid = (ms) => {
    let t = '';
    let x = ms;
    for (let i = 0; i < 10; i++) {
      t = B32[x % 32] + t;
      x = Math.floor(x / 32);
    }
    let r = '';
    for (let i = 0; i < 16; i++) r += B32[Math.floor(rnd() * 32)];
    return t + r;
  };
  const t0 = Date.UTC(2025, 0, 1);
  mkdirSync(join(root, 'global'), { recursive: true });
  for (let i = 0; i < projects; i++) mkdirSync(join(root, 'projects', `p${i}`), { recursive: true });
  const seen = new Set();
  for (let k = 0; k < n; k++) {
    const ms = t0 + k * 60000 + Math.floor(rnd() * 60000);
    const id = ulid(ms);
    // A counter makes each text unique in its scope: no same-scope duplicates.
    const text = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} (#${k}).`;
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(TAGS)))];
    let y = `id: ${id}\ntext: "${text}"\n`;
    if (rnd() < 0.6) y += `severity: ${pick(SEVERITIES)}\n`;
    y += `tags:\n${tags.map((t) => `  - ${t}\n`).join('')}`;
    y += `created_at: "${new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')}"\n`;
    const inGlobal = rnd() < globalFraction;
    const dir = inGlobal ? join(root, 'global') : join(root, 'projects', `p${Math.floor(rnd() * projects)}`);
    if (seen.has(id)) continue;
    seen.add(id);
    const ml = modeline ? `# yaml-language-server: $schema=${inGlobal ? '..' : '../..'}/schemas/invariant.schema.json\n` : '';
    writeFileSync(join(dir, `${id}.yaml`), ml + y);
  }
  return seen.size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, n, p, gf = '0.05', seed = '1'] = process.argv.slice(2);
  if (!out || !n || !p) {
    console.error('usage: node bench/templated-store.mjs STORE N PROJECTS [GLOBAL_FRACTION] [SEED]');
    process.exit(2);
  }
  const count = generateTemplatedStore(out, Number(n), Number(p), { globalFraction: Number(gf), seed: Number(seed) });
  console.log(`wrote ${count} invariants in ${p} projects + global to ${out}`);
}
