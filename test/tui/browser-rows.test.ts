import { describe, expect, test } from 'vitest';
import { windowTop } from '../../src/tui/browser-rows.ts';

describe('windowTop (only rows top..top+height are rendered)', () => {
  test.each([
    // count, selected, height, previous, expected
    [100, 0, 10, 0, 0],
    [100, 9, 10, 0, 0],
    [100, 10, 10, 0, 1],
    [100, 99, 10, 0, 90],
    [100, 50, 10, 90, 49], // moving up above the window: one row of context (a group header) above
    [100, 95, 10, 90, 90],
    [5, 4, 10, 3, 0], // fewer rows than fit
    [100, 20, 1, 0, 20],
  ])('count %i, selected %i, height %i, previous top %i → %i', (count, selected, height, previous, expected) => {
    expect(windowTop(count, selected, height, previous)).toBe(expected);
  });
});
