import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, InvariantService, ScopeService, type AgentsError } from '../../src/index.ts';
import { removeProject } from '../../src/service/project-remove.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';
import { rejectionOf } from '../helpers/main.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/** A service with a fixed clock, counting ids and a known author: fully deterministic. */
function service(root: string): InvariantService {
  let n = 0;
  return new InvariantService(root, {
    clock: () => new Date('2026-11-29T12:00:00.123Z'),
    newId: () => `01M8KJ00000000000000000${String(n++).padStart(3, '0')}`,
    author: async () => 'Jane Doe <jane@example.com>',
  });
}

const failure = rejectionOf;

describe('InvariantService', () => {
  it('adds, lists, resolves, shows and removes through the library API', async () => {
    const root = testStore({ [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n` });
    const s = service(root);
    const g = await s.add({ scope: { global: true }, text: '  Log all changes ' });
    expect(g.invariant).toMatchObject({
      id: '01M8KJ00000000000000000000',
      text: 'Log all changes',
      created_at: '2026-11-29T12:00:00Z',
      created_by: 'Jane Doe <jane@example.com>',
    });
    expect(readFileSync(join(root, 'global/01M8KJ00000000000000000000.yaml'), 'utf8')).toBe(
      [
        '# yaml-language-server: $schema=../schemas/invariant.schema.json',
        'id: 01M8KJ00000000000000000000',
        'text: Log all changes',
        'severity: error',
        'active: true',
        'created_at: "2026-11-29T12:00:00Z"',
        'created_by: Jane Doe <jane@example.com>',
        '',
      ].join('\n'),
    );
    const p = await s.add({ scope: { project: 'myapp' }, text: 'log ALL changes', severity: 'warning', tags: ['audit', 'audit'] });
    expect(p.shadows.map((i) => i.id)).toEqual([g.invariant.id]);
    expect(p.invariant.tags).toEqual(['audit']);
    const x = await s.add({ scope: { plan: PLAN }, text: 'Use Python 3.13 only' });
    expect(x.invariant.source).toEqual({ kind: 'plan' });

    const eff = await s.effective({ plan: PLAN });
    expect(eff.target).toEqual({ kind: 'plan', plan: PLAN, project: 'myapp' });
    expect(eff.entries.map((e) => [e.invariant.text, e.shadows.map((sh) => sh.id)])).toEqual([
      ['Use Python 3.13 only', []],
      ['log ALL changes', [g.invariant.id]],
    ]);

    const shown = await s.show('01m8kj00000000000000000001');
    expect(shown.appliesTo).toBe('project myapp and the 1 plan(s) targeting it');
    expect(shown.plansTargeting).toEqual([PLAN]);

    const removed = await s.remove(p.invariant.id);
    expect(removed.path).toBe(`projects/myapp/${p.invariant.id}.yaml`);
    expect((await s.effective({ project: 'myapp' })).entries.map((e) => e.invariant.id)).toEqual([g.invariant.id]);
  });

  it('fails with typed errors carrying exit codes', async () => {
    const root = testStore();
    const s = service(root);
    await s.add({ scope: { global: true }, text: 'A' });
    await s.add({ scope: { global: true }, text: 'B' });
    expect((await failure(s.add({ scope: { global: true }, text: 'a' }))).exitCode).toBe(EXIT_CODES.checkFailed);
    expect((await failure(s.add({ scope: { project: 'Bad' }, text: 'x' }))).exitCode).toBe(EXIT_CODES.usage);
    const ambiguous = await failure(s.show('01M8KJ0000'));
    expect(ambiguous.exitCode).toBe(EXIT_CODES.usage);
    expect(ambiguous.detail).toEqual({ matches: ['01M8KJ00000000000000000000', '01M8KJ00000000000000000001'] });
    const unknownPlan = await failure(s.effective({ plan: PLAN }));
    expect([unknownPlan.code, unknownPlan.detail]).toEqual(['unknown-id', { id: PLAN, suggestions: [] }]);
  });

  it('an id the store holds in a file renamed to another id is that file refused (exit 3, id-mismatch), not an unknown id', async () => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const root = testStore({ 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml': invariantYaml(id, 'Renamed by hand') });
    const s = service(root);
    for (const given of [id, id.slice(0, 8)]) {
      for (const call of [() => s.show(given), () => s.edit({ id: given, severity: 'warning' }), () => s.remove(given)]) {
        const error = await failure(call());
        expect(error.exitCode, given).toBe(EXIT_CODES.invalidStore);
        expect(error.diagnostics, given).toEqual([
          expect.objectContaining({ code: 'id-mismatch', file: 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml', line: 1 }),
        ]);
      }
    }
    expect(readdirSync(join(root, 'global'))).toEqual(['01M8KJW430VF8WCABSB8RTQ8RY.yaml']);
    // An id no file holds is still an unknown one.
    expect((await failure(s.show('01M8KJZS90J6DRJJ8E264B9DFX'))).code).toBe('unknown-id');
  });

  it('lists inactive invariants only with `all`', async () => {
    const root = testStore({
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Kept but off\nactive: false\n',
      'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml': 'id: 01M8KJW430VF8WCABSB8RTQ8RY\ntext: On\n',
    });
    const s = service(root);
    expect((await s.list()).map((l) => l.invariant.text)).toEqual(['On']);
    expect((await s.list({ all: true })).map((l) => l.invariant.text)).toEqual(['Kept but off', 'On']);
    // An inactive copy in the same scope still blocks a duplicate add: it is in the store.
    expect((await failure(s.add({ scope: { global: true }, text: 'kept BUT off' }))).message).toContain('(inactive)');
  });

  it("edit --overrides refuses a copy its invariant never meets (another project's, another plan's), and takes one it does", async () => {
    const OTHER = '01M8KK5920RS6CGAVDFVYYJ0B5';
    const root = testStore({
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n`,
      [`plans/${OTHER}/plan.yaml`]: `id: ${OTHER}\nproject: web\n`,
    });
    const s = service(root);
    const text = 'Ship small changes';
    const [g, app, web, plan, other] = [
      await s.add({ scope: { global: true }, text }),
      await s.add({ scope: { project: 'myapp' }, text }),
      await s.add({ scope: { project: 'web' }, text }),
      await s.add({ scope: { plan: PLAN }, text }),
      await s.add({ scope: { plan: OTHER }, text }),
    ].map((r) => r.invariant.id);
    for (const [id, overrides] of [
      [app, web],
      [plan, other],
      [plan, web],
    ] as const) {
      const e = await failure(s.edit({ id: id!, overrides: overrides! }));
      expect([e.exitCode, e.message]).toEqual([EXIT_CODES.usage, expect.stringContaining(`cannot override ${overrides}`)]);
      expect((await s.show(id!)).invariant.overrides).toBeUndefined();
    }
    expect((await s.edit({ id: plan!, overrides: app! })).invariant.overrides).toBe(app);
    expect((await s.edit({ id: web!, overrides: g! })).invariant.overrides).toBe(g);
  });

  it('counts a tag in characters, as the schema does: 64 outside the BMP are one tag, 65 are refused (exit 2)', async () => {
    const s = service(testStore());
    const tag = '\u{1F600}'.repeat(64);
    const added = await s.add({ scope: { global: true }, text: 'Smile', tags: [tag] });
    expect((await s.list({})).map((l) => l.invariant.tags)).toEqual([[tag]]);
    const edited = await failure(s.edit({ id: added.invariant.id, addTags: [`${tag}x`] }));
    expect(edited.exitCode).toBe(EXIT_CODES.usage);
    expect((await s.list({})).map((l) => l.invariant.tags)).toEqual([[tag]]);
  });

  it('reads a tag written in two Unicode forms (NFC é, NFD e + U+0301) as one tag, whether added, removed or read from a file', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    const root = testStore({
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': `id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Read\ntags: ["${nfd}", "${nfc}"]\n`,
    });
    const s = service(root);
    expect((await s.show('01M8KJT9G0XNWEM589ZS7FV0VT')).invariant.tags).toEqual([nfc]);
    const added = await s.add({ scope: { global: true }, text: 'Brew', tags: [nfc, nfd] });
    expect(added.invariant.tags).toEqual([nfc]);
    expect((await s.edit({ id: added.invariant.id, addTags: [nfd] })).changed).toEqual([]);
    expect((await s.edit({ id: added.invariant.id, removeTags: [nfd] })).invariant.tags).toEqual([]);
  });

  it('refuses (exit 1, overridden) to remove an invariant, or change its text, while another copy names it in overrides', async () => {
    const root = testStore();
    const s = service(root);
    const g = (await s.add({ scope: { global: true }, text: 'Keep backups' })).invariant;
    const p = (await s.add({ scope: { project: 'web' }, text: 'Keep backups', severity: 'warning' })).invariant;
    await s.edit({ id: p.id, overrides: g.id });
    const edited = await failure(s.edit({ id: g.id, text: 'Keep two backups' }));
    expect([edited.exitCode, edited.code, edited.detail]).toEqual([
      EXIT_CODES.checkFailed,
      'overridden',
      { id: g.id, overridden_by: [{ id: p.id, path: p.path }] },
    ]);
    const removed = await failure(s.remove(g.id));
    expect([removed.exitCode, removed.code]).toEqual([EXIT_CODES.checkFailed, 'overridden']);
    expect(readFileSync(join(root, g.path), 'utf8')).toContain('text: Keep backups');
    // The same text key is no change of text; without the override both go through.
    expect((await s.edit({ id: g.id, text: 'keep BACKUPS' })).changed).toEqual(['text']);
    await s.edit({ id: p.id, overrides: '' });
    await s.remove(g.id);
    expect((await s.list({})).map((l) => l.invariant.id)).toEqual([p.id]);
  });

  it('moves neither an invariant another copy overrides (exit 1, overridden) nor one whose own overrides the destination breaks (exit 2)', async () => {
    const root = testStore({ [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: app\n` });
    const s = service(root);
    const g = (await s.add({ scope: { global: true }, text: 'Keep backups' })).invariant;
    const p = (await s.add({ scope: { project: 'app' }, text: 'Keep backups', severity: 'warning' })).invariant;
    await s.edit({ id: p.id, overrides: g.id });
    // In the plan, G would outrank the copy that overrides it.
    const moved = await failure(s.move(g.id, { plan: PLAN }));
    expect([moved.exitCode, moved.code, moved.detail]).toEqual([
      EXIT_CODES.checkFailed,
      'overridden',
      { id: g.id, overridden_by: [{ id: p.id, path: p.path }] },
    ]);
    expect(readFileSync(join(root, g.path), 'utf8')).toContain('text: Keep backups');
    // A plan copy overriding P, moved to another project, would meet P nowhere.
    const q = (await s.add({ scope: { plan: PLAN }, text: 'Keep backups', severity: 'info' })).invariant;
    await s.edit({ id: q.id, overrides: p.id });
    expect((await failure(s.move(q.id, { project: 'web' }))).exitCode).toBe(EXIT_CODES.usage);
    expect(readFileSync(join(root, q.path), 'utf8')).toContain(`overrides: ${p.id}`);
    // Into another project, P still overrides the global copy, which applies there too; Q names it wherever it is.
    await s.edit({ id: q.id, overrides: '' });
    expect((await s.move(p.id, { project: 'web' })).invariant.overrides).toBe(g.id);
  });

  it("a move into the scope the invariant is in names the library's scopes, not the command line's flags", async () => {
    const s = service(testStore({}));
    const g = (await s.add({ scope: { global: true }, text: 'Keep backups' })).invariant;
    const same = await failure(s.move(g.id, { global: true }));
    expect(same.exitCode).toBe(EXIT_CODES.usage);
    expect(same.hint).toContain('{ project }');
    expect(same.hint).not.toContain('--');
  });

  it('edits nothing of a plan whose plan.yaml is missing: exit 3 before the write, not after it', async () => {
    const id = '01M8KJ00000000000000000900';
    const file = `plans/${PLAN}/${id}.yaml`;
    const root = testStore({ [file]: invariantYaml(id, 'Use Python 3.13 only') });
    const before = readFileSync(join(root, file), 'utf8');
    const error = await failure(service(root).edit({ id, severity: 'info' }));
    expect(error.exitCode).toBe(EXIT_CODES.invalidStore);
    expect(readFileSync(join(root, file), 'utf8')).toBe(before);
  });

  it('edits and moves nothing while the policy sources cannot be read (an invalid lock): exit 3 before the write', async () => {
    const id = '01M8KJ00000000000000000901';
    const file = `global/${id}.yaml`;
    const root = testStore({
      [file]: invariantYaml(id, 'Keep backups'),
      'config.yaml': 'version: 1\nextends:\n  - url: /nowhere/policy\n    ref: v1\n',
      'extends.lock.yaml': 'version: [\n',
    });
    const before = readFileSync(join(root, file), 'utf8');
    const s = service(root);
    expect((await failure(s.edit({ id, addTags: ['audit'] }))).exitCode).toBe(EXIT_CODES.invalidStore);
    expect((await failure(s.move(id, { project: 'web' }))).exitCode).toBe(EXIT_CODES.invalidStore);
    expect(readFileSync(join(root, file), 'utf8')).toBe(before);
    expect(existsSync(join(root, 'projects/web'))).toBe(false);
  });
});

describe('one id in two scope folders (id-reused)', () => {
  const ID = '01M8KJ00000000000000000042';
  it('is refused by list, effective and show (exit 3, invalid-store), never read as one copy shadowing the other', async () => {
    const root = testStore({
      [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data'),
      [`projects/api/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data'),
    });
    const s = service(root);
    for (const attempt of [() => s.list(), () => s.effective({ project: 'api' }), () => s.show(ID)]) {
      const e = await failure(attempt());
      expect([e.exitCode, e.code]).toEqual([EXIT_CODES.invalidStore, 'invalid-store']);
      expect((e as AgentsError & { diagnostics: unknown[] }).diagnostics).toEqual([
        expect.objectContaining({ code: 'id-reused', file: `projects/api/${ID}.yaml` }),
      ]);
    }
    // A scope read alone holds one copy: nothing is reused there.
    expect((await s.list({ scope: { global: true } })).map((l) => l.invariant.id)).toEqual([ID]);
  });
});

describe("a caller's deps.newId answering an id the store holds", () => {
  const ID = '01M8KJ00000000000000000042';
  it('add refuses it, or one that is no ULID (exit 2, detail.field deps.newId()), nothing written, and the store reads on', async () => {
    const root = testStore({
      [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data'),
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\n`,
    });
    for (const held of [ID, PLAN, '../../outside', 42]) {
      const s = new InvariantService(root, { newId: () => held as string, author: async () => undefined });
      const e = await failure(s.add({ scope: { project: 'api' }, text: 'Keep it', newProject: true }));
      expect([e.exitCode, e.code, (e as AgentsError & { detail: unknown }).detail]).toEqual([
        EXIT_CODES.usage,
        'usage',
        expect.objectContaining({ field: 'deps.newId()' }),
      ]);
    }
    expect(existsSync(join(root, 'projects/api'))).toBe(false);
    expect((await service(root).list()).map((l) => l.invariant.id)).toEqual([ID]);
  });
});

// Whether a writer creates the project it writes into is decided under the project folder's lock, never from what
// was read before it: the hook runs between the check and the lock, as another command would.
describe('a project created or removed between the check and the lock', () => {
  const G = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
  /** `s` with `meanwhile` run once its check of the project is done. */
  function meanwhile(s: InvariantService, run: () => unknown): InvariantService {
    const check = s.checkNewProject.bind(s);
    s.checkNewProject = async (...args) => {
      const r = await check(...args);
      await run();
      return r;
    };
    return s;
  }

  it('a project removed meanwhile: add and move are refused (exit 2, project-removed), nothing written, the project not brought back', async () => {
    const root = testStore({
      [`global/${G}.yaml`]: invariantYaml(G, 'Never push to main'),
      'projects/web/project.yaml': 'description: Web\n',
    });
    const remove = () => removeProject(new InvariantService(root), { project: 'web' });
    const moved = await failure(meanwhile(service(root), remove).move(G, { project: 'web' }));
    expect([moved.code, moved.exitCode]).toEqual(['project-removed', EXIT_CODES.usage]);
    mkdirSync(join(root, 'projects/web'));
    writeFileSync(join(root, 'projects/web/project.yaml'), 'description: Web\n');
    const added = await failure(meanwhile(service(root), remove).add({ scope: { project: 'web' }, text: 'Keep it' }));
    expect(added.code).toBe('project-removed');
    expect(existsSync(join(root, 'projects/web'))).toBe(false);
    expect(existsSync(join(root, `global/${G}.yaml`))).toBe(true);
  });

  it('project remove leaves nothing of the folder behind, an empty waivers/ in it included', async () => {
    const root = testStore({ 'projects/web/project.yaml': 'description: Web\n' });
    mkdirSync(join(root, 'projects/web/waivers'));
    const removed = await removeProject(new InvariantService(root), { project: 'web' });
    expect(removed.removed).toEqual(['projects/web/project.yaml']);
    expect(readdirSync(join(root, 'projects'))).toEqual([]);
  });

  it("project remove: a lock a crashed writer left in the project's waivers/ is no waiver; the project goes, and nothing of it is left", async () => {
    const root = testStore({ 'projects/web/project.yaml': 'description: Web\n' });
    mkdirSync(join(root, 'projects/web/waivers'));
    writeFileSync(join(root, 'projects/web/waivers/.lock'), '4000000 otherhost 2020-01-01T00:00:00Z\n');
    const removed = await removeProject(new InvariantService(root), { project: 'web' });
    expect(removed.removed).toEqual(['projects/web/project.yaml']);
    expect(readdirSync(join(root, 'projects'))).toEqual([]);
  });

  it('a project folder an interrupted project add or remove left under a temporary name is no project: the projects read on', async () => {
    const root = testStore({
      'projects/web/project.yaml': 'description: Web\n',
      'projects/.old.0a0a0a0a-0b0b0b0b-1.999999999.0a1b2c3d.tmp/project.yaml': 'description: Old\n',
    });
    const listed = await new ScopeService(new InvariantService(root)).listProjects();
    expect(listed.map((p) => p.project)).toEqual(['web']);
  });

  it('a new project made meanwhile by another command is not said as created; one this add makes is', async () => {
    const root = testStore();
    const other = () => {
      mkdirSync(join(root, 'projects/api'), { recursive: true });
      writeFileSync(join(root, 'projects/api/.gitkeep'), '');
    };
    // One service for both adds: a second one's ids would start again at the first's, which the store then holds.
    const s = meanwhile(service(root), other);
    const made = await s.add({ scope: { project: 'api' }, text: 'Keep it' });
    expect(made.createdProject).toBeUndefined();
    const created = await s.add({ scope: { project: 'docs' }, text: 'Keep it' });
    expect(created.createdProject).toBe('docs');
  });
});

describe("a project's guard with a write glob outside the project's paths", () => {
  it('add, edit and move refuse it (exit 2, guard-write-outside-project), nothing written; a glob that can meet the paths is kept', async () => {
    const root = testStore({ 'projects/web/project.yaml': 'paths:\n  - web/**\n' });
    const s = service(root);
    const refused = await failure(
      s.add({ scope: { project: 'web' }, text: 'Keep the keys', guard: { write: ['**/*.pem', 'secrets/**'] } }),
    );
    expect([refused.code, refused.exitCode, refused.detail]).toEqual([
      'guard-write-outside-project',
      EXIT_CODES.usage,
      { glob: 'secrets/**', project: 'web', paths: ['web/**'], suggestion: 'web/secrets/**' },
    ]);
    expect(readdirSync(join(root, 'projects/web'))).toEqual(['project.yaml']);
    const kept = await s.add({ scope: { project: 'web' }, text: 'Keep the keys', guard: { write: ['web/secrets/**', '*/keys/**'] } });
    const edited = await failure(s.edit({ id: kept.invariant.id, guard: { write: ['secrets/**'] } }));
    expect(edited.code).toBe('guard-write-outside-project');
    expect((await s.show(kept.invariant.id)).invariant.guard).toEqual({ write: ['web/secrets/**', '*/keys/**'] });
    // A global invariant guards the whole repository: nothing to refuse; moved into the project, it would guard nothing.
    const global = await s.add({ scope: { global: true }, text: 'Keep the root keys', guard: { write: ['secrets/**'] } });
    expect(global.invariant.guard).toEqual({ write: ['secrets/**'] });
    expect((await failure(s.move(global.invariant.id, { project: 'web' }))).code).toBe('guard-write-outside-project');
    expect(existsSync(global.file)).toBe(true);
  });
});
