import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNames, GROUPS } from '../../src/cli/registry.ts';
import { positionalNames } from '../../src/cli/unknown-option.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

/** The error a run answers with under --format json. */
async function errorOf(...args: string[]) {
  const r = await runAgents(['--format', 'json', ...args], { cwd: tempDir() });
  expect(r.code).toBe(2);
  return JSON.parse(r.stdout).error as { code: string; detail: { suggestions: string[]; value?: string } };
}

describe('a slip gets the command or option it was close to', () => {
  it.each([
    [['invariant', 'add', '--globl', 'x'], ['--global']],
    [['invariant', 'list', '--effectiv'], ['--effective']],
    [['validate', '--stagd'], ['--staged']],
    // Negated as it was written: the suggestion is the option's own negation.
    [['invariant', 'list', '--no-colour'], ['--no-color']],
    [['invariant', 'list', '--frobnicate'], []],
  ])('agents %j: unknown-option, suggesting %j', async (args, suggestions) => {
    const e = await errorOf(...args);
    expect(e.code).toBe('unknown-option');
    expect(e.detail.suggestions).toEqual(suggestions);
  });

  // A word from other tools that no spelling leads from: the command's own option for it, or none it does not take.
  it.each([
    [['invariant', 'waive', 'zz', '--until', '2027-01-01'], ['--expires']],
    [['invariant', 'waive', 'zz', '--note', 'x'], ['--reason']],
    [['invariant', 'violation', 'resolve', 'zz', '--reason', 'x'], ['--note']],
    [['invariant', 'remove', 'zz', '--force'], ['--yes']],
    [['invariant', 'list', '--json'], ['--format json']],
    [
      ['invariant', 'list', '--scope', 'web'],
      ['--global', '--project', '--plan', '--action'],
    ],
    [['plan', 'use', 'x/y', '--until', '2027-01-01'], []],
    // The file's `active: false` written as a flag: the flag its value means, never --activate (close in spelling) for
    // false, nor --action where the command sets no state.
    [['invariant', 'edit', 'zz', '--active', 'false'], ['--deactivate']],
    [['invariant', 'edit', 'zz', '--active=no'], ['--deactivate']],
    [['invariant', 'edit', 'zz', '--no-active'], ['--deactivate']],
    [['invariant', 'edit', 'zz', '--inactive'], ['--deactivate']],
    [['invariant', 'edit', 'zz', '--active', 'true'], ['--activate']],
    [['invariant', 'edit', 'zz', '--no-inactive'], ['--activate']],
    [['invariant', 'add', '--global', 'x', '--active', 'false'], []],
  ])('agents %j: unknown-option, offering the option meant %j', async (args, suggestions) => {
    const e = await errorOf(...args);
    expect(e.code).toBe('unknown-option');
    expect(e.detail.suggestions).toEqual(suggestions);
  });

  // An option of another command is said as that command's, never matched by spelling to an unrelated one (--goal);
  // plan use's action template is its argument, no scope flag of it.
  it.each([
    [['plan', 'use', 'x/y', '--global'], /--global is not an option of plan use/, ['--project']],
    [['plan', 'use', 'x/y', '--no-global'], /--no-global is not an option of plan use/, ['--project']],
    [['invariant', 'list', '--staged'], /--staged is not an option of invariant list/, []],
    [['validate', '--effective'], /--effective is not an option of validate/, []],
    // Before the argument, which yargs gives it as its value: still the option, not a missing argument.
    [['plan', 'use', '--project', 'web', '--global', 'x/y'], /--global is not an option of plan use/, ['--project']],
    [['invariant', 'show', '--bogus', 'zz'], /unknown option --bogus/, []],
  ])("agents %j: unknown-option, said as another command's option", async (args, message, suggestions) => {
    const e = (await errorOf(...args)) as { code: string; message: string; detail: { suggestions: string[] } };
    expect(e.code).toBe('unknown-option');
    expect(e.message).toMatch(message);
    expect(e.detail.suggestions).toEqual(suggestions);
  });

  // yargs keeps a command's argument under its name and took such a flag for it: read though no --help lists it,
  // ignored beside the argument (`plan use x/y --action a/b`) or joined to it (`add --text a b` added "a b").
  it.each([
    [['plan', 'use', '--action', 'x/y'], '--action'],
    [['plan', 'use', 'x/y', '--action=a/b'], '--action'],
    [['invariant', 'add', '--global', '--text', 'a', 'b'], '--text'],
    [['invariant', 'show', 'zzzz', '--id', 'yyyy'], '--id'],
    [['invariant', 'list', '--no-pattern'], '--no-pattern'],
    [['validate', '--paths', 'x'], '--paths'],
  ])('agents %j: unknown-option, an argument written as an option (%s)', async (args, option) => {
    const e = (await errorOf(...args)) as { code: string; detail: { arguments: string[]; suggestions: string[] } };
    expect(e.code).toBe('unknown-option');
    expect(e.detail.arguments).toEqual([option]);
    expect(e.detail.suggestions).toEqual([]);
  });

  it("every command's arguments: none is taken as an option", async () => {
    const taken: string[] = [];
    for (const c of COMMANDS)
      for (const name of positionalNames(c)) {
        const words = [...(c.group?.split(' ') ?? []), commandNames(c)[0]!];
        const r = await runAgents(['--format', 'json', ...words, `--${name}`, 'x'], { cwd: tempDir() });
        const code = r.code === 2 ? (JSON.parse(r.stdout) as { error: { code: string } }).error.code : `exit ${r.code}`;
        if (code !== 'unknown-option') taken.push(`agents ${words.join(' ')} --${name}: ${code}`);
      }
    expect(taken).toEqual([]);
  });

  // yargs reads one dash as one-letter flags: the word is the slip, with the long option meant.
  it.each([
    [['invariant', 'list', '-effective', '--project', 'web'], ['--effective']],
    [['invariant', 'add', '-global', 'x'], ['--global']],
    [['invariant', 'list', '-globl'], ['--global']],
    [['-format', 'json', 'project', 'list'], ['--format']],
    [['invariant', 'list', '-no-color'], ['--no-color']],
  ])('agents %j: unknown-option written with one dash, suggesting %j', async (args, suggestions) => {
    const e = await errorOf(...args);
    expect(e.code).toBe('unknown-option');
    expect(e.detail.suggestions).toEqual(suggestions);
  });

  // A word processor's or a chat's dash for `--`: never taken for a word (a text, a pattern).
  it.each([
    [['invariant', 'list', '\u2014effective'], ['--effective']],
    [['invariant', 'add', '--global', '\u2013tag', 'data', 'Keep it'], ['--tag']],
    [['project', 'list', '\u2014format=json'], ['--format']],
  ])('agents %j: unknown-option written with a typographic dash, suggesting %j', async (args, suggestions) => {
    const e = await errorOf('--store', testStore({}), ...args);
    expect(e.code).toBe('unknown-option');
    expect(e.detail.suggestions).toEqual(suggestions);
  });

  it('an option given before the command words names the commands that take it', async () => {
    const e = (await errorOf('--effective', 'invariant', 'list')) as { code: string; hint: string; detail: { suggestions: string[] } };
    expect(e.code).toBe('unknown-option');
    expect(e.hint).toContain('invariant list');
    expect(e.detail.suggestions).toEqual([]);
  });

  // Given after a group's word, the option goes after one of that group's commands: the group's word stays, and the
  // commands of other groups are not offered. A group none of whose commands take it is told every command that does.
  it.each([
    [['invariant', '--project', 'web', 'list'], '--project', '`agents invariant COMMAND --project`', 'import'],
    [['invariant', '--staged', 'list'], '--staged', '`agents invariant COMMAND --staged`', 'validate'],
    [['invariant', 'violation', '--project', 'web', 'list'], '--project', '`agents COMMAND --project`', undefined],
  ])('agents %j: unknown-option said where %s goes among the words given', async (args, option, form, left) => {
    const e = (await errorOf(...args)) as { code: string; hint: string; detail: { arguments: string[]; suggestions: string[] } };
    expect(e.code).toBe('unknown-option');
    expect(e.detail).toEqual({ arguments: [option], suggestions: [] });
    expect(e.hint).toContain(form);
    if (left) expect(e.hint).not.toContain(left);
  });

  // yargs takes the command's first word as the option's value and the words after it for stray ones: only the option is unknown.
  it.each([
    [['--bogus', 'invariant', 'list'], ['--bogus']],
    [['--bogus', 'plan', 'show', 'x'], ['--bogus']],
    [
      ['invariant', 'show', 'zz', '--bogus', 'x', 'y'],
      ['--bogus', 'y'],
    ],
  ])('agents %j: unknown-option naming the arguments %j', async (args, unknown) => {
    const e = (await errorOf(...args)) as { code: string; detail: { suggestions: string[]; arguments?: string[] } };
    expect(e.code).toBe('unknown-option');
    expect(e.detail.arguments).toEqual(unknown);
  });

  it.each([
    [['invariant', 'list', '--format', 'jsn'], 'jsn', ['json']],
    [['--format=jsn', 'invariant', 'list'], 'jsn', ['json']],
    [['invariant', 'add', '--global', 'x', '--severity', 'eror'], 'eror', ['error']],
    [['invariant', 'diff', '--format', 'markdwn'], 'markdwn', ['markdown']],
    [['guard', 'install', '--client', 'claude,claud'], 'claud', ['claude']],
    [['invariant', 'add', '--global', 'x', '--severity', 'high'], 'high', []],
    // A number yargs read as one is still the value given, named as written.
    [['invariant', 'violation', 'list', '--severity', '5'], '5', []],
  ])('agents %j: invalid-value naming the value %j, suggesting the choices %j', async (args, value, suggestions) => {
    const e = await errorOf(...args);
    expect(e.code).toBe('invalid-value');
    expect(e.detail.value).toBe(value);
    expect(e.detail.suggestions).toEqual(suggestions);
  });

  it('two options given values outside their choices: the first is said with its own choices, the other one left out', async () => {
    const r = await runAgents(['invariant', 'violation', 'list', '--severity', 'eror', '--format', 'jsn'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: --severity "eror" is not one of "error", "warning", "info"');
  });

  // No command named: the value refused is the slip, not the command left out, as when a command follows.
  it.each([[['--format', 'jsn']], [['--format=jsn']], [['invariant', '--format', 'jsn']]])(
    'agents %j: the invalid value is said, not the missing command',
    async (args) => {
      const r = await runAgents(args, { cwd: tempDir() });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: --format "jsn" is not one of "text", "json", "yaml"\nhint: Did you mean json\?/);
    },
  );

  it('a subcommand given without its group names the groups that have it', async () => {
    const e = await errorOf('list');
    expect(e.code).toBe('unknown-command');
    expect(e.detail.suggestions).toEqual(['invariant list', 'invariant violation list', 'plan list', 'action list', 'project list']);
    expect((await errorOf('strategize')).detail.suggestions).toEqual(['plan strategize']);
  });

  it('a very long word is shortened where the message names it, and given whole in the JSON detail', async () => {
    const word = 'a'.repeat(10_000);
    for (const [args, code] of [
      [[word], 'unknown-command'],
      [['invariant', 'list', `--${word}`], 'unknown-option'],
      [['invariant', 'list', 'x', word], 'unexpected-argument'],
      [['--', word], 'unexpected-argument'],
    ] as const) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: tempDir() });
      expect(r.code).toBe(2);
      expect(r.stderr.length, code).toBeLessThan(1000);
      const error = JSON.parse(r.stdout).error as { code: string; detail: unknown };
      expect(error.code).toBe(code);
      expect(JSON.stringify(error.detail)).toContain(word);
    }
  });

  it('a project or action name written with capitals suggests its lower-case form, which names are', async () => {
    const root = testStore({});
    const r = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--project', 'MyApp'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail).toEqual({ project: 'MyApp', suggestions: ['myapp'] });
    const action = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--action', 'Local/Cover'], {
      cwd: tempDir(),
    });
    expect(action.code).toBe(2);
    expect(JSON.parse(action.stdout).error.detail).toEqual({ action: 'Local/Cover', suggestions: ['local/cover'] });
    // A policy source's template keeps its source in the suggestion; one with no template after the source says what it was given.
    const sourced = (action: string) =>
      runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--action', action], { cwd: tempDir() });
    expect(JSON.parse((await sourced('policy:Local/Cover')).stdout).error.detail).toEqual({
      action: 'policy:Local/Cover',
      suggestions: ['policy:local/cover'],
    });
    const bare = await sourced('policy:');
    expect(bare.code).toBe(2);
    expect(JSON.parse(bare.stdout).error.message).toContain('"policy:"');
    // No lower-case form is a name: nothing suggested.
    const spaced = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--project', 'My App'], { cwd: tempDir() });
    expect(JSON.parse(spaced.stdout).error.detail).toBeNull();
  });
});

describe("a refused option's hint names the command given, whose --help lists its options", () => {
  it.each([
    [['plan', 'status', '01M8KK59', '--allow', 'bogus'], 'invalid-value', 'agents plan status --help'],
    [['invariant', 'list', '--formt', 'json'], 'unknown-option', 'agents invariant list --help'],
    [['invariant', 'list', '-effective'], 'unknown-option', 'agents invariant list --help'],
    [['invariant', 'list', '\u2014effective'], 'unknown-option', 'agents invariant list --help'],
    [['plan', 'list', 'extra'], 'unexpected-argument', 'agents plan list --help'],
  ])('agents %j: %s', async (args, code, help) => {
    const r = await runAgents(['--format', 'json', ...args], { cwd: tempDir() });
    const error = JSON.parse(r.stdout).error as { code: string; hint: string };
    expect([r.code, error.code]).toEqual([2, code]);
    expect(error.hint).toContain(`\`${help}\``);
    expect(error.hint).not.toContain('COMMAND');
  });

  // Given after a group's word and before its command's, the group's --help lists what may follow it.
  it.each([
    [['invariant', '--bogus', 'list'], 'agents invariant --help', []],
    [['invariant', 'violation', '--bogus', 'list'], 'agents invariant violation --help', []],
    [['plan', '-effective', 'list'], 'agents plan --help', []],
    [['invariant', '--bogus'], 'agents invariant --help', []],
  ])('agents %j: unknown-option, pointing to `%s`', async (args, help, suggestions) => {
    const r = await runAgents(['--format', 'json', ...args], { cwd: tempDir() });
    const error = JSON.parse(r.stdout).error as { code: string; hint: string; detail: { arguments: string[]; suggestions: string[] } };
    expect([r.code, error.code]).toEqual([2, 'unknown-option']);
    expect(error.detail).toEqual({ arguments: [args.find((a) => a.startsWith('-'))], suggestions });
    expect(error.hint).toContain(`\`${help}\``);
  });
});

describe('a command group given without a subcommand', () => {
  it.each(GROUPS.map((g) => g.name))(
    'agents %s: usage, naming every subcommand the registry gives it and its own --help',
    async (group) => {
      const r = await runAgents(['--format', 'json', ...group.split(' ')], { cwd: tempDir() });
      expect(r.code).toBe(2);
      const error = JSON.parse(r.stdout).error as { code: string; message: string; hint: string };
      expect(error.code).toBe('usage');
      const subcommands = [
        ...COMMANDS.filter((c) => c.group === group).map((c) => commandNames(c)[0]!),
        ...GROUPS.filter((g) => g.name.startsWith(`${group} `)).map((g) => g.name.slice(group.length + 1)),
      ];
      for (const name of subcommands) expect(error.message).toMatch(new RegExp(`[ :]${name}[,. ]`));
      expect(error.hint).toContain(`agents ${group} --help`);
    },
  );
});
