import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputDigest } from '../../src/store/export-cache.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const P = '01JP1000000000000000000000';

// A scope folder replaced by a file (a bad merge, a stray `mv`) read as an empty scope would drop every invariant of it
// from each set, and an export would delete the rules from the agents' files, all with exit 0.
describe('a file where a scope folder of the store goes', () => {
  it('is an error of validate and of every reader of that scope (exit 3), never an empty scope', async () => {
    const store = testStore({ [`projects/web/${P}.yaml`]: invariantYaml(P, 'Web rule') });
    rmSync(join(store, 'global'), { recursive: true });
    writeFileSync(join(store, 'global'), '');
    const cwd = dirname(store);
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'unknown-path', severity: 'error', file: 'global' }),
    );
    for (const args of [
      ['invariant', 'list'],
      ['invariant', 'list', '--global'],
      ['invariant', 'list', '--effective', '--project', 'web'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics[0]).toMatchObject({ code: 'unknown-path', file: 'global' });
    }
    // With the file gone (no global folder at all: a store may lack one) the set reads as before.
    rmSync(join(store, 'global'));
    const back = await runAgents(['--format', 'json', 'invariant', 'list', '--effective', '--project', 'web'], { cwd });
    expect(back.code).toBe(0);
  });
});

// A plan's folder replaced by a file read as no plan would drop the plan from `plan list` and its gate, with exit 0.
describe("a file where a plan's folder goes", () => {
  it('is an error of validate and of plan list (exit 3), never a plan left out in silence', async () => {
    const store = testStore({ [`global/${P}.yaml`]: invariantYaml(P, 'Global rule') });
    mkdirSync(join(store, 'plans'), { recursive: true });
    writeFileSync(join(store, 'plans', EXAMPLE_PLAN), 'id: x\n');
    const cwd = dirname(store);
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'unknown-path', severity: 'error', file: `plans/${EXAMPLE_PLAN}` }),
    );
    const list = await runAgents(['--format', 'json', 'plan', 'list'], { cwd });
    expect(list.code).toBe(3);
    expect(JSON.parse(list.stdout).error.detail.diagnostics[0]).toMatchObject({ code: 'unknown-path', file: `plans/${EXAMPLE_PLAN}` });
    // A file of a name no plan has is the user's: a warning of validate, no reader's error.
    rmSync(join(store, 'plans', EXAMPLE_PLAN));
    writeFileSync(join(store, 'plans', 'notes.md'), 'x\n');
    expect((await runAgents(['--format', 'json', 'plan', 'list'], { cwd })).code).toBe(0);
  });
});

// A writer that would make the project's folder said "write-failed" (exit 2) where every reader says unknown-path (exit 3).
describe("a file where a project's folder, or projects/, goes, for a command that writes there", () => {
  it('is unknown-path exit 3, as every reader says it, and nothing is written', async () => {
    const store = testStore({ [`global/${P}.yaml`]: invariantYaml(P, 'Global rule') });
    const cwd = dirname(store);
    writeFileSync(join(store, 'projects/web'), 'x\n');
    for (const args of [
      ['invariant', 'add', '--project', 'web', 'Web rule'],
      ['invariant', 'move', P, '--project', 'web'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect([r.code, JSON.parse(r.stdout).error.detail.diagnostics[0]], args.join(' ')).toEqual([
        3,
        expect.objectContaining({ code: 'unknown-path', file: 'projects/web' }),
      ]);
    }
    rmSync(join(store, 'projects'), { recursive: true });
    writeFileSync(join(store, 'projects'), 'x\n');
    const r = await runAgents(['--format', 'json', 'invariant', 'add', '--project', 'web', 'Web rule'], { cwd });
    expect([r.code, JSON.parse(r.stdout).error.detail.diagnostics[0]]).toEqual([
      3,
      expect.objectContaining({ code: 'unknown-path', file: 'projects' }),
    ]);
    expect(readdirSync(join(store, 'global'))).toEqual([`${P}.yaml`]);
  });
});

// The same of a template: `action add` and `invariant add --action` said "write-failed" (exit 2) where `invariant list
// --action` says unknown-path (exit 3).
describe("a file where an action template's folder, its namespace's or actions/ goes, for a command that writes there", () => {
  it('is unknown-path exit 3 naming the file, as the readers say it, and nothing is written', async () => {
    const store = testStore({ [`global/${P}.yaml`]: invariantYaml(P, 'Global rule') });
    const cwd = dirname(store);
    const refused = async (file: string) => {
      for (const args of [
        ['action', 'add', 'deploy/prod'],
        ['invariant', 'add', '--action', 'deploy/prod', 'No Friday deploys'],
        ['invariant', 'move', P, '--action', 'deploy/prod'],
      ]) {
        const r = await runAgents(['--format', 'json', ...args], { cwd });
        expect([r.code, JSON.parse(r.stdout).error.detail?.diagnostics?.[0]], `${file}: ${args.join(' ')}`).toEqual([
          3,
          expect.objectContaining({ code: 'unknown-path', file }),
        ]);
      }
    };
    mkdirSync(join(store, 'actions/deploy'), { recursive: true });
    writeFileSync(join(store, 'actions/deploy/prod'), 'x\n');
    await refused('actions/deploy/prod');
    rmSync(join(store, 'actions/deploy'), { recursive: true });
    writeFileSync(join(store, 'actions/deploy'), 'x\n');
    await refused('actions/deploy');
    rmSync(join(store, 'actions'), { recursive: true });
    writeFileSync(join(store, 'actions'), 'x\n');
    await refused('actions');
    expect(readdirSync(join(store, 'global'))).toEqual([`${P}.yaml`]);
  });
});

// A plan asked for by id or prefix whose folder is a file was "no plan with id", and plans/ a file listed as "No plans".
describe("a file where a plan's folder, or plans/, goes, for a command given the plan", () => {
  it('is unknown-path exit 3 naming the file, never an unknown plan or no plans', async () => {
    const store = testStore({ [`global/${P}.yaml`]: invariantYaml(P, 'Global rule') });
    const cwd = dirname(store);
    mkdirSync(join(store, 'plans'), { recursive: true });
    writeFileSync(join(store, 'plans', EXAMPLE_PLAN), 'id: x\n');
    for (const args of [
      ['plan', 'show', EXAMPLE_PLAN],
      ['plan', 'show', EXAMPLE_PLAN.slice(0, 8)],
      ['plan', 'status', EXAMPLE_PLAN],
      ['invariant', 'list', '--plan', EXAMPLE_PLAN.slice(0, 8)],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect([r.code, JSON.parse(r.stdout).error.detail?.diagnostics?.[0]], args.join(' ')).toEqual([
        3,
        expect.objectContaining({ code: 'unknown-path', file: `plans/${EXAMPLE_PLAN}` }),
      ]);
    }
    // A prefix the file does not start with is still an unknown plan.
    const other = await runAgents(['--format', 'json', 'plan', 'show', '01ZZ'], { cwd });
    expect([other.code, JSON.parse(other.stdout).error.code]).toEqual([2, 'unknown-id']);
    rmSync(join(store, 'plans'), { recursive: true });
    writeFileSync(join(store, 'plans'), 'x\n');
    for (const args of [
      ['plan', 'list'],
      ['plan', 'show', EXAMPLE_PLAN],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect([r.code, JSON.parse(r.stdout).error.detail?.diagnostics?.[0]], args.join(' ')).toEqual([
        3,
        expect.objectContaining({ code: 'unknown-path', file: 'plans' }),
      ]);
    }
  });
});

// An invariant written by hand as `.yml` is never read: a reader that left it out in silence would give a shorter set.
describe('an invariant file with another YAML ending (.yml, .YAML)', () => {
  it('is an error of every reader of its scope (exit 3), as validate says it; a .yaml of its name beside it is read', async () => {
    const Q = '01JP1000000000000000000001';
    const store = testStore({
      [`projects/web/${P}.yml`]: invariantYaml(P, 'Web rule'),
      [`projects/api/${Q}.yaml`]: invariantYaml(Q, 'Api rule'),
    });
    const cwd = dirname(store);
    for (const args of [
      ['invariant', 'list', '--effective', '--project', 'web'],
      ['invariant', 'list', '--project', 'web'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics[0]).toMatchObject({ code: 'unknown-path', file: `projects/web/${P}.yml` });
    }
    // Another project's set does not read that folder.
    expect((await runAgents(['invariant', 'list', '--effective', '--project', 'api'], { cwd })).code).toBe(0);
    // With the .yaml there too, the stray copy hides nothing: validate warns of it, the readers read the .yaml.
    writeFileSync(join(store, `projects/web/${P}.yaml`), invariantYaml(P, 'Web rule'));
    const r = await runAgents(['--format', 'json', 'invariant', 'list', '--effective', '--project', 'web'], { cwd });
    expect([r.code, JSON.parse(r.stdout).map((i: { id: string }) => i.id)]).toEqual([0, [P]]);
  });
});

// An invariant put by hand in a sub-folder of its scope (`projects/web/backend/<ULID>.yaml`) is never read: a reader
// that left it out in silence would give a shorter set, as for a `.yml`.
describe('an invariant file in a sub-folder of its scope', () => {
  it('is an error of validate and of every reader of its scope (exit 3), and an input of the export cache; a copy beside its name hides nothing', async () => {
    const Q = '01JP1000000000000000000001';
    const store = testStore({
      [`projects/web/backend/${P}.yaml`]: invariantYaml(P, 'Web rule'),
      [`projects/api/${Q}.yaml`]: invariantYaml(Q, 'Api rule'),
      // Hidden folders are the user's, and a name the scope would not read is no invariant: both stay warnings.
      [`global/.archive/${Q}.yaml`]: invariantYaml(Q, 'Old rule'),
      'global/notes/todo.yaml': 'a: b\n',
    });
    const cwd = dirname(store);
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
    expect(validate.code).toBe(1);
    const errors = JSON.parse(validate.stdout).diagnostics.filter((d: { severity: string }) => d.severity === 'error');
    expect(errors.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([
      ['unknown-path', `projects/web/backend/${P}.yaml`],
    ]);
    expect(errors[0].hint).toContain(`projects/web/${P}.yaml`);
    for (const args of [
      ['invariant', 'list', '--effective', '--project', 'web'],
      ['invariant', 'list', '--project', 'web'],
      ['invariant', 'list'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics[0]).toMatchObject({
        code: 'unknown-path',
        file: `projects/web/backend/${P}.yaml`,
      });
    }
    // Another project's set does not read that folder.
    expect((await runAgents(['invariant', 'list', '--effective', '--project', 'api'], { cwd })).code).toBe(0);

    // A file added to a sub-folder already there changes the export's input digest: no cached export passes over it.
    const source = new WorkingTreeSource(store);
    const before = await inputDigest(source, ['global'], [], '');
    writeFileSync(join(store, `global/notes/${Q}.yaml`), invariantYaml(Q, 'Nested rule'));
    expect(await inputDigest(source, ['global'], [], '')).not.toBe(before);
    rmSync(join(store, `global/notes/${Q}.yaml`));

    // With its name read in the scope itself, the nested copy hides nothing: validate warns of the folder, the readers read.
    writeFileSync(join(store, `projects/web/${P}.yaml`), invariantYaml(P, 'Web rule'));
    const r = await runAgents(['--format', 'json', 'invariant', 'list', '--effective', '--project', 'web'], { cwd });
    expect([r.code, JSON.parse(r.stdout).map((i: { id: string }) => i.id)]).toEqual([0, [P]]);
    expect((await runAgents(['validate'], { cwd })).code).toBe(0);
  });
});

// The other way round: a folder of a store file's name, which the rename of a new copy cannot replace.
describe('a symbolic link in a scope folder', () => {
  it('is an error of every reader of that scope (exit 3), as validate says it, never a scope read without what it leads to', async () => {
    const store = testStore({ [`projects/billing/${P}.yaml`]: invariantYaml(P, 'Amounts are integers of cents') });
    mkdirSync(join(store, 'projects/web'));
    symlinkSync('../billing', join(store, 'projects/web/sub'));
    // A hidden entry is the user's own, as a hidden folder is.
    symlinkSync('../billing', join(store, 'projects/web/.notes'));
    const cwd = dirname(store);
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout).diagnostics).toContainEqual(expect.objectContaining({ code: 'symlink', file: 'projects/web/sub' }));
    for (const args of [
      ['invariant', 'list', '--project', 'web'],
      ['invariant', 'list', '--effective', '--project', 'web'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics).toContainEqual(
        expect.objectContaining({ code: 'symlink', file: 'projects/web/sub' }),
      );
    }
    // The scope the link leads to is read as it is.
    expect((await runAgents(['invariant', 'list', '--project', 'billing'], { cwd })).code).toBe(0);
  });
});

describe('a folder where a store file goes', () => {
  it('is exit 2 write-failed saying it is a folder, not the bare system code, and nothing is written', async () => {
    const store = testStore({});
    mkdirSync(join(store, 'schemas/invariant.schema.json'), { recursive: true });
    const r = await runAgents(['--format', 'json', 'init', '--schemas'], { cwd: dirname(store) });
    const error = JSON.parse(r.stdout).error;
    expect([r.code, error.code]).toEqual([2, 'write-failed']);
    expect(error.message).toContain('schemas/invariant.schema.json');
    expect(error.message).not.toMatch(/EISDIR/);
    expect(readdirSync(join(store, 'schemas/invariant.schema.json'))).toEqual([]);
  });
});

describe('init --schemas refused part-way', () => {
  it('names the copies written before the refusal and the command that makes the rest, never "nothing changed"', async () => {
    const store = testStore({});
    // The second copy init writes is refused: the first is already refreshed.
    mkdirSync(join(store, 'schemas/plan.schema.json'), { recursive: true });
    const r = await runAgents(['--format', 'json', 'init', '--schemas'], { cwd: dirname(store) });
    const error = JSON.parse(r.stdout).error;
    expect([r.code, error.code]).toEqual([2, 'write-failed']);
    expect(error.detail).toEqual({ written: ['schemas/invariant.schema.json'], rerun: 'agents init --schemas' });
  });
});

// A plan's violations/ or a project's waivers/ replaced by a file (a bad merge): read as empty, the open violations
// would vanish from the plan gate, and the waivers from the sets.
describe('a file where a records or waivers folder goes', () => {
  it('is an error of validate and of every reader of that folder (exit 3), never an empty folder', async () => {
    const root = exampleStore();
    const cwd = dirname(root);
    const violations = `plans/${EXAMPLE_PLAN}/violations`;
    writeFileSync(join(root, violations), '');
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'unknown-path', severity: 'error', file: violations }),
    );
    for (const args of [
      ['invariant', 'violation', 'list', '--plan', EXAMPLE_PLAN],
      ['plan', 'status', EXAMPLE_PLAN],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics[0], args.join(' ')).toMatchObject({ code: 'unknown-path', file: violations });
    }
    rmSync(join(root, violations));
    writeFileSync(join(root, 'projects/myapp/waivers'), '');
    const set = await runAgents(['--format', 'json', 'invariant', 'list', '--effective', '--project', 'myapp'], { cwd });
    expect(set.code).toBe(3);
    expect(JSON.parse(set.stdout).error.detail.diagnostics[0]).toMatchObject({ code: 'unknown-path', file: 'projects/myapp/waivers' });
  });
});

// A violation written as `.yml`, or put in a sub-folder of violations/, read as absent would vanish from the plan gate:
// validate says it, and so does every reader of that folder.
describe('a record or waiver never read: written as .yml, or in a sub-folder', () => {
  it('is an error of every reader of its folder (exit 3), as validate says it, never a plan gate without it', async () => {
    const root = exampleStore();
    const cwd = dirname(root);
    const V = '01JP1000000000000000000002';
    const violation = `id: ${V}\ninvariant_id: ${P}\nviolated_text: t\nseverity: error\ncreated_at: 2026-01-01T00:00:00Z\n`;
    const folder = `plans/${EXAMPLE_PLAN}/violations`;
    mkdirSync(join(root, `${folder}/sub`), { recursive: true });
    for (const path of [`${folder}/${V}.yml`, `${folder}/sub/${V}.yaml`]) {
      writeFileSync(join(root, path), violation);
      const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
      expect(JSON.parse(validate.stdout).diagnostics).toContainEqual(
        expect.objectContaining({ code: 'unknown-path', severity: 'error', file: path }),
      );
      for (const args of [
        ['invariant', 'violation', 'list', '--plan', EXAMPLE_PLAN],
        ['plan', 'status', EXAMPLE_PLAN],
      ]) {
        const r = await runAgents(['--format', 'json', ...args], { cwd });
        expect(r.code, `${path}: ${args.join(' ')}`).toBe(3);
        expect(JSON.parse(r.stdout).error.detail.diagnostics[0]).toMatchObject({ code: 'unknown-path', file: path });
      }
      rmSync(join(root, path));
    }
    // A waiver of the project in a sub-folder of its waivers/: the effective set that reads them refuses it.
    const W = '01JP1000000000000000000003';
    mkdirSync(join(root, 'projects/myapp/waivers/old'), { recursive: true });
    writeFileSync(
      join(root, `projects/myapp/waivers/old/${W}.yaml`),
      `id: ${W}\ninvariant_id: ${P}\nreason: r\nowner: o\nexpires: 2999-01-01\ncreated_at: 2026-01-01T00:00:00Z\n`,
    );
    const set = await runAgents(['--format', 'json', 'invariant', 'list', '--effective', '--project', 'myapp'], { cwd });
    expect(set.code).toBe(3);
    expect(JSON.parse(set.stdout).error.detail.diagnostics[0]).toMatchObject({
      code: 'unknown-path',
      file: `projects/myapp/waivers/old/${W}.yaml`,
    });
  });
});

// A folder the system refuses to list (here a path longer than it takes; for another user, one without permission)
// may hide an invariant put there: an error of every reader of its scope, unless it is a hidden folder, the user's own.
describe('a folder of a scope that cannot be listed', () => {
  const SEGMENT = 'd'.repeat(250);
  /** Puts at `at` a chain of folders whose end is past the longest path the system lists, each step made by a short path. */
  function tooDeep(at: string): () => void {
    const work = tempDir();
    let top = join(work, '0');
    mkdirSync(top);
    for (let i = 1; i <= 17; i++) {
      const next = join(work, String(i));
      mkdirSync(next);
      renameSync(top, join(next, SEGMENT));
      top = next;
    }
    renameSync(top, at);
    // Taken apart from the top down, each step by a short path: a recursive removal would meet the same refusal.
    return () => {
      let dir = at;
      for (let i = 0; existsSync(join(dir, SEGMENT)); i++) {
        const moved = join(work, `u${i}`);
        renameSync(join(dir, SEGMENT), moved);
        rmdirSync(dir);
        dir = moved;
      }
      rmdirSync(dir);
    };
  }

  it('is an error of validate and of every reader of its scope (exit 3), and only a warning in a hidden folder', async () => {
    const store = testStore({ [`global/${P}.yaml`]: invariantYaml(P, 'Global rule') });
    const cwd = dirname(store);
    const verdicts = async () => [
      (await runAgents(['validate'], { cwd })).code,
      (await runAgents(['invariant', 'list'], { cwd })).code,
      (await runAgents(['invariant', 'list', '--global'], { cwd })).code,
    ];
    const hidden = tooDeep(join(store, 'global/.archive'));
    try {
      expect(await verdicts()).toEqual([0, 0, 0]);
      // Warned of as any hidden folder is.
      const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
      expect(
        JSON.parse(validate.stdout).diagnostics.map((d: { code: string; severity: string; file: string }) => [d.code, d.severity, d.file]),
      ).toEqual([
        ['unknown-path', 'warning', 'global/.archive'],
        ['modeline-missing', 'info', `global/${P}.yaml`],
      ]);
    } finally {
      hidden();
    }
    const drafts = tooDeep(join(store, 'global/drafts'));
    try {
      expect(await verdicts()).toEqual([1, 3, 3]);
    } finally {
      drafts();
    }
  });
});

// `project add`, `import` and `plan use` make a new folder under a temporary's name and rename it into place: another
// command reading the store meanwhile (or after one was killed) must not take it for a folder of a bad name.
describe('a project or plan folder under a temporary name', () => {
  it('is skipped by every reader, as validate only warns of it', async () => {
    const store = testStore({
      [`global/${P}.yaml`]: invariantYaml(P, 'Global rule'),
      'projects/.web.fec0221b-3ac20609-1012431.3899.1a3bc7b3.tmp/project.yaml': 'paths:\n  - apps/web/**\n',
      'projects/.web.fec0221b-3ac20609-1012431.3899.1a3bc7b3.tmp/01JP1000000000000000000001.yaml': invariantYaml(
        '01JP1000000000000000000001',
        'Web rule',
      ),
      'plans/.01JP1000000000000000000002.3899.1a3bc7b3.tmp/plan.yaml': 'id: 01JP1000000000000000000002\n',
    });
    const cwd = dirname(store);
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
    expect(validate.code).toBe(0);
    for (const args of [
      ['invariant', 'list'],
      ['project', 'list'],
      ['plan', 'list'],
      ['invariant', 'show', P],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(0);
    }
    const list = await runAgents(['--format', 'json', 'invariant', 'list'], { cwd });
    expect(JSON.stringify(JSON.parse(list.stdout))).not.toContain('Web rule');
  });
});

describe("a file where an action namespace's or template's folder goes", () => {
  it('is an error of validate, action list and plan use (exit 3), never a template left out in silence', async () => {
    for (const place of ['actions/deploy', 'actions/deploy/prod']) {
      const store = testStore({ [place]: 'x\n' });
      const cwd = dirname(store);
      const validate = await runAgents(['--format', 'json', 'validate'], { cwd });
      expect(validate.code, place).toBe(1);
      expect(JSON.parse(validate.stdout).diagnostics, place).toContainEqual(
        expect.objectContaining({ code: 'unknown-path', severity: 'error', file: place }),
      );
      for (const args of [
        ['action', 'list'],
        ['plan', 'use', 'deploy/prod', '--goal', 'Ship it'],
      ]) {
        const r = await runAgents(['--format', 'json', ...args], { cwd });
        expect(r.code, `${place}: ${args.join(' ')}`).toBe(3);
        expect(JSON.parse(r.stdout).error.detail.diagnostics[0]).toMatchObject({ code: 'unknown-path', file: place });
      }
      expect(readdirSync(join(store, 'plans'))).toEqual([]);
    }
  });
});
