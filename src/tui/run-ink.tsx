import { type Key, render, useApp, useInput } from 'ink';
import { useCallback, useRef, useState, type ReactElement } from 'react';
import { CancelledError } from '../core/errors.ts';
import { ThemeContext, makeTheme } from './theme.ts';
import { KeyHub, KeyHubContext } from './use-keys.ts';

/** The terminal an interactive screen runs in. */
export interface TuiIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  color: boolean;
}

/** How a screen ends: with a value, or with an error to report after the terminal is restored. */
export interface Finish<T> {
  done(value: T): void;
  fail(error: unknown): void;
  /** As Ctrl-C: the caller gets CancelledError. */
  cancel(): void;
}

type Outcome<T> = { kind: 'done'; value: T } | { kind: 'failed'; error: unknown } | { kind: 'cancelled' };

/** How Ink hands over the marks a terminal puts around pasted text (bracketed paste), its escape taken off. */
const PASTE_START = '[200~';
const PASTE_END = '[201~';

function Shell(props: { onCancel: () => void; children: ReactElement }): ReactElement {
  const [hub] = useState(() => new KeyHub());
  const pasting = useRef(false);
  // Ctrl-C reaches the app as a key in raw mode; it cancels wherever the user is.
  useInput((input, key) => {
    if (input === PASTE_START || input === PASTE_END) pasting.current = input === PASTE_START;
    else if (pasting.current) hub.dispatch(pastedText(input), PASTED_KEY);
    else if (key.ctrl && input === 'c') props.onCancel();
    else hub.dispatch(input, key);
  });
  return <KeyHubContext.Provider value={hub}>{props.children}</KeyHubContext.Provider>;
}

function Exit<T>(props: { outcome: { current?: Outcome<T> }; screen: (finish: Finish<T>) => ReactElement }): ReactElement {
  const { exit } = useApp();
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
    cancel: () => settle({ kind: 'cancelled' }),
  });
  return <Shell onCancel={() => settle({ kind: 'cancelled' })}>{props.screen(finish.current)}</Shell>;
}

/**
 * Pasted text as typed text: its line breaks and tabs as spaces, so that a paste of several lines fills the field
 * it lands in instead of pressing Enter (and moving on) at each line break. The break a copied line ends with goes.
 */
export function pastedText(text: string): string {
  return text.replace(/[\r\n]+$/, '').replace(/\r\n|[\r\n\t]/g, ' ');
}

const PASTED_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

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
  if (options.fullScreen) io.stdout.write(ALT_SCREEN_ON);
  try {
    // Raw mode from the start: keys typed before the first frame wait, unechoed, for the app to read them.
    if (io.stdin.isTTY && io.stdin.setRawMode) io.stdin.setRawMode(true);
    if (io.stdin.isTTY && io.stdout.isTTY) io.stdout.write(PASTE_MARKS_ON);
    const instance = render(
      <ThemeContext.Provider value={makeTheme(io.color)}>
        <Exit outcome={outcome} screen={screen} />
      </ThemeContext.Provider>,
      {
        stdin: io.stdin as NodeJS.ReadStream,
        stdout: io.stdout as NodeJS.WriteStream,
        exitOnCtrlC: false,
        patchConsole: false,
      },
    );
    try {
      await instance.waitUntilExit();
    } finally {
      instance.cleanup();
    }
  } finally {
    if (io.stdin.isTTY && io.stdin.setRawMode) io.stdin.setRawMode(false);
    io.stdin.pause();
    io.stdout.write(SHOW_CURSOR + (io.stdin.isTTY && io.stdout.isTTY ? PASTE_MARKS_OFF : '') + (options.fullScreen ? ALT_SCREEN_OFF : ''));
  }
  const o = outcome.current;
  if (!o || o.kind === 'cancelled') throw new CancelledError();
  if (o.kind === 'failed') throw o.error;
  return o.value;
}
