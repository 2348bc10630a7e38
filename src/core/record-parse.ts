// The record parsers of the library (src/index.ts) with every part of parsing
// loaded: each file's positions are always at hand. The store reads records
// through store/yaml-document.ts instead, which loads the YAML parser only
// for a file off the fast path. Declared with their types here, so that the
// public declarations do not reach the parser's.
import type { Parsed } from './diagnostics.ts';
import type { RecordKind } from './layout.ts';
import { YAML_SYNTAX } from './parse.ts';
import * as files from './record-files.ts';
import type { DecisionNode, EnforcementRun, RecordValue, Violation } from './record-types.ts';

/** A decision node of a plan (`decisions/<id>.yaml`). */
export function parseDecision(file: string, bytes: Uint8Array, id: string): Parsed<DecisionNode> {
  return files.parseDecision(file, bytes, id, YAML_SYNTAX);
}

/** An enforcement file; each record's decision_id must be the run's. */
export function parseEnforcement(file: string, bytes: Uint8Array, id: string): Parsed<EnforcementRun> {
  return files.parseEnforcement(file, bytes, id, YAML_SYNTAX);
}

export function parseViolation(file: string, bytes: Uint8Array, id: string): Parsed<Violation> {
  return files.parseViolation(file, bytes, id, YAML_SYNTAX);
}

/** Any record file under a plan (`decisions/`, `enforcement/`, `violations/`), by the kind its path gives (see `classifyPath`). */
export function parseRecord(kind: RecordKind, file: string, bytes: Uint8Array, id: string): Parsed<RecordValue> {
  return files.parseRecord(kind, file, bytes, id, YAML_SYNTAX);
}
