import { invariantPath, type Scope, type ScopedInvariant } from '../../src/core/model.ts';

/**
 * An invariant as the store reads it, for tests of the pure core: active, severity
 * error, no tags, at its scope's path; `extra` sets any other field.
 */
export function scopedInvariant(id: string, scope: Scope, text: string, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return { id, text, severity: 'error', active: true, tags: [], scope, path: invariantPath(scope, id), ...extra };
}
