import { describe, expect, it } from 'vitest';
import { COMMANDS, guessCommand } from '../../src/cli/registry.ts';

describe('command registry', () => {
  it("repeats each command module's own name and description", async () => {
    for (const entry of COMMANDS) {
      const spec = (await entry.load()).default;
      expect({ command: spec.command, describe: spec.describe }).toEqual({ command: entry.command, describe: entry.describe });
    }
  });

  it.each([
    [['invariant', 'violation', 'add', '--plan', 'X'], 'invariant violation', 'add'],
    [['--store', 'plan', 'plan', 'ls'], 'plan', 'ls'],
    [['plan', 'strategize', 'ID'], 'plan', 'strategize <id>'],
    [['invariant', 'ls'], 'invariant', 'list [pattern]'],
    [['invariant', 'log', 'ID'], 'invariant', 'log <id>'],
  ])('guesses the command of %j, nested groups included', (args, group, command) => {
    const c = guessCommand(args);
    expect(c?.group).toBe(group);
    expect([c?.command].flat()).toContain(command);
  });
});
