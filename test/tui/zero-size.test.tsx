import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { useStdout } from 'ink';
import { useEffect } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { runAddForm } from '../../src/tui/add.tsx';
import { runBrowser } from '../../src/tui/browse.tsx';
import { runConfirmRemove } from '../../src/tui/remove.tsx';
import { type Finish, runInk, type TuiIo } from '../../src/tui/run-ink.tsx';
import { useTerminalSize } from '../../src/tui/use-terminal-size.ts';
import { G1, Keys, exampleStore } from './helpers.ts';

/** A terminal that reports no size (0 columns, 0 rows): a pseudo-terminal given none, or `stty cols 0 rows 0`. */
class SizelessScreen extends EventEmitter {
  isTTY = true;
  columns = 0;
  rows = 0;
  written = '';
  write = (chunk: string): boolean => {
    this.written += chunk;
    return true;
  };
  /** The last frame written, as the terminal shows it (Ink draws only the last one under CI). */
  text(): string {
    return stripVTControlCharacters(this.written);
  }
}

/** Presses `key` until the screen's run ends: a key that comes before the screen takes it is lost. */
async function pressUntilDone(stdin: Keys, key: string, run: Promise<unknown>): Promise<void> {
  let done = false;
  void run.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await vi.waitFor(
    () => {
      if (!done) stdin.write(key);
      expect(done).toBe(true);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** A screen that ends at once with the size it lays out at and the size Ink is given (which Ink lays its frame out in). */
function SizeProbe({ finish }: { finish: Finish<unknown> }) {
  const size = useTerminalSize();
  const { stdout } = useStdout();
  useEffect(() => finish.done({ screen: size, ink: { columns: stdout.columns, rows: stdout.rows } }), [finish, size, stdout]);
  return null;
}

describe('a terminal that reports 0×0 gets the screens at 80×24, the browser as the forms and confirmations', () => {
  test('every screen and Ink itself take 80×24; a terminal that reports one of the two keeps it', async () => {
    for (const [columns, rows, expected] of [
      [0, 0, { columns: 80, rows: 24 }],
      [0, 30, { columns: 80, rows: 30 }],
      [50, 0, { columns: 50, rows: 24 }],
    ] as const) {
      const stdout = Object.assign(new SizelessScreen(), { columns, rows });
      const io = { stdin: new Keys(), stdout, color: false } as unknown as TuiIo;
      expect(await runInk(io, (finish) => <SizeProbe finish={finish} />)).toEqual({ screen: expected, ink: expected });
    }
  });

  test('the add form', async () => {
    const service = new InvariantService(exampleStore());
    const stdin = new Keys();
    const stdout = new SizelessScreen();
    const io = { stdin, stdout, color: false } as unknown as TuiIo;
    const run = runAddForm(io, service, { scope: { kind: 'global' } });
    await pressUntilDone(stdin, '\u001b', run);
    expect(await run).toBeUndefined();
    expect(stdout.text()).toMatch(/Add an invariant/);
  });

  test('the remove confirmation', async () => {
    const service = new InvariantService(exampleStore());
    const stdin = new Keys();
    const stdout = new SizelessScreen();
    const io = { stdin, stdout, color: false } as unknown as TuiIo;
    const run = runConfirmRemove(io, await service.show(G1));
    await pressUntilDone(stdin, 'n', run);
    expect(await run).toBe(false);
    expect(stdout.text()).toContain('Never delete production data');
    expect(stdout.text()).toContain('Remove this invariant? [y/N]');
  });

  test('the browser', async () => {
    const service = new InvariantService(exampleStore());
    const stdin = new Keys();
    const stdout = new SizelessScreen();
    const io = { stdin, stdout, color: false } as unknown as TuiIo;
    const run = runBrowser(io, service);
    await pressUntilDone(stdin, 'q', run);
    expect(stdout.text()).toContain('agents · all scopes');
    expect(stdout.text()).toContain('q quit');
  });
});
