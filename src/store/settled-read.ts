import type { Diagnostic } from '../core/diagnostics.ts';
import { storeChanged } from '../core/errors.ts';
import { isVanished } from './read-plan.ts';
import type { TreeSource } from './tree-source.ts';

/**
 * How many times a read of the store is made, whole, while a writer changed it under the read (a file it listed gone
 * when it is read, or the write generation moved on): past that, a vanished file is reported, and a generation that
 * moved on during the last read too is `store-changed`, never an answer that may lack a moved file.
 */
export const READ_ATTEMPTS = 4;

/**
 * Runs `read` (a listing, then the reads of what it listed) again from its start while what it found names a file
 * that vanished between the two, or while the store's write generation (generation.ts) changed during it, so that its
 * answer is one moment of the store: never a file read as absent (a move seen half-way, or made whole between the
 * listings of its two folders, would shorten the set in silence), never an error for a writer's moment. The common
 * case, no writer, reads once, looks over the findings and reads the generation twice.
 */
export async function settledRead<T>(
  source: Pick<TreeSource, 'generation'>,
  read: (last: boolean, moved: () => boolean) => Promise<T>,
  found: (t: T) => readonly Diagnostic[],
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const before = source.generation?.();
    // `moved`: whether a writer took a file away since this read began (a read may stop short then: validate does).
    const moved = () => source.generation?.() !== before;
    // `last`: no read follows this one, so a reader that may stop short goes on to the end.
    const got = await read(attempt >= READ_ATTEMPTS, moved);
    const vanished = found(got).some(isVanished);
    if (!vanished && !moved()) return got;
    if (attempt < READ_ATTEMPTS) continue;
    if (vanished) return got;
    throw storeChanged(
      `the store changed during each of its ${READ_ATTEMPTS} reads: a writer kept taking files away`,
      'Nothing was read whole. Run the command again once the writes are done.',
      { changed: ['./'], reads: READ_ATTEMPTS },
    );
  }
}
