import { describe, expect, it } from 'vitest';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { relationNotes } from '../../src/present/invariant-write.ts';

const G = '01M8KJW430VF8WCABSB8RTQ8RY';
const P = '01M8KJZS90J6DRJJ8E264B9DFX';
const copy = (id: string, scope: ScopedInvariant['scope'], overrides?: string) =>
  ({ id, text: 'Keep backups', severity: 'error', active: true, tags: [], scope, path: `${id}.yaml`, overrides }) as ScopedInvariant;

describe('the notes after a write', () => {
  const global = copy(G, { kind: 'global' });
  it('say overrides where a copy names the other in overrides, shadows where none does, as show and the effective set say', () => {
    const overriding = copy(P, { kind: 'project', project: 'myapp' }, G);
    expect(relationNotes({ invariant: overriding, shadows: [global], shadowedBy: [], near: [] }, String)).toEqual([
      `  note: it overrides the copy in global (${G})`,
    ]);
    expect(relationNotes({ invariant: global, shadows: [], shadowedBy: [overriding], near: [] }, String)).toEqual([
      `  note: it is overridden by the copy in project myapp (${P})`,
    ]);
    const shadowing = copy(P, { kind: 'project', project: 'myapp' });
    expect(relationNotes({ invariant: shadowing, shadows: [global], shadowedBy: [], near: [] }, String)).toEqual([
      `  note: it shadows the copy in global (${G})`,
    ]);
  });
});
