// What the library answers and throws, as a caller of the public entry meets it (docs/library.md): a policy source not
// pinned or not fetched yet leaves its invariants and templates out of `list()` and `listActions()`, and the result says
// so in `inheritedMissing`, not only the notice a caller may not hear; what remove answers; the error classes.
import { dirname, join } from 'node:path';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { withFolderLock } from '../../src/store/lock.ts';
import {
  AgentsError,
  CheckFailedError,
  EXIT_CODES,
  InvalidStoreError,
  InvariantService,
  ScopeService,
  UsageError,
  type ListResult,
  type RemoveResult,
} from '../../src/index.ts';
import { rejectionOf } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const OWN = '01M8KJT9G0XNWEM589ZS7FV0VT';
const OTHER = '01M8KJW430VF8WCABSB8RTQ8RY';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const EXTENDS = 'version: 1\nextends:\n  - url: /nonexistent/policy\n    ref: v1\n';

/** A store of one global invariant and one action template that extends a policy source, pinned or not. */
function extendingStore(pinned: boolean): string {
  const store = testStore({
    [`global/${OWN}.yaml`]: invariantYaml(OWN, 'Never delete production data'),
    'actions/local/ship/action.yaml': 'description: Ship it\n',
    'config.yaml': EXTENDS,
  });
  if (pinned) {
    // A repository's git folder as git makes it, by hand: the cache of policy sources lives under it (no git is run),
    // and it holds no fetched source.
    const gitDir = join(dirname(store), '.git');
    for (const folder of ['objects', 'refs']) mkdirSync(join(gitDir, folder), { recursive: true });
    writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(
      join(store, 'extends.lock.yaml'),
      'version: 1\nsources:\n  - name: policy\n    url: /nonexistent/policy\n    ref: v1\n    kind: tag\n    commit: 261d9cb8cf0b65aa694623502edcad6481226482\n',
    );
  }
  return store;
}

describe('list() of every scope in a store whose policy source cannot be read yet', () => {
  it.each([
    ['not pinned', false, 'extends update'],
    ['pinned, not fetched', true, 'extends fetch'],
  ])('%s: lists the store own invariants and says in inheritedMissing why the inherited ones are not', async (_, pinned, command) => {
    const notices: string[] = [];
    const service = InvariantService.open({ store: extendingStore(pinned), deps: { notice: (m) => notices.push(m) } });
    const listed: ListResult = await service.list();
    expect(listed.map((l) => l.invariant.id)).toEqual([OWN]);
    expect(listed.inheritedMissing).toContain('policy');
    expect(listed.inheritedMissing).toContain(command);
    // The notice says it as before, once.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(listed.inheritedMissing);
    // Said alike by add's notes, which read the same sources.
    const added = await service.add({ scope: { global: true }, text: 'Log all changes' });
    expect(added.inheritedMissing).toBe(listed.inheritedMissing);
    // The action templates: the store's own listed, the sources' said missing in the same words.
    const actions = await new ScopeService(service).listActions();
    expect(actions.map((a) => a.action)).toEqual(['local/ship']);
    expect(actions.inheritedMissing).toBe(listed.inheritedMissing);
  });

  it.each([
    ['not pinned', false, 'extends-not-pinned'],
    ['pinned, not fetched', true, 'extends-not-fetched'],
  ])('%s: show() and remove() of an id of the store own answer as list() lists it', async (_, pinned, code) => {
    const service = InvariantService.open({ store: extendingStore(pinned), deps: { notice: () => undefined } });
    const listed = await service.list();
    const shown = await service.show(OWN.slice(0, 8));
    expect(shown.invariant.id).toBe(OWN);
    expect(shown.shadow).toEqual({ shadows: [], shadowedBy: [] });
    // Its relations lack the sources' copies, said in the same words as the listing's.
    expect(shown.inheritedMissing).toBe(listed.inheritedMissing);
    // An id the store does not hold may be inherited: it cannot be told until the source is read.
    expect((await rejectionOf(service.show('01M8KZZZZZZZZZZZZZZZZZZZZZ'))).code).toBe(code);
    expect((await service.remove(OWN)).id).toBe(OWN);
    expect((await service.list()).map((l) => l.invariant.id)).toEqual([]);
  });

  it('a listing of one scope, which holds no inherited invariant, lacks nothing: no inheritedMissing', async () => {
    const service = InvariantService.open({ store: extendingStore(false) });
    const listed = await service.list({ scope: { global: true } });
    expect(listed.map((l) => l.invariant.id)).toEqual([OWN]);
    expect('inheritedMissing' in listed).toBe(false);
  });

  it('a store that extends nothing lists whole: no inheritedMissing in either listing', async () => {
    const service = InvariantService.open({ store: testStore({ [`global/${OWN}.yaml`]: invariantYaml(OWN, 'Keep logs') }) });
    expect('inheritedMissing' in (await service.list())).toBe(false);
    expect('inheritedMissing' in (await new ScopeService(service).listActions())).toBe(false);
  });
});

describe('scopes()', () => {
  it('says the invalid plan.yaml it left out in incomplete, never a list of plans that looks whole', async () => {
    const broken = `plans/${OTHER}/plan.yaml`;
    const store = testStore({
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n`,
      [broken]: `id: ${OTHER}\nproject: [myapp\n`,
      'projects/myapp/': null,
    });
    const catalog = await InvariantService.open({ store }).scopes();
    expect(catalog.plans.map((p) => p.id)).toEqual([PLAN]);
    expect(catalog.incomplete?.map((d) => [d.file, d.line])).toEqual([[broken, 2]]);
    // Every plan.yaml valid: nothing is said.
    rmSync(join(store, `plans/${OTHER}`), { recursive: true });
    expect('incomplete' in (await InvariantService.open({ store }).scopes())).toBe(false);
  });
});

describe('remove()', () => {
  it('answers the invariant removed, its path and scope; keptProject when plans target the project it emptied', async () => {
    const store = testStore({
      [`global/${OWN}.yaml`]: invariantYaml(OWN, 'Keep logs'),
      [`projects/myapp/${OTHER}.yaml`]: invariantYaml(OTHER, 'All API changes need tests'),
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n`,
    });
    const service = InvariantService.open({ store });
    const global: RemoveResult = await service.remove(OWN.slice(0, 8));
    expect(global).toEqual({ id: OWN, path: `global/${OWN}.yaml`, scope: { kind: 'global' }, strandedWaivers: [] });
    const project = await service.remove(OTHER);
    expect(project).toEqual({
      id: OTHER,
      path: `projects/myapp/${OTHER}.yaml`,
      scope: { kind: 'project', project: 'myapp' },
      keptProject: { project: 'myapp', path: 'projects/myapp/.gitkeep', plans: [PLAN] },
      strandedWaivers: [],
    });
  });
});

describe('a pattern list() or effective() cannot use', () => {
  it('is a UsageError naming the field pattern, as every refusal of a value a method was given names it', async () => {
    const service = InvariantService.open({ store: testStore({ [`projects/myapp/${OWN}.yaml`]: invariantYaml(OWN, 'Keep logs') }) });
    for (const pattern of ['(unclosed', 'x'.repeat(1001)]) {
      for (const call of [service.list({ pattern }), service.effective({ project: 'myapp' }, { pattern })]) {
        const error = await rejectionOf(call);
        expect(error).toBeInstanceOf(UsageError);
        expect(error.exitCode).toBe(EXIT_CODES.usage);
        expect(error.detail).toEqual({ field: 'pattern' });
      }
    }
  });
});

describe('the errors a caller meets', () => {
  it('say their exit code by class, but a refusal of exit code 2 that is no bad input is a plain AgentsError', async () => {
    const store = extendingStore(false);
    const service = InvariantService.open({ store });
    const duplicate = await rejectionOf(service.add({ scope: { global: true }, text: 'never delete production data' }));
    expect(duplicate).toBeInstanceOf(CheckFailedError);
    expect([duplicate.exitCode, duplicate.code]).toEqual([EXIT_CODES.checkFailed, 'duplicate']);
    mkdirSync(join(store, 'projects/myapp'));
    const unpinned = await rejectionOf(service.effective({ project: 'myapp' }));
    expect(unpinned).toBeInstanceOf(AgentsError);
    expect(unpinned).not.toBeInstanceOf(UsageError);
    expect([unpinned.exitCode, unpinned.code]).toEqual([EXIT_CODES.usage, 'extends-not-pinned']);
    writeFileSync(join(store, `projects/myapp/${OTHER}.yaml`), 'id: [unclosed\n');
    const invalid = await rejectionOf(service.list());
    expect(invalid).toBeInstanceOf(InvalidStoreError);
    expect(invalid.exitCode).toBe(EXIT_CODES.invalidStore);
    expect(invalid.diagnostics.map((d) => [d.file, d.line])).toEqual([[`projects/myapp/${OTHER}.yaml`, 1]]);
  });

  it('a write whose scope another writer holds waits AGENTS_LOCK_TIMEOUT_MS, then is a plain AgentsError locked; reads do not wait', async () => {
    // The wait is that of the env open() was given, not the process's, for the services built over it too.
    vi.stubEnv('AGENTS_LOCK_TIMEOUT_MS', '300');
    onTestFinished(() => void vi.unstubAllEnvs());
    const store = testStore({ [`global/${OWN}.yaml`]: invariantYaml(OWN, 'Keep logs') });
    mkdirSync(join(store, 'actions/local/ship'), { recursive: true });
    const service = InvariantService.open({ store, env: { ...process.env, AGENTS_LOCK_TIMEOUT_MS: '200' } });
    // Another writer (another service, another process) holds the global scope for the whole call.
    const [locked, listed] = await withFolderLock(store, 'global', async () => [
      await rejectionOf(service.add({ scope: { global: true }, text: 'Never push to main' })),
      await service.list(),
    ]);
    expect(locked).toBeInstanceOf(AgentsError);
    expect(locked).not.toBeInstanceOf(UsageError);
    expect([locked.exitCode, locked.code]).toEqual([EXIT_CODES.usage, 'locked']);
    expect(locked.detail).toMatchObject({ lock: join(store, 'global/.lock'), pid: process.pid, waited_ms: 200, elsewhere: false });
    expect(listed.map((l) => l.invariant.id)).toEqual([OWN]);
    expect(readdirSync(join(store, 'global'))).toEqual([`${OWN}.yaml`]);
    const action = await withFolderLock(store, 'actions/local/ship', () =>
      rejectionOf(new ScopeService(service).addAction({ action: 'local/ship' })),
    );
    expect([action.code, action.detail?.waited_ms]).toEqual(['locked', 200]);
  });

  it("reads the author of what it writes from open()'s env, as git would from the process's", async () => {
    vi.stubEnv('GIT_AUTHOR_NAME', 'Process Env');
    vi.stubEnv('GIT_AUTHOR_EMAIL', 'process@example.com');
    onTestFinished(() => void vi.unstubAllEnvs());
    const store = testStore();
    const env = { ...process.env, GIT_AUTHOR_NAME: 'Open Env', GIT_AUTHOR_EMAIL: 'open@example.com' };
    const added = await InvariantService.open({ store, env }).add({ scope: { global: true }, text: 'Keep logs' });
    expect(added.invariant.created_by).toBe('Open Env <open@example.com>');
  });
});
