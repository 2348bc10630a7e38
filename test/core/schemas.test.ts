import fc from 'fast-check';
import { fcRuns } from '../helpers/fc-runs.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { VALIDATORS } from '../../src/core/schema-validators.generated.js';
import { SCHEMAS, type SchemaName, validatorFor } from '../../src/core/schemas.ts';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { AJV_OPTIONS } from '../../scripts/gen-validators.mjs';

const SCHEMA_DIR = join(import.meta.dirname, '../../schemas');
const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'));

/** ajv compiling at run time, as the tool did before validators were generated at build time. */
function runtimeValidator(file: string) {
  const ajv = new Ajv2020(AJV_OPTIONS as ConstructorParameters<typeof Ajv2020>[0]);
  type Plugin = (ajv: Ajv2020, formats: string[]) => unknown;
  const mod = addFormats as unknown as Plugin & { default?: Plugin };
  (mod.default ?? mod)(ajv, ['date-time']);
  return ajv.compile(JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')));
}

describe('generated validators', () => {
  it('exist for every schema in schemas/ and every schema the code names', () => {
    expect(Object.keys(VALIDATORS).sort()).toEqual([...files].sort());
    for (const name of Object.keys(SCHEMAS)) expect(VALIDATORS[name], name).toBeTypeOf('function');
  });

  it.each(files)('%s: give exactly the verdict and errors of ajv compiling at run time', (file) => {
    const generated = VALIDATORS[file]!;
    const runtime = runtimeValidator(file);
    const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as { properties?: Record<string, unknown> };
    const keys = [...Object.keys(schema.properties ?? {}), 'unknown_key'];
    const leaf = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        '01M8KJT9G0XNWEM589ZS7FV0VT',
        '2026-11-29T12:00:00Z',
        '2026-13-29T12:00:00Z',
        'error',
        'plan',
        'action',
        'local/code-coverage',
        'myapp',
        'command',
        ' ',
        '',
      ),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.oneof(
      leaf,
      fc.array(leaf, { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('kind', 'ref', 'origin_id', 'actor', 'command', 'timeout_ms', 'x'), leaf, { maxKeys: 3 }),
    );
    const doc = fc.oneof(
      { weight: 9, arbitrary: fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }) },
      { weight: 1, arbitrary: value },
    );
    fc.assert(
      fc.property(doc, (data) => {
        const a = generated(data);
        const b = runtime(data);
        expect({ ok: a, errors: generated.errors ?? null }).toEqual({ ok: b, errors: runtime.errors ?? null });
      }),
      { seed: 20261130, numRuns: fcRuns(500) },
    );
  });
});

describe('validatorFor', () => {
  it('gives the generated validator of each schema, and says what to run when one is missing', () => {
    for (const name of Object.keys(SCHEMAS) as SchemaName[]) expect(validatorFor(name)).toBe(VALIDATORS[name]);
    expect(() => validatorFor('nope.schema.json' as SchemaName)).toThrow(
      'no generated validator for nope.schema.json: run `npm run build` to regenerate src/core/schema-validators.generated.js',
    );
  });
});
