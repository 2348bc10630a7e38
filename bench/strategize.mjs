// Measures `agents plan strategize` on a plan of N invariants (default 500)
// with the example actor: one request holding the whole effective set.
// Usage: npm run build && node bench/strategize.mjs [N] [runs]
import './timed-env.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(REPO, 'bin/agents.js');
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const n = Number(process.argv[2] ?? 500);
const runs = Number(process.argv[3] ?? 5);

const dir = mkdtempSync(join(tmpdir(), 'agents-bench-'));
const root = join(dir, '.agents');
cpSync(join(REPO, '.agents.example'), root, { recursive: true });
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
for (let i = 0; i < n; i++) {
  let suffix = '';
  for (let k = i, d = 0; d < 6; d++, k = Math.floor(k / 32)) suffix = CROCKFORD[k % 32] + suffix;
  const id = `01M8KM00000000000000${suffix}`;
  writeFileSync(
    join(root, 'plans', PLAN, `${id}.yaml`),
    `id: ${id}\ntext: "Benchmark constraint number ${i}: never touch table t${i} without a migration"\nseverity: ${['error', 'warning', 'info'][i % 3]}\ntags: [bench]\n`,
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = [];
for (let r = 0; r < runs; r++) {
  const t = process.hrtime.bigint();
  const res = spawnSync(process.execPath, [BIN, '--store', root, 'plan', 'strategize', PLAN, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  if (res.status !== 0) throw new Error(`strategize exited ${res.status}: ${res.stderr}`);
}
// The actor alone, on the same request.
const request = JSON.stringify({
  protocol: 'agents-reconcile/1',
  plan: { id: PLAN, action: null, project: 'myapp', goal: null },
  context: null,
  invariants: Array.from({ length: n + 4 }, (_, i) => ({
    id: `01M8KM${String(i).padStart(20, '0')}`,
    text: `Benchmark constraint number ${i}`,
    severity: 'error',
    scope: 'plan',
    tags: [],
  })),
});
const actorTimes = [];
for (let r = 0; r < runs; r++) {
  const t = process.hrtime.bigint();
  execFileSync(process.execPath, [join(root, 'actors/example-actor.mjs')], { input: request, maxBuffer: 64 << 20 });
  actorTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
}
const enforcementDir = join(root, 'plans', PLAN, 'enforcement');
const file = readdirSync(enforcementDir)[0];
console.log(
  JSON.stringify(
    {
      invariants: n + 4,
      runs,
      strategize_median_ms: Math.round(median(times)),
      strategize_ms: times.map(Math.round),
      example_actor_alone_median_ms: Math.round(median(actorTimes)),
      request_bytes: Buffer.byteLength(request),
      enforcement_file_bytes: statSync(join(enforcementDir, file)).size,
      node: process.version,
    },
    null,
    2,
  ),
);
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(root);
