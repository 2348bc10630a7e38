import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentsError, CancelledError, cancelledBy } from '../../src/core/errors.ts';
import { planSync } from '../../src/core/records.ts';
import { shellPath } from '../../src/core/shell-word.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { PlanService } from '../../src/service/plan-service.ts';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { exampleStore, fileList, readYaml } from '../helpers/plans.ts';
import { invariantYaml } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';
import { runSignalledWhileHolding } from '../reliability/kill.ts';
import { withFolderLock } from '../../src/store/lock.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const A1 = '01M8KK1KW0KPRSWWKENT2QZ1QM'; // local/code-coverage: "Minimum 80% coverage"
const ACTION = 'actions/local/code-coverage';

async function run(root: string, ...args: string[]) {
  return await runAgents(['--store', root, ...args]);
}

async function json<T = Record<string, unknown>>(root: string, ...args: string[]): Promise<T> {
  const r = await run(root, ...args, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}

interface SyncJson {
  applied: boolean;
  changes: {
    kind: string;
    origin_id: string;
    plan_invariant_id: string | null;
    fields: string[];
    before: { text: string } | null;
    after: { id?: string; text: string; severity: string; source?: unknown } | null;
  }[];
  skipped: { kind: string; origin_id: string; reason: string }[];
  commit: string | null;
}

/**
 * The example store in a git repository with a plan made from local/code-coverage
 * (two promoted invariants), a hand-added plan invariant, then the template moved on:
 * A1 edited, the second origin deleted, one invariant added, and one added whose text
 * the plan already holds by hand.
 */
async function drifted() {
  const root = exampleStore();
  const repo = dirname(root);
  gitInit(repo);
  const [second, hand, added, clash] = [
    '01M8KK1KW0KPRSWWKENT2QZ1Q1',
    '01M8KK1KW0KPRSWWKENT2QZ1Q2',
    '01M8KK1KW0KPRSWWKENT2QZ1Q3',
    '01M8KK1KW0KPRSWWKENT2QZ1Q4',
  ];
  const write = (rel: string, id: string, text: string, extra: Record<string, string> = {}) =>
    writeFileSync(
      join(root, rel, `${id}.yaml`),
      `# yaml-language-server: $schema=../../${rel.startsWith('plans') ? '' : '../'}schemas/invariant.schema.json\n${invariantYaml(id, text, extra)}`,
    );
  write(ACTION, second, 'Keep the coverage report');
  const plan = await json<{ plan: { id: string }; promoted: { id: string; source: { origin_id: string } }[] }>(
    root,
    'plan',
    'use',
    'local/code-coverage',
    '--project',
    'myapp',
  );
  const planId = plan.plan.id;
  const promotedOf = (origin: string) => plan.promoted.find((p) => p.source.origin_id === origin)!.id;
  write(`plans/${planId}`, hand, 'Run the mutation tests nightly', { source: '{kind: plan}' });
  commitAll(repo, 'plan');
  const a1 = join(root, ACTION, `${A1}.yaml`);
  writeFileSync(
    a1,
    readFileSync(a1, 'utf8')
      .replace('text: Minimum 80% coverage', 'text: Minimum 85% coverage')
      .replace('severity: error', 'severity: warning'),
  );
  rmSync(join(root, ACTION, `${second}.yaml`));
  write(ACTION, added, 'Publish the coverage badge');
  write(ACTION, clash, 'Run the mutation tests nightly');
  commitAll(repo, 'the template moves on');
  return { root, repo, planId, p1: promotedOf(A1), p2: promotedOf(second), second, hand, added, clash };
}

describe('plan sync (CLI, on a git repository)', () => {
  it('shows the drift, asks for --yes without a terminal, and applies it with provenance kept', async () => {
    const d = await drifted();
    const before = fileList(d.root);
    const handBytes = readFileSync(join(d.root, 'plans', d.planId, `${d.hand}.yaml`), 'utf8');
    const p1Before = readYaml(d.root, `plans/${d.planId}/${d.p1}.yaml`);

    // No terminal, no --yes: exit 2 naming --yes, nothing changed.
    const refused = await run(d.root, 'plan', 'sync', d.planId);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('confirmation needed');
    // The preview it would apply is printed all the same (on stderr: a failure prints nothing on stdout), and the
    // JSON error counts its changes.
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`would sync plan ${d.planId}: 3 changes`);
    const refusedJson = await run(d.root, '--format', 'json', 'plan', 'sync', d.planId);
    expect(JSON.parse(refusedJson.stdout).error).toMatchObject({ code: 'confirmation-needed', detail: { flag: '--yes', changes: 3 } });
    expect(fileList(d.root)).toEqual(before);

    const preview = await json<SyncJson>(d.root, 'plan', 'sync', d.planId.slice(0, 10), '--dry-run');
    expect(preview.applied).toBe(false);
    expect(preview.changes.map((c) => [c.kind, c.origin_id, c.plan_invariant_id, c.fields])).toEqual([
      ['removed', d.second, d.p2, []],
      ['changed', A1, d.p1, ['text', 'severity']],
      ['added', d.added, null, []],
    ]);
    expect(preview.skipped).toEqual([
      { kind: 'added', action: 'local/code-coverage', origin_id: d.clash, reason: `the plan already holds this text as ${d.hand}` },
    ]);
    expect(fileList(d.root)).toEqual(before);

    const done = await json<SyncJson>(d.root, 'plan', 'sync', d.planId, '--yes', '--commit');
    expect(done.applied).toBe(true);
    const newId = done.changes.find((c) => c.kind === 'added')!.plan_invariant_id!;
    expect(newId).toMatch(/^[0-9A-Z]{26}$/);
    // The changed copy keeps its id, creation and provenance; takes the new text and severity.
    expect(readYaml(d.root, `plans/${d.planId}/${d.p1}.yaml`)).toEqual({ ...p1Before, text: 'Minimum 85% coverage', severity: 'warning' });
    // The copy whose origin is gone is removed; the new origin is promoted with its provenance.
    const files = fileList(d.root);
    expect(files).not.toContain(`plans/${d.planId}/${d.p2}.yaml`);
    expect(readYaml(d.root, `plans/${d.planId}/${newId}.yaml`)).toMatchObject({
      id: newId,
      text: 'Publish the coverage badge',
      source: { kind: 'action', ref: 'local/code-coverage', origin_id: d.added },
    });
    // The hand-added invariant is untouched, byte for byte.
    expect(readFileSync(join(d.root, 'plans', d.planId, `${d.hand}.yaml`), 'utf8')).toBe(handBytes);
    // One commit holding exactly these three files.
    expect(git(d.repo, 'log', '-1', '--format=%H %s').trim()).toBe(
      `${done.commit} plan: sync ${d.planId} with local/code-coverage (1 changed, 1 added, 1 removed)`,
    );
    expect(git(d.repo, 'show', '--name-only', '--no-renames', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(
      [
        `.agents/plans/${d.planId}/${d.p1}.yaml`,
        `.agents/plans/${d.planId}/${d.p2}.yaml`,
        `.agents/plans/${d.planId}/${newId}.yaml`,
      ].sort(),
    );
    expect(git(d.repo, 'status', '--porcelain').trim()).toBe('');

    // In step now (apart from the skipped clash), and the store is valid.
    const again = await json<SyncJson>(d.root, 'plan', 'sync', d.planId, '--yes');
    expect([again.applied, again.changes, again.skipped.map((s) => s.origin_id)]).toEqual([false, [], [d.clash]]);
    expect((await run(d.root, 'plan', 'sync', d.planId)).code).toBe(0);
    const show = await json<{ drift: { kind: string; origin_id: string }[] }>(d.root, 'plan', 'show', d.planId);
    expect(show.drift.map((x) => [x.kind, x.origin_id])).toEqual([['added', d.clash]]);
    expect((await run(d.root, 'validate')).code).toBe(0);
  });

  it('prints the changes for people', async () => {
    const d = await drifted();
    // Before: plan show says which added origin the plan holds already (by hand), as sync will skip it.
    const shown = (await run(d.root, 'plan', 'show', d.planId)).stdout;
    expect(shown).toContain(
      `added    ${d.clash} to local/code-coverage: "Run the mutation tests nightly" — the plan holds this text as ${d.hand}`,
    );
    expect(shown).toContain(`added    ${d.added} to local/code-coverage: "Publish the coverage badge" is not in the plan`);
    const r = await run(d.root, 'plan', 'sync', d.planId, '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`synced plan ${d.planId}: 3 changes`);
    expect(r.stdout).toContain('"Minimum 80% coverage" → "Minimum 85% coverage"');
    expect(r.stdout).toContain('severity error → warning');
    expect(r.stdout).toContain(`removed  ${d.p2} "Keep the coverage report"`);
    expect(r.stdout).toContain(`skipped  added ${d.clash}: the plan already holds this text as ${d.hand}`);
  });

  it.each([
    ['an unknown plan', ['01M8ZZZZZZ', '--yes'], 'no plan'],
    ['a bad id', ['x!', '--yes'], 'not a plan id'],
    ['--yes with --dry-run', ['PLAN', '--yes', '--dry-run'], 'cannot be combined'],
    ['no id', [], 'needs an id'],
  ])('refuses %s: exit 2, nothing changed', async (_name, args, message) => {
    const d = await drifted();
    const before = fileList(d.root);
    const r = await run(d.root, 'plan', 'sync', ...args.map((a) => (a === 'PLAN' ? d.planId : a)));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(fileList(d.root)).toEqual(before);
  });

  it('a write the store refuses part-way: exit 2, write-failed naming the files already changed; the next sync makes the rest', async () => {
    const d = await drifted();
    // The copy to remove, bind-mounted onto itself: it cannot be unlinked, even by root (EBUSY).
    const p2 = join(d.root, 'plans', d.planId, `${d.p2}.yaml`);
    const bound = process.getuid?.() === 0 && spawnSync('mount', ['--bind', p2, p2]).status === 0;
    if (!bound) {
      console.log('skipped: cannot bind-mount here (needs root and mount)');
      return;
    }
    let r: Awaited<ReturnType<typeof run>>;
    try {
      r = await run(d.root, '--format', 'json', 'plan', 'sync', d.planId, '--yes');
    } finally {
      spawnSync('umount', [p2]);
    }
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe('write-failed');
    // The changed copy and the new one were written before the removal was refused.
    expect(error.detail.written).toHaveLength(2);
    expect(error.detail.written[0]).toBe(`plans/${d.planId}/${d.p1}.yaml`);
    expect(readYaml(d.root, `plans/${d.planId}/${d.p1}.yaml`)).toMatchObject({ text: 'Minimum 85% coverage' });
    expect(existsSync(join(d.root, error.detail.written[1]))).toBe(true);
    const rest = await json<SyncJson>(d.root, 'plan', 'sync', d.planId, '--yes');
    expect(rest.changes.map((c) => [c.kind, c.plan_invariant_id])).toEqual([['removed', d.p2]]);
    expect(existsSync(p2)).toBe(false);
  });

  it('refuses a template whose folder is gone (renamed or removed) with exit 2, and removes nothing', async () => {
    const d = await drifted();
    renameSync(join(d.root, ACTION), join(d.root, 'actions/local/coverage-renamed'));
    const before = fileList(d.root);
    const r = await run(d.root, 'plan', 'sync', d.planId, '--yes', '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'action-gone', detail: { actions: ['local/code-coverage'] } });
    expect(JSON.parse(r.stdout).error.hint).toContain(`\`agents --store ${shellPath(d.root)} invariant remove ID\``);
    // A library caller is told the library's call, never the command line's command.
    const library = await new PlanService(new InvariantService(d.root))
      .sync(d.planId, { apply: true })
      .then(undefined, (error: unknown) => error as AgentsError);
    expect(library).toMatchObject({ code: 'action-gone', exitCode: 2, hint: expect.stringContaining('`InvariantService.remove(id)`') });
    expect((library as AgentsError).hint).not.toMatch(/--|`agents /);
    expect(fileList(d.root)).toEqual(before);
    expect(existsSync(join(d.root, 'plans', d.planId, `${d.p1}.yaml`))).toBe(true);
  });

  it('a gone template whose copies were removed by hand, as the refusal says, leaves the plan in step (exit 0)', async () => {
    const d = await drifted();
    rmSync(join(d.root, ACTION), { recursive: true });
    for (const id of [d.p1, d.p2]) expect((await run(d.root, 'invariant', 'remove', id, '--yes')).code).toBe(0);
    const before = fileList(d.root);
    const r = await json<SyncJson>(d.root, 'plan', 'sync', d.planId, '--yes');
    expect(r.changes).toEqual([]);
    expect(fileList(d.root)).toEqual(before);
  });

  it('refuses an invalid action file with exit 3, naming it; nothing changed', async () => {
    const d = await drifted();
    writeFileSync(join(d.root, ACTION, `${d.added}.yaml`), `id: ${d.added}\ntext: x\nseverity: fatal\n`);
    const before = fileList(d.root);
    const r = await run(d.root, 'plan', 'sync', d.planId, '--yes');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${ACTION}/${d.added}.yaml:3`);
    expect(fileList(d.root)).toEqual(before);
  });
});

describe('planSync (pure)', () => {
  const inv = (id: string, text: string, scope: ScopedInvariant['scope'], extra: Partial<ScopedInvariant> = {}) =>
    scopedInvariant(id, scope, text, extra);
  const plan = { id: 'P', action: 'a/b' };
  const planScope = { kind: 'plan' as const, plan: 'P' };
  const actionScope = { kind: 'action' as const, ns: 'a', name: 'b' };
  const promoted = (id: string, text: string, origin: string, extra: Partial<ScopedInvariant> = {}) =>
    inv(id, text, planScope, { source: { kind: 'action', ref: 'a/b', origin_id: origin }, ...extra });

  it('copies a changed guard onto the copy; the same guard in another key order is no drift', () => {
    const origin = inv('O1', 'Rule', actionScope, { guard: { write: ['a/**'], command: ['rm'] } });
    const r = planSync(plan, [promoted('X1', 'Rule', 'O1', { guard: { write: ['b/**'] } })], new Map([['a/b', [origin]]]));
    expect(r.changes.map((c) => [c.drift.fields, c.kind === 'changed' ? c.after.guard : null])).toEqual([
      [['guard'], { write: ['a/**'], command: ['rm'] }],
    ]);
    const same = promoted('X1', 'Rule', 'O1', { guard: { command: ['rm'], write: ['a/**'] } });
    expect(planSync(plan, [same], new Map([['a/b', [origin]]])).changes).toEqual([]);
  });

  it('deactivates a copy whose origin was deactivated, then sees no drift', () => {
    const origin = inv('O1', 'Rule', actionScope, { active: false });
    const first = planSync(plan, [promoted('X1', 'Rule', 'O1')], new Map([['a/b', [origin]]]));
    expect(first.changes.map((c) => [c.kind, c.kind === 'changed' ? c.after.active : null, c.drift.fields])).toEqual([
      ['changed', false, ['active']],
    ]);
    expect(planSync(plan, [promoted('X1', 'Rule', 'O1', { active: false })], new Map([['a/b', [origin]]])).changes).toEqual([]);
    // The origin activated again: the copy follows it back into the plan's set.
    const back = planSync(plan, [promoted('X1', 'Rule', 'O1', { active: false })], new Map([['a/b', [{ ...origin, active: true }]]]));
    expect(back.changes.map((c) => [c.kind, c.kind === 'changed' ? c.after.active : null, c.drift.fields])).toEqual([
      ['changed', true, ['active']],
    ]);
  });

  it('a text given up in this sync is free for an origin added with it, in the same sync', () => {
    // Removed from the template and added again (a new id), or reworded while a new origin takes the old text.
    const again = planSync(
      plan,
      [promoted('X1', 'Keep tests fast', 'O1')],
      new Map([['a/b', [inv('O2', 'Keep tests fast', actionScope)]]]),
    );
    expect(again.changes.map((c) => [c.kind, c.drift.origin_id])).toEqual([
      ['removed', 'O1'],
      ['added', 'O2'],
    ]);
    const swapped = planSync(
      plan,
      [promoted('X1', 'Keep tests fast', 'O1')],
      new Map([['a/b', [inv('O1', 'Keep tests very fast', actionScope), inv('O2', 'Keep tests fast', actionScope)]]]),
    );
    expect(swapped.changes.map((c) => [c.kind, c.drift.origin_id])).toEqual([
      ['changed', 'O1'],
      ['added', 'O2'],
    ]);
    expect(swapped.skipped).toEqual([]);
  });

  it('skips a change whose new text another plan invariant holds, and never touches hand-added ones', () => {
    const hand = inv('H1', 'New rule', planScope, { source: { kind: 'plan' } });
    const r = planSync(plan, [hand, promoted('X1', 'Old rule', 'O1')], new Map([['a/b', [inv('O1', 'new RULE', actionScope)]]]));
    expect(r.changes).toEqual([]);
    expect(r.skipped.map((s) => [s.drift.kind, s.reason])).toEqual([['changed', 'the plan already holds the new text as H1']]);
  });

  it('copies tags and rationale with a changed text, keeping id, creation and source', () => {
    const before = promoted('X1', 'Rule', 'O1', { created_at: '2026-01-01T00:00:00Z', rationale: 'old', tags: ['t'] });
    const r = planSync(plan, [before], new Map([['a/b', [inv('O1', 'Rule, reworded', actionScope, { tags: ['u'], severity: 'info' })]]]));
    const c = r.changes[0]!;
    expect(c.kind === 'changed' ? c.after : null).toEqual({
      ...before,
      text: 'Rule, reworded',
      severity: 'info',
      tags: ['u'],
      rationale: undefined,
    });
  });
});

describe('plan sync and a stop signal', () => {
  it('a stop heard before the first write cancels the sync: exit 130, nothing written, no lock left', async () => {
    const d = await drifted();
    const before = fileList(d.root);
    const svc = new PlanService(new InvariantService(d.root));
    // A plain abort() (a DOMException its reason) is a CancelledError too, as every method's stop is.
    const plain = new AbortController();
    plain.abort();
    const early = await svc.sync(d.planId, { apply: true, signal: plain.signal }).catch((e: unknown) => e);
    expect([early instanceof CancelledError, (early as CancelledError).exitCode]).toEqual([true, 130]);
    expect(fileList(d.root)).toEqual(before);
    const stopped = new AbortController();
    stopped.abort(cancelledBy('SIGINT', 'the plan was left as it was; nothing was synced.'));
    const error = await svc.sync(d.planId, { apply: true, signal: stopped.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(130);
    expect(fileList(d.root)).toEqual(before);
    // The plan is still drifted, and the next sync applies it.
    expect((await json<SyncJson>(d.root, 'plan', 'sync', d.planId, '--yes')).changes).toHaveLength(3);
  });

  it('a stop heard while the sync waits for the plan’s lock ends the wait: cancelled, nothing written, not locked', async () => {
    const d = await drifted();
    const before = fileList(d.root);
    const stop = new AbortController();
    // Told once the wait has lasted: the stop then lands in it, not before it.
    const svc = new PlanService(InvariantService.open({ store: d.root, deps: { notice: () => stop.abort() } }));
    let error: unknown;
    await withFolderLock(d.root, `plans/${d.planId}`, async () => {
      error = await svc.sync(d.planId, { apply: true, signal: stop.signal }).catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(CancelledError);
    expect(fileList(d.root)).toEqual(before);
  });

  it('a library commit that is no boolean is refused before confirm is asked', async () => {
    const d = await drifted();
    const before = fileList(d.root);
    const svc = new PlanService(new InvariantService(d.root));
    let asked = 0;
    const bad = { apply: true, commit: 'yes' as unknown as boolean, confirm: () => (asked++, true) };
    await expect(svc.sync(d.planId, bad)).rejects.toMatchObject({ exitCode: 2, detail: { field: 'commit' } });
    expect(asked).toBe(0);
    expect(fileList(d.root)).toEqual(before);
  });

  it('Ctrl-C while the plan is being written lets the sync finish whole, then ends with 130 (no half-synced plan, no lock left)', async () => {
    const root = exampleStore();
    const top = dirname(root);
    gitInit(top);
    const plan = await json<{ plan: { id: string } }>(root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp');
    const planId = plan.plan.id;
    // A template that gains many invariants: the sync writes them one file at a time.
    const N = 300;
    for (let i = 0; i < N; i++) {
      const id = `01M8KK2${String(i).padStart(19, '0')}`;
      writeFileSync(join(root, ACTION, `${id}.yaml`), invariantYaml(id, `Template rule number ${i}`));
    }
    const planDir = join(root, 'plans', planId);
    const count = () => readdirSync(planDir).filter((f) => f.endsWith('.yaml') && f !== 'plan.yaml').length;
    const start = count();
    // Ctrl-C sent as the first invariant is put in place under the plan's lock, on a fast machine or a slow one.
    const run = await runSignalledWhileHolding(
      ['--store', root, 'plan', 'sync', planId, '--yes'],
      planDir,
      join(planDir, '.lock'),
      'SIGINT',
    );
    expect(run.signalled).toBe(true);
    // As a writer holding a lock: the stop waits for the last file, then ends the run as Ctrl-C asks.
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expect(count()).toBe(start + N);
    expect(existsSync(join(planDir, '.lock'))).toBe(false);
    expect(existsSync(join(root, '.lock'))).toBe(false);
  }, 60_000);
});
