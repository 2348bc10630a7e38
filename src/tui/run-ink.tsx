import { Box, type DOMElement, type Key, measureElement, render, useApp, useInput, useStdin, useStdout } from 'ink';
import { useCallback, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import { CancelledError, cancelledBy, STOP_SIGNALS } from '../core/errors.ts';
import { inkStdout, type TerminalOut } from './ink-stdout.ts';
import { ThemeContext, makeTheme } from './theme.ts';
import { KeyHub, KeyHubContext, PLAIN } from './use-keys.ts';
import { Writes, WritesContext } from './use-writes.ts';

/** The terminal an interactive screen runs in. */
export interface TuiIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: TerminalOut;
  color: boolean;
  /** The start of a command to paste (the CLI's CliContext.agentsCommand, with its --store). */
  agents?: string;
}

/** How a screen ends: with a value, or with an error to report after the terminal is restored. */
export interface Finish<T> {
  done(value: T): void;
  fail(error: unknown): void;
  /** As Ctrl-C: the caller gets CancelledError. */
  cancel(): void;
}

type Outcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'failed'; error: unknown }
  /** `made`: what the writes the cancel waited for made. */
  | { kind: 'cancelled'; signal?: NodeJS.Signals; made?: readonly string[] };

/** How Ink hands over the marks a terminal puts around pasted text (bracketed paste), its escape taken off. */
const PASTE_START = '[200~';
const PASTE_END = '[201~';
const CTRL_C = '\u0003';
/** The flags of a sequence Ink names no key for: none set. */
const UNNAMED_KEY = {
  ...PLAIN,
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
} as Key;

function Shell(props: {
  onCancel: () => void;
  onSuspend: (redraw: () => void, rows: number) => void;
  children: ReactElement;
}): ReactElement {
  const [hub] = useState(() => new KeyHub());
  const pasting = useRef(false);
  // The frame's height, which a screen drawn in the main screen takes off before the job stops (run-ink's suspend).
  const frame = useRef<DOMElement>(null);
  // Ink's write of nothing: it erases its frame and draws it again, as the screen was before the suspension.
  const { write } = useStdout();
  // Ink reads an escape sequence it names no key for (a colour, \u001b[31m, in pasted output) as a Ctrl key named
  // undefined, and throws on it before any handler runs: that ended the screen with a stack trace, the terminal raw.
  // Such a sequence is no key here; pasted, it is text, which the field takes as it takes typed text.
  const { internal_eventEmitter: events } = useStdin();
  const reached = useRef(false);
  useLayoutEffect(() => {
    const emit = events.emit;
    events.emit = function (this: unknown, name: string | symbol, ...args: unknown[]): boolean {
      reached.current = false;
      try {
        return emit.call(events, name, ...args);
      } catch (error) {
        const [data] = args;
        if (name !== 'input' || reached.current || typeof data !== 'string' || !data.startsWith('\u001b')) throw error;
        const text = pasting.current ? pastedText(data) : '';
        if (text !== '') hub.dispatch(text, UNNAMED_KEY, { pasted: true });
        return true;
      }
    };
    return () => {
      events.emit = emit;
    };
  }, [events, hub]);
  // Ctrl-C reaches the app as a key in raw mode; it cancels wherever the user is.
  useInput((input, key) => {
    reached.current = true;
    if (input === PASTE_START || input === PASTE_END) pasting.current = input === PASTE_START;
    else if (pasting.current) {
      // Typed as plain text into the field that has the focus, whatever Ink read into it (a paste of one line break
      // is no Enter); where no field is, a paste does nothing.
      const text = pastedText(input);
      if (text !== '') hub.dispatch(text, { ...key, ...PLAIN }, { pasted: true });
    } else if (key.ctrl && input === 'c') props.onCancel();
    else if (key.ctrl && input === 'z') props.onSuspend(() => write(''), frame.current ? measureElement(frame.current).height : 0);
    else if (input.includes(CTRL_C)) {
      // Ink hands over keys typed fast as one chunk ("\r\u0003"); a Ctrl-C inside one still cancels, after the keys
      // typed before it.
      const before = input.slice(0, input.indexOf(CTRL_C));
      if (before !== '') hub.dispatch(before, key);
      props.onCancel();
    } else hub.dispatch(input, key);
  });
  return (
    <KeyHubContext.Provider value={hub}>
      <Box ref={frame} flexDirection="column">
        {props.children}
      </Box>
    </KeyHubContext.Provider>
  );
}

function Exit<T>(props: {
  outcome: { current?: Outcome<T> };
  /** Set to what ends the screen on a stop signal. */
  onSignal: { current?: (signal: NodeJS.Signals) => void };
  suspend: (redraw: () => void, rows: number) => void;
  screen: (finish: Finish<T>) => ReactElement;
}): ReactElement {
  const { exit } = useApp();
  const [writes] = useState(() => new Writes());
  const settle = useCallback(
    (o: Outcome<T>) => {
      if (props.outcome.current) return;
      props.outcome.current = o;
      exit();
    },
    [exit, props.outcome],
  );
  const finish = useRef<Finish<T>>({
    done: (value) => settle({ kind: 'done', value }),
    fail: (error) => settle({ kind: 'failed', error }),
    cancel: () => writes.cancel(() => settle({ kind: 'cancelled', made: writes.madeWhileCancelling })),
  });
  // A cancel waits for a write in flight (use-writes.ts): once it ends, whichever outcome came first stands.
  props.onSignal.current = (signal) => writes.cancel(() => settle({ kind: 'cancelled', signal, made: writes.madeWhileCancelling }));
  return (
    <WritesContext.Provider value={writes}>
      <Shell
        onCancel={() => writes.cancel(() => settle({ kind: 'cancelled', made: writes.madeWhileCancelling }))}
        onSuspend={props.suspend}
      >
        {props.screen(finish.current)}
      </Shell>
    </WritesContext.Provider>
  );
}

/**
 * Pasted text as typed text: its line breaks and tabs as spaces, so that a paste of several lines fills the field
 * it lands in instead of pressing Enter (and moving on) at each line break. The break a copied line ends with goes.
 */
export function pastedText(text: string): string {
  return text.replace(/[\r\n]+$/, '').replace(/\r\n|[\r\n\t]/g, ' ');
}

/**
 * The signals that close a screen as Ctrl-C does: the stop signals, and SIGQUIT, whose default end (a core dump)
 * would leave the terminal in raw mode on the alternate screen.
 */
const SCREEN_SIGNALS: readonly NodeJS.Signals[] = [...STOP_SIGNALS, 'SIGQUIT'];

const SHOW_CURSOR = '\u001b[?25h';
/** Asks the terminal to mark pasted text (bracketed paste), and to stop. */
const PASTE_MARKS_ON = '\u001b[?2004h';
const PASTE_MARKS_OFF = '\u001b[?2004l';
const ALT_SCREEN_ON = '\u001b[?1049h';
const ALT_SCREEN_OFF = '\u001b[?1049l';

/**
 * Runs one Ink screen to its end and returns its value. Ctrl-C throws
 * CancelledError (exit 130). Whatever happens, the terminal is given back as
 * it was: raw mode off, cursor shown, the alternate screen left.
 */
export async function runInk<T>(
  io: TuiIo,
  screen: (finish: Finish<T>) => ReactElement,
  options: { fullScreen?: boolean } = {},
): Promise<T> {
  const outcome: { current?: Outcome<T> } = {};
  // A stop signal (kill, CI's cancel, tmux closing the pane) ends the screen as Ctrl-C does, so the terminal is given
  // back (the main screen, the cursor, pastes unmarked) before the process ends; Node restores the tty mode itself.
  const onSignal: { current?: (signal: NodeJS.Signals) => void } = {};
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal ends the process as it would have, should the screen not close. The listener stays until
    // then: Ink's signal-exit re-sends a signal that it finds no other listener for.
    if (stopping) {
      for (const s of SCREEN_SIGNALS) process.removeListener(s, stop);
      process.kill(process.pid, signal);
      return;
    }
    stopping = true;
    onSignal.current?.(signal);
  };
  for (const s of SCREEN_SIGNALS) process.on(s, stop);
  /**
   * Ctrl-C's neighbour Ctrl-Z reaches the app as a key in raw mode too: it stops the job as the shell would, the
   * terminal given back first (line mode, the main screen, the cursor), and taken again when the job goes on.
   */
  const suspend = (redraw: () => void, rows: number) => {
    if (process.platform === 'win32' || !io.stdin.isTTY || !io.stdin.setRawMode) return;
    // A screen drawn in the main screen is taken off first: the shell's lines ("Stopped", fg) go where it was, and Ink,
    // which erases as many rows as it drew before it draws again, would otherwise erase those and leave the frame's
    // top above the frame drawn again.
    if (!options.fullScreen) clearFrame?.();
    io.stdout.write(SHOW_CURSOR + (io.stdout.isTTY ? PASTE_MARKS_OFF : '') + (options.fullScreen ? ALT_SCREEN_OFF : ''));
    io.stdin.setRawMode(false);
    // The whole job (a wrapper such as npx included), as the terminal's own Ctrl-Z stops it. The call returns once the
    // job goes on (fg), or at once where nothing can stop it (a process group no shell controls drops the signal).
    process.kill(0, 'SIGTSTP');
    io.stdin.setRawMode(true);
    // Ink still counts the frame it drew: as many empty rows below the shell's lines are what it erases to draw again.
    io.stdout.write((options.fullScreen ? ALT_SCREEN_ON : '\n'.repeat(rows)) + (io.stdout.isTTY ? PASTE_MARKS_ON : ''));
    redraw();
  };
  if (options.fullScreen) io.stdout.write(ALT_SCREEN_ON);
  const ink = inkStdout(io.stdout);
  let clearFrame: (() => void) | undefined;
  try {
    // Raw mode from the start: keys typed before the first frame wait, unechoed, for the app to read them.
    if (io.stdin.isTTY && io.stdin.setRawMode) io.stdin.setRawMode(true);
    if (io.stdin.isTTY && io.stdout.isTTY) io.stdout.write(PASTE_MARKS_ON);
    const instance = render(
      <ThemeContext.Provider value={makeTheme(io.color, io.agents)}>
        <Exit outcome={outcome} onSignal={onSignal} suspend={suspend} screen={screen} />
      </ThemeContext.Provider>,
      {
        stdin: io.stdin as NodeJS.ReadStream,
        stdout: ink.stdout as NodeJS.WriteStream,
        exitOnCtrlC: false,
        patchConsole: false,
      },
    );
    clearFrame = instance.clear;
    try {
      await instance.waitUntilExit();
    } finally {
      instance.cleanup();
    }
  } finally {
    ink.close();
    if (io.stdin.isTTY && io.stdin.setRawMode) io.stdin.setRawMode(false);
    io.stdin.pause();
    if (!options.fullScreen && !ink.ended()) io.stdout.write('\n');
    io.stdout.write(SHOW_CURSOR + (io.stdin.isTTY && io.stdout.isTTY ? PASTE_MARKS_OFF : '') + (options.fullScreen ? ALT_SCREEN_OFF : ''));
    for (const s of SCREEN_SIGNALS) process.removeListener(s, stop);
  }
  const o = outcome.current;
  // A screen that goes on after a write (the browser) ends cancelled once the write it waited for is made: said, as it stays.
  const made = o?.kind === 'cancelled' && o.made?.length ? ` once the change under way was made, which stays: ${o.made.join('; ')}` : '';
  if (o?.kind === 'cancelled' && o.signal) throw cancelledBy(o.signal, `the screen was closed${made}.`);
  if (!o || o.kind === 'cancelled') throw made ? new CancelledError(`Cancelled${made}.`) : new CancelledError();
  if (o.kind === 'failed') throw o.error;
  return o.value;
}
