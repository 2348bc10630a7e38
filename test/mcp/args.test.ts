// A tool call's arguments checked against the tool's input schema (src/mcp/args.ts):
// each refusal is a usage error that says what is wrong with the argument it names.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { checkArgs, idArg, type InputSchema } from '../../src/mcp/args.ts';

const schema: InputSchema = {
  type: 'object',
  properties: { answer: { type: 'string', description: 'JSON', minLength: 2, maxLength: 100 } },
  required: ['answer'],
  additionalProperties: false,
};

async function refusal(args: unknown): Promise<UsageError> {
  const error = await checkArgs('tool', schema, args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('checkArgs', () => {
  it('a value shorter than its minLength of 2 is refused as too short, not as empty', async () => {
    const short = await refusal({ answer: '{' });
    expect(short.exitCode).toBe(2);
    expect(short.message).not.toMatch(/empty/);
    expect(short.message).toContain('"answer"');
    expect(short.message).toContain('2');
  });

  it('an empty value, and one of blanks, are refused as empty', async () => {
    for (const answer of ['', '   ']) expect((await refusal({ answer })).message).toMatch(/"answer" is empty/);
  });

  it('a value of the wrong type is named with its article, as the library names one', async () => {
    expect((await refusal({ answer: 7 })).message).toMatch(/"answer" must be a string, not a number$/);
    expect((await refusal({ answer: ['{}'] })).message).toMatch(/not an array$/);
  });

  it('a misspelt required argument is named as unknown, with the closest name, not the one it left missing', async () => {
    const misspelt = await refusal({ answr: '{}' });
    expect(misspelt.code).toBe('unknown-option');
    expect(misspelt.detail).toEqual({ arguments: ['answr'], suggestions: ['answer'] });
    // Nothing given at all is the missing argument itself.
    expect((await refusal({})).code).toBe('missing-argument');
  });

  it('a value of the length the schema asks for is taken', async () => {
    await expect(checkArgs('tool', schema, { answer: '{}' })).resolves.toEqual({ answer: '{}' });
  });
});

describe('id arguments', () => {
  const ids: InputSchema = {
    type: 'object',
    properties: { plan: idArg('Plan id'), details: { type: 'string', description: 'text', minLength: 1, maxLength: 30 } },
    additionalProperties: false,
  };
  const ID = '01M8KK5920RS6CGAVDFVYYJ0B4';

  it('white space around an id is dropped before its length is checked, and the id handed on without it', async () => {
    await expect(checkArgs('tool', ids, { plan: `  ${ID}\n` })).resolves.toEqual({ plan: ID });
    // Another text keeps its white space: it is no id.
    await expect(checkArgs('tool', ids, { details: ' x ' })).resolves.toEqual({ details: ' x ' });
  });

  it('an id longer than 26 characters without its white space, or of white space only, is still refused', async () => {
    const long = await checkArgs('tool', ids, { plan: ` ${ID}X ` }).catch((e: unknown) => e as UsageError);
    expect(long).toMatchObject({ exitCode: 2, message: expect.stringContaining('27 characters') });
    const blank = await checkArgs('tool', ids, { plan: ' \n ' }).catch((e: unknown) => e as UsageError);
    expect(blank).toMatchObject({ exitCode: 2, message: expect.stringContaining('is empty') });
  });
});
