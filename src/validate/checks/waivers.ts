import type { Diagnostic } from '../../core/diagnostics.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob } from './context.ts';
import type { Located } from './located.ts';

/**
 * Waivers: one past its expiry is an error (the exception was time-boxed; the
 * invariant applies again, and the file should go or be renewed), and one
 * naming an invariant that is not in the store is a warning.
 */
export async function checkWaivers(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  /** The ids in use in the store, found on first call (only a store with waivers asks). */
  usedIds: () => ReadonlySet<string>,
  located: Located,
  now: Date | undefined,
  /** The inherited ids (docs/extends.md): a waiver of one names an invariant the store knows. */
  inheritedKeys?: () => Promise<ReadonlyMap<string, string>>,
): Promise<Diagnostic[]> {
  const found: { file: string; report: () => Diagnostic }[] = [];
  let expired: ((w: { expires: string }, now: Date) => boolean) | undefined;
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    if (kind.kind !== 'waiver') continue;
    const w = facts[i]!.w;
    if (w === undefined) continue;
    const file = entry.path;
    if (now !== undefined) {
      expired ??= (await import('../../core/waivers.ts')).waiverHolds;
      if (!expired({ expires: w.x }, now)) {
        found.push({
          file,
          report: () =>
            located.at(
              file,
              ['expires'],
              'waiver-expired',
              'error',
              `waiver ${kind.id} of ${w.i} expired (expires: ${w.x}); the invariant applies again`,
              `Remove the waiver file (\`git rm\` the path this diagnostic names) or record a new waiver with \`agents invariant waive ${w.i} … --expires DATE\`.`,
            ),
        });
      }
    }
    if (!usedIds().has(w.i) && !(await inheritedKeys?.())?.has(w.i)) {
      found.push({
        file,
        report: () =>
          located.at(
            file,
            ['invariant_id'],
            'unknown-invariant',
            'warning',
            `waiver ${kind.id} names invariant ${w.i}, which is not in the store`,
            'Remove the waiver, or correct invariant_id.',
          ),
      });
    }
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}
