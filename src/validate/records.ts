import type { Diagnostic } from '../core/diagnostics.ts';
import type { RecordKind } from '../core/layout.ts';
import { checkSchema, parseYaml } from '../core/parse.ts';
import type { SchemaName } from '../core/schemas.ts';

/**
 * The schema of each kind of plan record (plans/<id>/<kind>/<ULID>.yaml).
 * `undefined`: no schema yet, the file is checked as YAML only. Plugging a
 * schema in is one line here, e.g. `violations: 'violation.schema.json'`;
 * records with a schema are then also checked for their modeline.
 */
export const RECORD_SCHEMAS: Record<RecordKind, SchemaName | undefined> = {
  decisions: undefined,
  enforcement: undefined,
  violations: undefined,
};

/** Diagnostics of one record file: YAML validity, then its kind's schema when there is one. */
export function checkRecord(file: string, kind: RecordKind, bytes: Uint8Array): Diagnostic[] {
  const parsed = parseYaml(file, bytes);
  if (!parsed.value) return parsed.diagnostics;
  const schema = RECORD_SCHEMAS[kind];
  return schema ? checkSchema(parsed.value, schema) : [];
}
