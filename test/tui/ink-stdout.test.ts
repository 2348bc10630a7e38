import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { inkStdout, rowsAt } from '../../src/tui/ink-stdout.ts';

// The terminal as Ink writes to it: what it adds to Ink's erase when the terminal narrows.
class Terminal extends EventEmitter {
  isTTY = true;
  written: string[] = [];
  constructor(public columns: number) {
    super();
  }
  write(chunk: string): boolean {
    this.written.push(chunk);
    return true;
  }
  /** Narrows or widens the terminal, as SIGWINCH does. */
  resize(columns: number): void {
    this.columns = columns;
    this.emit('resize');
  }
}

const UP = (n: number) => `\u001b[${n}A`;
const DOWN = (n: number) => `\u001b[${n}B`;
/** Ink's frame as its log writes it: the erase of the frame before, then the lines, the cursor left below them. */
const frame = (...lines: string[]) => `\u001b[2K\u001b[G\u001b[1m${lines[0]}\u001b[22m\n${lines.slice(1).join('\n')}\n`;
const WIDE = `≈ nearly repeats ${'x'.repeat(82)}`;

describe('the terminal Ink draws in, when it narrows', () => {
  test("a frame with a line wider than the new width is erased whole, before Ink's erase of its lines", () => {
    const terminal = new Terminal(100);
    const ink = inkStdout(terminal);
    // Ink's own listener, added when Ink starts, after the proxy: it erases as many rows as the frame had lines.
    let writtenBeforeInk = -1;
    terminal.on('resize', () => {
      writtenBeforeInk = terminal.written.length;
    });
    ink.stdout.write(frame('Add an invariant', 'Text: All API changes need tests!', WIDE, 'Esc cancel'));
    terminal.written = [];
    terminal.resize(40);
    // 5 lines (the cursor's row below them too), 7 rows at 40 columns (the 100 columns wide line takes 3): up to the
    // frame's top row, erased from there down, and down again to where Ink's erase of 5 rows ends on that top row.
    expect(terminal.written).toEqual([`${UP(6)}\u001b[G\u001b[J${DOWN(4)}`]);
    expect(writtenBeforeInk).toBe(1);
    ink.close();
  });

  test('nothing is added where every line still fits, on widening, or once Ink erased the frame', () => {
    const terminal = new Terminal(100);
    const ink = inkStdout(terminal);
    ink.stdout.write(frame('Add an invariant', 'Esc cancel'));
    terminal.written = [];
    terminal.resize(40);
    ink.stdout.write(frame('Add an invariant', WIDE.slice(0, 40)));
    terminal.resize(90);
    terminal.resize(90);
    expect(terminal.written).toEqual([frame('Add an invariant', WIDE.slice(0, 40))]);
    // Narrowed twice before Ink drew again: the first narrowing's erase took the frame.
    ink.stdout.write(frame('Add an invariant', WIDE.slice(0, 90)));
    terminal.written = [];
    terminal.resize(40);
    terminal.resize(20);
    expect(terminal.written).toEqual([`${UP(4)}\u001b[G\u001b[J${DOWN(2)}`]);
    ink.close();
    ink.stdout.write(frame('Add an invariant', WIDE));
    terminal.written = [];
    terminal.resize(10);
    expect(terminal.written).toEqual([]);
  });

  test('a terminal that reported 0 columns had its frame drawn at 80: narrowing from there erases it whole', () => {
    const terminal = new Terminal(0);
    const ink = inkStdout(terminal);
    expect(ink.stdout.columns).toBe(80);
    ink.stdout.write(frame('Add an invariant', WIDE.slice(0, 80), 'Esc cancel'));
    terminal.written = [];
    terminal.resize(40);
    // 4 lines, 5 rows at 40 columns (the 80 columns wide line takes 2).
    expect(terminal.written).toEqual([`${UP(4)}\u001b[G\u001b[J${DOWN(3)}`]);
    ink.close();
  });

  test('the rows a line takes: a wide character that would cross the last column starts the next row', () => {
    expect(rowsAt('', 40)).toBe(1);
    expect(rowsAt('x'.repeat(40), 40)).toBe(1);
    expect(rowsAt('x'.repeat(41), 40)).toBe(2);
    expect(rowsAt('x'.repeat(100), 40)).toBe(3);
    // Four of them fill 8 of 9 columns; the fifth goes to the next row whole.
    expect(rowsAt('漢'.repeat(5), 9)).toBe(2);
    expect(rowsAt('漢'.repeat(9), 9)).toBe(3);
    expect(rowsAt('x'.repeat(10), 0)).toBe(1);
  });
});
