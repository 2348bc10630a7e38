import type { ErrorObject, ValidateFunction } from 'ajv';
// Compiled ahead of time from schemas/*.json by scripts/gen-validators.mjs (run by
// the build): loading ajv and compiling at run time cost more than half the start-up.
import { VALIDATORS } from './schema-validators.generated.js';
import type { SchemaName } from './schema-docs.ts';

export { SCHEMAS, type SchemaName } from './schema-docs.ts';

export type SchemaError = ErrorObject;

/** The validator for one schema (generated at build time from `schemas/`). */
export function validatorFor(name: SchemaName): ValidateFunction {
  const fn = VALIDATORS[name];
  if (!fn)
    throw new Error(`no generated validator for ${name}: run \`npm run build\` to regenerate src/core/schema-validators.generated.js`);
  return fn;
}
