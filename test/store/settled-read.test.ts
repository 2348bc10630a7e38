import { describe, expect, it } from 'vitest';
import { readAllPlans, readFolders, readStore } from '../../src/store/read.ts';
import { READ_ATTEMPTS } from '../../src/store/settled-read.ts';
import type { ReadResult, TreeEntry } from '../../src/store/tree-source.ts';
import { CHECKS } from '../../src/validate/checks/registry.ts';
import { validateTree } from '../../src/validate/validate-tree.ts';
import { MemorySource, type Spec } from '../helpers/memory-source.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const PML = '# yaml-language-server: $schema=../../schemas/invariant.schema.json\n';
const OLD = `projects/web/${B}.yaml`;
const NEW = `global/${B}.yaml`;

/**
 * A store in memory where `invariant move` of B (projects/web to global) runs between a reader's listing and its
 * reads, `moves` times: the file listed at the old place is gone when read, and is then at the new place. Afterwards
 * it moves no more. The listing answers the folder asked.
 */
class MovingSource extends MemorySource {
  lists = 0;
  constructor(
    private readonly files: Record<string, Spec>,
    private moves: number,
  ) {
    super(files);
  }
  override async list(dir = '', options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    this.lists++;
    const all = await super.list(dir, options);
    return dir === ''
      ? all
      : all.filter((e) => e.path.startsWith(`${dir}/`) && (options?.recursive || !e.path.slice(dir.length + 1).includes('/')));
  }
  override async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    if (this.moves > 0 && paths.includes(OLD)) {
      this.moves--;
      // The writer moves it: new copy made, old one removed; the next listing finds it back at the old place.
      this.files[NEW] = `${ML}id: ${B}\ntext: Keep the API stable\n`;
      delete this.files[OLD];
      const got = await super.read(paths);
      this.files[OLD] = `${PML}id: ${B}\ntext: Keep the API stable\n`;
      delete this.files[NEW];
      return got;
    }
    return super.read(paths);
  }
}

const store = (): Record<string, Spec> => ({
  'global/': null,
  [`global/${A}.yaml`]: `${ML}id: ${A}\ntext: Never delete data\n`,
  [OLD]: `${PML}id: ${B}\ntext: Keep the API stable\n`,
});

const ids = (s: { invariants: { id: string }[] }) => s.invariants.map((i) => i.id).sort();

describe('a reader racing a writer that removes a file it listed', () => {
  it('readStore reads the store again, whole: both invariants, no file-unreadable', async () => {
    const source = new MovingSource(store(), 2);
    const snap = await readStore(source);
    expect(snap.diagnostics).toStrictEqual([]);
    expect(ids(snap)).toStrictEqual([A, B]);
    expect(source.lists).toBe(3);
  });

  it('readFolders too, and adds to the snapshot it is given only the settled read', async () => {
    const source = new MovingSource(store(), 1);
    const into = await readAllPlans(source);
    const snap = await readFolders(source, ['global', 'projects/web'], into);
    expect(snap).toBe(into);
    expect(snap.diagnostics).toStrictEqual([]);
    expect(ids(snap)).toStrictEqual([A, B]);
    expect(snap.entries.filter((e) => e.path === OLD)).toHaveLength(1);
  });

  it('validate validates the tree again: no file-unreadable for a writer moment', async () => {
    const source = new MovingSource(store(), 1);
    const report = await validateTree(source);
    expect(report.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
  });

  it('validate stops a read that met a vanished file once its files are read: the checks of content run once', async () => {
    const calls = async (moves: number) => {
      const names: string[] = [];
      await validateTree(new MovingSource(store(), moves), { onCheck: (name) => names.push(name) });
      return names.sort();
    };
    const listing = CHECKS.filter((c) => c.stage === 'listing').map((c) => c.name);
    expect(await calls(1)).toStrictEqual([...(await calls(0)), ...listing].sort());
  });

  it('a file that keeps vanishing is reported after a bounded number of reads, as before', async () => {
    const source = new MovingSource(store(), 100);
    const snap = await readStore(source);
    expect(snap.diagnostics.map((d) => [d.code, d.file])).toStrictEqual([['file-unreadable', OLD]]);
    expect(source.lists).toBe(READ_ATTEMPTS);
    const report = await validateTree(new MovingSource(store(), 100));
    expect(report.diagnostics.filter((d) => d.code === 'file-unreadable').map((d) => d.file)).toStrictEqual([OLD]);
  });

  it('nothing vanished: one listing and one read', async () => {
    const source = new MovingSource(store(), 0);
    expect(ids(await readStore(source))).toStrictEqual([A, B]);
    expect([source.lists, source.reads.length]).toStrictEqual([1, 1]);
  });

  it('a file that cannot be read for another reason is not read again', async () => {
    const files = store();
    files[`global/${A}.yaml`] = { fail: { ok: false, code: 'file-unreadable', message: 'cannot be read (EACCES)' } };
    const source = new MovingSource(files, 0);
    const snap = await readStore(source);
    expect(snap.diagnostics.map((d) => d.code)).toStrictEqual(['file-unreadable']);
    expect(source.lists).toBe(1);
  });
});

const TO = `projects/api/${B}.yaml`;

/**
 * A store in memory where `invariant move` of B (projects/web to projects/api) runs whole, `moves` times, right after
 * a reader lists projects/api and before it lists projects/web: no file it listed vanishes, but the move advances the
 * store's write generation, as removeFile does. `generation: false`: a source that keeps none (a git tree).
 */
class UnseenMoveSource extends MemorySource {
  /** The listings of projects/api: one a read. */
  lists = 0;
  #generation = 0;
  constructor(
    private readonly files: Record<string, Spec>,
    private moves: number,
    keeps = true,
  ) {
    super(files);
    if (!keeps) this.generation = undefined;
  }
  generation?: () => string = () => String(this.#generation);
  override async list(dir = '', options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    if (dir === 'projects/api') this.lists++;
    const all = (await super.list(dir, options)).filter((e) => e.path.startsWith(`${dir}/`) && !e.path.slice(dir.length + 1).includes('/'));
    if (dir === 'projects/api' && this.moves > 0) {
      this.moves--;
      const from = this.files[OLD] === undefined ? TO : OLD;
      this.files[from === OLD ? TO : OLD] = this.files[from]!;
      this.#generation++;
      delete this.files[from];
    }
    return all;
  }
}

const apart = (): Record<string, Spec> => ({ 'projects/api/': null, [OLD]: `${PML}id: ${B}\ntext: Keep the API stable\n` });

describe('a reader racing a move made whole between its listings of the two folders', () => {
  it('the generation moved on: read again, and the invariant is found at its new place', async () => {
    const source = new UnseenMoveSource(apart(), 1);
    const snap = await readFolders(source, ['projects/api', 'projects/web']);
    expect(snap.diagnostics).toStrictEqual([]);
    expect(snap.invariants.map((i) => i.path)).toStrictEqual([TO]);
    expect(source.lists).toBe(2);
  });

  it('a source without a generation (a git tree, which no writer changes) reads once', async () => {
    const source = new UnseenMoveSource(apart(), 1, false);
    await readFolders(source, ['projects/api', 'projects/web']);
    expect(source.lists).toBe(1);
  });

  it('a store whose generation keeps moving is read a bounded number of times, and what vanished in the last is reported', async () => {
    const source = new UnseenMoveSource(apart(), 100);
    const snap = await readFolders(source, ['projects/api', 'projects/web']);
    expect(snap.diagnostics.map((d) => d.code)).toStrictEqual(['file-unreadable']);
    expect(source.lists).toBe(READ_ATTEMPTS);
  });

  it('a generation that stops moving by the last read answers that read', async () => {
    const source = new UnseenMoveSource(apart(), READ_ATTEMPTS - 1);
    const snap = await readFolders(source, ['projects/api', 'projects/web']);
    expect(snap.invariants).toHaveLength(1);
    expect(source.lists).toBe(READ_ATTEMPTS);
  });
});

/** A source whose generation moves on during its first `moves` listings of the whole store, which then miss B. */
class ShortListingSource extends MemorySource {
  lists = 0;
  #generation = 0;
  constructor(
    files: Record<string, Spec>,
    private moves: number,
  ) {
    super(files);
  }
  generation = () => String(this.#generation);
  override async list(dir = '', options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    this.lists++;
    const all = await super.list(dir, options);
    if (this.moves === 0) return all;
    this.moves--;
    this.#generation++;
    return all.filter((e) => e.path !== OLD);
  }
}

describe('validate racing a move made whole during its listing', () => {
  it('validates again: the invariant is in the tree it checked, and the checks of content run once', async () => {
    const names: string[] = [];
    const source = new ShortListingSource(store(), 1);
    const report = await validateTree(source, { onCheck: (name) => names.push(name) });
    expect(report.entries.map((e) => e.path)).toContain(OLD);
    expect(source.lists).toBe(2);
    const listing = CHECKS.filter((c) => c.stage === 'listing').map((c) => c.name);
    expect(names.sort()).toStrictEqual([...CHECKS.map((c) => c.name), ...listing].sort());
  });

  it('a listing that a move shortens in every read is store-changed, never a report of the store without it', async () => {
    const source = new ShortListingSource(store(), 100);
    await expect(validateTree(source)).rejects.toMatchObject({ code: 'store-changed', exitCode: 2 });
    expect(source.lists).toBe(READ_ATTEMPTS);
  });
});

const P = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const Q = '01JDQ6X5Z8W4N3B2C1D0E9F8GA';
const planYaml = (id: string) => `id: ${id}\naction: deploy/web\ngoal: Ship it\ncreated_at: 2026-01-01T00:00:00Z\n`;

/** plans/ holding P and Q, where P is removed (its folder, whole) right after the first listing of plans/. */
class RemovedPlanSource extends MemorySource {
  lists = 0;
  constructor(private readonly files: Record<string, Spec>) {
    super(files);
  }
  override async list(dir = '', options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    this.lists++;
    const all = (await super.list(dir, options)).filter((e) => e.path.startsWith(`${dir}/`) && !e.path.slice(dir.length + 1).includes('/'));
    for (const path of Object.keys(this.files)) if (path.startsWith(`plans/${P}`)) delete this.files[path];
    return all;
  }
}

describe('a reader of plans racing the removal of a plan it listed', () => {
  const plans = (): Record<string, Spec> => ({
    [`plans/${P}/plan.yaml`]: planYaml(P),
    [`plans/${Q}/plan.yaml`]: planYaml(Q),
  });

  it('readAllPlans reads the store after the removal: the other plan, no plan-missing', async () => {
    const source = new RemovedPlanSource(plans());
    const snap = await readAllPlans(source);
    expect(snap.diagnostics).toStrictEqual([]);
    expect([...snap.plans.keys()]).toStrictEqual([Q]);
    expect(source.lists).toBe(2);
  });

  it('readFolders of the plan: no plan half read, and no plan-missing', async () => {
    const files = plans();
    files[`plans/${P}/violations/${A}.yaml`] = 'id: x\n';
    const snap = await readFolders(new RemovedPlanSource(files), [`plans/${P}`]);
    expect(snap.diagnostics).toStrictEqual([]);
    expect([...snap.plans.keys()]).toStrictEqual([]);
  });

  it('a plan folder that holds no plan.yaml is still plan-missing, after the bounded reads', async () => {
    const source = new MovingSource({ [`plans/${P}/`]: null, [`plans/${Q}/plan.yaml`]: planYaml(Q) }, 0);
    const snap = await readAllPlans(source);
    expect(snap.diagnostics.map((d) => [d.code, d.file])).toStrictEqual([['plan-missing', `plans/${P}/plan.yaml`]]);
    expect(source.lists).toBe(READ_ATTEMPTS);
  });
});
