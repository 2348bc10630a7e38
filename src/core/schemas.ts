import type { ErrorObject, ValidateFunction } from 'ajv';
// Compiled ahead of time from schemas/*.json by scripts/gen-validators.mjs (run by
// the build): loading ajv and compiling at run time cost more than half the start-up.
import { VALIDATORS } from './schema-validators.generated.js';
import { SCHEMAS, type SchemaName } from './schema-docs.ts';

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

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
}

/**
 * The mappings of a schema that take `key`, each as the path of its value in a document (`projects`,
 * `extends[]` for the items of a list, '' for the top level): where a key written at the wrong level
 * (`allow_overlap:` at the top of config.yaml, `severity:` under `guard:`) belongs.
 */
export function keyPlaces(schema: SchemaName, key: string): string[] {
  const root = SCHEMAS[schema] as SchemaNode;
  const places: string[] = [];
  const walk = (given: SchemaNode | undefined, at: string): void => {
    const node = given?.$ref?.startsWith('#/$defs/') ? root.$defs?.[given.$ref.slice('#/$defs/'.length)] : given;
    if (node === undefined) return;
    if (node.properties !== undefined) {
      if (Object.hasOwn(node.properties, key)) places.push(at);
      for (const [k, v] of Object.entries(node.properties)) walk(v, at === '' ? k : `${at}.${k}`);
    }
    if (node.items !== undefined) walk(node.items, `${at}[]`);
  };
  walk(root, '');
  return places;
}
