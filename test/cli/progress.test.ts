import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProgress } from '../../src/cli/progress.ts';

/** A terminal's stderr that keeps what is written to it. */
function terminal(env: Record<string, string | undefined> = { AGENTS_PROGRESS_DELAY_MS: '0' }) {
  const writes: string[] = [];
  const stdin = new PassThrough();
  const io = {
    stdout: { write: () => true },
    stderr: { write: (c: string) => writes.push(c), isTTY: true, columns: 80 },
    stdin,
    env,
    cwd: '/',
  };
  return { io, writes };
}

describe('startProgress', () => {
  // The clock stands still unless a test moves it: a busy machine must not add draws.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws the end of every phase, even one that ends within a tenth of a second of the last draw', () => {
    const { io, writes } = terminal();
    const progress = startProgress(io, {});
    expect(progress.enabled).toBe(true);
    for (let i = 1; i <= 40; i++) progress.update('checking files', i, 40);
    for (let i = 1; i <= 20; i++) progress.update('adding modelines', i, 20);
    vi.advanceTimersByTime(100);
    for (let i = 1; i <= 16; i++) progress.update('writing the report', i, 30);
    progress.stop();
    // The clock is read on every 16th call and at each phase's end: the first draw is the 16th call; within
    // 100 ms of it only each phase's end is drawn; 100 ms later, the 64th call draws.
    expect(writes).toEqual([
      '\r\x1b[2Kchecking files: 16 of 40 (40%)',
      '\r\x1b[2Kchecking files: 40 of 40 (100%)',
      '\r\x1b[2Kadding modelines: 20 of 20 (100%)',
      '\r\x1b[2Kwriting the report: 4 of 30 (13%)',
      '\r\x1b[2K',
    ]);
  });

  it('draws nothing before its delay, under CI, with --quiet, or off a terminal', () => {
    for (const [env, quiet, tty] of [
      [{ AGENTS_PROGRESS_DELAY_MS: '60000' }, false, true],
      [{ AGENTS_PROGRESS_DELAY_MS: '0', CI: 'true' }, false, true],
      [{ AGENTS_PROGRESS_DELAY_MS: '0' }, true, true],
      [{ AGENTS_PROGRESS_DELAY_MS: '0' }, false, false],
    ] as const) {
      const { io, writes } = terminal({ ...env });
      io.stderr.isTTY = tty;
      const progress = startProgress(io, { quiet });
      for (let i = 1; i <= 32; i++) progress.update('checking files', i, 32);
      progress.stop();
      expect({ env, quiet, tty, writes }).toEqual({ env, quiet, tty, writes: [] });
    }
  });
});
