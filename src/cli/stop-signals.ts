import { cancelledBy, STOP_SIGNALS } from '../core/errors.ts';

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
