import { textKey } from '../../core/normalise.ts';
import type { ScopedInvariant } from '../../core/model.ts';
import type { FileFacts } from '../file-facts.ts';
import type { RecordingSource } from '../recording-source.ts';
import type { ContentJob, InvariantJob, SharedText } from './context.ts';

/**
 * Invariants whose key digest another invariant shares are parsed again in
 * full (few: a digest is shared only by equal texts), then grouped by their
 * text keys themselves.
 */
export async function sharingText(source: RecordingSource, jobs: readonly ContentJob[], facts: readonly FileFacts[]): Promise<SharedText> {
  // Digests seen once, and those seen again (rare): one set operation per invariant.
  const seen = new Set<string>();
  let again: Set<string> | undefined;
  for (let i = 0; i < jobs.length; i++) {
    // Only an invariant has a key digest.
    const k = facts[i]!.k;
    if (k === undefined) continue;
    const size = seen.size;
    if (seen.add(k).size === size) (again ??= new Set()).add(k);
  }
  const out: SharedText = { invariants: [], keys: [] };
  if (!again) return out;
  const candidates: InvariantJob[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const k = facts[i]!.k;
    if (k !== undefined && again.has(k)) candidates.push(jobs[i] as InvariantJob);
  }
  const contents = await source.read(candidates.map((j) => j.entry.path));
  const { readInvariant } = await import('../check-file.ts');
  const all: ScopedInvariant[] = [];
  for (const { entry, kind } of candidates) {
    // Read again (a working tree's file may have changed since): it may no longer be there, or parse.
    const r = contents.get(entry.path)!;
    if (!r.ok) continue;
    const value = await readInvariant(entry.path, kind, r.bytes);
    if (value) all.push(value);
  }
  const keys = all.map((inv) => textKey(inv.text));
  const exact = new Map<string, number>();
  for (const k of keys) exact.set(k, (exact.get(k) ?? 0) + 1);
  for (let i = 0; i < all.length; i++) {
    if (exact.get(keys[i]!)! < 2) continue;
    out.invariants.push(all[i]!);
    out.keys.push(keys[i]!);
  }
  return out;
}
