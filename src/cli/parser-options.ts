import type { Argv } from 'yargs';

/** The options a parser's builders have added, as yargs keeps them. */
export interface ParserOptions {
  key: Record<string, unknown>;
  boolean: string[];
  array: string[];
  alias: Record<string, string[]>;
  choices: Record<string, unknown>;
}

/** The options `parser` takes now: yargs's own getOptions, which its published types leave out. */
export function parserOptions(parser: Argv): ParserOptions {
  return (parser as unknown as { getOptions(): ParserOptions }).getOptions();
}
