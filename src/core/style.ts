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
