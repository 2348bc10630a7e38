import type { ErrorObject, ValidateFunction } from 'ajv';
// Compiled ahead of time from schemas/*.json by scripts/gen-validators.mjs (run by
// the build): loading ajv and compiling at run time cost more than half the start-up.
import { VALIDATORS } from './schema-validators.generated.js';
import type { SchemaName } from './schema-docs.ts';

export { SCHEMAS, type SchemaName } from './schema-docs.ts';

export type SchemaError = ErrorObject;

/** One segment of a JSON Pointer as the key it stands for (RFC 6901: `~1` is `/`, `~0` is `~`). */
export function pointerKey(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The keys and indexes of the value a schema error is about, read from its JSON Pointer; none for the document. */
export function errorPath(e: SchemaError): string[] {
  return e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map(pointerKey);
}

/** The value at `path` (keys and indexes) of a document's data. */
export function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

/** The validator for one schema (generated at build time from `schemas/`). */
export function validatorFor(name: SchemaName): ValidateFunction {
  const fn = VALIDATORS[name];
  if (!fn)
    throw new Error(`no generated validator for ${name}: run \`npm run build\` to regenerate src/core/schema-validators.generated.js`);
  return fn;
}
