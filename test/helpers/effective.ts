import { createHash } from 'node:crypto';
import type { ScopedInvariant, Severity } from '../../src/core/model.ts';
import type { EffectiveEntry } from '../../src/core/resolve.ts';

/** The sha256 of `s`, in hex (the export's content hashes). */
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** An active entry of an effective set, with no tags, at `x/<id>.yaml`. */
export function entry(
  id: string,
  text: string,
  scope: ScopedInvariant['scope'],
  severity: Severity = 'error',
  shadows: EffectiveEntry['shadows'] = [],
): EffectiveEntry {
  return { invariant: { id, text, severity, active: true, tags: [], scope, path: `x/${id}.yaml` }, shadows };
}
