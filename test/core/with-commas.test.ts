import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withCommas } from '../../src/core/style.ts';

describe('withCommas', () => {
  it('writes a count as English text does', () => {
    expect(withCommas(0)).toBe('0');
    expect(withCommas(999)).toBe('999');
    expect(withCommas(1000)).toBe('1,000');
    expect(withCommas(99_980)).toBe('99,980');
    expect(withCommas(1_234_567)).toBe('1,234,567');
    expect(withCommas(-4321)).toBe('-4,321');
  });

  it("agrees with toLocaleString('en-US') on every integer", () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(withCommas(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });
});
