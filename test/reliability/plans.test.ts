import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testStore, writeTree } from '../helpers/tmp.ts';
import { scale } from '../helpers/stress.ts';
import { killCampaign } from './kill.ts';
import { runAgents } from '../helpers/main.ts';

/** Kills per campaign: 25 under `npm run test:stress`, 6 in `npm test`. */
const KILLS = scale(25, 6);
const ULID_YAML = /^[0-9A-HJKMNP-TV-Z]{26}\.yaml$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** An actor that answers "enforced" for every invariant, and notes its argv and working folder. */
const ACTOR = `import { writeFileSync } from 'node:fs';
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
writeFileSync('actors/run.json', JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));
process.stdout.write(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));
`;

async function storeWithAction(extraArgs: string[] = []): Promise<string> {
  const store = testStore({ 'projects/app/': null, 'actors/actor.mjs': ACTOR });
  writeTree(store, {
    'config.yaml': `# yaml-language-server: $schema=schemas/config.schema.json\nversion: 1\nreconciliation:\n  actor: command\n  command: [node, actors/actor.mjs${extraArgs.map((a) => `, ${JSON.stringify(a)}`).join('')}]\n  timeout_ms: 30000\n`,
  });
  for (const text of [
    'Run the tests',
    'Keep coverage above 80%',
    'Never skip a failing test',
    'Log each change',
    'Ask before deleting files',
  ]) {
    expect((await runAgents(['--store', store, 'invariant', 'add', '--action', 'local/cov', text])).code).toBe(0);
  }
  return store;
}

const planDirs = (store: string) => readdirSync(join(store, 'plans')).filter((n) => ULID.test(n));

async function validateOnlyTemporaries(store: string): Promise<void> {
  const checked = await runAgents(['--store', store, '--format', 'json', 'validate']);
  const report = JSON.parse(checked.stdout) as { ok: boolean; diagnostics: { code: string; file: string }[] };
  // A writer killed while holding its folder's lock leaves the lock too: a warning that --fix clears.
  expect(report.diagnostics.filter((d) => d.code !== 'temporary-file' && d.code !== 'stale-lock')).toEqual([]);
  expect(checked.code).toBe(0);
  expect((await runAgents(['--store', store, 'validate', '--fix'])).code).toBe(0);
  const clean = await runAgents(['--store', store, '--format', 'json', 'validate']);
  expect((JSON.parse(clean.stdout) as { diagnostics: unknown[] }).diagnostics).toEqual([]);
}

describe('crash safety of plan commands', () => {
  it(`plan use killed with SIGKILL at random points (${KILLS} kills): every plan is whole or absent`, async () => {
    const store = await storeWithAction();
    const c = await killCampaign({
      args: (i) => ['--store', store, 'plan', 'use', 'local/cov', '--project', 'app', '--goal', `Trial ${i}`],
      written: () => planDirs(store).length,
      kills: KILLS,
      maxTrials: scale(80, 20),
      seed: 0x91a,
      onFinished: (code) => expect(code).toBe(0),
    });
    expect(c.killed).toBe(KILLS);
    for (const plan of planDirs(store)) {
      const files = readdirSync(join(store, 'plans', plan));
      expect(files).toContain('plan.yaml');
      expect(files.filter((f) => ULID_YAML.test(f))).toHaveLength(5);
    }
    const listed = await runAgents(['--store', store, '--format', 'json', 'plan', 'list']);
    expect(listed.code).toBe(0);
    await validateOnlyTemporaries(store);
    console.log(
      `crash (plan use): ${c.trials} trials, ${c.killed} killed (${c.killedAfterWrite} after the plan appeared), ${c.finished} finished; ${planDirs(store).length} plans, all whole`,
    );
    // Slow by design (a named slow test): a kill campaign of real processes.
  }, 300_000);

  it(`plan strategize killed with SIGKILL at random points (${KILLS} kills): records are whole, the store validates`, async () => {
    const store = await storeWithAction();
    const used = await runAgents(['--store', store, '--format', 'json', 'plan', 'use', 'local/cov', '--project', 'app']);
    expect(used.code).toBe(0);
    const plan = planDirs(store)[0]!;
    const enforcement = join(store, 'plans', plan, 'enforcement');
    const c = await killCampaign({
      args: () => ['--store', store, 'plan', 'strategize', plan],
      written: () => (existsSync(enforcement) ? readdirSync(enforcement).filter((f) => ULID_YAML.test(f)).length : 0),
      kills: KILLS,
      maxTrials: scale(80, 20),
      seed: 0x57a,
      onFinished: (code) => expect(code).toBe(0),
    });
    expect(c.killed).toBe(KILLS);
    const status = await runAgents(['--store', store, 'plan', 'show', plan]);
    expect(status.code).toBe(0);
    await validateOnlyTemporaries(store);
    console.log(
      `crash (plan strategize): ${c.trials} trials, ${c.killed} killed (${c.killedAfterWrite} after a record appeared), ${c.finished} finished`,
    );
    // Slow by design (a named slow test): a kill campaign of real processes.
  }, 300_000);
});

describe('the actor runs without a shell, with its argv from config.yaml only', () => {
  it('shell syntax in config argv, plan goal and invariant texts is never interpreted', async () => {
    const tricky = ['$(touch pwned1)', '; touch pwned2', '`touch pwned3`', '*', '$HOME', 'a\'b"c', '--help'];
    const store = await storeWithAction(tricky);
    expect(
      (await runAgents(['--store', store, 'invariant', 'add', '--action', 'local/cov', 'Never run $(touch pwned4) or `touch pwned5`']))
        .code,
    ).toBe(0);
    const used = await runAgents([
      '--store',
      store,
      'plan',
      'use',
      'local/cov',
      '--project',
      'app',
      '--goal',
      '$(touch pwned6); touch pwned7',
    ]);
    expect(used.code).toBe(0);
    const plan = planDirs(store)[0]!;
    const r = await runAgents(['--store', store, 'plan', 'strategize', plan]);
    expect(r.code).toBe(0);
    const run = JSON.parse(readFileSync(join(store, 'actors/run.json'), 'utf8')) as { argv: string[]; cwd: string };
    expect(run.argv).toEqual(tricky);
    expect(run.cwd).toBe(store);
    const everything = [...readdirSync(store, { recursive: true }), ...readdirSync(join(store, '..'))].map(String);
    expect(everything.filter((p) => p.includes('pwned'))).toEqual([]);
  });
});
