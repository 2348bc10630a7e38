import { describe, expect, it } from 'vitest';
import { ExportService } from '../../src/service/export-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { movingStore } from './moving-store.ts';

// Export asks git where the store's submodules are: a process test (test/process-tests.ts).
describe('export during a move, while both copies stand and the old one is marked', () => {
  const moving = () => movingStore('Never touch secrets', true);

  it('export: the files of the set the move leaves, not an id in two scopes refused', async () => {
    const plan = await new ExportService(new InvariantService(moving())).plan({ targets: ['agents-md'] });
    const text = plan.changes.map((c) => c.after ?? '').join('\n');
    expect([text.split('Never touch secrets').length - 1, plan.refused]).toStrictEqual([1, []]);
  });
});
