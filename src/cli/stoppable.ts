// A run that Ctrl-C, CI's cancel (SIGTERM) or a closed terminal (SIGHUP) stops cleanly: the service hears it
// through an AbortSignal, stops its git processes, removes what it made, and the run ends with exit 130.
import { STOP_SIGNALS, cancelledBy } from '../core/errors.ts';

/**
 * Runs `fn` with a signal that a stop signal aborts; the run then ends with exit 130 saying `outcome`. Listened
 * to once: a second Ctrl-C ends the process as it always does.
 */
export async function stoppable<T>(outcome: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => controller.abort(cancelledBy(signal, outcome));
  for (const s of STOP_SIGNALS) process.once(s, onSignal);
  try {
    const result = await fn(controller.signal);
    controller.signal.throwIfAborted();
    return result;
  } finally {
    for (const s of STOP_SIGNALS) process.removeListener(s, onSignal);
  }
}
