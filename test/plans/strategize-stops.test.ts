// plan strategize stopped while its actor runs (docs/plans.md, "Timeouts"), and two runs of one plan at once.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';
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
