import type { Diagnostic } from '../core/diagnostics.ts';
import { isVanished } from './read-plan.ts';

/**
 * How many times a read of the store is made, whole, while a file it listed is gone when it is read (a concurrent
 * `invariant remove` or `move`): past that, the vanished file is reported as before.
 */
export const READ_ATTEMPTS = 4;

/**
 * Runs `read` (a listing, then the reads of what it listed) again from its start while what it found names a file
 * that vanished between the two, so that its answer is one moment of the store: never a file read as absent (a move
 * seen half-way would shorten the set in silence), never an error for a writer's moment. The common case, nothing
 * vanished, reads once and only looks over the findings.
 */
export async function settledRead<T>(read: (last: boolean) => Promise<T>, found: (t: T) => readonly Diagnostic[]): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    // `last`: no read follows this one, so a reader that may stop short at a vanished file (validate) goes on to the end.
    const got = await read(attempt >= READ_ATTEMPTS);
    if (attempt >= READ_ATTEMPTS || !found(got).some(isVanished)) return got;
  }
}
