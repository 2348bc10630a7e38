import { describe, expect, it } from 'vitest';
import { envSwitchOn } from '../../src/core/env-switch.ts';

describe('envSwitchOn: an on/off environment variable (CI, AGENTS_NO_CACHE)', () => {
  it('is on for any value but empty, 0 or false (any case), and off when unset', () => {
    for (const on of ['1', 'true', 'yes', 'TRUE', ' 0'])
      expect(envSwitchOn({ AGENTS_NO_CACHE: on }, 'AGENTS_NO_CACHE'), JSON.stringify(on)).toBe(true);
    for (const off of ['', '0', 'false', 'False', undefined])
      expect(envSwitchOn({ AGENTS_NO_CACHE: off }, 'AGENTS_NO_CACHE'), JSON.stringify(off)).toBe(false);
    expect(envSwitchOn({}, 'CI')).toBe(false);
  });
});
