// A store as a running `invariant move` leaves it for a moment: the invariant in global/ and in projects/web/, the
// old copy marked by this process as the one it takes away.
import { linkAsTemporary } from '../../src/store/atomic-write.ts';
import { guardedYaml, invariantYaml, testStore } from '../helpers/tmp.ts';

export const MOVING_ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';

/** The store's root; `guarded`: the invariant guards writes to secrets/**. */
export function movingStore(text: string, guarded = false): string {
  const yaml = guarded ? guardedYaml(MOVING_ID, text, { write: ['secrets/**'] }) : invariantYaml(MOVING_ID, text);
  const root = testStore({
    'projects/web/project.yaml': 'paths: ["web/**"]\n',
    [`global/${MOVING_ID}.yaml`]: yaml,
    [`projects/web/${MOVING_ID}.yaml`]: yaml,
  });
  // The mark a running move (this process) makes of the copy it takes away.
  linkAsTemporary(root, `global/${MOVING_ID}.yaml`);
  return root;
}
