// The guard hook's store and measurements (bench/run.mjs adds the rows, section
// "guard"): a store of 20,000 invariants in 1,000 projects (each with a
// project.yaml of 3 disjoint path globs), 5% global, 500 of them with guards
// spread over global and the projects; the hook inputs; a diff of 100 files;
// and MCP `check_action` calls on a running server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { git, prng, ulids } from './store.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(REPO, 'bin/agents.js');

/** Writes the store into `repo/.agents` (a git repository with one commit) and returns what the measurements need. */
export function generateGuardStore(repo, { invariants = 20_000, projects = 1000, globalFraction = 0.05, guards = 500, seed = 7 } = {}) {
  const rand = prng(seed);
  const next = ulids(rand);
  const root = join(repo, '.agents');
  for (const d of ['global', 'projects', 'actions', 'plans']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'config.yaml'), 'version: 1\n');
  const names = Array.from({ length: projects }, (_, i) => `p${i}`);
  for (const [i, name] of names.entries()) {
    mkdirSync(join(root, 'projects', name), { recursive: true });
    writeFileSync(join(root, 'projects', name, 'project.yaml'), `paths: ["svc${i}/api/**", "svc${i}/web/**", "libs/lib${i}/**"]\n`);
  }
  const globals = Math.round(invariants * globalFraction);
  const guardEvery = Math.max(1, Math.floor(invariants / guards));
  let guarded = 0;
  for (let n = 0; n < invariants; n++) {
    const { id } = next();
    const inGlobal = n < globals;
    const project = names[n % projects];
    const folder = inGlobal ? join(root, 'global') : join(root, 'projects', project);
    const lines = [`id: ${id}`, `text: Rule ${n} of the ${inGlobal ? 'company' : project} holds for every change`, 'severity: error'];
    if (n % guardEvery === 0 && guarded < guards) {
      guarded++;
      const k = guarded;
      lines.push('guard:');
      lines.push(inGlobal ? `  write: ["vendor/pkg${k}/**"]` : `  write: ["svc${n % projects}/api/generated${k}/**"]`);
      if (k % 3 === 0) lines.push(`  command: ["\\\\bdeploy-${k}\\\\b"]`);
      if (k % 5 === 0) lines.push(`  content: ["SECRET_${k}_[A-Z0-9]{8}"]`);
      if (k % 7 === 0) lines.push(`  tool: ["mcp__db__drop_${k}"]`);
    }
    writeFileSync(join(folder, `${id}.yaml`), `${lines.join('\n')}\n`);
  }
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'store');
  return { root, project: names[1], guarded };
}

/** A Claude Code PreToolUse input that writes one file: allowed, so the hook says nothing (the common case). */
export function hookInput(repo, file) {
  return JSON.stringify({
    session_id: 'bench',
    cwd: repo,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(repo, file), content: 'x' },
    tool_use_id: 't',
  });
}

/** Stages a change of 100 files in `repo` (none guarded), for `guard check --staged`. */
export function stageDiff(repo, files = 100) {
  for (let i = 0; i < files; i++) {
    mkdirSync(join(repo, `svc${i}/api`), { recursive: true });
    writeFileSync(join(repo, `svc${i}/api/handler.ts`), `export const handler${i} = () => ${i};\n// line two\n`);
  }
  git(repo, 'add', '-A');
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median milliseconds of one `check_action` call on a running server (after a first call that builds or loads the index). */
export async function measureCheckAction(root, runs = 200) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--store', root, 'mcp'],
    env: { ...process.env, NO_COLOR: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  try {
    const call = (i) =>
      client.callTool({ name: 'check_action', arguments: { path: `svc${i % 1000}/api/src/file${i}.ts`, content: 'const x = 1;' } });
    await call(0);
    const times = [];
    for (let i = 1; i <= runs; i++) {
      const t = process.hrtime.bigint();
      await call(i);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return median(times);
  } finally {
    await client.close();
  }
}
