import { describe, expect, it } from 'vitest';
import { planIds } from '../../src/store/listing.ts';
import { storeWords } from '../../src/service/invariants/projects.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { testStore } from '../helpers/tmp.ts';

const A = '01JA0000000000000000000000';
const B = '01JB0000000000000000000000';

describe('planIds: the one list of a store’s plans, by folder name', () => {
  it('lists the folders of plans/ named by an id, sorted, and nothing else; the completion offers the same', async () => {
    const root = testStore({
      [`plans/${B}/plan.yaml`]: `id: ${B}\n`,
      [`plans/${A}/`]: null,
      'plans/not-an-id/': null,
      [`plans/${A.replace('A', 'C')}.yaml`]: 'a file, not a plan folder\n',
      'plans/.gitkeep': '',
    });
    const tree = new WorkingTreeSource(root);
    expect(await planIds(tree)).toEqual([A, B]);
    expect(await storeWords(tree, 'plan')).toEqual(await planIds(tree));
  });

  it('a store without plans/ has none', async () => {
    const root = testStore();
    expect(await planIds(new WorkingTreeSource(root))).toEqual([]);
  });
});
