import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { assertSchemaValid, type FieldWords } from '../../src/core/write-check.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const REL = `global/${ID}.yaml`;

/** The words the command line's services give (CLI_FLAGS). */
const FLAGS: FieldWords = { rationale: '--rationale', goal: '--goal', details: '--details', tags: '--tag' };

function refusal(schema: Parameters<typeof assertSchemaValid>[0], data: unknown, words?: FieldWords): UsageError {
  try {
    assertSchemaValid(schema, REL, data, words);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('assertSchemaValid', () => {
  test('a valid document passes', () => {
    expect(() => assertSchemaValid('invariant.schema.json', REL, { id: ID, text: 'Log all changes' })).not.toThrow();
  });

  test('a value over a length limit: the field, its length in characters, the limit', () => {
    // 2001 characters, one of them outside the BMP (two UTF-16 units): counted as one.
    const e = refusal('invariant.schema.json', { id: ID, text: `😀${'a'.repeat(2000)}` });
    expect([e.exitCode, e.code]).toEqual([2, 'value-too-long']);
    expect(e.detail).toEqual({ file: REL, field: 'text', limit: 2000, length: 2001, schema: 'invariant.schema.json' });
    expect(e.message).toBe('text is 2001 characters long (from the invariant text); the limit is 2000 (invariant.schema.json)');
    expect(e.hint).toBe('Shorten the invariant text to at most 2000 characters. Nothing was written.');
  });

  test("a value given by an option is named by the caller's word for it, and by none when the caller gave no words", () => {
    const data = { id: ID, text: 'x', rationale: 'r'.repeat(10_001) };
    const e = refusal('invariant.schema.json', data, FLAGS);
    expect(e.message).toBe('rationale is 10001 characters long; the limit is 10000 (invariant.schema.json)');
    expect(e.hint).toBe('Shorten --rationale to at most 10000 characters. Nothing was written.');
    expect(refusal('invariant.schema.json', data, { rationale: 'rationale' }).hint).toBe(
      'Shorten rationale to at most 10000 characters. Nothing was written.',
    );
    expect(refusal('invariant.schema.json', data).hint).not.toContain('--');
  });

  test("a value from git's identity says where it came from", () => {
    const e = refusal('invariant.schema.json', { id: ID, text: 'x', created_by: 'n'.repeat(513) });
    expect(e.message).toContain("(from git's author identity");
    expect(e.hint).toMatch(/^Shorten git's author identity .* to at most 512 characters\. Nothing was written\.$/);
    expect(e.detail).toMatchObject({ field: 'created_by', length: 513, limit: 512 });
  });

  test('a nested field is named by its path', () => {
    const e = refusal('invariant.schema.json', { id: ID, text: 'x', tags: ['ok', 't'.repeat(65)] }, FLAGS);
    expect(e.code).toBe('invalid-document');
    expect(e.detail).toMatchObject({ field: 'tags.1', keyword: 'pattern' });
    // The pattern said in words, as validate says it (schema-words.ts), with the value it refuses.
    expect(e.message).toMatch(/^tags\.1 "t{65}" must be 1 to 64 characters, .*: global\/\S+\.yaml would not pass invariant\.schema\.json$/);
    expect(e.hint).toBe('Shorten --tag. Nothing was written.');
  });

  test('a missing or unknown property names that property', () => {
    const missing = refusal('invariant.schema.json', { id: ID });
    expect(missing.detail).toMatchObject({ field: 'text', keyword: 'required' });
    expect(missing.hint).toBe('Shorten the invariant text. Nothing was written.');
    const extra = refusal('invariant.schema.json', { id: ID, text: 'x', colour: 'red' });
    expect(extra.detail).toMatchObject({ field: 'colour', keyword: 'additionalProperties' });
    expect(extra.hint).toBe('Correct the value. Nothing was written.');
  });

  test('the conditional part of a schema is reported by what it requires, not by its "if"', () => {
    const e = refusal('invariant.schema.json', { id: ID, text: 'x', source: { kind: 'action' } });
    expect(e.detail).toMatchObject({ keyword: 'required' });
    expect(String((e.detail as { field: string }).field)).toMatch(/^source\.(ref|origin_id)$/);
  });

  test('a document that is not an object is the document at fault', () => {
    const e = refusal('invariant.schema.json', 'text');
    expect(e.detail).toMatchObject({ field: 'document', keyword: 'type' });
    expect(e.message).toBe(`document must be object: ${REL} would not pass invariant.schema.json`);
  });

  test('an unknown field is named as written, "/" and "~" included', () => {
    const e = refusal('invariant.schema.json', { id: ID, text: 'x', 'a/b~c': 1 });
    expect(e.detail).toMatchObject({ field: 'a/b~c' });
  });

  test("the violation's copy of the text says it is the invariant's text; --goal and --details are named", () => {
    const PLAN = '01M8KJT9G0XNWEM589ZS7FV0VA';
    const violation = { id: ID, invariant_id: ID, severity: 'error', created_at: '2026-01-01T00:00:00Z' };
    const text = refusal('violation.schema.json', { ...violation, violated_text: 'v'.repeat(2001) });
    expect(text.message).toBe(
      "violated_text is 2001 characters long (from the invariant's text); the limit is 2000 (violation.schema.json)",
    );
    expect(text.hint).toBe("Shorten the invariant's text to at most 2000 characters. Nothing was written.");
    const details = refusal('violation.schema.json', { ...violation, violated_text: 'x', details: 'd'.repeat(10_001) }, FLAGS);
    expect(details.hint).toBe('Shorten --details to at most 10000 characters. Nothing was written.');
    const goal = refusal('plan.schema.json', { id: PLAN, goal: 'g'.repeat(10_001) }, FLAGS);
    expect(goal.message).toBe('goal is 10001 characters long; the limit is 10000 (plan.schema.json)');
    expect(goal.hint).toBe('Shorten --goal to at most 10000 characters. Nothing was written.');
  });

  test('a nested value over its limit is measured where it is', () => {
    const e = refusal('violation.schema.json', {
      id: ID,
      invariant_id: ID,
      violated_text: 'x',
      severity: 'error',
      created_at: '2026-01-01T00:00:00Z',
      resolved: { at: '2026-01-02T00:00:00Z', note: `é${'n'.repeat(10_000)}` },
    });
    expect(e.detail).toEqual({ file: REL, field: 'resolved.note', limit: 10000, length: 10001, schema: 'violation.schema.json' });
    expect(e.hint).toBe('Correct the value to at most 10000 characters. Nothing was written.');
  });
});
