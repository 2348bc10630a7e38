import { CancelledError, cancelledBy, type SIGNAL_EXIT_CODES, STOP_SIGNALS, signalExitCode } from '../core/errors.ts';
import { caughtSignalsHandedOver, deferHeldStops } from '../store/held-signals.ts';
import type { CliIo } from './io.ts';
import { sayCutOnStop } from './output-stop.ts';

/**
 * Runs `work` with the stop signals turned into an abort of the signal it is
 * given (instead of ending the process at once), for work that cleans up
 * after itself when aborted; the default action is back once it ends.
 * `completed`, for work that finishes its writes whole once it has begun
 * them: a stop that came after its last look at the signal ends the run as
 * the signal asks (130, 143, 129) once the work is done, saying what it did,
 * as a writer holding a lock does (docs/guarantees.md), instead of exit 0.
 * A stop the work heard ends it with the signal's code too (cancelledBy).
 * `untilStopped`, for work that stops processes of its own the terminal's Ctrl-C does not reach (an actor leading
 * its own process group): a second stop waits for that too, which the work bounds, instead of ending the command
 * at once and leaving them running.
 */
export async function abortOnStopSignals<T>(
  outcome: string,
  work: (signal: AbortSignal) => Promise<T>,
  completed?: (value: T) => string,
  options: { untilStopped?: boolean } = {},
): Promise<T> {
  const controller = new AbortController();
  let stop: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stop ??= signal;
    controller.abort(cancelledBy(signal, outcome));
  };
  for (const signal of STOP_SIGNALS) {
    if (options.untilStopped) process.on(signal, onSignal);
    else process.once(signal, onSignal);
  }
  let value: T;
  try {
    value = await work(controller.signal);
  } finally {
    // A signal caught during the work's last synchronous stretch reaches its listener only at the next turn of the
    // event loop: let it in before the listeners go, or it would be lost and the run end as if none came.
    if (completed !== undefined) await caughtSignalsHandedOver();
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  }
  if (completed !== undefined && stop !== undefined)
    throw new CancelledError(
      `Stopped${stop === 'SIGINT' ? '' : ` by ${stop}`} once ${completed(value)}`,
      stop as keyof typeof SIGNAL_EXIT_CODES,
    );
  return value;
}

/**
 * Runs a command of the process's own run (`io.exit` given): a stop a writer held while it held a lock (held-signals)
 * ends the run once the command has printed what it made, with the signal's code and a line saying the change stays,
 * instead of ending the process as the lock is released, before the id it gave or the plan it made is said.
 */
export async function runToItsStop(io: CliIo, run: () => Promise<number>): Promise<number> {
  if (io.exit === undefined) return run();
  let stop: NodeJS.Signals | undefined;
  deferHeldStops((signal) => (stop = signal));
  let code: number;
  try {
    code = await run();
  } finally {
    deferHeldStops(undefined);
  }
  if (stop !== undefined) {
    io.stderr.write(`agents: stopped by ${stop} once the change under way was made, which stays (said above)\n`);
    code = signalExitCode(stop);
  }
  // What the command printed may still wait for a slow reader: a stop meanwhile cuts it, and says so.
  const out = io.stdout as NodeJS.WriteStream;
  if ((out.writableLength ?? 0) > 0) out.write('', sayCutOnStop(out));
  return code;
}
