// Parsing store files, with the `yaml` package loaded: every function of
// `./parse-core.ts`, which takes the canonical fast path without `yaml` and
// uses the full parser registered here for everything else. Callers that
// may meet any file import this module; the store reader imports
// `./parse-core.ts` and loads this module only when a file needs it.
import { registerYamlSyntax } from './parse-core.ts';
import { keyNodeOf, nodeAt, parseFullYaml } from './yaml-syntax.ts';

registerYamlSyntax({ parseFull: parseFullYaml, nodeAt, keyNodeOf });

export * from './parse-core.ts';
export { MAX_NESTING, MAX_YAML_TOKENS } from './yaml-guard.ts';
