import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/core/errors.ts';
import { abortOnStopSignals } from '../../src/cli/stop-signals.ts';

/** Hands `signal` to the listener abortOnStopSignals added last, as Node would at the loop's next turn (no real signal in the test's process). */
function deliver(signal: NodeJS.Signals): void {
  const listener = process.listeners(signal).at(-1) as ((s: NodeJS.Signals) => void) | undefined;
  listener?.(signal);
}

describe('abortOnStopSignals', () => {
  it('a stop after the last look at the signal ends a run that finishes its writes with the signal’s exit code, once they are done', async () => {
    const before = process.listenerCount('SIGTERM');
    let finished = false;
    const late = await abortOnStopSignals(
      'nothing was written.',
      async () => {
        deliver('SIGTERM');
        finished = true;
        return 3;
      },
      (n) => `${n} files were written whole.`,
    ).catch((e: unknown) => e);
    expect([finished, late instanceof CancelledError, (late as CancelledError).exitCode, (late as CancelledError).code]).toEqual([
      true,
      true,
      143,
      'cancelled',
    ]);
    expect(process.listenerCount('SIGTERM')).toBe(before);
    // Without `completed` the work's value stands, as for the commands that keep their own way.
    expect(await abortOnStopSignals('nothing was written.', async () => (deliver('SIGINT'), 3))).toBe(3);
    // A signal caught in the work's last synchronous stretch is taken before the listeners go, not lost.
    const caught = await abortOnStopSignals(
      'nothing was written.',
      async () => {
        setImmediate(() => deliver('SIGHUP'));
        return 3;
      },
      (n) => `${n} files were written whole.`,
    ).catch((e: unknown) => e);
    expect((caught as CancelledError).exitCode).toBe(129);
  });

  it('a stop before the writes aborts with the signal’s own code, where the run ends as a writer does and where it keeps its own way', async () => {
    const reason = (completed?: (n: number) => string) =>
      abortOnStopSignals(
        'nothing was written.',
        async (signal) => {
          deliver('SIGTERM');
          signal.throwIfAborted();
          return 0;
        },
        completed,
      ).then(
        () => expect.unreachable('the run was not stopped'),
        (e: unknown) => e as CancelledError,
      );
    const early = await reason((n) => `${n} files were written whole.`);
    expect([early instanceof CancelledError, early.exitCode, early.code, early.message]).toEqual([
      true,
      143,
      'cancelled',
      'Cancelled by SIGTERM: nothing was written.',
    ]);
    expect((await reason()).exitCode).toBe(143);
  });
});
