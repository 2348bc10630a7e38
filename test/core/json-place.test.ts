import { describe, expect, it } from 'vitest';
import { jsonErrorPlace } from '../../src/core/json-place.ts';

/** The place and reason of JSON.parse's own error on `text`. */
function placeOf(text: string) {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonErrorPlace(text, (error as Error).message);
  }
  throw new Error(`${text} parsed`);
}

describe('jsonErrorPlace', () => {
  it('turns the offset JSON.parse names into a line and column', () => {
    expect(placeOf('{"a": 1, // comment\n}')).toMatchObject({ line: 1, col: 10 });
    expect(placeOf('{\n  "a": 1,\n  "b" 2\n}')).toMatchObject({ line: 3, col: 7 });
    const { reason } = placeOf('{\n  "a": 1,\n  "b" 2\n}');
    expect(reason).not.toMatch(/position|line \d/);
    expect(reason.length).toBeGreaterThan(0);
  });

  it('places an early end at the end of the text', () => {
    expect(placeOf('{ "a": ')).toEqual({ line: 1, col: 8, reason: expect.any(String) });
    expect(placeOf('{\n')).toMatchObject({ line: 2, col: 1 });
  });

  it('reads the forms with and without the line and column V8 adds', () => {
    expect(jsonErrorPlace('x\nyz', 'Unexpected token \'z\', "x\nyz" is not valid JSON at position 3 (line 2 column 2)')).toEqual({
      line: 2,
      col: 2,
      reason: 'Unexpected token \'z\', "x\nyz" is not valid JSON',
    });
    expect(jsonErrorPlace('ab', 'Unexpected end of JSON input')).toEqual({ line: 1, col: 3, reason: 'Unexpected end of JSON input' });
  });
});
