import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/core/errors.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { abortOnStopSignals, runToItsStop } from '../../src/cli/stop-signals.ts';
import { withFolderLock } from '../../src/store/lock.ts';
import { tempDir } from '../helpers/tmp.ts';

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

  it('untilStopped: a second stop during the work still finds the listener (the process is not ended at once); the listeners go with the work', async () => {
    const before = process.listenerCount('SIGINT');
    const heard = (untilStopped: boolean) =>
      abortOnStopSignals(
        'nothing was written.',
        async () => {
          // The listener as Node calls it: a `once` listener's wrapper removes it.
          (process.rawListeners('SIGINT').at(-1) as (s: NodeJS.Signals) => void)('SIGINT');
          return process.listenerCount('SIGINT') - before;
        },
        undefined,
        { untilStopped },
      );
    expect([await heard(true), await heard(false)]).toEqual([1, 0]);
    expect(process.listenerCount('SIGINT')).toBe(before);
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

  it('a stop a writer held ends the command line’s own run once its result is printed, with the signal’s code; no later write of the run begins', async () => {
    const root = tempDir();
    const out: string[] = [];
    const err: string[] = [];
    // `exit` given: the run is the process's own, as bin/agents.js's is.
    const io = { stdout: { write: (c: string) => out.push(c) }, stderr: { write: (c: string) => err.push(c) }, exit: () => {} };
    let listening = 0;
    let later: unknown;
    const code = await runToItsStop(io as unknown as CliIo, async () => {
      await withFolderLock(root, 'global', () => {
        listening = process.listenerCount('SIGTERM');
        deliver('SIGTERM');
      });
      later = await withFolderLock(root, 'projects', () => 'written').catch((e: unknown) => e);
      io.stdout.write('added 01M93E9J8D0JANQNP01FTSBMB9\n');
      return 0;
    });
    expect([listening, code, out, later instanceof CancelledError, (later as CancelledError).exitCode]).toEqual([
      1,
      143,
      ['added 01M93E9J8D0JANQNP01FTSBMB9\n'],
      true,
      143,
    ]);
    expect(err.join('')).toContain('SIGTERM');
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });

  it('a real signal caught as the work ends, resumed from the loop’s poll as a write’s last step is, reaches the run before its listeners go', async () => {
    const file = join(tempDir(), 'written');
    writeFileSync(file, 'x');
    const caught = await abortOnStopSignals(
      'nothing was written.',
      async () => {
        await readFile(file);
        process.kill(process.pid, 'SIGHUP');
        return 1;
      },
      (n) => `${n} file was written whole.`,
    ).catch((e: unknown) => e);
    expect([caught instanceof CancelledError, (caught as CancelledError).exitCode]).toEqual([true, 129]);
  });
});
