import { CancelledError } from '../core/errors.ts';

/** Signals that end a run: Ctrl-C, CI's cancel (SIGTERM) and a closed terminal (SIGHUP). */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The error a run stopped by `signal` ends with (exit 130), saying what was left undone. */
export function cancelledBy(signal: NodeJS.Signals, outcome: string): CancelledError {
  return new CancelledError(`Cancelled${signal === 'SIGINT' ? '' : ` by ${signal}`}: ${outcome}`);
}

/**
 * Runs `work` with the stop signals turned into an abort of the signal it is
 * given (instead of ending the process at once), for work that cleans up
 * after itself when aborted; the default action is back once it ends.
 */
export async function abortOnStopSignals<T>(outcome: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => controller.abort(cancelledBy(signal, outcome));
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  try {
    return await work(controller.signal);
  } finally {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  }
}
