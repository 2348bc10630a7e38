import { describe, expect, it } from 'vitest';
import { COMMANDS, guessCommand } from '../../src/cli/registry.ts';

describe('the command registry', () => {
  it.each(COMMANDS.map((c) => [[c.group, c.command].flat().join(' '), c] as const))('%s repeats its module\'s command and description', async (_name, entry) => {
    const spec = (await entry.load()).default;
    expect(spec.command).toEqual(entry.command);
    expect(spec.describe).toBe(entry.describe);
  });

  it.each([
    [['invariant', 'violation', 'add', '--plan', 'X'], 'invariant violation', 'add'],
    [['--store', 'plan', 'plan', 'ls'], 'plan', 'ls'],
    [['plan', 'strategize', 'ID'], 'plan', 'strategize <id>'],
    [['invariant', 'ls'], 'invariant', 'list [pattern]'],
  ])('guesses %j', (args, group, command) => {
    const c = guessCommand(args);
    expect(c?.group).toBe(group);
    expect([c?.command].flat()).toContain(command);
  });
});
