// The library's pure functions given objects of the right type whose fields are missing or wrong (src/core/model-shape.ts):
// a usage error naming the function, the argument and the field, never a TypeError from inside nor a quiet wrong answer;
// and what the store's readers return passes the same checks.
import { describe, expect, it } from 'vitest';
import { AgentsError, EXIT_CODES } from '../../src/core/errors.ts';
import * as L from '../../src/index.ts';
import { readStore } from '../../src/store/read.ts';
import { readWaivers } from '../../src/store/read-waivers.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { exampleStore } from '../helpers/plans.ts';

// biome-ignore lint/suspicious/noExplicitAny: the point is input no type allows.
type Loose = any;
const lib = L as Loose;

/** The field a call's usage error names, or what else it did. */
function refusal(call: () => unknown): string {
  let outcome: unknown;
  try {
    outcome = call();
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(AgentsError);
    expect((error as AgentsError).exitCode).toBe(EXIT_CODES.usage);
    return (error as AgentsError & { detail: { field: string } }).detail.field;
  }
  throw new Error(`no refusal, but ${JSON.stringify(outcome)}`);
}

const ID = '01M8KJW430VF8WCABSB8RTQ8RY';
const PLAN_ID = '01M8KK5920RS6CGAVDFVYYJ0B4';
const inv = {
  id: ID,
  text: 'All API changes need tests',
  severity: 'error',
  active: true,
  tags: [],
  scope: { kind: 'global' },
  path: `global/${ID}.yaml`,
};
const target = { kind: 'project', project: 'myapp' };
const side = { invariants: [inv], plans: new Map() };
const exportInput = {
  targets: ['agents-md', 'cursor'],
  global: [],
  projects: [],
  severities: ['error'],
  nested: true,
  storeRel: '.agents',
};

describe('every pure function of the library given a model object with a missing or wrong field', () => {
  it('refuses it with a usage error whose detail.field names the argument and the field', async () => {
    const cases: [string, () => unknown][] = [
      ['scope.kind', () => lib.checkNewInvariant({}, 'x', [inv], new Map())],
      ['others[0].text', () => lib.checkNewInvariant({ kind: 'global' }, 'x', [{ ...inv, text: undefined }], new Map())],
      ['target.kind', () => lib.resolveEffective({}, [inv])],
      ['target.project', () => lib.resolveEffective({ kind: 'project' }, [inv])],
      ['invariants[1].scope', () => lib.resolveEffective(target, [inv, { ...inv, scope: undefined }])],
      // The fields the readers always set: without active, the invariant would be left out of the set in silence.
      ['invariants[0].active', () => lib.resolveEffective(target, [{ ...inv, active: undefined }])],
      ['before[0].tags', () => lib.diffInvariantFiles([{ ...inv, tags: undefined }], [inv])],
      ['invariant.id', () => lib.appliesTo({}, {})],
      ['invariant.scope.project', () => lib.appliesTo({ ...inv, scope: { kind: 'project' } }, target)],
      ['invariants[0].severity', () => lib.findNearDuplicates([{ ...inv, severity: 'fatal' }], new Map())],
      ['plans.get("p").id', () => lib.findNearDuplicates([inv], new Map([['p', {}]]))],
      ['others[0].invariant', () => lib.nearDuplicatesOf('x', [{}])],
      ['stats.examined', () => lib.nearPairs(['a', 'b'], {})],
      ['a.text', () => lib.nearKind({}, {})],
      ['b.loose', () => lib.nearKind({ text: 'a' }, { text: 'b', loose: 5 })],
      ['a.scope', () => lib.canMeet({}, {}, new Map())],
      [
        'waivers[0].expires',
        () => lib.waivedAt([{ id: ID, invariant_id: ID, reason: 'r', owner: 'o', created_at: '2026-01-01T00:00:00Z' }], new Date()),
      ],
      ['waiver.expires', () => lib.waiverHolds({}, new Date())],
      ['waivers[0].id', () => lib.waiversForPlan([{}], { id: PLAN_ID })],
      ['plan.id', () => lib.waiversForPlan([], {})],
      ['plan.id', () => lib.buildActorRequest({}, null, [inv])],
      ['nodes[0].id', () => lib.buildDecisionTree([{}])],
      ['planInvariants[0].id', () => lib.computeDrift({ id: PLAN_ID }, [{}], new Map())],
      ['actionInvariants.get("local/x")[0].text', () => lib.planSync({ id: PLAN_ID }, [], new Map([['local/x', [{ ...inv, text: 5 }]]]))],
      ['violations[0].invariant_id', () => lib.standingViolations([{}], new Map())],
      ['outcome.ok', () => lib.reconcile([ID], {}, ID)],
      ['outcome.response.results', () => lib.reconcile([ID], { ok: true, response: {} }, ID)],
      ['config.export', () => lib.chooseTargets(undefined, {})],
      ['input.targets', () => lib.planExport({})],
      ['input.projects[0].name', () => lib.planExport({ ...exportInput, projects: [{ name: '../../x', meta: {}, entries: [] }] })],
      [
        'input.projects[0].meta.paths[0]',
        () => lib.planExport({ ...exportInput, projects: [{ name: 'x', meta: { paths: ['../etc/**'] }, entries: [] }] }),
      ],
      ['meta.get("a").paths[0]', () => lib.projectsHoldingFolder(new Map([['a', { paths: ['/src/**'] }]]), 'src')],
      ['sections[0].title', () => lib.renderSections([{}], '.agents')],
      // What renderSections shares between files is the WeakMap newRenderedEntries() makes, not any object.
      ['rendered', () => lib.renderSections([], '.agents', {})],
      ['meta.get("a").paths', () => lib.projectsHoldingFolder(new Map([['a', { paths: 5 }]]), 'src')],
      ['changed.before', () => lib.diffStores({}, side, side, [])],
      ['targets[0].kind', () => lib.diffStores({ before: [], after: [] }, side, side, [{}])],
      ['target.kind', () => lib.diffTarget({}, side, side)],
      ['before.invariants', () => lib.diffTarget(target, {}, side)],
      ['after.plans', () => lib.diffTarget(target, side, { invariants: [] })],
      ['before[0].path', () => lib.diffInvariantFiles([{ ...inv, path: undefined }], [])],
      ['before.projects', () => lib.affectedTargets(['a'], {}, {})],
      [
        'after.plans.get("p").project',
        () =>
          lib.affectedTargets(
            ['a'],
            { projects: new Set(), plans: new Map() },
            { projects: new Set(), plans: new Map([['p', { id: PLAN_ID, project: 5 }]]) },
          ),
      ],
      [
        'changed.projects.after.get("a").paths',
        () =>
          lib.diffStores(
            { before: [], after: [], projects: { before: new Map(), after: new Map([['a', { paths: 'src/**' }]]) } },
            side,
            side,
            [],
          ),
      ],
      ['facts.effective', () => lib.judgePlan({})],
      [
        'options.allow[0]',
        () => lib.judgePlan({ effective: [], setDigest: 'x', unfinished: [], violations: [] }, { allow: ['everything'] }),
      ],
      ['decisions[0].id', () => lib.committedRuns([{}], [])],
      ['enforcement[0].id', () => lib.committedRuns([], [{}])],
      ['effective[0].id', () => lib.setDigestInput([{}])],
      ['invariant.severity', () => lib.invariantDigestInput({ id: ID, text: 'x' })],
      ['records[0].invariant_id', () => lib.setChanges([], [{}])],
      ['options.newlines', () => lib.escapeUnsafe('x', { newlines: 'no' })],
      ['options.newline', () => lib.escapeUnsafe('x', { newline: true })],
      ['kind', () => lib.parseRecord('decision', 'plans/p/decisions/a.yaml', new Uint8Array(), ID)],
      ['document', () => lib.findUnsafeText('invariant', { rationale: 'two\nlines' })],
      ['options.alow', () => lib.judgePlan({ effective: [], setDigest: 'x', unfinished: [], violations: [] }, { alow: ['not-run'] })],
      ['options.onlykeys', () => lib.diffTarget(target, side, side, { onlykeys: new Set() })],
    ];
    for (const [field, call] of cases) expect(refusal(call), field).toBe(field);
    // The items of an iterable are checked too, a generator's included (read once: the function gets them as an array).
    expect(refusal(() => lib.resolvePrefix('01M8', [1, 2]))).toBe('ids');
    expect(refusal(() => lib.pickId('01M8', new Set([null]), 'invariant', 'h'))).toBe('ids');
    const paths = function* () {
      yield 'global/x.yaml';
      yield 5;
    };
    expect(
      refusal(() => lib.affectedTargets(paths(), { projects: new Set(), plans: new Map() }, { projects: new Set(), plans: new Map() })),
    ).toBe('changedPaths');
    const ids = function* () {
      yield ID;
    };
    expect(L.resolvePrefix(ID.slice(0, 6), ids())).toEqual({ kind: 'unique', id: ID });
    // What a caller's write answers is checked before anything is committed, whether or not a commit is wanted.
    await expect(lib.withCommit('.', false, async () => 5)).rejects.toMatchObject({
      exitCode: EXIT_CODES.usage,
      detail: { field: 'write()' },
    });
    await expect(lib.withCommit('.', false, async () => ({ value: {} }))).rejects.toMatchObject({ detail: { field: 'write().paths' } });
    expect(await L.withCommit('.', false, async () => ({ value: { n: 1 }, paths: [], message: 'm' }))).toEqual({ n: 1 });
    // Paths are the store's: one outside it would be committed with the store's files.
    for (const [paths, field] of [
      [['global/a.yaml', '../README.md'], 'write().paths[1]'],
      [['/etc/passwd'], 'write().paths[0]'],
      [['global/../../x'], 'write().paths[0]'],
      [[''], 'write().paths[0]'],
    ] as const)
      await expect(L.withCommit('.', false, async () => ({ value: {}, paths: [...paths], message: 'm' }))).rejects.toMatchObject({
        exitCode: EXIT_CODES.usage,
        detail: { field },
      });
    expect(await L.withCommit('.', false, async () => ({ value: {}, paths: ['global/a..b.yaml', 'plans/x/'], message: 'm' }))).toEqual({});
    // A message git refuses (empty, white space, a NUL) failed the commit once the files were staged, and left them so.
    for (const message of ['', ' \n ', 'a\0b'])
      await expect(L.withCommit('.', false, async () => ({ value: {}, paths: ['global/a.yaml'], message }))).rejects.toMatchObject({
        exitCode: EXIT_CODES.usage,
        detail: { field: 'write().message' },
      });
    // The tree source's own methods: one path bare is not read as its characters, each a path.
    const source = new L.WorkingTreeSource('.');
    await expect(source.read('global/a.yaml' as Loose)).rejects.toMatchObject({ exitCode: EXIT_CODES.usage, detail: { field: 'paths' } });
    await expect(source.list(5 as Loose)).rejects.toMatchObject({ exitCode: EXIT_CODES.usage, detail: { field: 'dir' } });
    // Nor does it read or list outside its store: `..` and a path from the root are refused, a name with dots is not.
    const store = new L.WorkingTreeSource(exampleStore());
    for (const [field, call] of [
      ['paths[0]', () => store.read(['../.gitignore'])],
      ['paths[1]', () => store.read(['global', '/etc/hostname'])],
      ['dir', () => store.list('global/../..')],
    ] as const)
      await expect(call()).rejects.toMatchObject({ exitCode: EXIT_CODES.usage, detail: { field } });
    expect((await store.read(['global/a..b.yaml'])).get('global/a..b.yaml')).toMatchObject({ ok: false, code: 'missing' });
    // A name is a folder's, never a path: ../../x would read a project.yaml outside the store.
    await expect(lib.readProjects(new L.WorkingTreeSource('.'), ['myapp', '../../x'])).rejects.toMatchObject({
      exitCode: EXIT_CODES.usage,
      detail: { field: 'names[1]' },
    });
    // An async function's refusal is its promise's.
    const write = async () => ({ value: {}, paths: [], message: 'm' });
    await expect(lib.withCommit('.', false, write, { notify: () => {} })).rejects.toMatchObject({
      exitCode: EXIT_CODES.usage,
      detail: { field: 'options.notify' },
    });
    // A field of a few values says which, in detail.allowed too: the schema's enum, a kind, a list of names.
    const allowed = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        return (error as AgentsError & { detail: { allowed?: unknown } }).detail.allowed;
      }
    };
    const node = { id: ID, type: 'decided', parent_id: null, created_at: '2026-01-01T00:00:00Z', summary: 's' };
    expect(allowed(() => lib.buildDecisionTree([node]))).toEqual(['invariant_enforced']);
    expect(allowed(() => lib.resolveEffective({ kind: 'folder' }, []))).toEqual(['project', 'plan']);
    expect(allowed(() => lib.judgePlan({ effective: [], setDigest: 'x', unfinished: [], violations: [] }, { allow: ['x'] }))).toEqual([
      ...L.RELAXABLE,
    ]);
    // The message names the function, the argument and the field.
    expect(() => lib.appliesTo({ ...inv, scope: {} }, target)).toThrow(/^appliesTo: invariant\.scope\.kind is missing$/);
  });
});

describe("what the store's readers return", () => {
  it('passes the checks of every function it is handed to', async () => {
    const source = new WorkingTreeSource(exampleStore());
    const store = await readStore(source);
    const { waivers } = await readWaivers(source, [{ kind: 'plan', plan: PLAN_ID }]);
    expect(store.invariants.length).toBeGreaterThan(4);
    expect(waivers.length).toBe(1);
    const plan = store.plans.get(PLAN_ID)!;
    const planTarget = { kind: 'plan', plan: PLAN_ID, project: 'myapp' } as const;
    const entries = L.resolveEffective(planTarget, store.invariants);
    expect(entries.length).toBeGreaterThan(2);
    const sideOf = { invariants: store.invariants, plans: store.plans };
    expect(L.diffTarget({ kind: 'plan', plan: PLAN_ID }, sideOf, sideOf).entered).toEqual([]);
    L.diffStores({ before: store.invariants, after: store.invariants }, sideOf, sideOf, [{ kind: 'project', project: 'myapp' }]);
    L.findNearDuplicates(store.invariants, store.plans);
    L.checkNewInvariant({ kind: 'project', project: 'myapp' }, 'x', store.invariants, store.plans);
    const mine = store.invariants.filter((i) => i.scope.kind === 'plan');
    L.buildActorRequest(plan, null, mine);
    L.computeDrift(plan, mine, new Map([['local/code-coverage', store.invariants.filter((i) => i.scope.kind === 'action')]]));
    L.setDigestInput(entries.map((e) => e.invariant));
    expect(L.waiversForPlan(waivers, plan)).toHaveLength(1);
    L.waivedAt(waivers, new Date());
    L.chooseTargets(['agents-md'], store.config!);
    L.projectsHoldingFolder(store.projectMeta, 'src');
    expect((await L.readProjects(source, ['myapp'])).meta.get('myapp')).toEqual(store.projectMeta.get('myapp'));
    const project = {
      name: 'myapp',
      meta: store.projectMeta.get('myapp')!,
      entries: L.resolveEffective(target as Loose, store.invariants),
    };
    expect(L.planExport({ ...(exportInput as Loose), projects: [project] }).length).toBeGreaterThan(1);
    expect(L.findUnsafeText('invariant.schema.json', { rationale: 'two\nlines' })).toEqual([]);
  });
});

describe("the library's exported constants", () => {
  it("are frozen, nested parts too: a caller's change would be every caller's in the process", () => {
    const frozen = (v: unknown): boolean => v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(frozen));
    const constants = Object.entries(L).filter(([, v]) => typeof v === 'object' && v !== null);
    expect(constants.map(([name]) => name).sort()).toEqual(['EXIT_CODES', 'RELAXABLE', 'TARGETS']);
    for (const [name, value] of constants) expect(frozen(value), name).toBe(true);
  });
});
