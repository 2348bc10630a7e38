/**
 * How text is emphasised on a terminal. Formatters below the CLI take one as
 * an argument (the CLI makes it from `--no-color`/`NO_COLOR`), so they never
 * decide about colour themselves.
 */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** The style for a run: ANSI colours, or none (`--no-color`, `NO_COLOR`, output that is not a terminal). */
export function makeStyle(color: boolean): Style {
  if (!color) {
    const id = (s: string) => s;
    return { bold: id, dim: id, red: id, yellow: id, green: id, cyan: id };
  }
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), cyan: wrap(36, 39) };
}

/**
 * A count with commas between groups of three digits ("99,980"), as English text writes it. Written out because
 * the first `toLocaleString` of a run loads the ICU number formatting, which costs more than a small command's
 * whole run.
 */
export function withCommas(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
  return n < 0 ? `-${out}` : out;
}
