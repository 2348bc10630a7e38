// Apart from terminal-width.ts, which loads string-width: the CLI's progress line reads the size, and loads this.

/** A terminal's size in columns and rows, as the screens and the progress line lay out in it. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The size taken for a terminal that reports none (0 or no columns or rows), as Ink and most tools take it. */
const FALLBACK_SIZE: Readonly<TerminalSize> = Object.freeze({ columns: 80, rows: 24 });

/**
 * The size every screen (and Ink, given the terminal through run-ink) lays out at: the one the terminal reports, or
 * FALLBACK_SIZE for what it reports as 0. A pseudo-terminal given no size (`script`, a container's exec) or
 * `stty cols 0 rows 0` reports 0×0, and a layout 0 columns wide draws blank lines.
 */
export function terminalSize(out: { columns?: number | undefined; rows?: number | undefined }): TerminalSize {
  return { columns: out.columns || FALLBACK_SIZE.columns, rows: out.rows || FALLBACK_SIZE.rows };
}
