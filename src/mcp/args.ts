import { UsageError } from '../core/errors.ts';
import { truncate } from '../core/names.ts';

/** The subset of JSON Schema the tools' input schemas use (docs/mcp.md). */
export interface PropertySchema {
  type: 'string' | 'boolean';
  description: string;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
}

export interface InputSchema {
  type: 'object';
  properties: Record<string, PropertySchema>;
  required?: readonly string[];
  additionalProperties: false;
}

const HINT = "See the tool's input schema (tools/list) for its arguments.";

/**
 * Checks a tool call's arguments against the tool's input schema. Clients do
 * not have to validate before calling, and a model's arguments are often a
 * little off: each mistake is a usage error naming the argument, reported as
 * the tool's error result like any other bad input.
 */
export function checkArgs(tool: string, schema: InputSchema, args: unknown): Record<string, string | boolean> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new UsageError(`${tool}: the arguments must be an object`, HINT);
  const out: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    const prop = schema.properties[key];
    if (!prop) {
      const known = Object.keys(schema.properties);
      throw new UsageError(
        `${tool}: unknown argument "${truncate(key)}"`,
        known.length ? `Its arguments are ${known.join(', ')}.` : `${tool} takes no arguments.`,
      );
    }
    // An explicit null is how some clients say "not given".
    if (value === null) continue;
    if (typeof value !== prop.type)
      throw new UsageError(
        `${tool}: argument "${key}" must be a ${prop.type}, not ${Array.isArray(value) ? 'an array' : typeof value}`,
        HINT,
      );
    if (typeof value === 'string') {
      if (prop.enum && !prop.enum.includes(value))
        throw new UsageError(`${tool}: argument "${key}" must be one of ${prop.enum.join(', ')}, not "${truncate(value)}"`, HINT);
      if (prop.minLength !== undefined && value.length < prop.minLength) throw new UsageError(`${tool}: argument "${key}" is empty`, HINT);
      if (prop.maxLength !== undefined && value.length > prop.maxLength) {
        throw new UsageError(`${tool}: argument "${key}" is ${value.length} characters long; the limit is ${prop.maxLength}`, HINT);
      }
    }
    out[key] = value as string | boolean;
  }
  for (const key of schema.required ?? []) {
    if (out[key] === undefined) throw new UsageError(`${tool}: missing required argument "${key}"`, HINT);
  }
  return out;
}
