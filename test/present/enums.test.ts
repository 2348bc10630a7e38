import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { AgentsError } from '../../src/core/errors.ts';
import { SCOPE_KINDS, SEVERITIES } from '../../src/core/model.ts';
import { GATE_REASON_CODES } from '../../src/core/plan-gate.ts';
import { checkArgs } from '../../src/mcp/args.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { EFFECTIVE_DATA_SCHEMA } from '../../src/present/effective.ts';
import { INVARIANT_SCHEMA, SHADOW_SCHEMA } from '../../src/present/invariant.ts';
import { PLAN_STATUS_SCHEMA } from '../../src/present/plan-status.ts';
import { REPO } from '../helpers/cli.ts';

const schemaFile = (name: string) => JSON.parse(readFileSync(join(REPO, 'schemas', name), 'utf8'));

/** Every `enum` in a schema, with where it is. */
function enums(schema: unknown, at = '#'): [string, unknown[]][] {
  if (typeof schema !== 'object' || schema === null) return [];
  const out: [string, unknown[]][] = [];
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'enum' && Array.isArray(v)) out.push([at, v]);
    else out.push(...enums(v, `${at}/${k}`));
  }
  return out;
}

describe('enumerations are defined once, in the core, and every schema derives from them', () => {
  it('the store schemas name the core severities', () => {
    expect(schemaFile('invariant.schema.json').properties.severity.enum).toEqual([...SEVERITIES]);
    expect(schemaFile('violation.schema.json').properties.severity.enum).toEqual([...SEVERITIES]);
  });

  it('the presentation schemas hold every scope, severity and gate reason of the core', () => {
    const scope = (INVARIANT_SCHEMA.properties as Record<string, { enum: string[] }>).scope!.enum;
    expect(scope).toEqual([...SCOPE_KINDS]);
    expect((SHADOW_SCHEMA.properties as Record<string, { enum: string[] }>).scope!.enum).toEqual([...SCOPE_KINDS]);
    expect(enums(EFFECTIVE_DATA_SCHEMA).filter(([at]) => at.endsWith('/scope'))).not.toHaveLength(0);
    for (const [at, values] of enums(EFFECTIVE_DATA_SCHEMA).filter(([p]) => p.endsWith('/scope') && !p.includes('waivers')))
      expect(values, at).toEqual([...SCOPE_KINDS]);
    const reasons = enums(PLAN_STATUS_SCHEMA).filter(([at]) => at.endsWith('/code'));
    expect(reasons.map(([, v]) => v)).toEqual([[...GATE_REASON_CODES]]);
  });

  it("every tool's input and output schema compiles under ajv's strict mode", () => {
    const ajv = new Ajv({ strict: true });
    for (const tool of TOOLS) {
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(() => ajv.compile(tool.outputSchema), tool.name).not.toThrow();
    }
  });
});

describe('tool arguments are checked with the schema each tool publishes', () => {
  /** The exit code of the usage error a call's arguments give, or 0 when they pass. */
  const refusal = (tool: (typeof TOOLS)[number], args: unknown) =>
    checkArgs(tool.name, tool.inputSchema, args).then(
      () => 0,
      (error: unknown) => (error instanceof AgentsError ? error.exitCode : -1),
    );

  it('every string limit and enum of every input schema is enforced, and exactly at its bound', async () => {
    let checked = 0;
    for (const tool of TOOLS) {
      const required = Object.fromEntries((tool.inputSchema.required ?? []).map((k) => [k, 'abcd']));
      for (const [key, prop] of Object.entries(tool.inputSchema.properties)) {
        if (prop.type !== 'string') continue;
        if (prop.enum) {
          expect(await refusal(tool, { ...required, [key]: prop.enum[0] }), `${tool.name} ${key}`).toBe(0);
          expect(await refusal(tool, { ...required, [key]: 'nope' }), `${tool.name} ${key}`).toBe(2);
        } else if (prop.maxLength !== undefined) {
          expect(await refusal(tool, { ...required, [key]: 'x'.repeat(prop.maxLength) }), `${tool.name} ${key}`).toBe(0);
          expect(await refusal(tool, { ...required, [key]: 'x'.repeat(prop.maxLength + 1) }), `${tool.name} ${key}`).toBe(2);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('a null argument counts as not given; a missing required one, an unknown one and a wrong type are usage errors', async () => {
    const show = TOOLS.find((t) => t.name === 'show_invariant')!;
    expect(await checkArgs(show.name, show.inputSchema, { id: 'abcd', extra: null })).toEqual({ id: 'abcd' });
    for (const bad of [{}, { id: null }, { id: 'abcd', other: 1 }, { id: 7 }, [], 'id'])
      expect(await refusal(show, bad), JSON.stringify(bad)).toBe(2);
  });
});
