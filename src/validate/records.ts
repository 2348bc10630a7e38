import type { Diagnostic } from '../core/diagnostics.ts';
import type { RecordKind } from '../core/layout.ts';
import type { YamlSyntax } from '../core/parse-core.ts';
import { parseRecord, RECORD_SCHEMAS as SCHEMA_OF_RECORD } from '../core/record-files.ts';
import type { SchemaName } from '../core/schemas.ts';

/**
 * The schema of each kind of plan record (plans/<id>/<kind>/<ULID>.yaml):
 * decision.schema.json, enforcement.schema.json, violation.schema.json.
 * Records are also checked for their modeline.
 */
export const RECORD_SCHEMAS: Record<RecordKind, SchemaName | undefined> = SCHEMA_OF_RECORD;

/**
 * Diagnostics of one record file, from the same pure parser the plan commands
 * read records with: YAML, the kind's schema, the id against the file name,
 * and (for enforcement runs) every record's decision_id against the run's.
 * Called through store/yaml-document.ts, which passes `syntax` when the file needs it.
 */
export function checkRecord(file: string, kind: RecordKind, bytes: Uint8Array, syntax?: YamlSyntax): Diagnostic[] {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const id = base.endsWith('.yaml') ? base.slice(0, -'.yaml'.length) : base;
  return parseRecord(kind, file, bytes, id, syntax).diagnostics;
}
