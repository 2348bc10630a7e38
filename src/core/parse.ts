// Parsing store files, with the `yaml` package loaded: every function of
// `./parse-core.ts`, here with the full parser (`YAML_SYNTAX`) passed in, so
// a file off the canonical fast path is parsed rather than refused. Callers
// that may meet any file import this module; the store reader imports
// `./parse-core.ts` and loads this module only when a file needs it.
import type { Scope } from './model.ts';
import * as core from './parse-core.ts';
import * as meta from './parse-meta.ts';
import { parseWaiver as parseWaiverWith } from './waiver-file.ts';
import { regexProblem } from './guard-patterns.ts';
import { YAML_PARSER } from './yaml-syntax.ts';

/** Every part of parsing, loaded. */
export const YAML_SYNTAX: core.YamlSyntax = Object.freeze({ yaml: YAML_PARSER, regexProblem });

export * from './parse-core.ts';
export { MAX_NESTING, MAX_YAML_TOKENS } from './yaml-guard.ts';

export function parseYaml(file: string, bytes: Uint8Array): core.Parsed<core.YamlFile> {
  return core.parseYaml(file, bytes, YAML_SYNTAX);
}

export function parseInvariant(file: string, bytes: Uint8Array, scope: Scope, id: string, keep = true) {
  return core.parseInvariant(file, bytes, scope, id, keep, YAML_SYNTAX);
}

export function parsePlan(file: string, bytes: Uint8Array, id: string) {
  return core.parsePlan(file, bytes, id, YAML_SYNTAX);
}

export function parseConfig(file: string, bytes: Uint8Array) {
  return core.parseConfig(file, bytes, YAML_SYNTAX);
}

export function parseProjectMeta(file: string, bytes: Uint8Array) {
  return meta.parseProjectMeta(file, bytes, YAML_SYNTAX);
}

export function parseActionMeta(file: string, bytes: Uint8Array) {
  return meta.parseActionMeta(file, bytes, YAML_SYNTAX);
}

export function parseWaiver(file: string, bytes: Uint8Array, id: string) {
  return parseWaiverWith(file, bytes, id, YAML_SYNTAX);
}
