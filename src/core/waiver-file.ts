// Parsing a waiver file (schemas/waiver.schema.json); the rules on waivers themselves are in ./waivers.ts.
import {
  checkSchema,
  diagAt,
  fileIdMismatch,
  offsetAt,
  parseYaml,
  plainTextDiagnostics,
  type Parsed,
  type YamlSyntax,
} from './parse-core.ts';
import { waiverExpiry, type Waiver } from './waivers.ts';

/** A waiver file: YAML, the schema, plain text only, the id against the file name, a real date in `expires`. */
export function parseWaiver(file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<Waiver> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) return { diagnostics: parsed.diagnostics };
  const y = parsed.value;
  const diagnostics = checkSchema(y, 'waiver.schema.json');
  // A reason or owner that hides text in a terminal is refused as in every other file of the store (docs/store-format.md).
  if (diagnostics.length === 0) diagnostics.push(...plainTextDiagnostics(y, 'waiver.schema.json'));
  if (diagnostics.length > 0) return { diagnostics };
  const value = y.data as Waiver;
  if (value.id !== id) return { diagnostics: [fileIdMismatch(y, value.id, id)] };
  if (!Number.isFinite(waiverExpiry(value.expires))) {
    return {
      diagnostics: [
        diagAt(
          y,
          offsetAt(y, ['expires']),
          'schema',
          `expires ${value.expires} is not a real date`,
          'Give a date that exists (YYYY-MM-DD) or an RFC 3339 date-time.',
        ),
      ],
    };
  }
  return { value, diagnostics: [] };
}
