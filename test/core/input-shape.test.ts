// What a library caller handed instead of the value a field takes, as the usage errors name it (src/core/input-shape.ts).
import { describe, expect, it } from 'vitest';
import { typeName } from '../../src/core/input-shape.ts';

describe('typeName', () => {
  it('names each kind of value with its article, and undefined and null bare', () => {
    expect([undefined, null, 5, 'x', true, [], {}, () => 0].map(typeName)).toEqual([
      'undefined',
      'null',
      'a number',
      'a string',
      'a boolean',
      'an array',
      'an object',
      'a function',
    ]);
  });
});
