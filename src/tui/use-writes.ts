import { createContext, useContext } from 'react';

/**
 * The writes a screen has started (an add, an edit, a removal). A write cannot be taken back once it runs, so a
 * cancel (Ctrl-C, a stop signal) that comes while one is in flight waits for it: the screen then ends as the write
 * made it end (the form with what it wrote), instead of saying "Cancelled" over a change that was made.
 */
export class Writes {
  private inFlight = 0;
  private readonly stop = new AbortController();
  /**
   * Aborted by a cancel: a write still waiting for another writer's lock has written nothing and gives up, so that
   * Ctrl-C ends the screen at once instead of once the wait runs out.
   */
  readonly signal: AbortSignal = this.stop.signal;
  private readonly idle: (() => void)[] = [];
  /** What the writes a cancel waited for made (a screen that goes on after a write, the browser, ends cancelled: said with them). */
  readonly madeWhileCancelling: string[] = [];

  track<T>(write: Promise<T>, describe?: (value: T) => string): Promise<T> {
    this.inFlight++;
    const settled = () => {
      // After the turn in which the screen's own handlers of this write run (they are chained on the same promise).
      setTimeout(() => {
        if (--this.inFlight > 0) return;
        for (const f of this.idle.splice(0)) f();
      }, 0);
    };
    write.then((value) => {
      if (this.idle.length > 0 && describe) this.madeWhileCancelling.push(describe(value));
      settled();
    }, settled);
    return write;
  }

  /** Runs `f` now, or once no write is in flight. */
  whenIdle(f: () => void): void {
    if (this.inFlight === 0) f();
    else this.idle.push(f);
  }

  /** A cancel (Ctrl-C, a stop signal): the writes waiting for a lock give up, and `f` runs once none is in flight. */
  cancel(f: () => void): void {
    this.stop.abort();
    this.whenIdle(f);
  }
}

export const WritesContext = createContext<Writes | null>(null);

/**
 * Marks a write the screen starts, so that a cancel waits for it (outside `runInk`, as in tests, it only passes it
 * through); `describe` says what it made, for a cancel that waited for it.
 */
export function useWrites(): <T>(write: Promise<T>, describe?: (value: T) => string) => Promise<T> {
  const writes = useContext(WritesContext);
  return (write, describe) => (writes ? writes.track(write, describe) : write);
}

/** Never aborted: the signal of a screen run outside `runInk`, as in tests. */
const NO_CANCEL = new AbortController().signal;

/** The signal to give a write the screen starts (`add`, `edit`, `remove`): a cancel ends its wait for a lock. */
export function useWriteSignal(): AbortSignal {
  return useContext(WritesContext)?.signal ?? NO_CANCEL;
}
