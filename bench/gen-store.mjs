// Synthetic store in the product's format:
//   [MODELINE=1] [PATHS=K] node gen-store.mjs STORE N PROJECTS [GLOBAL_FRACTION=0.05] [SEED=1]
// Writes STORE/global/<ULID>.yaml and STORE/projects/p<i>/<ULID>.yaml with id, text, severity, tags, created_at.
// Texts are templated (subject, verb, object, counter), as stores generated per service are: many share a half.
// MODELINE=1 starts each file with the editor schema modeline; PATHS=K gives each project a project.yaml
// with K disjoint globs (services/p<i>/m<j>/**).
import fs from 'node:fs';
import path from 'node:path';

const [out, nStr, pStr, gfStr = '0.05', seedStr = '1'] = process.argv.slice(2);
if (!out || !nStr || !pStr) {
  console.error('usage: gen-store.mjs STORE N PROJECTS [GLOBAL_FRACTION] [SEED]');
  process.exit(2);
}
const N = +nStr,
  P = +pStr,
  GF = +gfStr;
let s = +seedStr >>> 0 || 1;
const rnd = () => {
  s ^= s << 13;
  s >>>= 0;
  s ^= s >>> 17;
  s ^= s << 5;
  s >>>= 0;
  return s / 4294967296;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function ulid(ms) {
  // 10 chars of time, 16 of randomness from the seeded generator
  let t = '',
    x = ms;
  for (let i = 0; i < 10; i++) {
    t = B32[x % 32] + t;
    x = Math.floor(x / 32);
  }
  let r = '';
  for (let i = 0; i < 16; i++) r += B32[Math.floor(rnd() * 32)];
  return t + r;
}
const subj = [
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
const verb = ['must', 'must never', 'should', 'is required to', 'shall'];
const obj = [
  'validate input before writing to the database',
  'emit a structured audit event',
  'run idempotently when retried',
  'keep p99 latency under 200 ms',
  'avoid network calls at import time',
  'preserve backward compatibility for one minor version',
  'redact secrets from error messages',
  'hold at most one lock at a time',
];
const sev = ['error', 'warning', 'info'];
const tagPool = ['api', 'db', 'security', 'perf', 'ci', 'release', 'ux', 'observability', 'billing', 'auth', 'infra', 'docs'];
const t0 = Date.UTC(2025, 0, 1);
fs.mkdirSync(path.join(out, 'global'), { recursive: true });
const K = +(process.env.PATHS ?? 0);
for (let i = 0; i < P; i++) {
  fs.mkdirSync(path.join(out, 'projects', `p${i}`), { recursive: true });
  if (K > 0)
    fs.writeFileSync(
      path.join(out, 'projects', `p${i}`, 'project.yaml'),
      `paths:\n${Array.from({ length: K }, (_, j) => `  - "services/p${i}/m${j}/**"\n`).join('')}`,
    );
}
const seen = new Set();
for (let k = 0; k < N; k++) {
  const ms = t0 + k * 60000 + Math.floor(rnd() * 60000);
  const id = ulid(ms);
  // unique text per scope: the sentence plus a counter, so no same-scope duplicates
  const text = `${pick(subj)} ${pick(verb)} ${pick(obj)} (#${k}).`;
  const tags = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(tagPool)))];
  let y = `id: ${id}\ntext: "${text}"\n`;
  if (rnd() < 0.6) y += `severity: ${pick(sev)}\n`;
  y += `tags:\n${tags.map((t) => `  - ${t}\n`).join('')}`;
  y += `created_at: "${new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')}"\n`;
  const dir = rnd() < GF ? path.join(out, 'global') : path.join(out, 'projects', `p${Math.floor(rnd() * P)}`);
  if (seen.has(id)) continue;
  seen.add(id);
  // MODELINE=1: each file starts with the editor schema modeline, as `agents add` writes it
  const ml =
    process.env.MODELINE === '1'
      ? `# yaml-language-server: $schema=${dir.endsWith('global') ? '..' : '../..'}/schemas/invariant.schema.json\n`
      : '';
  fs.writeFileSync(path.join(dir, `${id}.yaml`), ml + y);
}
console.log(`wrote ${seen.size} invariants in ${P} projects + global to ${out}`);
