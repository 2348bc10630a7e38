import type { Parsed } from './diagnostics.ts';
import type { RecordKind } from './layout.ts';
import { diagAt, offsetAt, parseWithSchema, type YamlSyntax } from './parse-core.ts';
import type { DecisionNode, EnforcementRun, RecordValue, Violation } from './record-types.ts';
import type { SchemaName } from './schema-docs.ts';

// Plan records read from their bytes through parse-core, which does not import
// `yaml`: `validate` checks a changed record without loading the full parser
// when the file is in the canonical shape (docs/performance.md). records.ts
// passes the parser (YAML_SYNTAX) for every other reader.

export const RECORD_SCHEMAS: Record<RecordKind, SchemaName> = {
  decisions: 'decision.schema.json',
  enforcement: 'enforcement.schema.json',
  violations: 'violation.schema.json',
};

export function parseDecision(file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<DecisionNode> {
  return parseWithSchema<DecisionNode>(file, bytes, 'decision.schema.json', id, syntax);
}

/** An enforcement file; each record's decision_id must be the run's. */
export function parseEnforcement(file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<EnforcementRun> {
  return parseWithSchema<EnforcementRun>(file, bytes, 'enforcement.schema.json', id, syntax, (run, y) => {
    const wrong = run.records.findIndex((r) => r.decision_id !== run.decision_id);
    if (wrong < 0) return undefined;
    return diagAt(
      y,
      // At the record's own decision_id: a run holds many records, and the key alone would leave the reader to find which.
      offsetAt(y, ['records', String(wrong), 'decision_id']),
      'schema',
      `records.${wrong}.decision_id differs from the run's decision_id ${run.decision_id}`,
      "Every record of a run belongs to the run's decision node.",
    );
  });
}

export function parseViolation(file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<Violation> {
  return parseWithSchema<Violation>(file, bytes, 'violation.schema.json', id, syntax);
}

/**
 * Any record file under a plan (`decisions/`, `enforcement/`, `violations/`),
 * by the kind its path gives (see `classifyPath`). Pure: `validate` calls this
 * for every path classified as `record`, through store/yaml-document.ts,
 * which passes `syntax` once a file has needed the full parser.
 */
export function parseRecord(kind: RecordKind, file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<RecordValue> {
  switch (kind) {
    case 'decisions': {
      const p = parseDecision(file, bytes, id, syntax);
      return p.value ? { value: { record: kind, value: p.value }, diagnostics: [] } : { diagnostics: p.diagnostics };
    }
    case 'enforcement': {
      const p = parseEnforcement(file, bytes, id, syntax);
      return p.value ? { value: { record: kind, value: p.value }, diagnostics: [] } : { diagnostics: p.diagnostics };
    }
    case 'violations': {
      const p = parseViolation(file, bytes, id, syntax);
      return p.value ? { value: { record: kind, value: p.value }, diagnostics: [] } : { diagnostics: p.diagnostics };
    }
  }
}
