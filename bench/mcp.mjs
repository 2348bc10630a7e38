// Measures `agents mcp` through the MCP SDK's own client (bench/run.mjs adds
// the rows; runnable alone for a quick figure):
//   - spawn → the `initialize` answer, against spawn → exit of `node -e 0`;
//   - one `effective_invariants` call on a running server, against a whole
//     `invariant list --effective --format json` process on the same store
//     (and the first answer of a freshly spawned server, for reference);
//   - the server's resident memory after its first call, and after 1,000
//     calls and 100 changes of store files (each reported to a subscriber).
//
//   node bench/mcp.mjs [--store DIR --project P] [--runs N]
import './timed-env.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(REPO, 'bin/agents.js');
const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;

function env(extra = {}) {
  const e = { ...process.env, NO_COLOR: '1', CI: 'true', ...extra };
  delete e.AGENTS_STORE;
  return e;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Milliseconds from spawn to the first line on stdout (the initialize answer), or to exit when `input` is absent. */
function timeOne(args, input) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: REPO, env: env(), stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let done = false;
    child.on('error', reject);
    child.stdout.on('data', (d) => {
      out += d;
      if (input && !done && out.includes('\n')) {
        done = true;
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (!out.includes('"serverInfo"')) reject(new Error(`not an initialize answer: ${out.slice(0, 200)}`));
        child.stdin.end();
        resolve(ms);
      }
    });
    if (input) child.stdin.write(input);
    else child.stdin.end();
    child.on('close', () => {
      if (!input) resolve(Number(process.hrtime.bigint() - t) / 1e6);
      else if (!done) reject(new Error('the server ended before answering initialize'));
    });
  });
}

/** Interleaved medians of `node -e 0` and spawn → initialize answer of `agents --store STORE mcp`. */
export async function measureInitialize(store, runs = 15) {
  const n0 = [];
  const init = [];
  await timeOne(['-e', '0']);
  await timeOne([BIN, '--store', store, 'mcp'], INIT);
  for (let i = 0; i < runs; i++) {
    n0.push(await timeOne(['-e', '0']));
    init.push(await timeOne([BIN, '--store', store, 'mcp'], INIT));
  }
  return { node0: median(n0), initialize: median(init) };
}

async function connect(store, extraEnv = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--store', store, 'mcp'],
    cwd: REPO,
    env: env(extraEnv),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

async function effective(client, project) {
  const r = await client.callTool({ name: 'effective_invariants', arguments: { project } });
  if (r.isError) throw new Error(`effective_invariants failed: ${r.content[0]?.text}`);
  return r;
}

function cliList(store, project) {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [BIN, '--store', store, 'invariant', 'list', '--effective', '--project', project, '--format', 'json'],
    { cwd: REPO, env: env(), encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  if (r.status !== 0) throw new Error(`list --effective failed: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/**
 * `effective_invariants` for `project`: each call on a running server (after
 * one warm-up), a fresh server's spawn → first answer, and the CLI process,
 * interleaved.
 */
export async function measureEffective(store, project, runs = 7) {
  const warm = [];
  const cold = [];
  const cli = [];
  const { client } = await connect(store);
  try {
    await effective(client, project);
    cliList(store, project);
    for (let i = 0; i < runs; i++) {
      let t = process.hrtime.bigint();
      await effective(client, project);
      warm.push(Number(process.hrtime.bigint() - t) / 1e6);
      cli.push(cliList(store, project));
      t = process.hrtime.bigint();
      const fresh = await connect(store);
      await effective(fresh.client, project);
      cold.push(Number(process.hrtime.bigint() - t) / 1e6);
      await fresh.client.close();
    }
  } finally {
    await client.close();
  }
  return { call: median(warm), firstAnswer: median(cold), cli: median(cli) };
}

/** Resident memory of a process, in MiB (Linux /proc; `ps` elsewhere). */
function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // Not Linux.
  }
  const r = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(r.stdout.trim()) / 1024;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The server's memory after its first call, then after 1,000 calls (the five
 * tools in turn) and 100 changes of a global invariant file, each change
 * waited for as a resources/updated notification.
 */
export async function measureMemory(store, project, plan, invariant) {
  const { client, transport } = await connect(store, { AGENTS_MCP_SETTLE_MS: '20' });
  try {
    let updates = 0;
    let wake;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
      updates++;
      wake?.();
    });
    const uri = `agents://projects/${project}/effective.json`;
    await client.subscribeResource({ uri });
    const calls = [
      () => effective(client, project),
      () => client.callTool({ name: 'list_invariants', arguments: { project } }),
      () => client.callTool({ name: 'show_invariant', arguments: { id: invariant } }),
      () => client.callTool({ name: 'plan_status', arguments: { plan } }),
      () => client.readResource({ uri }),
    ];
    // The first-call figure: each tool answered once. A tool loads the code it needs on its first
    // call (the server answers `initialize` before loading any), a one-time cost, not growth.
    for (const call of calls) await call();
    await sleep(500);
    const first = rssMiB(transport.pid);
    const file = join(store, 'global', '01M9BENCHMCP0000000000000A.yaml');
    let changes = 0;
    for (let i = 0; i < 1000; i++) {
      await calls[i % calls.length]();
      if (i % 10 === 9) {
        const before = updates;
        const seen = new Promise((r) => (wake = r));
        writeFileSync(file, `id: 01M9BENCHMCP0000000000000A\ntext: Benchmark change ${i}\n`);
        changes++;
        await Promise.race([seen, sleep(5000)]);
        if (updates === before) throw new Error(`change ${changes} was not reported within 5 s`);
      }
    }
    const busy = rssMiB(transport.pid);
    rmSync(file, { force: true });
    await sleep(3000);
    // Still held 3 s later (V8 keeps the heap it grew to; the live heap does not grow: docs/performance.md).
    const after = rssMiB(transport.pid);
    return { first, busy, after, changes, updates };
  } finally {
    await client.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (n, d) => {
    const i = process.argv.indexOf(n);
    return i >= 0 ? process.argv[i + 1] : d;
  };
  const store = arg('--store', join(REPO, '.agents.example'));
  const project = arg('--project', 'myapp');
  const runs = Number(arg('--runs', '11'));
  const i = await measureInitialize(join(REPO, '.agents.example'), runs);
  console.log(
    `initialize: node -e 0 ${i.node0.toFixed(0)} ms, agents mcp ${i.initialize.toFixed(0)} ms: ${(i.initialize / i.node0).toFixed(2)}×`,
  );
  const e = await measureEffective(store, project, Math.min(runs, 7));
  console.log(
    `effective_invariants: call ${e.call.toFixed(1)} ms, fresh server's first answer ${e.firstAnswer.toFixed(0)} ms, CLI list --effective --format json ${e.cli.toFixed(0)} ms: call ${(e.call / e.cli).toFixed(2)}×, first answer ${(e.firstAnswer / e.cli).toFixed(2)}×`,
  );
  if (process.argv.includes('--memory')) {
    const m = await measureMemory(store, project, arg('--plan'), arg('--invariant'));
    console.log(
      `memory: first call ${m.first.toFixed(1)} MiB, right after 1,000 calls and ${m.changes} changes (${m.updates} updates) ${m.busy.toFixed(1)} MiB, 3 s later ${m.after.toFixed(1)} MiB: ${((m.after / m.first - 1) * 100).toFixed(1)}%`,
    );
  }
}
