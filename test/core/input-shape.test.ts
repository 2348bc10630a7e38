// What a library caller handed instead of the value a field takes, as the usage errors name it (src/core/input-shape.ts).
import { describe, expect, it } from 'vitest';
import { checkedArgs, typeName } from '../../src/core/input-shape.ts';

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

describe('checkedArgs', () => {
  it('names the function it makes by the name it is given, whatever the function it wraps is called (a bundler renames)', () => {
    const renamed = function parseRecord2(a: string) {
      return a;
    };
    const checked = checkedArgs('parseRecord', renamed, ['a: string']);
    expect([checked.name, checked.length, checked('x')]).toEqual(['parseRecord', 1, 'x']);
  });
});
