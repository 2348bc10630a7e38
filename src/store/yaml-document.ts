// The one way a store file's YAML is parsed (docs/adr/0401-one-yaml-entry-point.md).
// The parsers of core/parse-core.ts read the shape the tool writes on a fast
// path, without the `yaml` package, and need the full parser for any other
// shape or for a diagnostic's position, and the regular-expression engine for
// a guard's command and content patterns. This module decides which runs and
// loads each of those parts, once per process, the first time a file needs
// it: callers never see which path ran, and neither library loads for a
// store that does not need it.
import { type SyntaxPart, YamlSyntaxNotLoaded, type YamlSyntax } from '../core/yaml-file.ts';

/** A parse of one file by a parser of core/ (parseInvariant, parsePlan, parseRecord…), handed the YAML syntax to pass on. */
export type YamlParse<T> = (syntax: YamlSyntax | undefined) => T;

/** The parts loaded so far. */
let syntax: YamlSyntax = Object.freeze({});

/** Parses one store file: on the fast path when it can, else with the parts it needs (loaded here on first need). */
export async function parseYamlDocument<T>(parse: YamlParse<T>): Promise<T> {
  for (;;) {
    const attempt = attemptParse(parse);
    if ('value' in attempt) return attempt.value;
    await load(attempt.missing);
  }
}

/**
 * The same parse without waiting, for a caller that holds the bytes only for
 * the length of a call (a shared read buffer): undefined when the file needs
 * a part that is not loaded yet; the caller then keeps a copy of the bytes
 * and calls parseYamlDocument.
 */
export function parseYamlDocumentNow<T>(parse: YamlParse<T>): { value: T } | undefined {
  const attempt = attemptParse(parse);
  return 'value' in attempt ? attempt : undefined;
}

function attemptParse<T>(parse: YamlParse<T>): { value: T } | { missing: SyntaxPart } {
  try {
    return { value: parse(syntax) };
  } catch (error) {
    // The parsers throw this before deciding anything, so the parse can run again as if for the first time.
    if (error instanceof YamlSyntaxNotLoaded && syntax[error.part] === undefined) return { missing: error.part };
    throw error;
  }
}

async function load(part: SyntaxPart): Promise<void> {
  if (part === 'yaml') {
    const { YAML_PARSER } = await import('../core/yaml-syntax.ts');
    syntax = Object.freeze({ ...syntax, yaml: YAML_PARSER });
  } else {
    const { regexProblem } = await import('../core/guard-patterns.ts');
    syntax = Object.freeze({ ...syntax, regexProblem });
  }
}
