// plan strategize stopped while its actor runs (docs/plans.md, "Timeouts"), and two runs of one plan at once.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records, type EnforcementFile } from '../helpers/plans.ts';
import { gone } from '../helpers/process-gone.ts';

/** Waits up to 10 s for a file the actor writes; true when it is there. */
async function appears(path: string): Promise<boolean> {
  for (let waited = 0; waited < 10_000 && !existsSync(path); waited += 50) await sleep(50);
  return existsSync(path);
}

/** `agents plan strategize` of the example plan, started and left running. */
function startStrategize(root: string) {
  const child = spawn(process.execPath, [BIN, '--store', root, '--format', 'json', 'plan', 'strategize', EXAMPLE_PLAN], {
    env: { ...process.env, NO_COLOR: '1', CI: 'true' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((res) =>
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr })),
  );
  return { child, closed };
}

/** A shell script as the store's actor (argv without a shell, run in the store folder). */
function useShellActor(root: string, script: string): void {
  writeFileSync(join(root, 'actors', 'actor.sh'), script, { mode: 0o755 });
  writeFileSync(
    join(root, 'config.yaml'),
    'version: 1\nreconciliation:\n  actor: command\n  command: [./actors/actor.sh]\n  timeout_ms: 60000\n',
  );
}

describe('plan strategize stopped while a shell actor runs', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'a second %s while the actor is being stopped still stops its whole group first: nothing of it left running',
    async (signal) => {
      const root = exampleStore();
      // The actor notes the SIGTERM it gets and goes on; its child ignores SIGTERM and would outlive both.
      useShellActor(
        root,
        `#!/bin/sh
trap 'echo > got-term' TERM
sh -c 'trap "" TERM; exec sleep 1000' &
echo $! > child.pid
echo $$ > actor.pid
while :; do wait; done
`,
      );
      const before = fileList(root);
      const run = startStrategize(root);
      expect(await appears(join(root, 'actor.pid'))).toBe(true);
      expect(await appears(join(root, 'child.pid'))).toBe(true);
      run.child.kill(signal);
      // The first stop reached the actor's group; the impatient second one comes while the run waits for it to end.
      expect(await appears(join(root, 'got-term'))).toBe(true);
      run.child.kill(signal);
      const r = await run.closed;
      expect([r.code, r.signal, JSON.parse(r.stdout).error.code], r.stderr).toEqual([signal === 'SIGINT' ? 130 : 143, null, 'cancelled']);
      expect(await gone(Number(readFileSync(join(root, 'actor.pid'), 'utf8')))).toBe(true);
      expect(await gone(Number(readFileSync(join(root, 'child.pid'), 'utf8')))).toBe(true);
      expect(fileList(root)).toEqual([...before, 'actor.pid', 'child.pid', 'got-term'].sort());
    },
  );
});

describe('plan strategize killed (SIGKILL) while a shell actor runs', () => {
  it('its actor group is stopped all the same (SIGTERM, then SIGKILL): nothing of it left running with no time-out to stop it', async () => {
    const root = exampleStore();
    // The actor reads its request first: sent once the run has set everything up, so the kill comes during the run.
    useShellActor(
      root,
      `#!/bin/sh
cat > /dev/null
trap 'echo > got-term' TERM
sh -c 'trap "" TERM; exec sleep 1000' &
echo $! > child.pid
echo $$ > actor.pid
while :; do wait; done
`,
    );
    const run = startStrategize(root);
    expect(await appears(join(root, 'actor.pid'))).toBe(true);
    expect(await appears(join(root, 'child.pid'))).toBe(true);
    // A CI runner's last resort, which no handler hears: the actor's group is out of its reach.
    run.child.kill('SIGKILL');
    expect((await run.closed).signal).toBe('SIGKILL');
    expect(await gone(Number(readFileSync(join(root, 'actor.pid'), 'utf8')))).toBe(true);
    expect(await gone(Number(readFileSync(join(root, 'child.pid'), 'utf8')))).toBe(true);
    // It was asked to stop first, as a time-out asks it.
    expect(existsSync(join(root, 'got-term'))).toBe(true);
  });
});

describe('two runs of plan strategize of one plan at once', () => {
  it('the second is refused at once (exit 2, strategize-running), its actor never asked; the first is recorded; a third runs', async () => {
    const root = exampleStore();
    // Each run of the actor leaves a mark, then waits (bounded) for the test to let it answer.
    useShellActor(
      root,
      `#!/bin/sh
echo $$ > started.$$
i=0
while [ ! -e release ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
exec node actors/example-actor.mjs
`,
    );
    const started = () => readdirSync(root).filter((f) => f.startsWith('started.'));
    const first = startStrategize(root);
    for (let waited = 0; waited < 10_000 && started().length === 0; waited += 50) await sleep(50);
    expect(started()).toHaveLength(1);
    const second = await startStrategize(root).closed;
    expect(second.code, second.stderr).toBe(2);
    const { error } = JSON.parse(second.stdout);
    expect([error.code, error.detail]).toEqual([
      'strategize-running',
      {
        plan: EXAMPLE_PLAN,
        lock: join(root, 'plans', EXAMPLE_PLAN, 'enforcement', '.lock'),
        pid: first.child.pid,
        host: hostname(),
        elsewhere: false,
      },
    ]);
    expect(started()).toHaveLength(1);
    writeFileSync(join(root, 'release'), '');
    const done = await first.closed;
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement')).toHaveLength(1);
    expect(existsSync(join(root, 'plans', EXAMPLE_PLAN, 'enforcement', '.lock'))).toBe(false);
    expect((await startStrategize(root).closed).code).toBe(0);
    expect(records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement')).toHaveLength(2);
  });

  it("a run's lock left by a process that is gone (killed mid-run) is cleared, said on stderr, and the run goes on", async () => {
    const root = exampleStore();
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const folder = join(root, 'plans', EXAMPLE_PLAN, 'enforcement');
    mkdirSync(folder);
    writeFileSync(join(folder, '.lock'), `${dead} ${hostname()} 2026-11-29T12:00:00.000Z\n`);
    const r = await startStrategize(root).closed;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`cleared a stale lock ${join(folder, '.lock')}: process ${dead} on ${hostname()} is gone`);
    expect(records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement')).toHaveLength(1);
    expect(existsSync(join(folder, '.lock'))).toBe(false);
  });
});
