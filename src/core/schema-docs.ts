// The schemas as documents, without their validators (schemas.ts): for what
// only needs the JSON (the copies `init --schemas` writes and `validate` compares).
import invariantSchema from '../../schemas/invariant.schema.json' with { type: 'json' };
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import actionSchema from '../../schemas/action.schema.json' with { type: 'json' };
import projectSchema from '../../schemas/project.schema.json' with { type: 'json' };
import decisionSchema from '../../schemas/decision.schema.json' with { type: 'json' };
import enforcementSchema from '../../schemas/enforcement.schema.json' with { type: 'json' };
import violationSchema from '../../schemas/violation.schema.json' with { type: 'json' };
import waiverSchema from '../../schemas/waiver.schema.json' with { type: 'json' };
import extendsLockSchema from '../../schemas/extends-lock.schema.json' with { type: 'json' };
import actorRequestSchema from '../../schemas/actor-request.schema.json' with { type: 'json' };
import actorResponseSchema from '../../schemas/actor-response.schema.json' with { type: 'json' };
import { docsRef } from './docs-link.ts';

/** The JSON Schemas in `schemas/`, by file name: the only definition of file shapes. */
export const SCHEMAS = {
  'invariant.schema.json': invariantSchema,
  'plan.schema.json': planSchema,
  'config.schema.json': configSchema,
  'action.schema.json': actionSchema,
  'project.schema.json': projectSchema,
  'decision.schema.json': decisionSchema,
  'enforcement.schema.json': enforcementSchema,
  'violation.schema.json': violationSchema,
  'waiver.schema.json': waiverSchema,
  'extends-lock.schema.json': extendsLockSchema,
  'actor-request.schema.json': actorRequestSchema,
  'actor-response.schema.json': actorResponseSchema,
} as const;

export type SchemaName = keyof typeof SCHEMAS;

/** A page of the documentation named in a schema's description, as the project's own repository holds it. */
const DOCS_PAGE = /\bdocs\/([a-z0-9-]+\.md)(?:#([a-z0-9-]+))?/g;

/**
 * The text of a store's copy of a schema (`init` writes it, validate compares with it): each `docs/PAGE.md` its
 * descriptions name is that page's address online at this version (docsRef), since a user's repository has no docs/.
 */
export function schemaCopy(name: SchemaName): string {
  const online = (key: string, value: unknown) =>
    key === 'description' && typeof value === 'string'
      ? value.replace(DOCS_PAGE, (_m, page: string, section: string | undefined) => docsRef(page, section))
      : value;
  return `${JSON.stringify(SCHEMAS[name], online, 2)}\n`;
}
