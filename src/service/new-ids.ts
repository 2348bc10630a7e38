// The ids a writer gives what it writes: every writer's one route to deps.newId.
import { UsageError } from '../core/errors.ts';
import { typeName } from '../core/input-shape.ts';
import { isUlid } from '../core/names.ts';
import { idsAmong } from '../store/listing.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { callersIds, type ServiceDeps } from './deps.ts';

/**
 * The id maker of one write, called before anything is written. The process's ULID factory never answers an id
 * twice, so its ids go unchecked (a listing of a large store would cost more than the write). A caller's
 * `deps.newId` may answer an id the store holds, or one it answered before: every reader would refuse the file
 * written under it (`id-reused`), so its ids are checked against the store's ids, listed once, and refused, as an
 * answer that is no ULID is.
 */
export async function idMaker(svc: { readonly deps: ServiceDeps; readonly source: TreeSource }): Promise<() => string> {
  const newId = svc.deps.newId;
  if (!callersIds(svc.deps)) return newId;
  const held = new Map<string, string>();
  for (const f of idsAmong(await svc.source.list('', { recursive: true }), '')) if (!held.has(f.id)) held.set(f.id, f.path);
  const given = new Set<string>();
  return () => {
    const id: unknown = newId();
    // Made a file name: another answer would be refused by the schema gate as a file it names from the id.
    if (typeof id !== 'string' || !isUlid(id))
      throw new UsageError(
        `deps.newId() answered ${typeof id === 'string' ? JSON.stringify(id) : typeName(id)}, which is no ULID (26 characters of Crockford's base 32, in upper case); nothing was written`,
        'Make deps.newId answer a new ULID on every call (the ulid package makes them), or leave it out.',
        { field: 'deps.newId()' },
      );
    const path = held.get(id);
    if (path !== undefined || given.has(id))
      throw new UsageError(
        `deps.newId() answered ${String(id)}, which ${path !== undefined ? `the store already holds (${path})` : 'it answered before in this call'}; nothing was written`,
        'An id names one thing in the whole store: make deps.newId answer a new ULID on every call, or leave it out.',
        { field: 'deps.newId()', id, ...(path !== undefined ? { path } : {}) },
      );
    given.add(id);
    return id;
  };
}
