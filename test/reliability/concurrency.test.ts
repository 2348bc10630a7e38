import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isUlid } from '../../src/core/names.ts';
import { parseInvariant } from '../../src/core/parse.ts';
import { agents, agentsAsync, spawnAsync } from '../helpers/cli.ts';
import { scale } from '../helpers/stress.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { testStore } from '../helpers/tmp.ts';

const PROCESSES = 8;
const ADD_LOOP = fileURLToPath(new URL('./add-loop.mjs', import.meta.url));
/** 50 each under `npm run test:stress`; 12 each in `npm test`, which still races 8 writers for one lock. */
const ADDS_EACH = scale(50, 12);

describe('concurrent writers of one scope', () => {
  it(
    `${PROCESSES} processes × ${ADDS_EACH} adds of distinct texts: every add lands once, nothing is lost`,
    async () => {
      const store = testStore();
      // Each process runs its adds one after another, back to back, through the library's `add` (the one the CLI
      // runs, under the same scope lock); the processes race each other. One process per writer rather than one per
      // add: the race is between processes, and a writer that never pauses to start up holds the lock more often.
      const runs = await Promise.all(
        Array.from({ length: PROCESSES }, (_, w) => spawnAsync(process.execPath, [ADD_LOOP, store, 'race', String(w), String(ADDS_EACH)])),
      );

      expect(runs.map((r) => r.stderr)).toEqual(runs.map(() => ''));
      expect(runs.map((r) => r.code)).toEqual(runs.map(() => 0));
      const reported = runs.flatMap((r) => r.stdout.trim().split('\n')).map((line) => (JSON.parse(line) as { id: string }).id);
      expect(reported).toHaveLength(PROCESSES * ADDS_EACH);
      expect(new Set(reported).size).toBe(PROCESSES * ADDS_EACH);

      const dir = join(store, 'projects/race');
      const names = readdirSync(dir);
      // Only the invariant files are left: no lock, no temporary.
      expect(names.filter((n) => !n.endsWith('.yaml'))).toEqual([]);
      expect(names).toHaveLength(PROCESSES * ADDS_EACH);
      const texts = new Set<string>();
      for (const name of names) {
        const id = name.slice(0, -'.yaml'.length);
        expect(isUlid(id)).toBe(true);
        const parsed = parseInvariant(`projects/race/${name}`, readFileSync(join(dir, name)), { kind: 'project', project: 'race' }, id);
        expect(parsed.diagnostics).toEqual([]);
        texts.add(parsed.value!.text);
      }
      expect(texts.size).toBe(PROCESSES * ADDS_EACH);
      expect(new Set(reported)).toEqual(new Set(names.map((n) => n.slice(0, -'.yaml'.length))));

      const listed = agents(['--store', store, '--format', 'json', 'invariant', 'list', '--project', 'race']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toHaveLength(PROCESSES * ADDS_EACH);
      console.log(
        `concurrency: ${PROCESSES} processes raced ${reported.length} adds into one scope; ${names.length} files, ${new Set(reported).size} distinct ids, 0 lost`,
      );
      // Slow by design (a named slow test): many processes racing for one scope's lock.
    },
    scale(600_000, 120_000),
  );

  it('6 processes add the same text at once: exactly one succeeds, the others exit 1 naming its id', async () => {
    const store = testStore();
    const text = 'Never force-push to main';
    const results = await Promise.all(
      Array.from({ length: 6 }, () => agentsAsync(['--store', store, '--format', 'json', 'invariant', 'add', '--global', text])),
    );
    const ok = results.filter((r) => r.code === 0);
    expect(ok).toHaveLength(1);
    const id = (JSON.parse(ok[0]!.stdout) as { id: string }).id;
    const refused = results.filter((r) => r.code !== 0);
    expect(refused.map((r) => r.code)).toEqual([1, 1, 1, 1, 1]);
    for (const r of refused) expect(r.stderr).toContain(id);
    expect(readdirSync(join(store, 'global')).filter((n) => n.endsWith('.yaml'))).toEqual([`${id}.yaml`]);
  });

  it('6 processes add the same new project at once: one makes it, the others refuse it as existing (project-exists)', async () => {
    const store = testStore();
    for (const round of [1, 2, 3]) {
      const project = `race${round}`;
      const results = await Promise.all(
        Array.from({ length: 6 }, () => agentsAsync(['--store', store, '--format', 'json', 'project', 'add', project])),
      );
      expect(results.filter((r) => r.code === 0)).toHaveLength(1);
      // One code for the loser, whether it looked before or after the winner's write (the rename refused, then).
      const refused = results.filter((r) => r.code !== 0).map((r) => [r.code, JSON.parse(r.stdout).error]);
      expect(refused).toEqual(
        Array.from({ length: 5 }, () => [2, expect.objectContaining({ code: 'project-exists', detail: { project } })]),
      );
      expect(readdirSync(join(store, `projects/${project}`))).toEqual(['.gitkeep']);
    }
  });

  // A refused change takes back the folder its lock made (docs/adr/0112), and only while it is empty: a writer racing
  // it for the same new folder still lands whole (if the folder goes between its mkdir and its lock, it makes it again;
  // that window is too short to hit on purpose here).
  it('3 refused adds of a new action template race 1 good one: the good one lands, and nothing else is left', async () => {
    const store = testStore();
    for (const round of [1, 2, 3]) {
      const add = (description: string) => agentsAsync(['--store', store, 'action', 'add', `race/t${round}`, '--description', description]);
      const [good, ...bad] = await Promise.all([add('Ship it'), add('bad\u202e'), add('bad\u202e'), add('bad\u202e')]);
      expect(good!.stderr).toBe('');
      expect(good!.code).toBe(0);
      expect(bad.map((r) => r.code)).toEqual([2, 2, 2]);
      expect(readdirSync(join(store, `actions/race/t${round}`))).toEqual(['action.yaml']);
    }
  });
});

describe('concurrent writers with --commit', () => {
  // Agents call tools in parallel: each --commit makes its own commit holding exactly its file, and reports that
  // commit's id, however the runs interleave (git's own index lock would otherwise refuse all but one).
  it('6 adds with --commit at once: 6 commits, each holding its own file, each reported by the run that made it', async () => {
    const store = testStore();
    const repo = dirname(store);
    gitInit(repo);
    commitAll(repo, 'the store');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, k) =>
        agentsAsync(['--store', store, '--format', 'json', 'invariant', 'add', '--global', `Rule number ${k}`, '--commit'], { cwd: repo }),
      ),
    );
    // Nothing on stderr but, on a loaded machine, the note of a turn that took a second to come.
    const said = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('agents: waiting for '));
    expect(results.map((r) => [r.code, said(r.stderr)])).toEqual(Array.from({ length: 6 }, () => [0, []]));
    for (const r of results) {
      const { id, commit } = JSON.parse(r.stdout) as { id: string; commit: string };
      expect(git(repo, 'show', '--name-only', '--format=', commit).trim()).toBe(`.agents/global/${id}.yaml`);
    }
    expect(git(repo, 'rev-list', '--count', 'HEAD').trim()).toBe('7');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('waits for the commit lock of a live writer, then stops with exit 2 and writes nothing', async () => {
    const store = testStore();
    const repo = dirname(store);
    gitInit(repo);
    commitAll(repo, 'the store');
    writeFileSync(join(store, '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const r = await agentsAsync(['--store', store, 'invariant', 'add', '--global', 'Keep a changelog', '--commit'], {
      cwd: repo,
      env: { AGENTS_LOCK_TIMEOUT_MS: '200' },
    });
    expect(r.code).toBe(2);
    expect(readdirSync(join(store, 'global'))).toEqual([]);
    // Nothing but the planted lock.
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .agents/.lock\n');
  });
});
