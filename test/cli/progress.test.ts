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

  it('on a terminal that reports 0 columns (a pseudo-terminal given no size), cuts the line at 80 as every screen takes it', () => {
    const { io, writes } = terminal();
    io.stderr.columns = 0;
    const progress = startProgress(io, {});
    const phase = `checking ${'very '.repeat(20)}many files`;
    for (let i = 1; i <= 16; i++) progress.update(phase, i, 16);
    progress.stop();
    const line = writes[0]!.replace('\r\x1b[2K', '');
    expect(line).toHaveLength(79);
    expect(line.endsWith('…')).toBe(true);
  });

  it('draws nothing before its delay, under CI, with --quiet, off a terminal, or on one that cannot move the cursor', () => {
    for (const [env, quiet, tty] of [
      [{ AGENTS_PROGRESS_DELAY_MS: '60000' }, false, true],
      [{ AGENTS_PROGRESS_DELAY_MS: '0', CI: 'true' }, false, true],
      [{ AGENTS_PROGRESS_DELAY_MS: '0', TERM: 'dumb' }, false, true],
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

  it('a stop signal erases the line; it ends the process only when nothing else listens, then or since the first draw', () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    // Files share their worker's process: a listener the runner or an earlier file holds would read as the command's.
    const held = process.listeners('SIGTERM');
    process.removeAllListeners('SIGTERM');
    try {
      // Nobody else listens: the signal is sent again, to end the process as it would have.
      const alone = terminal();
      startProgress(alone.io, {}).update('validate: checking files', 1, 1);
      process.emit('SIGTERM', 'SIGTERM');
      expect(kill.mock.calls).toEqual([[process.pid, 'SIGTERM']]);
      expect(alone.writes.at(-1)).toBe('\r\x1b[2K');
      // A listener that came after the first draw (validate --fix's writes) handles it: the process goes on.
      kill.mockClear();
      const later = terminal();
      startProgress(later.io, {}).update('validate --fix: adding modelines', 1, 1);
      const heard: string[] = [];
      process.once('SIGTERM', (s) => heard.push(s));
      process.emit('SIGTERM', 'SIGTERM');
      expect(kill).not.toHaveBeenCalled();
      expect(heard).toEqual(['SIGTERM']);
      expect(later.writes.at(-1)).toBe('\r\x1b[2K');
      expect(process.listenerCount('SIGTERM')).toBe(0);
    } finally {
      kill.mockRestore();
      for (const listener of held) process.on('SIGTERM', listener);
    }
  });
});
