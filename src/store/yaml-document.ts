// The one way a store file's YAML is parsed (docs/adr/0401-one-yaml-entry-point.md).
// The parsers of core/parse-core.ts read the shape the tool writes on a fast
// path, without the `yaml` package, and need the full parser for any other
// shape or for a diagnostic's position. This module decides which runs and
// loads the full parser, once per process, the first time a file needs it:
// callers never see which path ran, and the `yaml` package never loads for a
// store that does not need it.
import { YamlSyntaxNotLoaded, type YamlSyntax } from '../core/parse-core.ts';

/** A parse of one file by a parser of core/ (parseInvariant, parsePlan, parseRecord…), handed the YAML syntax to pass on. */
export type YamlParse<T> = (syntax: YamlSyntax | undefined) => T;

/** The full parser, once some file has needed it. */
let full: YamlSyntax | undefined;

/** Parses one store file: on the fast path when it can, else with the full parser (loaded here on first need). */
export async function parseYamlDocument<T>(parse: YamlParse<T>): Promise<T> {
  const now = parseYamlDocumentNow(parse);
  if (now) return now.value;
  full ??= (await import('../core/yaml-syntax.ts')).YAML_SYNTAX;
  return parse(full);
}

/**
 * The same parse without waiting, for a caller that holds the bytes only for
 * the length of a call (a shared read buffer): undefined when the file needs
 * the full parser and it is not loaded yet; the caller then keeps a copy of
 * the bytes and calls parseYamlDocument.
 */
export function parseYamlDocumentNow<T>(parse: YamlParse<T>): { value: T } | undefined {
  try {
    return { value: parse(full) };
  } catch (error) {
    // The parsers throw this before deciding anything, so the parse can run again as if for the first time.
    if (error instanceof YamlSyntaxNotLoaded && full === undefined) return undefined;
    throw error;
  }
}
