// The library taken from JavaScript, where nothing checks the types: input of the wrong shape is a usage error
// (exit code 2) that says what is missing, never a TypeError from inside, and never a silent choice.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AgentsError, EXIT_CODES } from '../../src/core/errors.ts';
import { resolvePrefix } from '../../src/core/id-prefix.ts';
import { commandActor } from '../../src/enforce/actors.ts';
import { ExportService } from '../../src/service/export-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { PlanService } from '../../src/service/plan-service.ts';
import { ReviewService } from '../../src/service/review-service.ts';
import { ScopeService } from '../../src/service/scope-service.ts';
import { exampleStore } from '../helpers/plans.ts';

// biome-ignore lint/suspicious/noExplicitAny: the point is input no type allows.
type Loose = any;

async function rejectionOf(call: () => unknown): Promise<unknown> {
  return (async () => call())().then(
    () => undefined,
    (e: unknown) => e,
  );
}

async function usageError(call: () => unknown): Promise<AgentsError> {
  const error = await (async () => call())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentsError);
  expect((error as AgentsError).exitCode).toBe(EXIT_CODES.usage);
  return error as AgentsError;
}

describe('the library given input of the wrong shape', () => {
  it('refuses a missing or doubled scope, target or id with a usage error', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const p = PlanService.open({ store }) as Loose;
    expect((await usageError(() => s.resolveScope({ global: true, project: 'myapp' }))).detail).toEqual({
      field: 'scope',
      scopes: ['global', 'project'],
    });
    // A field that is no scope, or a Scope of no kind there is, is named with the closest scope field.
    expect((await usageError(() => s.resolveScope({ projekt: 'myapp' }))).detail).toEqual({
      field: 'scope',
      scopes: [],
      suggestions: ['project'],
    });
    expect((await usageError(() => s.add({ scope: { kind: 'glob' }, text: 'x' }))).detail).toEqual({
      field: 'scope',
      scopes: [],
      suggestions: ['global'],
    });
    // No scope at all names the field too, as docs/library.md says every wrong input does.
    expect((await usageError(() => s.add({ text: 'x' }))).detail).toEqual({ field: 'scope', scopes: [], suggestions: [] });
    await usageError(() => s.add({ scope: { project: 7 }, text: 'x' }));
    // A scope that is no object, a word or a list, is said to be that: neither no scope nor a scope field named `0`.
    for (const [call, what] of [
      [() => s.add({ scope: 'global', text: 'x' }), 'a string'],
      [() => s.checkAdd({ scope: ['global'], text: 'x' }), 'an array'],
      [() => s.addContext('global'), 'a string'],
      [() => s.list({ scope: 1 }), 'a number'],
    ] as const) {
      const e = await usageError(call);
      expect([e.detail, e.message]).toEqual([{ field: 'scope' }, `a scope is an object, not ${what}`]);
    }
    // One scope of the wrong type is named as that field, not said to be no scope at all.
    const scopeField = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    expect(await scopeField(() => s.add({ scope: { project: 7 }, text: 'x' }))).toBe('project');
    expect(await scopeField(() => s.list({ scope: { plan: 5 } }))).toBe('plan');
    expect(await scopeField(() => s.effective({ project: 1 }))).toBe('project');
    expect(await scopeField(() => s.resolveScope({ global: 'yes' }))).toBe('global');
    await usageError(() => s.effective({}));
    await usageError(() => s.effective());
    await usageError(() => s.show(undefined));
    await usageError(() => s.edit({ text: 'x' }));
    await usageError(() => p.addViolation({}));
    expect(resolvePrefix(undefined as Loose, [])).toEqual({ kind: 'invalid', prefix: undefined });
    // Null where options may be left out reads as left out.
    expect((await s.list(null)).length).toBeGreaterThan(0);
    expect((await s.add({ scope: { global: true }, text: 'No guard', guard: null })).invariant.guard).toBeUndefined();
    expect((await new ScopeService(s).addProject({ project: 'fresh', paths: null as Loose })).path).toBe('projects/fresh/.gitkeep');
  });

  it('refuses a field of the wrong type, naming it, and writes nothing', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const p = PlanService.open({ store }) as Loose;
    const scopes = new ScopeService(s) as Loose;
    const before = (await s.list({ all: true })).length;
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    await usageError(() => s.add());
    expect(await fieldOf(() => InvariantService.open({ store: 5 as Loose }))).toBe('store');
    expect(await fieldOf(() => PlanService.open({ store, cwd: 5 as Loose }))).toBe('cwd');
    // A clock that is no function is refused when the service opens, not at its first write; one left undefined is the default.
    expect(await fieldOf(() => InvariantService.open({ store, deps: { clock: '2030-01-01' } as Loose }))).toBe('deps.clock');
    await usageError(() => InvariantService.open({ store, deps: 'fixed' as Loose }));
    expect(InvariantService.open({ store, deps: { clock: undefined } as Loose }).deps.clock()).toBeInstanceOf(Date);
    await usageError(() => InvariantService.open(store as Loose));
    expect(await fieldOf(() => s.add({ scope: { global: true } }))).toBe('text');
    expect(await fieldOf(() => s.add({ scope: { global: true }, text: 5 }))).toBe('text');
    // One string is not a list of tags (nor of paths), and "no" is not false.
    expect(await fieldOf(() => s.add({ scope: { global: true }, text: 'Tagged', tags: 'data' }))).toBe('tags');
    expect(await fieldOf(() => s.add({ scope: { global: true }, text: 'Why', rationale: 5 }))).toBe('rationale');
    // A severity that is none of the three, or no string at all (an object without a prototype cannot even be printed).
    for (const severity of ['fatal', 5, Object.create(null)]) {
      expect(await fieldOf(() => s.add({ scope: { global: true }, text: 'Severe', severity }))).toBe('severity');
      expect(await fieldOf(() => s.edit({ id, severity }))).toBe('severity');
      expect(await fieldOf(() => p.addViolation({ plan: '01M8KK5920RS6CGAVDFVYYJ0B4', invariant: id, severity }))).toBe('severity');
      expect(await fieldOf(() => p.listViolations({ severity }))).toBe('severity');
    }
    expect(await fieldOf(() => s.add({ scope: { global: true }, text: 'Committed', commit: 'no' }))).toBe('commit');
    expect(await fieldOf(() => s.checkAdd({ scope: { global: true } }))).toBe('text');
    await usageError(() => s.edit());
    expect(await fieldOf(() => s.edit({ id, text: 5 }))).toBe('text');
    expect(await fieldOf(() => s.edit({ id, addTags: 'data' }))).toBe('addTags');
    expect(await fieldOf(() => s.edit({ id, removeTags: 5 }))).toBe('removeTags');
    expect(await fieldOf(() => s.edit({ id, overrides: 5 }))).toBe('overrides');
    await usageError(() => p.use());
    expect(await fieldOf(() => p.use({ action: 5, project: 'myapp' }))).toBe('action');
    await usageError(() => p.addViolation());
    await usageError(() => p.waive());
    expect(await fieldOf(() => p.waive({ project: 'myapp', owner: 'me', expires: '2099-01-01' }))).toBe('reason');
    await usageError(() => scopes.addAction());
    await usageError(() => scopes.addProject());
    expect(await fieldOf(() => scopes.addProject({ project: 'fresh', paths: 'src/**' }))).toBe('paths');
    // A guard of the wrong shape: no object, a list given as one string or holding a non-string, a kind it has not.
    const guarded = (guard: unknown) => s.add({ scope: { global: true }, text: 'Guarded', guard });
    expect(await fieldOf(() => guarded('src/**'))).toBe('guard');
    await usageError(() => guarded(() => 1));
    expect(await fieldOf(() => guarded({ write: 'src/**' }))).toBe('guard.write');
    expect(await fieldOf(() => guarded({ command: [5] }))).toBe('guard.command[]');
    expect(await fieldOf(() => guarded({ writes: ['src/**'] }))).toBe('writes');
    expect(await fieldOf(() => s.edit({ id, guard: { tool: [null] } }))).toBe('guard.tool[]');
    await usageError(() => s.edit({ id, guard: [null] }));
    expect(await fieldOf(() => (new ReviewService(store) as Loose).diff({ range: 5 }))).toBe('range');
    // "no" is not false: read by its truthiness it compared the index instead of the working tree.
    expect(await fieldOf(() => (new ReviewService(store) as Loose).diff({ staged: 'no' }))).toBe('staged');
    expect(await fieldOf(() => (new ReviewService(store) as Loose).diff({ allProjects: 'yes' }))).toBe('allProjects');
    expect(await fieldOf(() => s.list({ pattern: 5 }))).toBe('pattern');
    expect(await fieldOf(() => s.list({ all: 'no' }))).toBe('all');
    expect(await fieldOf(() => s.effective({ project: 'myapp' }, { pattern: 5 }))).toBe('pattern');
    const plan = '01M8KK5920RS6CGAVDFVYYJ0B4';
    // One string is not a list of reasons, and an error violation is never allowed.
    expect(await fieldOf(() => p.status(plan, { allow: 'stale' }))).toBe('allow');
    expect(await fieldOf(() => p.status(plan, { allow: ['error-violation'] }))).toBe('allow');
    // A command line is a list with its program first, and an actor is what evaluates.
    expect(await fieldOf(() => commandActor({ command: 'node actor.mjs', timeoutMs: 1000, cwd: store } as Loose))).toBe('command');
    // A timeout is config.yaml's timeout_ms: a whole number within its schema's bounds. Infinity or one past a timer's
    // range would stop the actor at once (with a warning of Node's on standard error), a string be used as it is.
    const bounds = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')).properties.reconciliation
      .properties.timeout_ms;
    for (const timeoutMs of [undefined, '1000', 0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, bounds.maximum + 1])
      expect(await fieldOf(() => commandActor({ command: ['node', 'actor.mjs'], timeoutMs, cwd: store } as Loose)), String(timeoutMs)).toBe(
        'timeoutMs',
      );
    expect(commandActor({ command: ['node', 'actor.mjs'], timeoutMs: bounds.maximum, cwd: store }).kind).toBe('command');
    expect(
      await fieldOf(() => commandActor({ command: ['node', 'actor.mjs'], timeoutMs: 1000, cwd: store, onStderr: 'log' } as Loose)),
    ).toBe('onStderr');
    expect(await fieldOf(() => p.strategize(plan, { actor: 5 }))).toBe('actor');
    expect((await s.list({ all: true })).length).toBe(before);
    expect((await s.edit({ id, rationale: null })).changed).toEqual([]);
    // Null is left out in edit too, where the field has a value to lose: tags: null emptied the tags, rationale: null
    // removed the rationale. guard: null alone removes what it names (the guard).
    const kept = (
      await s.add({ scope: { global: true }, text: 'Kept whole', tags: ['data'], rationale: 'Why', guard: { write: ['x/**'] } })
    ).invariant;
    for (const field of ['tags', 'rationale', 'active', 'text', 'severity', 'overrides'])
      expect((await s.edit({ id: kept.id, [field]: null })).changed, field).toEqual([]);
    expect((await s.edit({ id: kept.id, guard: null })).changed).toEqual(['guard']);
    expect((await s.show(kept.id)).invariant).toMatchObject({ tags: ['data'], rationale: 'Why' });
  });

  it("refuses what a caller's clock answers when it is no valid Date, naming deps.clock(), and writes nothing", async () => {
    const store = exampleStore();
    const before = (await InvariantService.open({ store }).list({ all: true })).length;
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    for (const now of [new Date(Number.NaN), '2030-01-01', undefined]) {
      const s = InvariantService.open({ store, deps: { clock: () => now as Loose } });
      // Read as a date deep inside: a timestamp of a new file, the expiry of a plan's waivers.
      expect(await fieldOf(() => s.add({ scope: { global: true }, text: 'Clocked' })), String(now)).toBe('deps.clock()');
      expect(await fieldOf(() => new PlanService(s).status('01M8KK5920RS6CGAVDFVYYJ0B4')), String(now)).toBe('deps.clock()');
    }
    expect((await InvariantService.open({ store }).list({ all: true })).length).toBe(before);
  });

  it("refuses what a caller's author answers when it is no string, naming deps.author(), and writes nothing; null is none", async () => {
    const store = exampleStore();
    const before = (await InvariantService.open({ store }).list({ all: true })).length;
    for (const who of [5, { name: 'Jane' }]) {
      const s = InvariantService.open({ store, deps: { author: async () => who as Loose } });
      const e = await usageError(() => s.add({ scope: { global: true }, text: 'Authored' }));
      expect((e.detail as { field?: string } | null)?.field, String(who)).toBe('deps.author()');
    }
    expect((await InvariantService.open({ store }).list({ all: true })).length).toBe(before);
    const none = InvariantService.open({ store, deps: { author: async () => null as Loose } });
    expect((await none.add({ scope: { global: true }, text: 'Authored' })).invariant.created_by).toBeUndefined();
  });

  it('refuses a field a method does not take, naming it and the closest one, and writes nothing', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const p = PlanService.open({ store }) as Loose;
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const plan = '01M8KK5920RS6CGAVDFVYYJ0B4';
    const before = JSON.stringify(await s.list({ all: true }));
    const refused = async (call: () => unknown) => {
      const e = await usageError(call);
      return [(e.detail as { field?: string } | null)?.field, e.message];
    };
    // Ignored, active: false would have added an active invariant.
    expect(await refused(() => s.add({ scope: { global: true }, text: 'Keep the changelog', active: false }))).toEqual([
      'active',
      'add takes no "active"',
    ]);
    expect(await refused(() => s.edit({ id, txt: 'x' }))).toEqual(['txt', 'edit takes no "txt"; did you mean text?']);
    expect((await refused(() => s.list({ tags: ['data'] })))[0]).toBe('tags');
    expect((await refused(() => s.move(id, { project: 'myapp' }, { comit: true })))[0]).toBe('comit');
    expect((await refused(() => s.remove(id, { force: true })))[0]).toBe('force');
    expect((await refused(() => p.use({ action: 'local/code-coverage', project: 'myapp', gaol: 'x' })))[0]).toBe('gaol');
    const waiver = { invariant: id, plan, reason: 'r', owner: 'o', expires: '2099-01-01' };
    expect((await refused(() => p.waive({ ...waiver, expiry: '2099-01-01' })))[0]).toBe('expiry');
    expect((await refused(() => p.addViolation({ plan, invariant: id, detail: 'x' })))[0]).toBe('detail');
    // Each options object of every method, as each: a misspelt store opened the one found from the current folder,
    // a misspelt path or description wrote a project or template without it, a misspelt range compared the working tree.
    const scopes = new ScopeService(s) as Loose;
    const misspelt: [string, () => unknown][] = [
      ['stor', () => InvariantService.open({ stor: '/elsewhere' } as Loose)],
      ['stor', () => PlanService.open({ stor: '/elsewhere' } as Loose)],
      ['clok', () => InvariantService.open({ store, deps: { clok: () => new Date() } } as Loose)],
      ['path', () => scopes.addProject({ project: 'billing', path: ['services/billing/**'] })],
      ['descripton', () => scopes.addAction({ action: 'local/release', descripton: 'x' })],
      ['rnge', () => new ReviewService(store).diff({ rnge: 'main...HEAD' } as Loose)],
      ['projct', () => new ExportService(s).plan({ targets: ['agents-md'], projct: 'myapp' } as Loose)],
      ['pln', () => p.listViolations({ pln: plan })],
      ['nte', () => p.resolveViolation('0000', { nte: 'x' })],
      ['alow', () => p.status(plan, { alow: ['stale'] })],
      ['aply', () => p.sync(plan, { aply: true })],
      ['txt', () => s.checkAdd({ scope: { global: true }, txt: 'x' })],
      ['inheritd', () => s.resolveId(id, { inheritd: true })],
      ['timeout', () => commandActor({ command: ['node', 'actor.mjs'], timeoutMs: 1000, cwd: store, timeout: 5 } as Loose)],
    ];
    for (const [field, call] of misspelt) expect((await refused(call))[0]).toBe(field);
    // A stop that is no AbortSignal, or misspelt, would leave the wait for a lock uncancellable without a word.
    const stop = new AbortController().signal;
    expect((await refused(() => p.addViolation({ plan, invariant: id }, { sigal: stop })))[0]).toBe('sigal');
    expect((await refused(() => p.addViolation({ plan, invariant: id }, { signal: 'stop' })))[0]).toBe('signal');
    expect((await refused(() => p.sync(plan, { apply: true, signal: {} })))[0]).toBe('signal');
    expect((await refused(() => s.add({ scope: { global: true }, text: 'x' }, { signal: 'stop' })))[0]).toBe('signal');
    expect((await refused(() => s.edit({ id, text: 'x' }, { sigal: stop })))[0]).toBe('sigal');
    expect((await refused(() => s.remove(id, { signal: {} })))[0]).toBe('signal');
    expect(await p.listViolations({ plan })).toEqual([]);
    expect(JSON.stringify(await s.list({ all: true }))).toBe(before);
    expect((await scopes.listProjects()).map((x: Loose) => x.project)).toEqual(['myapp']);
    expect((await p.list()).length).toBe(1);
  });

  it("refuses an inherited invariant's scope where a scope of the store goes, writing nothing, instead of reading it as global", async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const inherited = { kind: 'inherited', source: 'corp', order: 0 };
    const before = JSON.stringify(await s.list({ all: true }));
    const [first] = await s.list();
    for (const call of [
      () => s.add({ scope: inherited, text: 'Read from the policy source' }),
      () => s.move(first.invariant.id, inherited),
      () => s.list({ scope: inherited }),
      () => s.effective(inherited),
    ])
      expect((await usageError(call)).detail).toEqual({ field: 'scope', source: 'corp' });
    expect(JSON.stringify(await s.list({ all: true }))).toBe(before);
  });

  it('refuses an env of open() that is no object of strings, naming the variable, instead of a TypeError or a string read as none', async () => {
    const store = exampleStore();
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    expect(await fieldOf(() => InvariantService.open({ cwd: store, env: { AGENTS_STORE: 5 } as Loose }))).toBe('env.AGENTS_STORE');
    expect(await fieldOf(() => PlanService.open({ store, env: 'AGENTS_STORE=/x' as Loose }))).toBe('env');
    expect(InvariantService.open({ cwd: store, env: { AGENTS_STORE: store, HOME: undefined } }).root).toBe(store);
  });

  it("names the store as the library takes it, open({store}), never the command line's --store", async () => {
    for (const store of ['/no/such/store', '']) {
      const e = await usageError(() => InvariantService.open({ store }));
      expect(e.message).toContain('open({store})');
      expect(`${e.message} ${e.hint}`).not.toContain('--store DIR');
    }
  });

  it("names a diff's fields that cannot go together as the library takes them, never the command line's flags", async () => {
    const review = new ReviewService(exampleStore());
    for (const [request, options] of [
      [{ project: 'myapp', plan: 'x' }, ['project', 'plan']],
      [{ allProjects: true, plan: 'x' }, ['all-projects', 'plan']],
      // Refused before git runs, as the command line's conflicts are.
      [{ staged: true, range: 'HEAD~1..HEAD' }, ['staged', 'range']],
    ] as const) {
      const e = await usageError(() => review.diff(request));
      expect([e.code, e.detail]).toEqual(['conflicting-options', { options }]);
      expect(`${e.message} ${e.hint}`).not.toContain('--');
    }
  });

  it('never reads a misplaced scope or plan as none, which would list the whole store', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const p = PlanService.open({ store }) as Loose;
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    // The scope beside `scope`, as effective() takes its target.
    expect(await fieldOf(() => s.list({ project: 'myapp' }))).toBe('project');
    expect(await fieldOf(() => s.list({ global: true, all: true }))).toBe('global');
    // An options object that is no object names the argument, as docs/library.md says of every wrong input.
    expect(await fieldOf(() => s.list('myapp'))).toBe('options');
    expect(await fieldOf(() => s.effective({ project: 'myapp' }, 'Log'))).toBe('options');
    expect(await fieldOf(() => s.effective('myapp'))).toBe('target');
    expect(await fieldOf(() => s.add('Log'))).toBe('input');
    // A filter or a second target beside the target, read as none: the whole set, or the plan's alone.
    expect(await fieldOf(() => s.effective({ project: 'myapp', pattern: 'Log' }))).toBe('pattern');
    expect(await fieldOf(() => s.effective({ project: 'myapp' }, { patern: 'Log' }))).toBe('patern');
    const both = await usageError(() => s.effective({ project: 'other', plan: '01M8KK5920RS6CGAVDFVYYJ0B4' }));
    expect([both.code, both.detail]).toEqual(['conflicting-options', { options: ['project', 'plan'] }]);
    expect(await fieldOf(() => s.effective({ global: true }))).toBe('global');
    // A Scope of the target's kind is a target.
    expect((await s.effective({ kind: 'project', project: 'myapp' })).target).toEqual({ kind: 'project', project: 'myapp' });
    // A plan id given bare, or of the wrong type.
    const plan = '01M8KK5920RS6CGAVDFVYYJ0B4';
    expect(await fieldOf(() => p.listViolations(plan))).toBe('options');
    expect(await fieldOf(() => p.listViolations({ plan: 5 }))).toBe('plan');
    expect((await s.list({ scope: { project: 'myapp' } })).every((l: Loose) => l.invariant.scope.kind === 'project')).toBe(true);
    expect(await p.listViolations({ plan })).toEqual(await p.listViolations({ plan: plan.slice(0, 8) }));
  });

  it('refuses an id that is no string, naming the field, whatever its type, in every lookup', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const p = PlanService.open({ store }) as Loose;
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    // An object without a prototype cannot even be printed, and a symbol cannot be matched against a pattern.
    for (const id of [42, {}, Object.create(null), Symbol('id')]) {
      expect(await fieldOf(() => s.show(id))).toBe('id');
      expect(await fieldOf(() => s.remove(id))).toBe('id');
      expect(await fieldOf(() => s.resolvePlanId(id))).toBe('id');
      expect(await fieldOf(() => s.readPlan(id))).toBe('id');
      expect(await fieldOf(() => p.status(id))).toBe('id');
    }
    // Null options read as none; a string in their place is refused.
    const global = '01M8KJT9G0XNWEM589ZS7FV0VT';
    await usageError(() => s.remove(global, 'yes'));
    expect(await fieldOf(() => s.resolveId(global, { inherited: 'no' }))).toBe('inherited');
    expect((await s.resolveId(global, null)).id).toBe(global);
    expect((await s.remove(global, null)).id).toBe(global);
    // A plan named in a field is refused by that field's name.
    expect(await fieldOf(() => s.effective({ plan: 5 }))).toBe('plan');
    expect(await fieldOf(() => p.addViolation({ invariant: '01M8KJT9G0XNWEM589ZS7FV0VT' }))).toBe('plan');
    expect(await fieldOf(() => p.addViolation({ plan: 5, invariant: '01M8KJT9G0XNWEM589ZS7FV0VT' }))).toBe('plan');
    expect(
      await fieldOf(() => p.waive({ invariant: '01M8KJT9G0XNWEM589ZS7FV0VT', plan: 5, reason: 'r', owner: 'o', expires: '2099-01-01' })),
    ).toBe('plan');
  });

  it('refuses a project name, a target or a list of another type in the public lookups, naming the field, instead of a TypeError', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    for (const name of [5, null, {}, Symbol('p')]) {
      expect(await fieldOf(() => s.requireProject(name))).toBe('project');
      expect(await fieldOf(() => s.checkNewProject(name, false))).toBe('project');
    }
    expect(await fieldOf(() => s.requireProject('myapp', { writin: true }))).toBe('writin');
    await usageError(() => s.requireProject('myapp', 'yes'));
    expect(await s.requireProject('myapp', null)).toBeUndefined();
    // A name that is none is not handed back as the project the add will create.
    expect(await fieldOf(() => s.checkNewProject('fresh', 'yes'))).toBe('confirmed');
    expect(await fieldOf(() => s.waiversOf(null))).toBe('target');
    expect(await fieldOf(() => s.waiversOf({ kind: 'project' }))).toBe('target.project');
    const scopes = new ScopeService(s) as Loose;
    expect(await fieldOf(() => scopes.newProjects(5))).toBe('inputs');
    expect((await scopes.newProjects([{ project: 'fresh' }], null))[0].project).toBe('fresh');
    // A callback or a text of another type is refused when given, not when it is used (or written into a request).
    expect(await fieldOf(() => scopes.readableSourceTrees({}))).toBe('missing');
    const plans = PlanService.open({ store }) as Loose;
    expect(await fieldOf(() => plans.actorRequest('01M8KK5920RS6CGAVDFVYYJ0B4', { text: 'x' }))).toBe('context');
    expect((await plans.actorRequest('01M8KK5920RS6CGAVDFVYYJ0B4', undefined)).context).toBeNull();
  });

  it("refuses an export plan's options, or a plan to apply, of the wrong type, naming the field, instead of a TypeError or force read by its truthiness", async () => {
    const store = exampleStore();
    const exporter = new ExportService(InvariantService.open({ store })) as Loose;
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    // Null reads as left out, as everywhere: the store lists no targets.
    expect((await usageError(() => exporter.plan(null))).code).toBe('no-export-targets');
    await usageError(() => exporter.plan('agents-md'));
    expect(await fieldOf(() => exporter.plan({ targets: 'agents-md' }))).toBe('targets');
    expect(await fieldOf(() => exporter.plan({ targets: [5] }))).toBe('targets[]');
    expect(await fieldOf(() => exporter.plan({ targets: ['agents-md'], project: 5 }))).toBe('project');
    expect(await fieldOf(() => exporter.plan({ targets: ['agents-md'], force: 'no' }))).toBe('force');
    expect(await fieldOf(() => exporter.plan({ targets: ['agents-md'], onProgress: 5 }))).toBe('onProgress');
    // apply takes what plan returned: anything else is refused before a file is written, never a TypeError.
    await usageError(() => exporter.apply());
    await usageError(() => exporter.apply('AGENTS.md'));
    expect(await fieldOf(() => exporter.apply({ changes: [] }))).toBe('top');
    expect(await fieldOf(() => exporter.apply({ top: store }))).toBe('changes');
    expect(await fieldOf(() => exporter.apply({ top: store, changes: [{ action: 'create', after: 'x' }] }))).toBe('changes[].path');
    expect(await fieldOf(() => exporter.apply({ top: store, changes: [{ path: 'A.md', action: 'create', after: 5 }] }))).toBe(
      'changes[].after',
    );
    expect(await fieldOf(() => exporter.apply({ top: store, changes: [] }, 5))).toBe('onProgress');
    // An action no plan() gives, or a delete that holds a text, was written as if planned: refused by its field.
    for (const [change, field] of [
      [{ path: 'A.md', action: 'explode', after: 'x' }, 'changes[].action'],
      [{ path: 'A.md', action: 'delete', after: 'x' }, 'changes[].after'],
      [{ path: 'A.md', action: 'create' }, 'changes[].after'],
    ] as const)
      expect(await fieldOf(() => exporter.apply({ top: store, changes: [change] }))).toBe(field);
    expect(existsSync(join(store, 'A.md'))).toBe(false);
    // A path out of the top, in a plan rebuilt by the caller, was written there; nothing is written, not even the others.
    const top = join(dirname(store), 'top');
    mkdirSync(top);
    for (const path of ['../outside.md', join(store, 'outside.md'), 'a/../../outside.md', '.git/hooks/pre-commit', 'sub/.GIT/config'])
      expect(
        await fieldOf(() =>
          exporter.apply({
            top,
            changes: [
              { path: 'AGENTS.md', action: 'create', after: 'x' },
              { path, action: 'create', after: 'x' },
            ],
          }),
        ),
      ).toBe('changes[].path');
    expect(existsSync(join(top, 'AGENTS.md')) || existsSync(join(store, 'outside.md'))).toBe(false);
    // Nor into the store, below the repository's top, where the file would be read as the store's own.
    for (const path of ['.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8G7.yaml', '.agents', 'x/../.agents/AGENTS.md'])
      expect(await fieldOf(() => exporter.apply({ top: dirname(store), changes: [{ path, action: 'create', after: 'x' }] }))).toBe(
        'changes[].path',
      );
    // Also through a link to the top, or the store's name in other capitals, which a forgiving file system takes for it.
    const link = join(top, 'link');
    symlinkSync(dirname(store), link);
    for (const [at, path] of [
      [link, '.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8G7.yaml'],
      [dirname(store), '.AGENTS/AGENTS.md'],
    ] as const)
      expect(await fieldOf(() => exporter.apply({ top: at, changes: [{ path, action: 'create', after: 'x' }] }))).toBe('changes[].path');
    expect(existsSync(join(store, 'global/01JDQ6X5Z8W4N3B2C1D0E9F8G7.yaml')) || existsSync(join(store, 'AGENTS.md'))).toBe(false);
    await usageError(() => exporter.applyUntil({ top: store }, new AbortController().signal));
    // A stop that is no AbortSignal is named, not a TypeError at the first file; none is a run never stopped.
    expect(await fieldOf(() => exporter.applyUntil({ top: store, changes: [] }, 'stop'))).toBe('signal');
    expect(await exporter.applyUntil({ top: store, changes: [] })).toEqual([]);
  });

  it("refuses a plan method's options of the wrong type, naming the field, before anything runs or is written", async () => {
    const store = exampleStore();
    const p = PlanService.open({ store }) as Loose;
    const plan = '01M8KK5920RS6CGAVDFVYYJ0B4';
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    expect(
      await fieldOf(() => p.waive({ invariant: '01M8KJT9G0XNWEM589ZS7FV0VT', project: 'myapp', reason: 'r', owner: 'o', expires: 5 })),
    ).toBe('expires');
    // "no" is not false: read by its truthiness it would apply the sync.
    expect(await fieldOf(() => p.sync(plan, { apply: 'no' }))).toBe('apply');
    expect(await fieldOf(() => p.sync(plan, { apply: true, confirm: 'yes' }))).toBe('confirm');
    await usageError(() => p.sync(plan, 'apply'));
    let asked = false;
    const actor = {
      kind: 'command',
      description: 'in-process',
      evaluate: async () => {
        asked = true;
        return { ok: false, reason: 'no' };
      },
    };
    expect(await fieldOf(() => p.strategize(plan, { actor, context: 5 }))).toBe('context');
    // A misspelt context would have the actor judge the plan without it; a kind the records cannot hold would
    // be refused only once the actor's work was done.
    expect(await fieldOf(() => p.strategize(plan, { actor, contxt: 'the plan text' }))).toBe('contxt');
    expect(await fieldOf(() => p.strategize(plan, { actor: { ...actor, kind: 'in-process' } }))).toBe('actor.kind');
    expect(await fieldOf(() => p.strategize(plan, { actor, signal: 5 }))).toBe('signal');
    expect(asked).toBe(false);
    // config's options: null is left out; a misspelt actor, or one of no kind, would skip the check of the actor that runs.
    expect(await fieldOf(() => p.config({ actr: 'llm' }))).toBe('actr');
    expect((await usageError(() => p.config({ actor: 'foo' }))).detail).toMatchObject({
      field: 'actor',
      allowed: expect.arrayContaining(['llm']),
    });
    expect(await fieldOf(() => p.config('llm'))).toBe('options');
    expect((await p.config(null)).version).toBe((await p.config({ actor: 'configured' })).version);
  });

  it('refuses a sync\'s confirm answering no boolean, naming confirm(), and writes nothing, instead of applying on a truthy "no"', async () => {
    const store = exampleStore();
    const p = PlanService.open({ store, deps: { author: async () => 'Test <test@example.com>' } }) as Loose;
    const { plan } = await p.use({ action: 'local/code-coverage', project: 'myapp', goal: 'Raise coverage' });
    await p.invariants.add({ scope: { action: 'local/code-coverage' }, text: 'Coverage never drops below the last release' });
    const before = (await p.show(plan.id)).effective.length;
    expect((await usageError(() => p.sync(plan.id, { apply: true, confirm: async () => 'no' }))).detail).toEqual({ field: 'confirm()' });
    expect((await p.show(plan.id)).effective.length).toBe(before);
    expect((await p.sync(plan.id, { apply: true, confirm: async () => true })).applied).toBe(true);
    // A stop before the lock is a CancelledError, which the package exports for a caller to tell it apart.
    const lib = (await import('../../src/index.ts')) as Loose;
    const stopped = new AbortController();
    stopped.abort();
    const invariant = (await p.show(plan.id)).effective[0].invariant.id;
    const cancelled = await rejectionOf(() => p.addViolation({ plan: plan.id, invariant }, { signal: stopped.signal }));
    expect(lib.CancelledError).toBeTypeOf('function');
    expect(cancelled).toBeInstanceOf(lib.CancelledError);
    expect(await p.listViolations({ plan: plan.id })).toEqual([]);
    const s = p.invariants;
    const count = (await s.list({ all: true })).length;
    for (const call of [
      () => s.add({ scope: { global: true }, text: 'Keep the audit log' }, { signal: stopped.signal }),
      () => s.edit({ id: invariant, text: 'Keep the audit log' }, { signal: stopped.signal }),
      () => s.remove(invariant, { signal: stopped.signal }),
    ])
      expect(await rejectionOf(call)).toBeInstanceOf(lib.CancelledError);
    expect((await s.list({ all: true })).length).toBe(count);
    expect((await s.show(invariant)).invariant.text).not.toBe('Keep the audit log');
  });

  it('refuses a service built over the wrong thing when it is built: a store path where an InvariantService goes, and back', async () => {
    const store = exampleStore();
    const fieldOf = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string } | null)?.field;
    // ReviewService takes the store's path; the others the service over it. Mixed up, each names what it takes.
    expect(await fieldOf(() => new ExportService(store as Loose))).toBe('service');
    expect(await fieldOf(() => new ScopeService(store as Loose))).toBe('service');
    expect(await fieldOf(() => new PlanService(store as Loose))).toBe('service');
    expect(await fieldOf(() => new PlanService(PlanService.open({ store }) as Loose))).toBe('service');
    expect(await fieldOf(() => new ReviewService(InvariantService.open({ store }) as Loose))).toBe('root');
    expect(await fieldOf(() => new InvariantService(undefined as Loose))).toBe('root');
    expect((await new ScopeService(InvariantService.open({ store })).listProjects()).length).toBeGreaterThan(0);
  });
});

describe('open() from a current folder removed after the process entered it', () => {
  it('is a UsageError (exit 2) saying so, not the ENOENT of process.cwd(); a store named outright still opens', () => {
    const gone = vi.spyOn(process, 'cwd').mockImplementation(() => {
      throw Object.assign(new Error('ENOENT: no such file or directory, uv_cwd'), { code: 'ENOENT', syscall: 'uv_cwd' });
    });
    try {
      let error: unknown;
      try {
        InvariantService.open({ env: {} });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AgentsError);
      expect((error as AgentsError).exitCode).toBe(EXIT_CODES.usage);
      const root = exampleStore();
      expect(InvariantService.open({ store: root, cwd: root, env: {} }).root).toBe(root);
    } finally {
      gone.mockRestore();
    }
  });
});

describe('every public function of the library given arguments of the wrong type', () => {
  it('refuses them with a usage error naming the argument, never a TypeError from inside', async () => {
    const lib = (await import('../../src/index.ts')) as Record<string, unknown>;
    const functions = Object.entries(lib).filter(
      (e): e is [string, (...args: unknown[]) => unknown] =>
        typeof e[1] === 'function' && !/^class\b/.test(Function.prototype.toString.call(e[1])),
    );
    expect(functions.length).toBeGreaterThan(40);
    // Of the wrong type, not of the wrong shape: the fields of an invariant, a plan or a target, test/service/library-shapes.test.ts.
    for (const [name, fn] of functions)
      for (const bad of [42, null, [], 'text', true, undefined]) {
        const outcome = await (async () => fn(bad, bad, bad, bad, bad))().then(
          () => undefined,
          (e: unknown) => e,
        );
        if (outcome === undefined) continue;
        expect(outcome, `${name}(${String(bad)}, …)`).toBeInstanceOf(AgentsError);
        expect((outcome as AgentsError).exitCode).toBe(EXIT_CODES.usage);
      }
    const L = lib as Loose;
    const field = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string }).field;
    expect(await field(() => L.globMatches(42, 'a'))).toBe('glob');
    expect(await field(() => L.textKey(null))).toBe('text');
    expect(await field(() => L.resolveEffective({ kind: 'global' }, [7]))).toBe('invariants');
    expect((await usageError(() => L.resolveEffective({ kind: 'global' }, [7]))).message).toContain('invariants[0] must be an object');
    expect(await field(() => L.buildActorRequest({}, 5, []))).toBe('context');
    expect(await field(() => L.waiverHolds({ expires: '2030-01-01' }, '2026-01-01'))).toBe('now');
    // An async function's refusal is its promise's, as its other failures are: a caller's .catch sees it.
    const pending = L.readProjects({ root: '.' });
    expect(pending).toBeInstanceOf(Promise);
    expect(await field(() => pending)).toBe('source');
    // A source of the caller's own answers what the reader goes on with: checked as a callback's answer is.
    const listing = (answer: unknown) => ({ list: async () => answer, read: async () => new Map() });
    expect(await field(() => L.readProjects(listing(undefined)))).toBe('source.list()');
    expect(await field(() => L.readProjects(listing([{ path: 5, type: 'dir' }])))).toBe('source.list()[0].path');
    expect(await field(() => L.commitWanted(listing(5)))).toBe('source.list()');
    const project = {
      list: async (dir: string) =>
        dir === 'projects' ? [{ path: 'projects/a', type: 'dir' }] : [{ path: 'projects/a/project.yaml', type: 'file' }],
      read: async (paths: string[]) => new Map(paths.map((p) => [p, { ok: true, bytes: 'paths: [src/**]' }])),
    };
    expect(await field(() => L.readProjects(project))).toBe('source.read().get("projects/a/project.yaml").bytes');
    const bytes = new TextEncoder().encode('paths: [src/**]\n');
    const good = { ...project, read: async (paths: string[]) => new Map(paths.map((p) => [p, { ok: true, bytes }])) };
    expect((await L.readProjects(good)).meta.get('a').paths).toEqual(['src/**']);
    expect(await field(() => new L.IdAbbreviations(42))).toBe('ids');
    expect(await field(() => new L.IdAbbreviations([1]))).toBe('ids');
    expect(await field(() => new L.IdAbbreviations(['01JDQ6X5Z8W4N3B2C1D0E9F8G1']).short(42))).toBe('id');
    // A callback's answer is checked as an argument is: keyOf answering undefined made one invariant shadow all others.
    const invariant = (id: string, text: string) => ({
      id,
      text,
      severity: 'error',
      active: true,
      tags: [],
      scope: { kind: 'global' },
      path: `global/${id}.yaml`,
    });
    const two = [invariant('01JDQ6X5Z8W4N3B2C1D0E9F8G1', 'One rule'), invariant('01JDQ6X5Z8W4N3B2C1D0E9F8G2', 'Another rule')];
    expect(await field(() => L.resolveEffective({ kind: 'project', project: 'myapp' }, two, () => undefined))).toBe('keyOf()');
    expect(L.resolveEffective({ kind: 'project', project: 'myapp' }, two, (i: { text: string }) => i.text)).toHaveLength(2);
    // diffTarget's keyOf too: answering undefined, the set after held one of the two, the other "newly shadowed".
    const side = (invariants: unknown[]) => ({ invariants, plans: new Map(), waivers: [] });
    const myapp = { kind: 'project', project: 'myapp' };
    expect(await field(() => L.diffTarget(myapp, side([]), side(two), { keyOf: () => undefined }))).toBe('options.keyOf()');
    expect(L.diffTarget(myapp, side([]), side(two), { keyOf: (i: { text: string }) => i.text }).countAfter).toBe(2);
    expect(await field(() => L.mergeBlock(undefined, undefined, 'x\n', () => 5, false))).toBe('hash()');
    expect(
      await field(() => L.pickId('01JD', ['01JDQ6X5Z8W4N3B2C1D0E9F8G1', '01JDQ6X5Z8W4N3B2C1D0E9F8G2'], 'invariant', 'h', () => ({}))),
    ).toBe('describe()');
    // A least length of another type would make every abbreviation the empty string.
    expect(await field(() => new L.IdAbbreviations(['01JDQ6X5Z8W4N3B2C1D0E9F8G1'], '6'))).toBe('min');
    expect(await field(() => L.shortestUniquePrefix('01JDQ6X5Z8W4N3B2C1D0E9F8G1', [], Number.NaN))).toBe('min');
    expect(new L.IdAbbreviations(['01JDQ6X5Z8W4N3B2C1D0E9F8G1'], null).short('01JDQ6X5Z8W4N3B2C1D0E9F8G1')).toBe('01JD');
    expect(L.shortestUniquePrefix('01JDQ6X5Z8W4N3B2C1D0E9F8G1', [], 6)).toBe('01JDQ6');
    expect(await field(() => new L.WorkingTreeSource(42))).toBe('root');
    // Its options are refused by field as every options object is: {recursive: 'no'} read by its truthiness would walk it all.
    expect(await field(() => new L.WorkingTreeSource('.', { parseCach: {} }))).toBe('options.parseCach');
    expect(await field(() => new L.WorkingTreeSource('.', { now: 5 }))).toBe('options.now');
    const tree = new L.WorkingTreeSource(exampleStore());
    expect(await field(() => tree.list('global', { recursive: 'no' }))).toBe('options.recursive');
    expect(await field(() => tree.list('global', { recursiv: false }))).toBe('options.recursiv');
    expect((await tree.list('global', null)).length).toBe((await tree.list('global')).length);
    // null for an optional argument is taken as left out, as the check takes it: the function's default, no TypeError.
    expect(L.escapeUnsafe('a\u202eb', null)).toBe(L.escapeUnsafe('a\u202eb'));
    const hash = (s: string) => String(s.length);
    expect(L.mergeBlock(null, null, 'x\n', hash, false)).toEqual(L.mergeBlock(undefined, undefined, 'x\n', hash, false));
    // The checks are the wrapper's: a call of the right types is the function's own.
    expect(L.globMatches('src/**', 'src/a.ts')).toBe(true);
    expect(L.globMatches.name).toBe('globMatches');
  });
});

describe('main of agents-invariants/cli given words or an io of the wrong type', () => {
  it('rejects with a usage error naming the field, before anything runs, instead of one-letter commands or a TypeError', async () => {
    const { main } = await import('../../src/cli/main.ts');
    const written: string[] = [];
    const stream = { write: (chunk: string) => written.push(chunk) };
    const io = { stdout: stream, stderr: stream, stdin: process.stdin, env: {}, cwd: exampleStore() };
    const field = async (call: () => unknown) => ((await usageError(call)).detail as { field?: string }).field;
    expect(await field(() => main('invariant list' as Loose, io))).toBe('args');
    expect(await field(() => main([1] as Loose, io))).toBe('args');
    expect(await field(() => main(['--version'], { ...io, stdout: undefined } as Loose))).toBe('io.stdout');
    expect(await field(() => main(['--version'], { ...io, env: undefined } as Loose))).toBe('io.env');
    // A variable that is no string was read as the store's path deep inside: a TypeError, exit 70.
    expect(await field(() => main(['invariant', 'list'], { ...io, env: { AGENTS_STORE: 5 } } as Loose))).toBe('io.env.AGENTS_STORE');
    expect(await field(() => main(['--version'], { ...io, cwd: 5 } as Loose))).toBe('io.cwd');
    expect(written).toEqual([]);
    expect(await main(['--version'], io)).toBe(EXIT_CODES.ok);
    expect(written.join('')).toMatch(/\d+\.\d+\.\d+/);
  });
});
