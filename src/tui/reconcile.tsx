// Entry of the interactive reconciliation actor (loaded with `await import`).
import { CancelledError, cancelledBy } from '../core/errors.ts';
import type { ActorRequest, ActorResult } from '../core/records.ts';
import { ReconcileApp } from './ReconcileApp.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

/**
 * Asks a person about every invariant of `request`; resolves with the answers,
 * or null when they cancelled (Ctrl-C); a stop signal rejects. The terminal is restored either way.
 */
export async function askPerson(request: ActorRequest, io: TuiIo): Promise<ActorResult[] | null> {
  try {
    return await runInk<ActorResult[]>(io, (finish) => (
      <FitWidth>
        {(width, rows) => (
          <ReconcileApp
            request={request}
            width={width}
            rows={rows}
            onDone={(answers) => (answers === null ? finish.cancel() : finish.done(answers))}
          />
        )}
      </FitWidth>
    ));
  } catch (error) {
    // A stop signal keeps its exit code (143 for SIGTERM): only a person's cancel is the caller's to say.
    if (error instanceof CancelledError && error.signal !== undefined) throw cancelledBy(error.signal, 'nothing was written.');
    if (error instanceof CancelledError) return null;
    throw error;
  }
}
