import { describe, expect, it } from 'vitest';
import { COMMANDS, GROUPS, commandNames, namesAt, parentGroup, unknownCommand } from '../../src/cli/registry.ts';

describe('command registry', () => {
  it("loads each command's module, which defines its options and its run (its words and description are the table's)", async () => {
    for (const entry of COMMANDS) {
      const spec = (await entry.load()).default;
      expect(typeof spec.builder, String(entry.command)).toBe('function');
      expect(typeof spec.run, String(entry.command)).toBe('function');
      // Besides them, only the comma-list options completion offers names for.
      expect(
        Object.keys(spec)
          .filter((k) => k !== 'lists')
          .sort(),
      ).toEqual(['builder', 'run']);
    }
  });

  it('puts every command in a group of the table, and no two names at one level', () => {
    const groups = GROUPS.map((g) => g.name);
    for (const entry of COMMANDS) if (entry.group !== undefined) expect(groups).toContain(entry.group);
    for (const g of GROUPS) {
      const parent = parentGroup(g.name);
      if (parent !== undefined) expect(groups).toContain(parent);
    }
    for (const level of [undefined, ...groups]) {
      const names = namesAt(level);
      expect(new Set(names).size, level ?? 'top level').toBe(names.length);
    }
    expect(commandNames({ command: ['list [pattern]', 'ls'] })).toEqual(['list', 'ls']);
  });

  it.each([
    [['invariant', 'violation', 'add', '--plan', 'X'], undefined],
    [['--store', 'plan', 'plan', 'ls'], undefined],
    [['--format', 'json', 'init'], undefined],
    [['--store=x', 'invariant', 'rm', 'ID'], undefined],
    [['invariant', 'show', 'edit'], undefined],
    [['invariant', '--', 'lst'], undefined],
    [['invariant', 'lst'], { group: 'invariant', word: 'lst', options: [] }],
    [['--store', 'x', 'plna', 'list'], { group: undefined, word: 'plna', options: ['--store'] }],
    [['invariant', 'violation', 'rm'], { group: 'invariant violation', word: 'rm', options: [] }],
    // The options before it, a mistyped one among them (which took no value: `json` reads as the command).
    [['--quiet', '--formt', 'json', 'invariant', 'list'], { group: undefined, word: 'json', options: ['--quiet', '--formt'] }],
  ])('finds the first unknown command word of %j, skipping global options and their values', (args, found) => {
    expect(unknownCommand(args)).toEqual(found);
  });
});
