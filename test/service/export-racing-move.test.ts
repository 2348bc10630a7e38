import { describe, expect, it } from 'vitest';
import { ExportService } from '../../src/service/export-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { linkAsTemporary } from '../../src/store/atomic-write.ts';
import { guardedYaml, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';

// Export asks git where the store's submodules are: a process test (test/process-tests.ts).
describe('export during a move, while both copies stand and the old one is marked', () => {
  const moving = () => {
    const root = testStore({
      'projects/web/project.yaml': 'paths: ["web/**"]\n',
      [`global/${A}.yaml`]: guardedYaml(A, 'Never touch secrets', { write: ['secrets/**'] }),
      [`projects/web/${A}.yaml`]: guardedYaml(A, 'Never touch secrets', { write: ['secrets/**'] }),
    });
    // The mark a running move (this process) makes of the copy it takes away.
    linkAsTemporary(root, `global/${A}.yaml`);
    return root;
  };

  it('export: the files of the set the move leaves, not an id in two scopes refused', async () => {
    const plan = await new ExportService(new InvariantService(moving())).plan({ targets: ['agents-md'] });
    const text = plan.changes.map((c) => c.after ?? '').join('\n');
    expect([text.split('Never touch secrets').length - 1, plan.refused]).toStrictEqual([1, []]);
  });
});
