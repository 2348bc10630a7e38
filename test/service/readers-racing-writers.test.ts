import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/service/guard-build.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { PlanService } from '../../src/service/plan-service.ts';
import { readFolders } from '../../src/store/read.ts';
import { type ReadResult, type TreeEntry, WorkingTreeSource } from '../../src/store/tree-source.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';
import { MOVING_ID, movingStore } from './moving-store.ts';
import { RacedSource } from '../helpers/reads.ts';

const A = MOVING_ID;

describe('invariant show racing a writer between the id look-up and the read', () => {
  it('a move: the invariant is shown at its new place', async () => {
    const root = testStore({ 'projects/web/': null, [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data') });
    const move = () => renameSync(join(root, `global/${A}.yaml`), join(root, `projects/web/${A}.yaml`));
    const shown = await new InvariantService(root, {}, new RacedSource(root, move)).show(A);
    expect([shown.invariant.id, shown.invariant.path, shown.invariant.scope]).toStrictEqual([
      A,
      `projects/web/${A}.yaml`,
      { kind: 'project', project: 'web' },
    ]);
  });

  it('a removal: no invariant with that id (exit 2, unknown-id), not an internal error', async () => {
    const root = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data') });
    mkdirSync(join(root, 'projects/web'), { recursive: true });
    const remove = () => rmSync(join(root, `global/${A}.yaml`));
    const error = await new InvariantService(root, {}, new RacedSource(root, remove)).show(A).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2, code: 'unknown-id' });
  });
});

/** The working tree, where `write` runs once, right after the first read of files (they are read, then it runs). */
class ReadThenWritten extends WorkingTreeSource {
  constructor(
    root: string,
    private write: (() => void) | undefined,
  ) {
    super(root);
  }
  override async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    const got = await super.read(paths);
    this.write?.();
    this.write = undefined;
    return got;
  }
}

describe('invariant list racing a move that ends between the read and the look for its mark', () => {
  it('both copies read, the old one gone since: the one left is listed, not an id in two scopes refused', async () => {
    const root = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data'),
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Never delete data'),
    });
    const finish = () => rmSync(join(root, `global/${A}.yaml`));
    const listed = await new InvariantService(root, {}, new ReadThenWritten(root, finish)).list();
    expect(listed.map((l) => l.invariant.path)).toStrictEqual([`projects/web/${A}.yaml`]);
  });

  it('both copies still there: an id in two scopes is refused, as before', async () => {
    const root = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data'),
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Never delete data'),
    });
    const error = await new InvariantService(root, {}, new ReadThenWritten(root, undefined)).list().catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 3 });
  });
});

describe('readers during a move, while both copies stand and the old one is marked', () => {
  const moving = () => new InvariantService(movingStore('Never delete data'));

  it('list: the destination copy alone', async () => {
    expect((await moving().list()).map((l) => l.invariant.path)).toStrictEqual([`projects/web/${A}.yaml`]);
  });

  it('list --effective: the destination copy alone, not an id in two scopes refused', async () => {
    const set = await moving().effective({ project: 'web' });
    expect(set.entries.map((e) => e.invariant.path)).toStrictEqual([`projects/web/${A}.yaml`]);
  });
});

describe('the guard during a move, while both copies stand and the old one is marked', () => {
  const moving = () => movingStore('Never touch secrets', true);

  it('the guard index: built from the destination copy', async () => {
    const { index } = await buildIndex(moving(), null, new Date(), () => ({}));
    expect(JSON.stringify(index)).toContain(A);
  });
});

/** The working tree, where `write` runs once, right after the first listing of `folder`. */
class ListedThenWritten extends WorkingTreeSource {
  constructor(
    root: string,
    private readonly folder: string,
    private write: (() => Promise<unknown>) | undefined,
  ) {
    super(root);
  }
  override async list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    const listed = await super.list(dir, options);
    if (dir === this.folder && this.write) {
      const write = this.write;
      this.write = undefined;
      await write();
    }
    return listed;
  }
}

describe('a reader racing an invariant move made whole between its listings of the two folders', () => {
  /** A store in a repository's working tree (its git folder made by hand: nothing here runs git). */
  const inGit = () => {
    const root = testStore({
      'projects/api/project.yaml': 'paths: ["api/**"]\n',
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Keep the API stable'),
    });
    mkdirSync(join(dirname(root), '.git'));
    return root;
  };

  it('the move advances the write generation: the reader reads again and finds the invariant at its new place', async () => {
    const root = inGit();
    const move = () => new InvariantService(root).move(A, { project: 'api' });
    const snap = await readFolders(new ListedThenWritten(root, 'projects/api', move), ['projects/api', 'projects/web']);
    expect(snap.diagnostics).toStrictEqual([]);
    expect(snap.invariants.map((i) => i.path)).toStrictEqual([`projects/api/${A}.yaml`]);
  });

  it('readers write nothing: a store no writer removed from has no generation, and reads once', async () => {
    const root = inGit();
    const snap = await readFolders(new WorkingTreeSource(root), ['projects/api', 'projects/web']);
    expect(snap.invariants.map((i) => i.path)).toStrictEqual([`projects/web/${A}.yaml`]);
    expect(existsSync(join(dirname(root), '.git/agents'))).toBe(false);
  });
});

/**
 * The working tree, where a real `invariant move` runs whole during the first walk of the whole store, which passes
 * the new folder before the copy is written and the old one after it is removed: that walk lists neither copy.
 */
class WalkMissesMove extends WorkingTreeSource {
  constructor(
    root: string,
    private move: (() => Promise<unknown>) | undefined,
  ) {
    super(root);
  }
  override async list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    if (dir !== '' || !options?.recursive || !this.move) return super.list(dir, options);
    const move = this.move;
    this.move = undefined;
    await move();
    return (await super.list(dir, options)).filter((e) => !e.path.endsWith(`/${A}.yaml`));
  }
}

describe('invariant show racing a move made whole during its look-up of the id', () => {
  it('the look-up lists the store again: the invariant is shown at its new place, not an unknown id', async () => {
    const root = testStore({
      'projects/api/project.yaml': 'paths: ["api/**"]\n',
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Keep the API stable'),
    });
    mkdirSync(join(dirname(root), '.git'));
    const move = () => new InvariantService(root).move(A, { project: 'api' });
    const shown = await new InvariantService(root, {}, new WalkMissesMove(root, move)).show(A);
    expect(shown.invariant.path).toBe(`projects/api/${A}.yaml`);
  });
});

describe('plan list racing the removal of a plan it listed', () => {
  it('the plan removed after the listing of plans/: the store after the removal, not plan-missing', async () => {
    const root = exampleStore();
    const remove = async () => rmSync(join(root, 'plans', EXAMPLE_PLAN), { recursive: true });
    const plans = new PlanService(new InvariantService(root, {}, new ListedThenWritten(root, 'plans', remove)));
    expect(await plans.list()).toStrictEqual([]);
  });
});
