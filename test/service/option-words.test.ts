// A refusal names the option its caller gave: the library's field (reason, addTags) to a library caller, the flag
// (--reason, --tag) on the command line, never the command line's words in a library error.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentsError } from '../../src/core/errors.ts';
import { shellPath } from '../../src/core/shell-word.ts';
import { InvariantService, PlanService, ScopeService } from '../../src/index.ts';
import { runAgents, violationAdded } from '../helpers/main.ts';
import { EXAMPLE_PLAN, EXAMPLE_PLAN_SET, exampleStore } from '../helpers/plans.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';

async function failure(p: Promise<unknown>): Promise<AgentsError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return error as AgentsError;
}

/** The words a library caller reads: none of them a flag. */
function noFlag(error: AgentsError): void {
  expect(`${error.message}\n${error.hint ?? ''}`).not.toMatch(/(^|\s)--[a-z]/);
}

function store(): string {
  return testStore({ 'projects/myapp/.gitkeep': '', [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data') });
}

describe('the options a refusal names', () => {
  const waiver = { invariant: ID, project: 'myapp', reason: 'r', owner: 'o', expires: '2099-01-01' };

  it('are the library fields to a library caller', async () => {
    const invariants = new InvariantService(store());
    const plans = new PlanService(invariants);
    for (const [given, field] of [
      [{ reason: ' ' }, 'reason'],
      [{ owner: '' }, 'owner'],
      [{ expires: 'soon' }, 'expires'],
      [{ expires: '2020-01-01' }, 'expires'],
    ] as const) {
      const error = await failure(plans.waive({ ...waiver, ...given }));
      expect([error.exitCode, error.detail]).toEqual([2, { field }]);
      noFlag(error);
    }
    const both = await failure(plans.waive({ ...waiver, plan: '01M8KM00000000000000000000' }));
    expect([both.code, both.detail]).toEqual(['conflicting-options', { options: ['plan', 'project'] }]);
    noFlag(both);
    const tags = await failure(invariants.edit({ id: ID, addTags: ['a'], removeTags: ['a'] }));
    expect([tags.code, tags.detail]).toEqual(['conflicting-options', { options: ['addTags', 'removeTags'] }]);
    noFlag(tags);
    const tag = await failure(invariants.edit({ id: ID, addTags: ['a,b'] }));
    expect(tag.detail).toEqual({ field: 'addTags' });
    noFlag(tag);
    const rationale = await failure(invariants.edit({ id: ID, rationale: 'x'.repeat(10_001) }));
    expect([rationale.code, (rationale.detail as { field: string }).field]).toEqual(['value-too-long', 'rationale']);
    noFlag(rationale);
    const example = new PlanService(new InvariantService(exampleStore()));
    const { violation } = await example.addViolation({ plan: EXAMPLE_PLAN, invariant: EXAMPLE_PLAN_SET[0]![0] });
    const note = await failure(example.resolveViolation(violation.id, { note: 'x'.repeat(10_001) }));
    expect([note.code, (note.detail as { field: string }).field]).toEqual(['value-too-long', 'resolved.note']);
    noFlag(note);
  });

  it('are the flags on the command line', async () => {
    const root = store();
    const r = await runAgents(['--store', root, '--format', 'json', 'invariant', 'edit', ID, '--tag', 'a', '--untag', 'a']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'conflicting-options', detail: { options: ['tag', 'untag'] } });
    const blank = await runAgents([
      '--store',
      root,
      '--format',
      'json',
      'invariant',
      'waive',
      ID,
      '--project',
      'myapp',
      '--reason',
      ' ',
      '--owner',
      'o',
      '--expires',
      '2099-01-01',
    ]);
    expect(blank.code).toBe(2);
    expect(JSON.parse(blank.stdout).error).toMatchObject({ detail: { field: 'reason' }, message: expect.stringContaining('--reason') });
  });
});

/** The words a library caller reads: neither a flag nor a command of the command line. */
function noCommand(error: AgentsError): void {
  noFlag(error);
  expect(error.hint ?? '').not.toMatch(/`agents /);
}

describe('the scopes a refusal names', () => {
  it("are the library's fields and methods to a library caller, the flags and commands on the command line", async () => {
    const root = exampleStore();
    const invariants = new InvariantService(root);
    const plans = new PlanService(invariants);
    const closeProject = await failure(invariants.add({ scope: { project: 'myap' }, text: 'Count twice' }));
    expect([closeProject.code, closeProject.hint]).toEqual(['close-project-name', expect.stringContaining('newProject: true')]);
    const closeAction = await failure(invariants.add({ scope: { action: 'local/code-coverag' }, text: 'Count twice' }));
    expect([closeAction.code, closeAction.hint]).toEqual(['close-action-name', expect.stringContaining('ScopeService.addAction(')]);
    const unknownProject = await failure(invariants.effective({ project: 'nope' }));
    expect([unknownProject.code, unknownProject.hint]).toEqual([
      'unknown-project',
      expect.stringContaining('InvariantService.add({ scope: {'),
    ]);
    const unknownAction = await failure(plans.use({ action: 'local/nope', project: 'myapp' }));
    expect([unknownAction.code, unknownAction.hint]).toEqual(['unknown-action', expect.stringContaining('ScopeService.addAction(')]);
    for (const e of [closeProject, closeAction, unknownProject, unknownAction]) noCommand(e);
    const cli = await runAgents(['--store', root, '--format', 'json', 'invariant', 'add', '--project', 'myap', 'Count twice']);
    expect([cli.code, JSON.parse(cli.stdout).error.hint]).toEqual([2, expect.stringContaining('--project myapp')]);
  });
});

describe('the store a refusal of open() names', () => {
  it("is open()'s store, not --store: none found, or a link found by the search", async () => {
    const dir = tempDir();
    const none = await failure((async () => InvariantService.open({ cwd: dir, env: {} }))());
    expect([none.exitCode, none.hint]).toEqual([2, expect.stringContaining('open({store})')]);
    noFlag(none);
    symlinkSync(store(), join(dir, '.agents'));
    const linked = await failure((async () => InvariantService.open({ cwd: dir, env: {} }))());
    expect([linked.exitCode, linked.hint]).toEqual([2, expect.stringContaining(`store: ${JSON.stringify(join(dir, '.agents'))}`)]);
    noFlag(linked);
    const cli = await runAgents(['invariant', 'list'], { cwd: dir, env: {} });
    expect([cli.code, cli.stderr]).toEqual([2, expect.stringContaining(`--store ${join(dir, '.agents')}`)]);
  });
});

describe('the commands a hint names', () => {
  it("are the library's methods to a library caller, the commands on the command line", async () => {
    const root = exampleStore();
    const invariants = new InvariantService(root);
    const plans = new PlanService(invariants);
    const none = '01M8ZZZZZZZZZZZZZZZZZZZZZZ';
    const waiver = { invariant: none, project: 'myapp', reason: 'r', owner: 'o', expires: '2099-01-01' };
    for (const [call, named] of [
      [invariants.show(none), 'InvariantService.list({ all: true })'],
      [plans.show(none), 'PlanService.list()'],
      [plans.addViolation({ plan: EXAMPLE_PLAN, invariant: none }), `InvariantService.effective({ plan: "${EXAMPLE_PLAN}" })`],
      [plans.waive(waiver), 'InvariantService.effective({ project: "myapp" })'],
      [plans.resolveViolation(none), 'PlanService.listViolations({ plan })'],
    ] as const) {
      const error = await failure(call);
      expect([error.code, error.hint]).toEqual(['unknown-id', expect.stringContaining(named)]);
      noCommand(error);
    }
    const cli = await runAgents(['--store', root, '--format', 'json', 'invariant', 'show', none]);
    expect([cli.code, JSON.parse(cli.stdout).error.hint]).toEqual([
      2,
      expect.stringContaining(`\`agents --store ${shellPath(root)} invariant list --all\``),
    ]);
    // Where a template's invariant applies names the call that makes a plan of it.
    const template = '01M8KK1KW0KPRSWWKENT2QZ1QM';
    const { appliesTo } = await invariants.show(template);
    expect(appliesTo).toContain('`PlanService.use({ action: "local/code-coverage" })`');
    expect(appliesTo).not.toMatch(/`agents /);
    const shown = await runAgents(['--store', root, '--format', 'json', 'invariant', 'show', template]);
    expect([shown.code, JSON.parse(shown.stdout).applies_to]).toEqual([
      0,
      expect.stringContaining(`\`agents --store ${shellPath(root)} plan use local/code-coverage\``),
    ]);
  });
});

describe('the calls a hint of scopes and overrides names', () => {
  it("are the library's methods to a library caller, the commands on the command line", async () => {
    const G = '01M8AAAAAAAAAAAAAAAAAAAAAA';
    const P = '01M8BBBBBBBBBBBBBBBBBBBBBB';
    const PLAN = '01M8CCCCCCCCCCCCCCCCCCCCCC';
    const root = testStore({
      [`global/${G}.yaml`]: invariantYaml(G, 'Keep it small'),
      [`projects/myapp/${P}.yaml`]: invariantYaml(P, 'Keep it small', { overrides: G }),
      'actions/local/lint/action.yaml': 'description: Lint\n',
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: gone\n`,
    });
    const invariants = new InvariantService(root, { notice: () => undefined });
    const scopes = new ScopeService(invariants);
    for (const [call, named] of [
      [() => scopes.addProject({ project: 'myapp' }), 'InvariantService.list({ scope: { project: "myapp" } })'],
      [() => scopes.addAction({ action: 'local/lint' }), 'InvariantService.list({ scope: { action: "local/lint" } })'],
      [() => invariants.remove(G), `InvariantService.edit({ id: "${P}", overrides: "" })`],
      [() => invariants.edit({ id: G, text: 'Keep it tiny' }), `InvariantService.edit({ id: "${P}", overrides: "" })`],
      [() => invariants.edit({ id: G, overrides: P }), `InvariantService.edit({ id: "${P}", overrides: "${G}" })`],
    ] as const) {
      const error = await failure(call());
      expect(error.hint).toContain(named);
      noCommand(error);
    }
    const { warnings } = await invariants.effective({ plan: PLAN });
    expect(warnings.map((w) => [w.code, w.hint])).toEqual([
      ['unknown-project', expect.stringContaining('InvariantService.add({ scope: { project }, text })')],
    ]);
    expect(warnings[0]!.hint).not.toMatch(/--|`agents /);
    const cli = await runAgents(['--store', root, '--format', 'json', 'invariant', 'remove', G, '--yes']);
    expect([cli.code, JSON.parse(cli.stdout).error.hint]).toEqual([
      1,
      expect.stringContaining(`\`agents --store ${shellPath(root)} invariant edit ${P} --overrides ""\``),
    ]);
  });
});

describe('the call a duplicate refusal names', () => {
  it('is InvariantService.show to a library caller, agents invariant show on the command line', async () => {
    const G = '01M8AAAAAAAAAAAAAAAAAAAAAA';
    const H = '01M8DDDDDDDDDDDDDDDDDDDDDD';
    const P = '01M8BBBBBBBBBBBBBBBBBBBBBB';
    const root = testStore({
      [`global/${G}.yaml`]: invariantYaml(G, 'Keep it small'),
      [`global/${H}.yaml`]: invariantYaml(H, 'Keep it tidy'),
      [`projects/myapp/${P}.yaml`]: invariantYaml(P, 'Keep it small'),
    });
    const invariants = new InvariantService(root, { notice: () => undefined });
    for (const call of [
      () => invariants.add({ scope: { global: true }, text: 'Keep it small' }),
      () => invariants.edit({ id: H, text: 'Keep it small' }),
      () => invariants.move(P, { global: true }),
    ]) {
      const error = await failure(call());
      expect([error.code, error.exitCode, error.hint]).toEqual(['duplicate', 1, expect.stringContaining(`InvariantService.show("${G}")`)]);
      noCommand(error);
    }
    const cli = await runAgents(['--store', root, '--format', 'json', 'invariant', 'add', '--global', 'Keep it small']);
    expect([cli.code, JSON.parse(cli.stdout).error.hint]).toEqual([
      1,
      expect.stringContaining(`\`agents --store ${shellPath(root)} invariant show ${G}\``),
    ]);
  });
});

describe("the call a policy source's template refusal names", () => {
  it('is ScopeService.listActions() to a library caller, agents action list on the command line', async () => {
    const root = store();
    const invariants = new InvariantService(root, { notice: () => undefined });
    const action = 'policy:local/lint';
    for (const call of [
      () => invariants.add({ scope: { action }, text: 'Keep it small' }),
      () => invariants.checkAdd({ scope: { action }, text: 'Keep it small' }),
      () => invariants.move(ID, { action }),
      () => new ScopeService(invariants).addAction({ action }),
    ]) {
      const error = await failure(call());
      expect([error.exitCode, error.detail, error.hint]).toEqual([
        2,
        { source: 'policy', action },
        expect.stringContaining('`ScopeService.listActions()`'),
      ]);
      noCommand(error);
    }
    const cli = await runAgents(['--store', root, '--format', 'json', 'invariant', 'add', '--action', action, 'Keep it small']);
    expect([cli.code, JSON.parse(cli.stdout).error.hint]).toEqual([
      2,
      expect.stringContaining(`\`agents --store ${shellPath(root)} action list\``),
    ]);
  });
});

describe('the commands a run given --store names for what to do next', () => {
  it('carry that --store: plan use, the reasons of plan status, an empty list, an edit with nothing to change', async () => {
    const root = exampleStore();
    const agents = `agents --store ${shellPath(root)}`;
    const used = await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp']);
    expect(used.code, used.stderr).toBe(0);
    const plan = /created plan (\S+)/.exec(used.stdout)![1]!;
    expect(used.stdout).toContain(`Next: ${agents} plan strategize ${plan}`);
    const status = await runAgents(['--store', root, '--format', 'json', 'plan', 'status', plan]);
    const reasons = JSON.parse(status.stdout).reasons as { code: string; message: string }[];
    expect([status.code, reasons.find((r) => r.code === 'not-run')?.message]).toEqual([
      1,
      expect.stringContaining(`\`${agents} plan strategize ${plan}\``),
    ]);
    // An error violation of the example plan's "Never delete production data" stands.
    const added = await violationAdded(root, EXAMPLE_PLAN, EXAMPLE_PLAN_SET[3]![0]);
    expect(added.code, added.stderr).toBe(0);
    const id = added.id!;
    const standing = await runAgents(['--store', root, '--format', 'json', 'plan', 'status', EXAMPLE_PLAN]);
    const resolve = (JSON.parse(standing.stdout).reasons as { code: string; message: string }[]).find((r) => r.code === 'error-violation');
    expect([standing.code, resolve?.message]).toEqual([1, expect.stringContaining(`\`${agents} invariant violation resolve ${id}\``)]);
    // A library caller's plan status names the command as it always did: no store of the command line to carry.
    const library = await new PlanService(new InvariantService(root)).status(plan);
    expect(library.reasons.find((r) => r.code === 'not-run')?.message).toContain(`\`agents plan strategize ${plan}\``);

    const empty = testStore({});
    const listed = await runAgents(['--store', empty, 'invariant', 'list']);
    expect([listed.code, listed.stdout]).toEqual([0, expect.stringContaining(`agents --store ${shellPath(empty)} invariant add --global`)]);
    const edit = await runAgents(['--store', root, '--format', 'json', 'invariant', 'edit', ID]);
    expect([edit.code, JSON.parse(edit.stdout).error.hint]).toEqual([
      2,
      expect.stringContaining(`${agents} invariant edit ${ID} --severity`),
    ]);
  });
});
