import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';
import { RacedSource } from '../helpers/reads.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';

function storeWithGlobal(): { root: string; move: () => void } {
  const root = testStore({ 'projects/web/': null, [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data') });
  return { root, move: () => renameSync(join(root, `global/${A}.yaml`), join(root, `projects/web/${A}.yaml`)) };
}

describe('a writer racing an invariant move between the id look-up and its lock', () => {
  it('edit: edits the invariant at its new place, not "unknown-id … is gone"', async () => {
    const { root, move } = storeWithGlobal();
    const edited = await new InvariantService(root, {}, new RacedSource(root, move)).edit({ id: A, severity: 'warning' });
    expect([edited.invariant.path, edited.invariant.scope, edited.invariant.severity]).toStrictEqual([
      `projects/web/${A}.yaml`,
      { kind: 'project', project: 'web' },
      'warning',
    ]);
    expect(readFileSync(join(root, `projects/web/${A}.yaml`), 'utf8')).toContain('severity: warning');
    expect(existsSync(join(root, `global/${A}.yaml`))).toBe(false);
  });

  it('remove: refused as moved, with its new place (store-changed, moved_to), and left there', async () => {
    const { root, move } = storeWithGlobal();
    const error = await new InvariantService(root, {}, new RacedSource(root, move)).remove(A).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2, code: 'store-changed', detail: { moved_to: `projects/web/${A}.yaml` } });
    expect(existsSync(join(root, `projects/web/${A}.yaml`))).toBe(true);
  });

  it('edit of one removed meanwhile: unknown-id, nothing written', async () => {
    const { root } = storeWithGlobal();
    const remove = () => rmSync(join(root, `global/${A}.yaml`));
    const error = await new InvariantService(root, {}, new RacedSource(root, remove))
      .edit({ id: A, severity: 'warning' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2, code: 'unknown-id' });
  });
});
