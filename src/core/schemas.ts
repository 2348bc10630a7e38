import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import invariantSchema from '../../schemas/invariant.schema.json' with { type: 'json' };
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import actionSchema from '../../schemas/action.schema.json' with { type: 'json' };
import decisionSchema from '../../schemas/decision.schema.json' with { type: 'json' };
import enforcementSchema from '../../schemas/enforcement.schema.json' with { type: 'json' };
import violationSchema from '../../schemas/violation.schema.json' with { type: 'json' };
import actorRequestSchema from '../../schemas/actor-request.schema.json' with { type: 'json' };
import actorResponseSchema from '../../schemas/actor-response.schema.json' with { type: 'json' };

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

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/** A validator for one schema, compiled on first use. */
export function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    ajv ??= createAjv();
    fn = ajv.compile(SCHEMAS[name]);
    compiled.set(name, fn);
  }
  return fn;
}

function createAjv(): Ajv2020 {
  const instance = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  // ajv-formats is CommonJS: under ESM its plugin may sit on `.default`.
  type Plugin = (ajv: Ajv2020, formats: string[]) => unknown;
  const mod = addFormats as unknown as Plugin & { default?: Plugin };
  (mod.default ?? mod)(instance, ['date-time']);
  return instance;
}
