// Small builders of the JSON Schemas that describe the presentation shapes
// (the MCP tools publish them as `outputSchema`): one place, so every enum
// in them is the list the core defines.

export type JsonSchema = Record<string, unknown>;

export const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });
export const enumOf = (values: readonly string[]): JsonSchema => ({ enum: [...values] });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const STRING: JsonSchema = { type: 'string' };
export const INTEGER: JsonSchema = { type: 'integer' };
export const BOOLEAN: JsonSchema = { type: 'boolean' };

/** An object with these properties, the listed ones required. */
export function objectOf(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', properties, required: [...required] };
}
