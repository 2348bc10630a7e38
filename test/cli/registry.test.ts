import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.ts';

describe('command registry', () => {
  it('repeats each command module\'s own name and description', async () => {
    for (const entry of COMMANDS) {
      const spec = (await entry.load()).default;
      expect({ command: spec.command, describe: spec.describe }).toEqual({ command: entry.command, describe: entry.describe });
    }
  });
});
