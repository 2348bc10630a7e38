import type { ErrorObject, ValidateFunction } from 'ajv';
import invariantSchema from '../../schemas/invariant.schema.json' with { type: 'json' };
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import actionSchema from '../../schemas/action.schema.json' with { type: 'json' };
import decisionSchema from '../../schemas/decision.schema.json' with { type: 'json' };
import enforcementSchema from '../../schemas/enforcement.schema.json' with { type: 'json' };
import violationSchema from '../../schemas/violation.schema.json' with { type: 'json' };
import actorRequestSchema from '../../schemas/actor-request.schema.json' with { type: 'json' };
import actorResponseSchema from '../../schemas/actor-response.schema.json' with { type: 'json' };
// Compiled ahead of time from schemas/*.json by scripts/gen-validators.mjs (run by
// the build): loading ajv and compiling at run time cost more than half the start-up.
import { VALIDATORS } from './schema-validators.generated.js';

/** The JSON Schemas in `schemas/`, by file name: the only definition of file shapes. */
export const SCHEMAS = {
  'invariant.schema.json': invariantSchema,
  'plan.schema.json': planSchema,
  'config.schema.json': configSchema,
  'action.schema.json': actionSchema,
  'decision.schema.json': decisionSchema,
  'enforcement.schema.json': enforcementSchema,
  'violation.schema.json': violationSchema,
  'actor-request.schema.json': actorRequestSchema,
  'actor-response.schema.json': actorResponseSchema,
} as const;

export type SchemaName = keyof typeof SCHEMAS;

export type SchemaError = ErrorObject;

/** The validator for one schema (generated at build time from `schemas/`). */
export function validatorFor(name: SchemaName): ValidateFunction {
  const fn = VALIDATORS[name];
  if (!fn) throw new Error(`no generated validator for ${name}: run \`npm run build\` to regenerate src/core/schema-validators.generated.js`);
  return fn;
}
