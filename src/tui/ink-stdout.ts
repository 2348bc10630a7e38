import { stripVTControlCharacters } from 'node:util';
import { terminalSize } from '../present/terminal-size.ts';
import { terminalWidth } from '../present/terminal-width.ts';

/** The terminal a screen draws in, as run-ink and Ink use it. */
export interface TerminalOut {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** Part of Ink's clear before it draws again after a frame as tall as the terminal: erase the scrollback (ED 3). */
const ERASE_SCROLLBACK = '\u001b[3J';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The rows `line` takes in a terminal `columns` wide: a character that would cross the last column starts the next
 * row, as the terminal's automatic wrap (and its reflow on a resize) puts it.
 */
export function rowsAt(line: string, columns: number): number {
  if (columns < 1 || terminalWidth(line) <= columns) return 1;
  let rows = 1;
  let used = 0;
  for (const { segment } of graphemes.segment(line)) {
    const width = terminalWidth(segment);
    if (used > 0 && used + width > columns) {
      rows += 1;
      used = 0;
    }
    used += width;
  }
  return rows;
}

/**
 * What erases a frame of `lines` lines that takes `rows` rows, the cursor at its end, before Ink's own erase of
 * `lines` rows: up to the frame's top row (a terminal stops at its first), everything from there down, and back down
 * to where Ink's erase ends on that top row, so that it erases rows already blank and draws from there.
 */
function eraseRows(rows: number, lines: number): string {
  return `\u001b[${rows - 1}A\u001b[G\u001b[J${lines > 1 ? `\u001b[${lines - 1}B` : ''}`;
}

/**
 * The terminal as Ink writes to it, with two of Ink's erasures made whole, and the size every screen takes
 * (`terminalSize`: 80×24 for a terminal that reports 0).
 *
 * Its scrollback kept: after a frame as tall as the terminal (a long invariant's confirmation on a short one) Ink
 * clears the whole terminal before it draws again, which would take the output of the commands run before with it;
 * the screen alone is cleared. `ended` says whether the last text Ink wrote ended its line: Ink leaves the last line
 * of such a frame open, and what the command prints next must not run on.
 *
 * Its frame erased whole when the terminal narrows. Ink then erases as many rows as its last frame had lines, but a
 * line wider than the new width takes more rows: the terminal reflows it (tmux, VTE, iTerm2, kitty), or the frame
 * was drawn at the old width after the terminal had narrowed and before the program heard of it (SIGWINCH), so it
 * wrapped. Either way the frame's first rows stayed above the frame Ink drew next, on every later screen. So the rows
 * the frame takes at the new width are erased first, before Ink's own listener runs. A terminal that cuts lines
 * instead (xterm) loses as many rows of what was above the frame as the frame's long lines would have wrapped into.
 * `close` stops listening.
 */
export function inkStdout(stdout: TerminalOut): { stdout: TerminalOut; ended: () => boolean; close: () => void } {
  let ended = true;
  // The text of the frame on the screen ('' once Ink erased it), and the width it was last drawn or reflowed at.
  let frame = '';
  let columns = terminalSize(stdout).columns;
  const write = (chunk: unknown, ...rest: unknown[]) => {
    let out = chunk;
    if (typeof out === 'string') {
      out = out.replaceAll(ERASE_SCROLLBACK, '');
      const text = stripVTControlCharacters(out as string);
      if (text !== '') {
        ended = text.endsWith('\n');
        frame = text;
      }
    }
    return (stdout.write as (...args: unknown[]) => unknown).call(stdout, out, ...rest);
  };
  const onResize = () => {
    const now = terminalSize(stdout).columns;
    const narrowed = now < columns;
    columns = now;
    if (!narrowed) return;
    const lines = frame.split('\n');
    // Ink erases its frame on any narrowing, whatever this writes: what it draws next is the frame on the screen.
    frame = '';
    const rows = lines.reduce((sum, line) => sum + rowsAt(line, now), 0);
    if (rows > lines.length) stdout.write(eraseRows(rows, lines.length));
  };
  const events = stdout as Partial<NodeJS.EventEmitter>;
  // Ahead of Ink's listener, which erases and draws again at once.
  events.prependListener?.('resize', onResize);
  const proxy = new Proxy(stdout, {
    get(target, key) {
      if (key === 'write') return write;
      // A terminal that reports 0 columns or rows gets the size every screen takes for it: Ink lays its frame out in
      // the columns it reads here (0 drew blank lines), and clears the whole screen for a frame as tall as the rows.
      if (key === 'columns' || key === 'rows') return terminalSize(target)[key];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { stdout: proxy, ended: () => ended, close: () => events.off?.('resize', onResize) };
}
