// A stop signal that comes while a writer holds a scope's lock waits until the
// lock is released, so that Ctrl-C, SIGTERM or SIGHUP never leaves a write cut
// short (two copies of a moved invariant, a temporary, a stale lock).
import { CancelledError, type SIGNAL_EXIT_CODES, STOP_SIGNALS } from '../core/errors.ts';

/** How many locks this process holds now: signals are held from the first taken to the last released. */
let held = 0;
/** The stop signal that came meanwhile, raised again once the last lock is released. */
let pending: NodeJS.Signals | undefined;
const listening = new Set<NodeJS.Signals>();
/**
 * Where a stop held until the last release goes instead of being raised again: the command line's own run, which
 * then prints what the writer made and ends with the signal's code, rather than dying before it says the id it gave.
 */
let deferTo: ((signal: NodeJS.Signals) => void) | undefined;
/** The stop handed to `deferTo`: no later writer of the run takes a lock, as none would have run. */
let deferred: NodeJS.Signals | undefined;

function onSignal(signal: NodeJS.Signals): void {
  pending ??= signal;
  // A second stop signal ends the process at once, as it would have: the write under way may be one that hangs.
  stopListening();
}

function stopListening(): void {
  for (const s of listening) process.removeListener(s, onSignal);
  listening.clear();
}

/** Whether a stop signal came while a lock is held: a wait for another lock then ends, having written nothing more. */
export function stopPending(): boolean {
  return pending !== undefined;
}

/**
 * The stop signal that came, taken: no release raises it again, for a wait it ended whose error says so and ends
 * the run with the signal's exit code (CancelledError).
 */
export function takePending(): NodeJS.Signals | undefined {
  const signal = pending;
  pending = undefined;
  return signal;
}

/**
 * Resolves once a signal already caught has reached its listeners. Node hands a signal over in the poll phase of its
 * loop, and one setImmediate from a callback of that phase runs before the next poll: a second one comes after it.
 */
export async function caughtSignalsHandedOver(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Hands a stop held while a lock was held to `to` once the last lock is released, instead of raising it again (a run
 * that ends itself as the signal asks); undefined takes that back. A second signal still ends the process at once.
 */
export function deferHeldStops(to: ((signal: NodeJS.Signals) => void) | undefined): void {
  deferTo = to;
  deferred = undefined;
}

/**
 * Refuses a write `before` names (`taking global/.lock`) once a released lock has handed a stop on (deferHeldStops):
 * the run ends when the earlier write is said, so this one is not begun. `before` is asked only then: a lock's name
 * costs a look for the repository's top.
 */
export function refuseAfterDeferredStop(before: () => string): void {
  if (deferred !== undefined)
    throw new CancelledError(
      `Stopped by ${deferred} before ${before()}: nothing more was written.`,
      deferred as keyof typeof SIGNAL_EXIT_CODES,
    );
}

/**
 * Holds the stop signals that would end this process at once (those no one else listens to: a command that handles
 * them, `validate --fix`, `export`, the MCP server, keeps its own way) until the returned release is called by the
 * last lock released; a signal that came meanwhile is then raised again, and ends the process as it would have
 * (or goes where deferHeldStops says).
 */
export function holdStopSignals(): () => Promise<void> {
  if (held++ === 0) {
    for (const s of STOP_SIGNALS) {
      if (process.listenerCount(s) > 0) continue;
      process.on(s, onSignal);
      listening.add(s);
    }
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--held > 0) return;
    // A signal caught but not yet handed to its listener waits for the event loop's poll: let it in before the
    // listeners go, or it would be lost.
    if (listening.size > 0) await caughtSignalsHandedOver();
    if (held > 0) return;
    stopListening();
    const signal = pending;
    pending = undefined;
    if (signal === undefined) return;
    if (deferTo === undefined) process.kill(process.pid, signal);
    else {
      deferred = signal;
      deferTo(signal);
    }
  };
}

/**
 * Runs a write that takes no lock (a new folder renamed into place, which no other writer can name) with the stop
 * signals held as a lock holds them: a stop meanwhile ends the run once the write is whole and said, as for every
 * writer, instead of killing the process between the write and the line that names what it made.
 */
export async function withStopsHeld<T>(what: string, write: () => T | Promise<T>): Promise<T> {
  refuseAfterDeferredStop(() => what);
  const release = holdStopSignals();
  try {
    return await write();
  } finally {
    await release();
  }
}
