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

/**
 * The options and arguments `parser` refuses together (its builders' `.conflicts`), each name with those it conflicts
 * with, as yargs keeps them: its validation's getConflicting, which its published types leave out.
 */
export function parserConflicts(parser: Argv): Readonly<Record<string, readonly (string | undefined)[]>> {
  const internal = parser as unknown as {
    getInternalMethods(): { getValidationInstance(): { getConflicting(): Record<string, (string | undefined)[]> } };
  };
  return internal.getInternalMethods().getValidationInstance().getConflicting();
}
