import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records, useActor, type DecisionFile, type EnforcementFile } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { runAgents, violationAdded } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';

const PYTHON = '01M8KK3EF09G9ET4TAJAHQWPMN'; // plan scope, error
const API_TESTS = '01M8KJXYP0GVPRF8KRRE9G8474'; // project myapp, error; shadows nothing

const READ_STDIN = `
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
`;

/** An actor that enforces every invariant except those whose text matches `decline`. */
function declining(decline: string): string {
  return `${READ_STDIN}
const no = new RegExp(${JSON.stringify(decline)});
process.stdout.write(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: !no.test(i.text), response: no.test(i.text) ? 'the plan cannot honour it' : 'ok' })) }));`;
}

interface StatusJson {
  failing: boolean;
  latest_enforcement: { enforced: number; total: number; error: string | null } | null;
  reasons: {
    code: string;
    level: string;
    allowed: boolean;
    invariant_id: string | null;
    severity: string | null;
    added: number | null;
    removed: number | null;
    edited: number | null;
  }[];
  unfinished_runs: string[];
}

async function status(root: string, ...extra: string[]): Promise<{ code: number; json: StatusJson; codes: string[] }> {
  const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'status', EXAMPLE_PLAN, ...extra]);
  const json = JSON.parse(r.stdout) as StatusJson;
  return { code: r.code, json, codes: json.reasons.map((x) => `${x.level}:${x.code}`) };
}

async function strategize(root: string) {
  return await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
}

describe('plan status is a gate', () => {
  it('fails a plan that was never reconciled; --allow not-run relaxes it', async () => {
    const root = exampleStore();
    expect(await status(root)).toMatchObject({ code: 1, codes: ['fail:not-run'] });
    const text = await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN]);
    expect(text.stdout).toContain(`FAILING  plan ${EXAMPLE_PLAN}`);
    expect(text.stdout).toContain('fail  not-run: the plan was never reconciled');
    expect(await status(root, '--allow', 'not-run')).toMatchObject({ code: 0, codes: ['report:not-run'] });
    // A reason given twice is listed once.
    const twice = await runAgents([
      '--store',
      root,
      '--format',
      'json',
      'plan',
      'status',
      EXAMPLE_PLAN,
      '--allow',
      'not-run',
      '--allow',
      'not-run',
    ]);
    expect(JSON.parse(twice.stdout).allowed).toEqual(['not-run']);
  });

  it("passes once every invariant of today's set is enforced", async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    expect(await status(root)).toMatchObject({
      code: 0,
      codes: [],
      json: { failing: false, latest_enforcement: { enforced: 4, total: 4 } },
    });
  });

  it('reports, never failing, an action template changed since the plan was made from it, until plan sync brings it in step', async () => {
    const root = exampleStore();
    const use = await runAgents(['--store', root, '--format', 'json', 'plan', 'use', 'local/code-coverage', '--project', 'myapp']);
    expect(use.code).toBe(0);
    const plan = JSON.parse(use.stdout).plan.id as string;
    const gate = async () => {
      const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'status', plan]);
      const json = JSON.parse(r.stdout) as { reasons: (StatusJson['reasons'][number] & { message: string })[] };
      return {
        code: r.code,
        reasons: json.reasons.map((x) => `${x.level}:${x.code}`),
        drift: json.reasons.find((x) => x.code === 'drift'),
      };
    };
    expect((await runAgents(['--store', root, 'plan', 'strategize', plan])).code).toBe(0);
    expect(await gate()).toMatchObject({ code: 0, reasons: [] });
    // The template tightened: the plan's copy, which its runs judge, is the old text.
    const origin = '01M8KK1KW0KPRSWWKENT2QZ1QM';
    expect((await runAgents(['--store', root, 'invariant', 'edit', origin, '--text', 'Minimum 90% coverage'])).code).toBe(0);
    const drifted = await gate();
    expect(drifted).toMatchObject({ code: 0, reasons: ['report:drift'] });
    expect(drifted.drift!.message).toContain(`plan sync ${plan}`);
    // plan sync applies it: the drift is gone, and the run is stale until the plan is strategized again.
    expect((await runAgents(['--store', root, 'plan', 'sync', plan, '--yes'])).code).toBe(0);
    expect(await gate()).toMatchObject({ code: 1, reasons: ['fail:stale'] });
    // An invalid file in the template, which the plan's set does not read: the drift is unknown, the gate still judges.
    const broken = join(root, 'actions', 'local', 'code-coverage', 'not-an-id.yaml');
    writeFileSync(broken, 'text: [\n');
    expect(await gate()).toMatchObject({ code: 1, reasons: ['fail:stale', 'report:drift'] });
    rmSync(broken);
    // A template whose folder is gone: said, not offered to sync (which refuses it).
    rmSync(join(root, 'actions', 'local', 'code-coverage'), { recursive: true });
    const gone = await gate();
    expect(gone.reasons).toContain('report:drift');
    expect(gone.drift!.message).not.toContain('plan sync');
  });

  it('fails after an actor time-out (0 of 4 enforced), naming the run failure and each error invariant', async () => {
    const root = exampleStore();
    useActor(root, 'setInterval(() => {}, 1000);', 500);
    expect((await strategize(root)).code).toBe(1);
    const s = await status(root);
    expect(s.code).toBe(1);
    expect(s.json.latest_enforcement).toMatchObject({ enforced: 0, total: 4 });
    expect(s.codes).toEqual(['fail:run-failed', 'fail:unenforced', 'fail:unenforced', 'fail:unenforced', 'report:unenforced']); // the example's warning invariant only reports
    // Relaxing the run failure alone still fails on the unenforced error invariants.
    expect((await status(root, '--allow', 'run-failed')).code).toBe(1);
    expect((await status(root, '--allow', 'run-failed', '--allow', 'unenforced')).code).toBe(0);
  });

  it('fails when an error invariant is unenforced; a warning one only reports', async () => {
    const root = exampleStore();
    useActor(root, declining('Python'));
    expect((await strategize(root)).code).toBe(1);
    const s = await status(root);
    expect(s.code).toBe(1);
    expect(s.json.reasons.filter((r) => r.code === 'unenforced')).toEqual([
      expect.objectContaining({ level: 'fail', invariant_id: PYTHON, severity: 'error' }),
    ]);

    const warned = exampleStore();
    const add = await runAgents([
      '--store',
      warned,
      '--format',
      'json',
      'invariant',
      'add',
      '--plan',
      EXAMPLE_PLAN,
      '--severity',
      'warning',
      'Prefer small commits',
    ]);
    expect(add.code).toBe(0);
    useActor(warned, declining('small commits'));
    expect((await strategize(warned)).code).toBe(1);
    const w = await status(warned);
    expect(w.code).toBe(0);
    expect(w.codes).toEqual(['report:unenforced']);
    expect(w.json.reasons[0]).toMatchObject({ severity: 'warning', invariant_id: JSON.parse(add.stdout).id });
  });

  it('fails when the effective set changed after the latest run: an invariant added, or one edited in place', async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    const add = await runAgents([
      '--store',
      root,
      '--format',
      'json',
      'invariant',
      'add',
      '--plan',
      EXAMPLE_PLAN,
      'Keep the API backwards compatible',
    ]);
    expect(add.code).toBe(0);
    const added = JSON.parse(add.stdout).id as string;
    // The new error invariant was judged by no run: it is unenforced too, which allowing the stale run does not pass.
    expect(await status(root)).toMatchObject({ code: 1, codes: ['fail:stale', 'fail:unenforced'] });
    const allowed = await status(root, '--allow', 'stale');
    expect(allowed).toMatchObject({ code: 1, codes: ['fail:unenforced', 'report:stale'] });
    expect(allowed.json.reasons[0]).toMatchObject({ code: 'unenforced', invariant_id: added, severity: 'error' });
    expect((await status(root, '--allow', 'stale', '--allow', 'unenforced')).code).toBe(0);
    expect((await strategize(root)).code).toBe(0);
    expect((await status(root)).code).toBe(0);

    // Same ids, one text edited by hand: the run no longer covers what the set says.
    const file = join(root, `plans/${EXAMPLE_PLAN}/${PYTHON}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Use Python 3.13 only', 'Use Python 3.12 only'));
    expect(await status(root)).toMatchObject({ code: 1, codes: ['fail:stale'] });
  });

  it('the command a not-run or stale reason says to run works as written, for a plan named by a prefix', async () => {
    const root = exampleStore();
    /** The command in the reason's backticks, run as its words: what a user types after reading it, --store and all. */
    const follow = async (code: string) => {
      const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'status', EXAMPLE_PLAN.slice(0, 8)]);
      const reason = (JSON.parse(r.stdout) as { reasons: { code: string; message: string }[] }).reasons.find((x) => x.code === code);
      // Pasted as it is: it names the --store the status was given.
      const words = shellWords(/`agents ([^`]+)`/.exec(reason?.message ?? '')?.[1] ?? '');
      expect(words.slice(0, 4)).toEqual(['--store', root, 'plan', 'strategize']);
      return await runAgents(words);
    };
    expect((await follow('not-run')).code).toBe(0);
    expect((await status(root)).code).toBe(0);
    const add = await runAgents(['--store', root, 'invariant', 'add', '--plan', EXAMPLE_PLAN, 'Keep the API backwards compatible']);
    expect(add.code).toBe(0);
    expect((await follow('stale')).code).toBe(0);
    expect(await status(root)).toMatchObject({ code: 0, codes: [] });
  });

  it('an error violation names itself and the command that resolves it, which works as written', async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    const add = await violationAdded(root, EXAMPLE_PLAN, PYTHON);
    expect(add.code).toBe(0);
    const id = add.id!;
    const failing = await status(root);
    expect(failing).toMatchObject({ code: 1, codes: ['fail:error-violation'] });
    const message = (
      JSON.parse((await runAgents(['--store', root, '--format', 'json', 'plan', 'status', EXAMPLE_PLAN])).stdout) as {
        reasons: { message: string }[];
      }
    ).reasons[0]!.message;
    expect(message).toContain(id);
    // Pasted as it is: it names the --store the status was given.
    const words = shellWords(/`agents ([^`]+)`/.exec(message)?.[1] ?? '');
    expect(words.slice(0, 2)).toEqual(['--store', root]);
    expect((await runAgents(words)).code).toBe(0);
    expect(await status(root)).toMatchObject({ code: 0, codes: [] });
  });

  it('counts what changed since a run: one invariant edited, one added, one removed', async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    expect(run!.records.map((r) => r.digest)).toEqual(run!.records.map(() => expect.stringMatching(/^sha256:[0-9a-f]{64}$/)));
    // An unchanged set is not stale.
    expect(await status(root)).toMatchObject({ code: 0, codes: [] });

    const file = join(root, `plans/${EXAMPLE_PLAN}/${PYTHON}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Use Python 3.13 only', 'Use Python 3.12 only'));
    const add = await runAgents(['--store', root, 'invariant', 'add', '--plan', EXAMPLE_PLAN, 'Keep the API backwards compatible']);
    expect(add.code).toBe(0);
    rmSync(join(root, `projects/myapp/${API_TESTS}.yaml`));
    const s = await status(root);
    expect(s).toMatchObject({ code: 1, codes: ['fail:stale', 'fail:unenforced'] });
    expect(s.json.reasons[0]).toMatchObject({ code: 'stale', added: 1, removed: 1, edited: 1 });

    // Another run covers today's set: nothing is stale.
    expect((await strategize(root)).code).toBe(0);
    expect(await status(root)).toMatchObject({ code: 0, codes: [] });
  });

  it('a run written before records kept a digest is still stale when the set changed, without a count of edits', async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    const runFile = join(root, `plans/${EXAMPLE_PLAN}/enforcement/${run!.id}.yaml`);
    // The format of older runs: records without `digest` (the folded key and its value line).
    writeFileSync(runFile, readFileSync(runFile, 'utf8').replace(/^ {4}digest: >-\n {6}sha256:[0-9a-f]{64}\n/gm, ''));
    expect(records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement')[0]!.records.every((r) => r.digest === undefined)).toBe(true);
    expect(await status(root)).toMatchObject({ code: 0, codes: [] });

    const file = join(root, `plans/${EXAMPLE_PLAN}/${PYTHON}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Use Python 3.13 only', 'Use Python 3.12 only'));
    const s = await status(root);
    expect(s).toMatchObject({ code: 1, codes: ['fail:stale'] });
    expect(s.json.reasons[0]).toMatchObject({ code: 'stale', added: 0, removed: 0, edited: null });
  });

  it('never takes an enforcement file that no decision node names as a run (an interrupted write)', async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    const [node] = records<DecisionFile>(root, EXAMPLE_PLAN, 'decisions');
    // Keep only the enforcement file: what a failed second write used to leave.
    rmSync(join(root, `plans/${EXAMPLE_PLAN}/decisions/${node!.id}.yaml`));
    const s = await status(root);
    expect(s.code).toBe(1);
    expect(s.codes).toEqual(['fail:not-run', 'report:unfinished-run']);
    expect(s.json.unfinished_runs).toEqual([run!.id]);
    expect(s.json.latest_enforcement).toBeNull();
    const show = JSON.parse((await runAgents(['--store', root, '--format', 'json', 'plan', 'show', EXAMPLE_PLAN])).stdout);
    expect(show.latest_enforcement).toBeNull();
  });

  it('fails when the latest decision node names an enforcement file that is gone', async () => {
    const root = exampleStore();
    expect((await strategize(root)).code).toBe(0);
    const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    rmSync(join(root, `plans/${EXAMPLE_PLAN}/enforcement/${run!.id}.yaml`));
    const gone = await status(root);
    expect(gone).toMatchObject({ code: 1 });
    expect(gone.codes).toContain('fail:run-incomplete');
    expect(gone.codes).toContain('fail:unenforced');
    // Allowing the incomplete run does not pass error invariants no record shows enforced.
    const r = await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'run-incomplete']);
    expect(r.code).toBe(1);
  });

  it('a plan folder that lost its plan.yaml is an invalid store (exit 3, plan-missing), by id or prefix, not an unknown plan', async () => {
    const root = exampleStore();
    rmSync(join(root, `plans/${EXAMPLE_PLAN}/plan.yaml`));
    for (const id of [EXAMPLE_PLAN, EXAMPLE_PLAN.slice(0, 8)]) {
      const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'status', id]);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([
        ['plan-missing', `plans/${EXAMPLE_PLAN}/plan.yaml`],
      ]);
    }
    // A plan that has no folder at all is still unknown (exit 2), in the same words and detail wherever it is named.
    const gone = '01M8KK5920RS6CGAVDFVYYJ0B5';
    const errors = [];
    for (const args of [
      ['plan', 'status', gone],
      ['invariant', 'list', '--plan', gone],
      ['invariant', 'list', '--effective', '--plan', gone],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', ...args]);
      expect(r.code).toBe(2);
      errors.push(JSON.parse(r.stdout).error);
    }
    expect(errors[0]).toMatchObject({ code: 'unknown-id', detail: { id: gone } });
    expect(errors[1]).toEqual(errors[0]);
    expect(errors[2]).toEqual(errors[0]);
  });

  it('refuses an --allow value it does not know (exit 2)', async () => {
    const root = exampleStore();
    const r = await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'error-violation']);
    expect(r.code).toBe(2);
  });
});

describe('strategize writes its two records together or not at all', () => {
  it('writes neither record when the actor leaves a file where the decisions folder goes: exit 3 naming it, nothing changed', async () => {
    const root = exampleStore();
    // The actor puts a plain file where the decisions/ folder must go (the undoing of a second write that fails is
    // test/store/atomic-write.test.ts's): the records are read again under the plan's lock, and refused.
    useActor(
      root,
      `${READ_STDIN}
import { writeFileSync } from 'node:fs';
writeFileSync('plans/${EXAMPLE_PLAN}/decisions', 'not a folder');
process.stdout.write(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));`,
    );
    const before = fileList(root);
    const r = await strategize(root);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`plans/${EXAMPLE_PLAN}/decisions`);
    expect(fileList(root)).toEqual([...before, `plans/${EXAMPLE_PLAN}/decisions`].sort());
    rmSync(join(root, `plans/${EXAMPLE_PLAN}/decisions`));
    expect(await status(root)).toMatchObject({ code: 1, codes: ['fail:not-run'] });
  });

  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;

  it('on a full disk (a small tmpfs) leaves neither record, and plan status does not pass', async (ctx) => {
    const dir = tempDir();
    const mnt = join(dir, 'disk');
    mkdirSync(mnt);
    const mounted = canMount && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]).status === 0;
    if (!mounted) {
      console.log('skipped: cannot mount a tmpfs here (needs root and mount); the injected-failure test above covers the rollback');
      ctx.skip();
      return;
    }
    onTestFinished(() => {
      spawnSync('umount', [mnt]);
    });
    const root = join(mnt, '.agents');
    cpSync(join(REPO, '.agents.example'), root, { recursive: true });
    // Before it answers, the actor fills the disk and then frees exactly two pages: enough for
    // the writer's lock and the enforcement file, not for the decision node.
    useActor(
      root,
      `${READ_STDIN}
import { openSync, writeSync, ftruncateSync, fstatSync, closeSync } from 'node:fs';
const fd = openSync('filler', 'w');
const block = Buffer.alloc(4096, 1);
try { for (;;) writeSync(fd, block); } catch (e) { if (e.code !== 'ENOSPC') throw e; }
ftruncateSync(fd, fstatSync(fd).size - (fstatSync(fd).size % 4096) - 2 * 4096);
closeSync(fd);
process.stdout.write(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));`,
    );
    const before = fileList(root);
    const r = await strategize(root);
    expect(r.stderr).toMatch(new RegExp(`cannot write plans/${EXAMPLE_PLAN}/decisions/[0-9A-Z]{26}\\.yaml: the disk is full`));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Nothing was changed');
    expect(fileList(root).filter((f) => f !== 'filler')).toEqual(before);
    expect(
      readdirSync(join(root, `plans/${EXAMPLE_PLAN}`))
        .filter((f) => f === 'enforcement' || f === 'decisions')
        .flatMap((d) => readdirSync(join(root, `plans/${EXAMPLE_PLAN}`, d))),
    ).toEqual([]);
    expect(await status(root)).toMatchObject({ code: 1, codes: ['fail:not-run'] });
    // With room again, the next run lands whole.
    rmSync(join(root, 'filler'));
    useActor(root, declining('^$'));
    expect((await strategize(root)).code).toBe(0);
    expect((await status(root)).code).toBe(0);
  });
});
