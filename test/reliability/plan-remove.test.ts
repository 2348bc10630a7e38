import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';
import { runKilledAtUnlink, runStoppedAtPlaceIn } from './kill.ts';

const PLANS_OF = (store: string) => readdirSync(join(store, 'plans'));

async function validate(store: string, ...args: string[]) {
  const r = await runAgents(['--store', store, 'validate', '--format', 'json', ...args]);
  return { code: r.code, out: JSON.parse(r.stdout) };
}

const remove = (store: string) => ['--store', store, '--format', 'json', 'plan', 'remove', EXAMPLE_PLAN, '--yes'];

// `plan remove` takes the plan's folder out in one rename (docs/guarantees.md): a crash leaves the plan whole or
// nothing of it, never a plan missing some of its records.
describe('plan remove killed', () => {
  it('just before its rename: the plan is whole, and the same command then removes it', async () => {
    const store = exampleStore();
    const before = fileList(join(store, 'plans', EXAMPLE_PLAN));
    const killed = await runKilledAtUnlink(remove(store), { placedIn: join(store, 'plans') });
    expect(killed.killed).toBe(true);
    expect(fileList(join(store, 'plans', EXAMPLE_PLAN)).filter((f) => f !== '.lock')).toEqual(before);
    const shown = await runAgents(['--store', store, 'plan', 'show', EXAMPLE_PLAN]);
    expect(shown.code, shown.stderr).toBe(0);
    const again = await runAgents(remove(store));
    expect(again.code, again.stderr).toBe(0);
    expect(PLANS_OF(store)).toEqual([]);
    expect((await validate(store)).code).toBe(0);
  });

  it('as it deletes the folder it renamed: no plan for a reader, and validate --fix removes what is left', async () => {
    const store = exampleStore();
    const killed = await runKilledAtUnlink(remove(store), { rmdirIn: join(store, 'plans') });
    expect(killed.killed).toBe(true);
    const listed = await runAgents(['--store', store, '--format', 'json', 'plan', 'list']);
    expect([listed.code, JSON.parse(listed.stdout)]).toEqual([0, []]);
    const fixed = await validate(store, '--fix');
    expect(fixed.code).toBe(0);
    expect(PLANS_OF(store)).toEqual([]);
    expect((await validate(store)).code).toBe(0);
  });
});

describe('plan remove racing plan strategize', () => {
  it('waits while strategize holds the plan’s lock (locked with a short timeout), then removes the plan with the run', async () => {
    const store = exampleStore();
    // Stopped as it puts its decision node in place, under the plan's lock (the run's own lock, in enforcement/, is
    // taken before the actor is asked, and is no writer's lock of the plan).
    const strategize = runStoppedAtPlaceIn(
      ['--store', store, 'plan', 'strategize', EXAMPLE_PLAN],
      join(store, 'plans', EXAMPLE_PLAN, 'decisions'),
    );
    let waited: Promise<Awaited<ReturnType<typeof runAgents>>> | undefined;
    try {
      await strategize.stopped;
      const short = await runAgents(remove(store), { env: { AGENTS_LOCK_TIMEOUT_MS: '200' } });
      expect([short.code, JSON.parse(short.stdout).error.code]).toEqual([2, 'locked']);
      expect(PLANS_OF(store)).toEqual([EXAMPLE_PLAN]);
      waited = runAgents(remove(store));
    } finally {
      strategize.resume();
    }
    expect((await strategize.exit).code).toBe(0);
    const done = await waited!;
    expect(done.code, done.stderr).toBe(0);
    const out = JSON.parse(done.stdout) as { removed: string[] };
    // The run strategize wrote before it let the lock go is removed with the plan.
    expect(out.removed.some((p) => p.startsWith(`plans/${EXAMPLE_PLAN}/enforcement/`))).toBe(true);
    expect(PLANS_OF(store)).toEqual([]);
    expect((await validate(store)).code).toBe(0);
  });
});
