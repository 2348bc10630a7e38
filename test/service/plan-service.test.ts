import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentsError, cancelledBy } from '../../src/core/errors.ts';
import { InvariantService, PlanService, commandActor, type Actor, type ActorRequest } from '../../src/index.ts';
import { withFolderLock } from '../../src/store/lock.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

/** A plan service with a fixed clock, counting ids and a known author: its files are exact. */
function service(root: string): PlanService {
  let n = 0;
  return new PlanService(
    new InvariantService(root, {
      clock: () => new Date('2026-11-30T09:00:00.500Z'),
      newId: () => `01M8KM00000000000000000${String(n++).padStart(3, '0')}`,
      author: async () => 'Jane Doe <jane@example.com>',
    }),
  );
}

/** An in-process actor: answers with `answer(request)`. */
function actor(answer: (r: ActorRequest) => ReturnType<Actor['evaluate']>): Actor & { seen: ActorRequest[] } {
  const seen: ActorRequest[] = [];
  return { kind: 'command', description: 'test', seen, evaluate: async (r) => (seen.push(r), answer(r)) };
}

/**
 * A plan of an empty template, then an invariant added to the template: one change for `sync`. (A plan of an empty
 * template holds no copy: the template's new invariant is the same change with or without it.)
 */
async function driftedPlan() {
  const root = testStore({ 'actions/local/cov/.gitkeep': '' });
  const s = service(root);
  const { plan } = await s.use({ action: 'local/cov' });
  writeFileSync(
    join(root, 'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml'),
    invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
  );
  return { root, s, plan };
}

describe('PlanService', () => {
  it('creates a plan and records two runs, writing exactly these files', async () => {
    const root = testStore({
      'projects/myapp/.gitkeep': '',
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage', {
        severity: 'warning',
      }),
    });
    const s = service(root);
    const used = await s.use({ action: 'local/cov', project: 'myapp', goal: ' Raise coverage ' });
    const plan = '01M8KM00000000000000000000';
    expect(used.plan).toEqual({
      id: plan,
      action: 'local/cov',
      project: 'myapp',
      goal: 'Raise coverage',
      created_at: '2026-11-30T09:00:00Z',
      created_by: 'Jane Doe <jane@example.com>',
    });
    expect(readdirSync(join(root, 'plans', plan)).sort()).toEqual(['01M8KM00000000000000000001.yaml', 'plan.yaml']);
    expect(readFileSync(join(root, 'plans', plan, 'plan.yaml'), 'utf8')).toBe(
      [
        '# yaml-language-server: $schema=../../schemas/plan.schema.json',
        `id: ${plan}`,
        'action: local/cov',
        'project: myapp',
        'goal: Raise coverage',
        'created_at: "2026-11-30T09:00:00Z"',
        'created_by: Jane Doe <jane@example.com>',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(root, 'plans', plan, '01M8KM00000000000000000001.yaml'), 'utf8')).toBe(
      [
        '# yaml-language-server: $schema=../../schemas/invariant.schema.json',
        'id: 01M8KM00000000000000000001',
        'text: Minimum 80% coverage',
        'severity: warning',
        'active: true',
        'created_at: "2026-11-30T09:00:00Z"',
        'created_by: Jane Doe <jane@example.com>',
        'source:',
        '  kind: action',
        '  ref: local/cov',
        '  origin_id: 01M8KK1KW0KPRSWWKENT2QZ1QM',
        '',
      ].join('\n'),
    );

    const yes = actor(async (r) => ({
      ok: true,
      response: { results: r.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: `ok: ${i.text}` })) },
    }));
    const first = await s.strategize(plan.slice(0, 8), { actor: yes, context: 'ctx' });
    expect(yes.seen[0]!.invariants.map((i) => i.id)).toEqual(['01M8KM00000000000000000001', '01M8KJT9G0XNWEM589ZS7FV0VT']);
    expect(first.ok).toBe(true);
    expect(readFileSync(join(root, 'plans', plan, 'decisions', '01M8KM00000000000000000002.yaml'), 'utf8')).toBe(
      [
        '# yaml-language-server: $schema=../../../schemas/decision.schema.json',
        'id: 01M8KM00000000000000000002',
        'type: invariant_enforced',
        'parent_id: null',
        'created_at: "2026-11-30T09:00:00Z"',
        'created_by: Jane Doe <jane@example.com>',
        'summary: 2 of 2 invariants enforced (command actor)',
        'enforcement_id: 01M8KM00000000000000000003',
        'actor: command',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(root, 'plans', plan, 'enforcement', '01M8KM00000000000000000003.yaml'), 'utf8')).toBe(
      [
        '# yaml-language-server: $schema=../../../schemas/enforcement.schema.json',
        'id: 01M8KM00000000000000000003',
        'decision_id: 01M8KM00000000000000000002',
        'created_at: "2026-11-30T09:00:00Z"',
        'created_by: Jane Doe <jane@example.com>',
        'actor: command',
        // SHA-256 of [[id, severity, text], …] of the two invariants, by id.
        // Past 80 columns on one line: folded, as yamllint's defaults want (docs/store-format.md, "Line width and quoting").
        'set_digest: >-',
        '  sha256:92c3c3afa7783dabccdbbd58d2c302ecfacb583c00811c0ced84538a0cce37fd',
        'records:',
        '  - invariant_id: 01M8KM00000000000000000001',
        '    enforced: true',
        '    actor_response: "ok: Minimum 80% coverage"',
        '    decision_id: 01M8KM00000000000000000002',
        // SHA-256 of the invariant's own row of set_digest: ["01M8KM…0001", "warning", "Minimum 80% coverage"].
        '    digest: >-',
        '      sha256:9a253780f22ae5059d6705df98cd3dc425fc2eb79879a134df6102e56cdc2e52',
        '  - invariant_id: 01M8KJT9G0XNWEM589ZS7FV0VT',
        '    enforced: true',
        '    actor_response: "ok: Never delete production data"',
        '    decision_id: 01M8KM00000000000000000002',
        '    digest: >-',
        '      sha256:38b06b438e4cfd6affe7492c9c28d6a97955d880729fc1551e895b0c529180f0',
        '',
      ].join('\n'),
    );

    const broken = actor(async () => ({ ok: false, reason: 'the model is down' }));
    const second = await s.strategize(plan, { actor: broken });
    expect(second.ok).toBe(false);
    expect(second.decision).toMatchObject({
      id: '01M8KM00000000000000000004',
      parent_id: '01M8KM00000000000000000002',
      summary: '0 of 2 invariants enforced (command actor); actor failed: the model is down',
    });
    expect(second.run.error).toBe('the model is down');

    const tree = await s.decisions(plan);
    expect(tree.tree.map((t) => [t.node.id, t.children.map((c) => c.node.id)])).toEqual([
      ['01M8KM00000000000000000002', ['01M8KM00000000000000000004']],
    ]);
    const status = await s.status(plan);
    // A failed run fails the gate (docs/plans.md, "plan status").
    expect(status).toMatchObject({
      effectiveCount: 2,
      failing: true,
      latestEnforcement: { enforced: 0, total: 2, error: 'the model is down' },
    });
    expect(status.reasons.map((r) => `${r.level}:${r.code}`)).toEqual(['fail:run-failed', 'fail:unenforced', 'report:unenforced']);
    expect((await s.status(plan, { allow: ['run-failed', 'unenforced'] })).failing).toBe(false);

    const v = await s.addViolation({ plan, invariant: '01M8KJT9', details: 'dropped a table' });
    expect(v.violation).toEqual({
      id: '01M8KM00000000000000000006',
      invariant_id: '01M8KJT9G0XNWEM589ZS7FV0VT',
      violated_text: 'Never delete production data',
      severity: 'error',
      details: 'dropped a table',
      created_at: '2026-11-30T09:00:00Z',
      created_by: 'Jane Doe <jane@example.com>',
    });
    expect((await s.status(plan)).failing).toBe(true);
    expect((await s.listViolations({ severity: 'warning' })).length).toBe(0);
  });

  it("one run of a plan at a time: this process's second call waits for its first; another live process's run refuses at once", async () => {
    const { root, s, plan } = await driftedPlan();
    let answerNow: () => void = () => {};
    const asked = new Promise<void>((ok) => (answerNow = ok));
    const judge = (r: ActorRequest) => ({
      ok: true as const,
      response: { results: r.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) },
    });
    // The first call's actor answers only once the second call has been made: the second waits for the run's lock.
    const slow = actor(async (r) => (await asked, judge(r)));
    const first = s.strategize(plan.id, { actor: slow });
    const quick = actor(async (r) => judge(r));
    const second = s.strategize(plan.id, { actor: quick });
    await new Promise((r) => setTimeout(r, 50));
    expect(quick.seen).toHaveLength(0);
    answerNow();
    const [a, b] = await Promise.all([first, second]);
    expect(b.decision.parent_id).toBe(a.decision.id);
    // A run of another process (the parent of this one, alive), its actor at work: refused before this actor is asked.
    const lock = join(root, 'plans', plan.id, 'enforcement', '.lock');
    writeFileSync(lock, `${process.ppid} ${hostname()} ${new Date().toISOString()}\n`);
    const refused = await s.strategize(plan.id, { actor: quick }).then(
      () => expect.unreachable('the run was not refused'),
      (e: AgentsError) => e,
    );
    expect([refused.exitCode, refused.code, refused.detail]).toEqual([
      2,
      'strategize-running',
      { plan: plan.id, lock, pid: process.ppid, host: hostname(), elsewhere: false },
    ]);
    expect(quick.seen).toHaveLength(1);
    rmSync(lock);
  });

  it("refuses a caller's deps.newId answering an id the store holds, or one it answered in the same call: nothing written", async () => {
    const root = testStore({
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    const { plan, promoted } = await service(root).use({ action: 'local/cov' });
    const files = () => readdirSync(root, { recursive: true }).sort();
    const before = files();
    const constant = (id: string) => new PlanService(new InvariantService(root, { newId: () => id, author: async () => undefined }));
    const refused = { exitCode: 2, code: 'usage', detail: expect.objectContaining({ field: 'deps.newId()' }) };
    const held = constant(promoted[0]!.id);
    const answer = actor(async (r) => ({
      ok: true,
      response: { results: r.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) },
    }));
    await expect(held.use({ action: 'local/cov' })).rejects.toMatchObject(refused);
    await expect(held.addViolation({ plan: plan.id, invariant: promoted[0]!.id })).rejects.toMatchObject(refused);
    await expect(
      held.waive({ plan: plan.id, invariant: promoted[0]!.id, reason: 'r', owner: 'me', expires: '2099-01-01' }),
    ).rejects.toMatchObject(refused);
    await expect(held.strategize(plan.id, { actor: answer })).rejects.toMatchObject(refused);
    // A new id, answered twice: the plan's and its copy's.
    await expect(constant('01M8KP00000000000000000000').use({ action: 'local/cov' })).rejects.toMatchObject(refused);
    expect(files()).toEqual(before);
  });

  it('writes no records for a plan removed while the actor ran, and leaves no folder without plan.yaml', async () => {
    const root = testStore({
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    const s = service(root);
    const { plan } = await s.use({ action: 'local/cov' });
    const folder = join(root, 'plans', plan.id);
    const removing = actor(async (r) => {
      rmSync(folder, { recursive: true });
      return { ok: true, response: { results: r.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) } };
    });
    const refused = await s.strategize(plan.id, { actor: removing }).then(
      () => undefined,
      (error: unknown) => error as AgentsError,
    );
    expect(refused).toMatchObject({
      exitCode: 2,
      code: 'store-changed',
      detail: { changed: [`plans/${plan.id}/`] },
      // A library caller is told the library's call that lists the plans, not the command line's command.
      hint: expect.stringContaining('`PlanService.list()`'),
    });
    expect(refused?.hint).not.toMatch(/`agents /);
    expect(removing.seen.length).toBe(1);
    expect(existsSync(folder)).toBe(false);
    expect(await s.list()).toEqual([]);
  });

  it('says a run stale when the effective set changed while the actor ran, dated when the actor was asked', async () => {
    const root = testStore({
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    let now = new Date('2026-11-30T09:00:00Z');
    let n = 0;
    const s = new PlanService(
      new InvariantService(root, { clock: () => now, newId: () => `01M8KM00000000000000000${String(n++).padStart(3, '0')}` }),
    );
    const { plan } = await s.use({ action: 'local/cov' });
    const editing = actor(async (r) => {
      // Meanwhile, someone edits the invariant asked about and adds another; the actor answers ten minutes later.
      const file = join(root, 'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('Never delete production data', 'Never delete any data'));
      writeFileSync(join(root, 'global/01M8KJTB000000000000000000.yaml'), invariantYaml('01M8KJTB000000000000000000', 'Keep backups'));
      now = new Date('2026-11-30T09:10:00Z');
      return { ok: true, response: { results: r.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) } };
    });
    const run = await s.strategize(plan.id, { actor: editing });
    expect([run.ok, run.setChanged]).toEqual([false, { added: 1, removed: 0, edited: 1 }]);
    expect([run.run.created_at, run.decision.created_at]).toEqual(['2026-11-30T09:00:00Z', '2026-11-30T09:10:00Z']);
    const stale = (await s.status(plan.id)).reasons.find((r) => r.code === 'stale');
    expect(stale).toMatchObject({ added: 1, removed: 0, edited: 1 });
    expect(stale?.message).toContain('since 2026-11-30T09:00:00Z');
    // Asked again with the set unchanged, the run is enforced and not stale.
    const again = await s.strategize(plan.id, { actor: actor(async (r) => editing.evaluate(r)) });
    expect([again.ok, again.setChanged]).toEqual([true, null]);
  });

  it('records no violation in a plan removed after it was read, and leaves no folder without plan.yaml', async () => {
    const root = testStore({
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    const { plan, promoted } = await service(root).use({ action: 'local/cov' });
    const folder = join(root, 'plans', plan.id);
    let n = 0;
    // The author is asked after the plan and its set were read, before the file is written: the plan goes then.
    const s = new PlanService(
      new InvariantService(root, {
        newId: () => `01M8KN00000000000000000${String(n++).padStart(3, '0')}`,
        author: async () => (rmSync(folder, { recursive: true }), undefined),
      }),
    );
    await expect(s.addViolation({ plan: plan.id, invariant: promoted[0]!.id, details: 'late' })).rejects.toMatchObject({
      exitCode: 2,
      code: 'store-changed',
      detail: { changed: [`plans/${plan.id}/`] },
    });
    expect(existsSync(folder)).toBe(false);
    expect(await s.list()).toEqual([]);
  });

  it('sync(id) with no options says the drift, writing nothing; a confirm answering at once is heard as a promised one', async () => {
    const { root, s, plan } = await driftedPlan();
    const listed = () => readdirSync(join(root, 'plans', plan.id)).sort();
    const before = listed();
    const preview = await s.sync(plan.id);
    expect([preview.applied, preview.changes.map((c) => c.kind)]).toEqual([false, ['added']]);
    expect((await s.sync(plan.id, { apply: true, confirm: () => false })).applied).toBe(false);
    expect(listed()).toEqual(before);
    expect((await s.sync(plan.id, { apply: true, confirm: () => true })).applied).toBe(true);
    expect(listed()).toHaveLength(before.length + 1);
  });

  it('syncs nothing into a plan removed while the changes were confirmed, and leaves no folder without plan.yaml', async () => {
    const { root, s, plan } = await driftedPlan();
    const folder = join(root, 'plans', plan.id);
    const confirm = async () => (rmSync(folder, { recursive: true }), true);
    await expect(s.sync(plan.id, { apply: true, confirm })).rejects.toMatchObject({
      exitCode: 2,
      code: 'store-changed',
      detail: { changed: [`plans/${plan.id}/`] },
    });
    expect(existsSync(folder)).toBe(false);
    expect(await s.list()).toEqual([]);
  });

  it('syncs nothing when the template changed while the changes were confirmed: store-changed naming its folder', async () => {
    const root = testStore({ 'actions/local/cov/.gitkeep': '' });
    const s = service(root);
    const { plan } = await s.use({ action: 'local/cov' });
    const file = (id: string) => join(root, `actions/local/cov/${id}.yaml`);
    writeFileSync(file('01M8KK1KW0KPRSWWKENT2QZ1QM'), invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'));
    const listed = () => readdirSync(join(root, 'plans', plan.id)).sort();
    const before = listed();
    // Another invariant added to the template between the preview and the answer: the confirmed changes are not these.
    const confirm = async () => (
      writeFileSync(file('01M8KK1KW0KPRSWWKENT2QZ1QN'), invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QN', 'Keep the report')), true
    );
    await expect(s.sync(plan.id, { apply: true, confirm })).rejects.toMatchObject({
      exitCode: 2,
      code: 'store-changed',
      detail: { changed: ['actions/local/cov/'] },
    });
    expect(listed()).toEqual(before);
  });

  it('resolves no violation removed while it waited for the plan: store-changed naming its file', async () => {
    const root = testStore({
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    const made = service(root);
    const { plan, promoted } = await made.use({ action: 'local/cov' });
    const { violation, path } = await made.addViolation({ plan: plan.id, invariant: promoted[0]!.id, details: 'late' });
    // The author is asked after the violation was found, before the plan's lock: the violation goes then.
    const s = new PlanService(new InvariantService(root, { author: async () => (rmSync(join(root, path)), undefined) }));
    await expect(s.resolveViolation(violation.id)).rejects.toMatchObject({
      exitCode: 2,
      code: 'store-changed',
      detail: { changed: [path] },
    });
  });

  it('adds or moves no invariant into a plan removed after it was read, and leaves no folder without plan.yaml', async () => {
    const root = testStore({
      'projects/myapp/01M8KJXYP0GVPRF8KRRE9G8474.yaml': invariantYaml('01M8KJXYP0GVPRF8KRRE9G8474', 'All API changes need tests'),
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    const { plan } = await service(root).use({ action: 'local/cov' });
    const folder = join(root, 'plans', plan.id);
    // add: the author is asked after the plan was read, before the lock: the plan goes then.
    const adding = new InvariantService(root, { author: async () => (rmSync(folder, { recursive: true }), undefined) });
    await expect(adding.add({ scope: { plan: plan.id }, text: 'Keep the report' })).rejects.toMatchObject({
      exitCode: 2,
      code: 'store-changed',
      detail: { changed: [`plans/${plan.id}/`] },
    });
    expect(existsSync(folder)).toBe(false);

    // move: the plan's lock is taken first (plans/ sorts before projects/); the project's, held here, makes it wait.
    const { plan: second } = await service(root).use({ action: 'local/cov' });
    const target = join(root, 'plans', second.id);
    let release = () => {};
    const holding = withFolderLock(root, 'projects/myapp', () => new Promise<void>((r) => (release = r)));
    const moving = new InvariantService(root).move('01M8KJXYP0GVPRF8KRRE9G8474', { plan: second.id });
    const until = Date.now() + 10_000;
    while (!existsSync(join(target, '.lock')) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    rmSync(target, { recursive: true });
    release();
    await holding;
    await expect(moving).rejects.toMatchObject({ exitCode: 2, code: 'store-changed', detail: { changed: [`plans/${second.id}/`] } });
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(root, 'projects/myapp/01M8KJXYP0GVPRF8KRRE9G8474.yaml'))).toBe(true);
    expect(await service(root).list()).toEqual([]);
  });

  it('records a run too large for one file at length with its responses cut to fit, every verdict kept', async () => {
    const id = (n: number) => `01M8KJ${String(n).padStart(20, '0')}`;
    const tree: Record<string, string> = { 'actions/local/big/.gitkeep': '' };
    for (let n = 0; n < 400; n++) tree[`global/${id(n)}.yaml`] = invariantYaml(id(n), `Rule ${n}`);
    const root = testStore(tree);
    const s = service(root);
    const { plan } = await s.use({ action: 'local/big' });
    // 400 answers of the 1,000 characters a record keeps, each of three bytes, are over the 1 MiB a store file holds.
    const verbose = actor(async (r) => ({
      ok: true,
      response: { results: r.invariants.map((i, n) => ({ invariant_id: i.id, enforced: n % 4 !== 0, response: '€'.repeat(1500) })) },
    }));
    const result = await s.strategize(plan.id, { actor: verbose });
    const file = join(root, 'plans', plan.id, 'enforcement', `${result.run.id}.yaml`);
    expect(statSync(file).size).toBeLessThanOrEqual(1024 * 1024);
    const written = parse(readFileSync(file, 'utf8')) as { records: { enforced: boolean; actor_response: string }[] };
    expect(written.records.map((r) => r.enforced)).toEqual(Array.from({ length: 400 }, (_, n) => n % 4 !== 0));
    expect(written.records).toEqual(result.run.records);
    expect(written.records[0]!.actor_response).toMatch(/^€{500,998}…$/);
    expect((await s.status(plan.id)).latestEnforcement).toMatchObject({ total: 400, enforced: 300 });
  });

  it('runs no command actor and writes nothing when cancelled before the actor starts (a signal while the store was read)', async () => {
    const root = testStore({
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
      'actions/local/cov/.gitkeep': '',
    });
    const s = service(root);
    const { plan } = await s.use({ action: 'local/cov' });
    const before = readdirSync(join(root, 'plans', plan.id));
    const stop = new AbortController();
    stop.abort(cancelledBy('SIGTERM', 'the actor was stopped and nothing was written.'));
    const ran = join(root, 'ran');
    const program = commandActor({
      command: [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(ran)}, '')`],
      cwd: root,
      timeoutMs: 10_000,
      signal: stop.signal,
    });
    await expect(s.strategize(plan.id, { actor: program })).rejects.toMatchObject({ exitCode: 143, code: 'cancelled' });
    expect(existsSync(ran)).toBe(false);
    // strategize's own signal, aborted before the call: an actor of the caller's is not asked either.
    const counting = actor(async () => ({ ok: false, reason: 'asked' }));
    const early = new AbortController();
    early.abort();
    await expect(s.strategize(plan.id, { actor: counting, signal: early.signal })).rejects.toMatchObject({
      exitCode: 130,
      code: 'cancelled',
    });
    expect(counting.seen).toEqual([]);
    expect(readdirSync(join(root, 'plans', plan.id))).toEqual(before);
  });

  it("records an actor's answer of the wrong shape as a failed run, never a TypeError inside the run", async () => {
    const root = testStore({
      'projects/myapp/.gitkeep': '',
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
      'actions/local/cov/.gitkeep': '',
    });
    const s = service(root);
    const { plan } = await s.use({ action: 'local/cov', project: 'myapp' });
    // Nothing returned, a failure without its reason, results given as one string, a result without its verdict.
    const answers: unknown[] = [
      undefined,
      { ok: false },
      { ok: true, response: { results: 'enforced' } },
      { ok: true, response: { results: [{ invariant_id: '01M8KJT9G0XNWEM589ZS7FV0VT', response: 'fine' }] } },
    ];
    for (const answer of answers) {
      const run = await s.strategize(plan.id, { actor: actor(async () => answer as never) });
      expect(run.ok).toBe(false);
      expect(run.run.records.map((r) => r.enforced)).toEqual([false]);
      expect(run.run.error).toMatch(/actor/);
    }
  });
});
