import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { type TreeEntry, WorkingTreeSource } from '../../src/store/tree-source.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';

/** The working tree, where `write` (another process's write) runs once, right after the first listing of the whole store. */
class RacedSource extends WorkingTreeSource {
  constructor(
    root: string,
    private write: (() => void) | undefined,
  ) {
    super(root);
  }
  override async list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    const listed = await super.list(dir, options);
    if (dir === '' && options?.recursive) {
      this.write?.();
      this.write = undefined;
    }
    return listed;
  }
}

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
