import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { scale } from '../helpers/stress.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';
import { KillAim, runAndKill, runKilledAtUnlink, runStoppedAtRmdirIn, runStoppedAtUnlink } from './kill.ts';

const ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const TEXT = 'Never push to main';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json';

/** Every file of the store named by the invariant's id, a temporary's name included. */
function copies(store: string): string[] {
  return ['global', 'projects/web']
    .filter((d) => existsSync(join(store, d)))
    .flatMap((d) => readdirSync(join(store, d)).map((n) => `${d}/${n}`))
    .filter((p) => p.includes(ID))
    .sort();
}

async function validate(store: string, ...args: string[]) {
  const r = await runAgents(['--store', store, 'validate', '--format', 'json', ...args]);
  return { code: r.code, out: JSON.parse(r.stdout) };
}

/** After `validate --fix`: the invariant once, whole, and nothing else to report. */
async function expectOneCopyAfterFix(store: string): Promise<string> {
  const fixed = await validate(store, '--fix');
  expect(fixed.out.diagnostics).toEqual([]);
  expect(fixed.code).toBe(0);
  const left = copies(store);
  expect(left).toHaveLength(1);
  expect(readFileSync(join(store, left[0]!), 'utf8')).toContain(`text: ${TEXT}`);
  return left[0]!;
}

describe('invariant move and project remove at once', () => {
  // The removal paused as its lock is released and before its folder goes: a move waiting for that lock must not
  // find the emptied folder and fill it, which brought the project back without a word.
  it('a move into the project that project remove takes away makes the project anew and says so', async () => {
    const store = testStore({
      [`global/${ID}.yaml`]: `${ML}\n${invariantYaml(ID, TEXT)}`,
      'projects/web/project.yaml': 'description: Web\n',
    });
    const remover = runStoppedAtRmdirIn(['--store', store, 'project', 'remove', 'web'], join(store, 'projects'));
    try {
      await remover.stopped;
      const moved = await runAgents(['--store', store, '--format', 'json', 'invariant', 'move', ID, '--project', 'web']);
      expect(moved.code).toBe(0);
      expect(JSON.parse(moved.stdout).created_project).toBe('web');
    } finally {
      remover.resume();
    }
    expect((await remover.exit).code).toBe(0);
    expect(readdirSync(join(store, 'projects'))).toEqual(['web']);
    expect(copies(store)).toEqual([`projects/web/${ID}.yaml`]);
    expect((await validate(store, '--strict')).code).toBe(0);
  });
});

describe('invariant move cut short', () => {
  it('killed as it removes the old copy: validate names the move, --fix finishes it (the id once, in the destination)', async () => {
    const store = testStore({ [`global/${ID}.yaml`]: `${ML}\n${invariantYaml(ID, TEXT)}` });
    const killed = await runKilledAtUnlink(
      ['--store', store, 'invariant', 'move', ID, '--project', 'web'],
      join(store, `global/${ID}.yaml`),
    );
    expect(killed.killed).toBe(true);
    // Both copies, and the link that marks the one the move leaves.
    expect(copies(store).filter((p) => p.endsWith('.yaml'))).toEqual([`global/${ID}.yaml`, `projects/web/${ID}.yaml`]);
    const before = await validate(store);
    expect(before.code).toBe(1);
    expect(before.out.diagnostics.map((d: { code: string }) => d.code)).toContain('id-reused');
    const fixed = await validate(store, '--fix');
    expect(fixed.out.fixes).toContainEqual(expect.objectContaining({ file: `global/${ID}.yaml`, action: 'finish-move', done: true }));
    expect(await expectOneCopyAfterFix(store)).toBe(`projects/web/${ID}.yaml`);
    const listed = await runAgents(['--store', store, 'invariant', 'list', '--format', 'json']);
    expect(listed.code).toBe(0);
  });

  it('SIGTERM as it removes the old copy: the move ends first (one copy, in the destination; no lock, no mark), says what it made, then ends with 143', async () => {
    const store = testStore({ [`global/${ID}.yaml`]: `${ML}\n${invariantYaml(ID, TEXT)}` });
    const stopped = await runKilledAtUnlink(
      ['--store', store, '--format', 'json', 'invariant', 'move', ID, '--project', 'web'],
      join(store, `global/${ID}.yaml`),
      'SIGTERM',
    );
    expect([stopped.killed, stopped.code], stopped.stderr).toEqual([false, 143]);
    // The result is printed whole, as it would have been: a script learns what the move made.
    expect(JSON.parse(stopped.stdout)).toMatchObject({ id: ID });
    expect(stopped.stderr).toContain('SIGTERM');
    expect(copies(store)).toEqual([`projects/web/${ID}.yaml`]);
    expect(existsSync(join(store, 'global/.lock')) || existsSync(join(store, 'projects/web/.lock'))).toBe(false);
    expect((await validate(store, '--strict')).code).toBe(0);
  });

  const KILLS = scale(20, 4);
  it(`moved back and forth, killed at random points (${KILLS} kills): after validate --fix, the id once and the store clean`, async () => {
    const store = testStore({ [`global/${ID}.yaml`]: `${ML}\n${invariantYaml(ID, TEXT)}`, 'projects/web/': null });
    const moveAway = (at: string) => [
      '--store',
      store,
      'invariant',
      'move',
      ID,
      ...(at.startsWith('global/') ? ['--project', 'web'] : ['--global']),
    ];
    const calibration = await runAndKill(moveAway(`global/${ID}.yaml`), 60_000);
    expect(calibration).toMatchObject({ killed: false, code: 0 });
    const aim = new KillAim(0x307e, calibration.ms);
    let killed = 0;
    for (let i = 0; killed < KILLS && i < KILLS * 4; i++) {
      const at = await expectOneCopyAfterFix(store);
      const outcome = await runAndKill(moveAway(at), aim.next());
      if (outcome.killed) killed++;
      else expect(outcome.code).toBe(0);
      aim.learn(!existsSync(join(store, at)), outcome);
    }
    expect(killed).toBe(KILLS);
    await expectOneCopyAfterFix(store);
  });
});

describe('a write naming an invariant while another process moves it', () => {
  // The move paused between writing its new copy and removing the old one, the old one marked by its running
  // writer: a write that looks the id up then finds it in two scopes, which is the move under way, not a store
  // to repair (exit 3 told to give one copy a new id). It takes the new copy and waits for the move's lock.
  for (const [name, args] of [
    ['remove', ['invariant', 'remove', ID, '--yes']],
    ['edit', ['invariant', 'edit', ID, '--severity', 'warning']],
  ] as const)
    it(`${name} takes the moved copy and waits for the move, never refusing the store as invalid`, async () => {
      const store = testStore({ [`global/${ID}.yaml`]: `${ML}\n${invariantYaml(ID, TEXT)}` });
      const mover = runStoppedAtUnlink(['--store', store, 'invariant', 'move', ID, '--project', 'web'], join(store, `global/${ID}.yaml`));
      try {
        await mover.stopped;
        const waited = await runAgents(['--store', store, '--format', 'json', ...args], { env: { AGENTS_LOCK_TIMEOUT_MS: '200' } });
        expect(JSON.parse(waited.stdout).error.code).toBe('locked');
        expect(waited.code).toBe(2);
        // A reader meanwhile finds the invariant once, where the move puts it.
        const listed = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list']);
        expect(listed.code).toBe(0);
        expect(JSON.parse(listed.stdout).map((i: { path: string }) => i.path)).toEqual([`projects/web/${ID}.yaml`]);
      } finally {
        mover.resume();
      }
      expect((await mover.exit).code).toBe(0);
      const after = await runAgents(['--store', store, '--format', 'json', ...args]);
      expect(after.code).toBe(0);
      expect(copies(store)).toEqual(name === 'remove' ? [] : [`projects/web/${ID}.yaml`]);
      expect((await validate(store, '--strict')).code).toBe(0);
    });
});
