// Parsing a waiver file (schemas/waiver.schema.json); the rules on waivers themselves are in ./waivers.ts.
import { diagAt, offsetAt, type Parsed, parseWithSchema, type YamlSyntax } from './parse-core.ts';
import { type Waiver, waiverExpiry } from './waivers.ts';

/** A waiver file: YAML, the schema, plain text only, the id against the file name, a real date in `expires`. */
export function parseWaiver(file: string, bytes: Uint8Array, id: string, syntax?: YamlSyntax): Parsed<Waiver> {
  return parseWithSchema<Waiver>(file, bytes, 'waiver.schema.json', id, syntax, (value, y) =>
    Number.isFinite(waiverExpiry(value.expires))
      ? undefined
      : diagAt(
          y,
          offsetAt(y, ['expires']),
          'schema',
          `expires ${value.expires} is not a real date`,
          'Give a date that exists (YYYY-MM-DD) or an RFC 3339 date-time.',
        ),
  );
}
