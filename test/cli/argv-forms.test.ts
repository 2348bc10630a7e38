import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { git, gitInit } from '../helpers/git.ts';
import { traceLoads } from '../helpers/loads.ts';
import { runMain } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const GLOBAL = ['01M8KJT9G0XNWEM589ZS7FV0VT', '01M8KJW430VF8WCABSB8RTQ8RY'];
const PROJECT = ['01M8KJXYP0GVPRF8KRRE9G8474', '01M8KJZS90J6DRJJ8E264B9DFX'];
/** myapp's effective set: one of the two global invariants is overridden by a project one. */
const EFFECTIVE = [GLOBAL[0]!, ...PROJECT];

/** The ids of a JSON listing (`invariant list --format json`), sorted. */
function ids(stdout: string): string[] {
  return (JSON.parse(stdout) as { id: string }[]).map((i) => i.id).sort();
}

/** The error code of a failed run asked for in JSON (`--format json` puts the error on stdout). */
function errorCode(stdout: string): string {
  return (JSON.parse(stdout) as { error: { code: string } }).error.code;
}

describe('the forms of invariant list, validate and invariant diff that hooks and agents run, through the one parser', () => {
  it.each([
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json'], EFFECTIVE],
    [
      ['invariant', 'ls', '--store=.agents.example', '--effective', `--plan=${PLAN.slice(0, 8)}`, '--format=json'],
      [...EFFECTIVE, '01M8KK3EF09G9ET4TAJAHQWPMN'],
    ],
    [['--store', '.agents.example', '--format', 'json', 'invariant', 'list', '--global'], GLOBAL],
    [['--store', '.agents.example', 'invariant', 'list', '--project', 'myapp', '--no-color', '--no-input', '--format', 'json'], PROJECT],
    [['--format', 'json', 'invariant', 'list', 'API', '--project', 'myapp', '--store', '.agents.example'], ['01M8KJXYP0GVPRF8KRRE9G8474']],
  ])('agents %j answers (exit 0) with the set asked for', async (args, expected) => {
    const r = await runMain(args, { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(ids(r.stdout)).toEqual([...expected].sort());
  });

  it.each([
    [['invariant', 'list', '--effective'], 'missing-option'],
    [['invariant', 'list', '--effective', '--all', '--project', 'myapp'], 'conflicting-options'],
    [['invariant', 'list', '--project', 'nope'], 'unknown-project'],
    [['invariant', 'list', '--project', 'myapp', '--global'], 'conflicting-options'],
    [['invariant', 'list', '(unclosed'], 'usage'],
    [['invariant', 'list', '--project'], 'missing-value'],
    [['invariant', 'list', '--project', '--effective'], 'missing-value'],
    [['invariant', 'list', '--project', 'a', '--project', 'b'], 'usage'],
    [['invariant', 'list', 'a', 'b'], 'unexpected-argument'],
    // Words after `--` are arguments, never a command: yargs then runs nothing, which is no success.
    [['--', 'invariant', 'list'], 'unexpected-argument'],
    [['invariant', '--', 'list'], 'unexpected-argument'],
    [['invariant', 'list', '--bogus'], 'unknown-option'],
    [['invariant', 'list', '--staged'], 'unknown-option'],
    [['--effective', 'invariant', 'list'], 'unknown-option'],
    // No command named after it: the option is still the slip, not the missing command.
    [['--effective'], 'unknown-option'],
    [['invariant', '--bogus'], 'unknown-option'],
    [['validate', '--effective'], 'unknown-option'],
    [['validate', '--no-cache=x'], 'invalid-value'],
    [['validate', '--staged', '--changed'], 'conflicting-options'],
    [['--store', 'a', '--store', 'b', 'invariant', 'list'], 'usage'],
    [['list'], 'unknown-command'],
    [['invariant', 'lst'], 'unknown-command'],
  ])('agents %j is a usage error (exit 2, code %s), nothing printed on stderr in JSON', async (args, code) => {
    const r = await runMain(['--store', '.agents.example', '--format', 'json', ...args], { cwd: REPO });
    expect(r.code).toBe(2);
    expect(errorCode(r.stdout)).toBe(code);
  });

  // A positional argument in conflict with an option is named as the usage writes it: there is no --id to drop.
  it.each([
    [['plan', 'activate', '01M8KK59', '--clear'], 'ID and --clear cannot be combined', ['id', 'clear']],
    [['validate', '--staged', '--changed'], '--staged and --changed cannot be combined', ['staged', 'changed']],
  ])('agents %j names the two that conflict as they are written', async (args, message, options) => {
    const r = await runMain(['--store', '.agents.example', '--format', 'json', ...args], { cwd: REPO });
    expect(r.code).toBe(2);
    const body = JSON.parse(r.stdout) as { error: { code: string; message: string; detail: unknown } };
    expect(body.error).toMatchObject({ code: 'conflicting-options', message, detail: { options } });
  });

  // Options a command (or the library under it) refuses together, past the parser: the same code and detail as yargs' own.
  it.each([
    [
      ['export', '--check', '--dry-run'],
      ['check', 'dry-run'],
    ],
    [
      ['export', '--dry-run', '--stdout', '--target', 'agents-md'],
      ['dry-run', 'stdout'],
    ],
    [
      ['validate', '--fix', '--staged'],
      ['fix', 'staged'],
    ],
    [
      ['invariant', 'list', '--effective', '--all', '--project', 'myapp'],
      ['all', 'effective'],
    ],
    [
      ['invariant', 'diff', '--all-projects', '--project', 'myapp'],
      ['all-projects', 'project'],
    ],
    [
      ['invariant', 'diff', '--project', 'myapp', '--plan', PLAN],
      ['project', 'plan'],
    ],
    [
      ['invariant', 'diff', 'HEAD~1..HEAD', '--staged'],
      ['staged', 'range'],
    ],
    [
      ['invariant', 'add', '--global', '--project', 'myapp', 'Two scopes'],
      ['global', 'project'],
    ],
  ])('agents %j: exit 2, conflicting-options naming both', async (args, options) => {
    const r = await runMain(['--store', '.agents.example', '--format', 'json', ...args], { cwd: REPO });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: unknown }).error).toMatchObject({ code: 'conflicting-options', detail: { options } });
  });

  // An option of a group the command needs one of, or the text, checked past the parser: the codes yargs' own give.
  it.each([
    // The store's own projects, the one meant among them, not an example name it may not have.
    [
      ['invariant', 'list', '--effective'],
      'missing-option',
      { command: 'invariant list', options: ['project', 'plan'], choices: { project: ['myapp'] } },
    ],
    [['guard', 'try'], 'missing-option', { command: 'guard try', options: ['path', 'command', 'tool'] }],
    [['invariant', 'add', 'No scope'], 'missing-option', { command: 'invariant add', options: ['global', 'project', 'plan', 'action'] }],
    [['invariant', 'move', GLOBAL[0]!], 'missing-option', { command: 'invariant move', options: ['global', 'project', 'plan', 'action'] }],
    [
      ['invariant', 'waive', GLOBAL[0]!, '--reason', 'r', '--owner', 'o', '--expires', '2099-01-01'],
      'missing-option',
      { command: 'invariant waive', options: ['plan', 'project'] },
    ],
    [['invariant', 'add', '--global'], 'missing-argument', { command: 'invariant add', argument: 'text' }],
  ])('agents %j: exit 2, %s with its detail', async (args, code, detail) => {
    const r = await runMain(['--store', '.agents.example', '--format', 'json', ...args], { cwd: REPO });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: unknown }).error).toMatchObject({ code, detail });
  });

  // yargs' own words ("Not enough non-option arguments: got 0, need at least 1") name neither the command nor what it needs.
  it.each([
    [['invariant', 'show'], 'invariant show', 'id'],
    [['invariant', 'violation', 'resolve', '--note', 'done'], 'invariant violation resolve', 'id'],
    [['plan', 'use', '--project', 'myapp'], 'plan use', 'action'],
    [['project', 'remove'], 'project remove', 'name'],
    [['which'], 'which', 'paths'],
    [['which', '--'], 'which', 'paths'],
  ])('agents %j without its argument: exit 2, missing-argument naming the command and the argument', async (args, command, argument) => {
    const r = await runMain(['--store', '.agents.example', '--format', 'json', ...args], { cwd: REPO });
    expect(r.code).toBe(2);
    const body = JSON.parse(r.stdout) as { error: { code: string; message: string; hint: string; detail: unknown } };
    expect(body.error.code).toBe('missing-argument');
    expect(body.error.detail).toEqual({ command, argument });
    // The usage it names starts with the run's agents and --store.
    expect(body.error.hint).toContain(`agents --store .agents.example ${command} <${argument}`);
  });

  // yargs' own words ("Missing required argument: invariant") name neither the command nor the option as it is written.
  it.each([
    [['invariant', 'violation', 'add', '--plan', '01M8KK59', '--details', 'x'], 'invariant violation add', ['invariant'], undefined],
    [['invariant', 'waive', '01M8KJT9', '--project', 'myapp'], 'invariant waive', ['reason', 'owner', 'expires'], undefined],
    // An option with choices is answered with them.
    [['guard', 'install'], 'guard install', ['client'], { client: ['claude', 'codex', 'gemini', 'cursor'] }],
  ])(
    'agents %j without a required option: exit 2, missing-option naming the command and the options',
    async (args, command, options, choices) => {
      const r = await runMain(['--store', '.agents.example', '--format', 'json', ...args], { cwd: REPO });
      expect(r.code).toBe(2);
      const body = JSON.parse(r.stdout) as { error: { code: string; detail: unknown } };
      expect(body.error.code).toBe('missing-option');
      expect(body.error.detail).toEqual({ command, options, ...(choices ? { choices } : {}) });
    },
  );

  it('a required argument may come after `--`, as every argument may (a file named -x)', async () => {
    const which = await runMain(['--store', '.agents.example', '--format', 'json', 'which', '--', '-x', 'src/a.ts'], { cwd: REPO });
    expect(JSON.parse(which.stdout)).toEqual([
      { path: '-x', projects: [] },
      { path: 'src/a.ts', projects: ['myapp'] },
    ]);
    const show = await runMain(['--store', '.agents.example', '--format', 'json', 'invariant', 'show', '--', GLOBAL[0]!], { cwd: REPO });
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout).id).toBe(GLOBAL[0]);
  });

  it('words after `--` are kept as written, never read as numbers (0x1F as 31, 1.50 as 1.5)', async () => {
    const which = await runMain(['--store', '.agents.example', '--format', 'json', 'which', '--', '0x1F', '1.50', '1e3'], { cwd: REPO });
    expect((JSON.parse(which.stdout) as { path: string }[]).map((p) => p.path)).toEqual(['0x1F', '1.50', '1e3']);
    const store = join(tempDir(), 'store');
    cpSync(join(REPO, '.agents.example'), store, { recursive: true });
    const added = await runMain(['--store', store, '--format', 'json', 'invariant', 'add', '--global', '--', '0x1F'], { cwd: REPO });
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).text).toBe('0x1F');
  });

  it('an option name holding a dot is an unknown option, never an option given an object (--store.x=DIR) nor an argument it does not hold', async () => {
    const dir = tempDir();
    for (const [args, option] of [
      [['--store.x=/tmp', 'invariant', 'list'], '--store.x'],
      [['invariant', 'diff', '--project.x=web'], '--project.x'],
      // A range whose first side looks like an option, from a variable: named as written, not as an argument "foo".
      [['invariant', 'diff', '--foo..HEAD'], '--foo..HEAD'],
      [['guard', 'check', '--foo..HEAD'], '--foo..HEAD'],
    ] as const) {
      const r = await runMain(['--format', 'json', ...args], { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
      expect(error.code, args.join(' ')).toBe('unknown-option');
      expect(error.message).toBe(`unknown option ${option}`);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an empty --store (an unset variable) is refused, never read as the current folder, where init would make a store', async () => {
    const dir = tempDir();
    for (const args of [
      ['init', '--store', ''],
      ['--store=', 'invariant', 'list'],
    ]) {
      const r = await runMain(['--format', 'json', ...args], { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { code: string; detail: unknown } }).error).toMatchObject({
        code: 'missing-value',
        detail: { option: 'store' },
      });
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an argument whose bytes were not UTF-8 (read as U+FFFD) is refused, never written as the replacement', async () => {
    const repo = tempDir();
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    // What Node gives for the Latin-1 bytes of "café rule".
    const r = await runMain(['--format', 'json', 'invariant', 'add', '--global', 'caf\uFFFD rule'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail).toEqual({ argument: 6 });
    const listed = await runMain(['--format', 'json', 'invariant', 'list', '--global', '--all'], { cwd: repo });
    expect(listed.stdout).not.toContain('caf');
  });

  it('--store given twice is refused in text too, naming the option', async () => {
    const r = await runMain(['--store', 'a', '--store', 'b', 'invariant', 'list'], { cwd: REPO });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --store was given more than once\n/);
  });

  it('an option that takes one value, given twice to any command, is refused naming it, and nothing is written', async () => {
    const repo = tempDir();
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    for (const [args, option] of [
      [
        [
          'invariant',
          'waive',
          GLOBAL[0]!,
          '--project',
          'myapp',
          '--reason',
          'a',
          '--reason',
          'b',
          '--owner',
          'o',
          '--expires',
          '2099-01-01',
        ],
        'reason',
      ],
      [['invariant', 'add', '--global', '--rationale', 'a', '--rationale', 'b', 'Twice why'], 'rationale'],
      [['invariant', 'add', '--global', '--severity', 'error', '--severity', 'info', 'Twice how bad'], 'severity'],
      [['plan', 'use', 'local/code-coverage', '--project', 'myapp', '--goal', 'a', '--goal', 'b'], 'goal'],
    ] as const) {
      const r = await runMain(['--format', 'json', ...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { detail: unknown } }).error.detail).toEqual({ option });
    }
    // A list option takes each: two tags.
    expect((await runMain(['invariant', 'add', '--global', '--tag', 'a', '--tag', 'b', 'Tagged twice'], { cwd: repo })).code).toBe(0);
    const listed = await runMain(['--format', 'json', 'invariant', 'list', '--global', '--all'], { cwd: repo });
    const texts = (JSON.parse(listed.stdout) as { text: string; tags: string[] }[]).map((i) => [i.text, i.tags]);
    expect(texts).toContainEqual(['Tagged twice', ['a', 'b']]);
    expect(texts.map(([t]) => t)).not.toContain('Twice why');
    expect((await runMain(['plan', 'list', '--format', 'json'], { cwd: repo })).stdout).not.toContain('"goal": "a,b"');
    expect(existsSync(join(repo, '.agents/projects/myapp/waivers'))).toBe(false);
  });

  it('validate in the forms a pre-commit hook runs answers with the exit code of the staged files, in a repository with one file staged', async () => {
    const repo = tempDir();
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    gitInit(repo);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'store');
    // Nothing of the store staged: nothing to check.
    expect((await runMain(['validate', '--staged'], { cwd: repo })).code).toBe(0);
    const file = join(repo, '.agents/global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml');
    writeFileSync(file, 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete production data\nseverity: fatal\n');
    git(repo, 'add', '-A');
    for (const [args, code] of [
      [['validate', '--staged'], 1],
      [['validate', '--staged', '--format', 'json', '--verbose'], 1],
      [['validate', '--staged', '--all-files', '--no-cache', '--strict'], 1],
      [['--format=yaml', 'validate'], 1],
      [['validate', '--changed', '--no-color'], 1],
      [['validate', '--cache', '--store', '.agents', '--quiet'], 1],
      [['validate', '.agents/projects'], 0],
      [['validate', '--staged', '.agents/projects'], 0],
      [['validate', 'no-such-file.yaml'], 2],
    ] as const) {
      expect((await runMain([...args], { cwd: repo })).code, args.join(' ')).toBe(code);
    }
    const json = await runMain(['validate', '--staged', '--format', 'json'], { cwd: repo });
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
  });

  it('invariant diff in the forms a review job runs answers with the changed ids and its exit code', async () => {
    const repo = tempDir();
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    gitInit(repo);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'store');
    const file = join(repo, '.agents/global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml');
    writeFileSync(file, 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete production data, ever\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'edit');
    writeFileSync(file, 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete any production data\n');
    for (const [args, code] of [
      [['invariant', 'diff', 'HEAD~1..HEAD'], 0],
      [['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json', '--all-projects'], 0],
      [['invariant', 'diff', '--project', 'myapp', '--exit-code'], 1],
      [['invariant', 'diff', `--plan=${PLAN}`, 'HEAD~1'], 0],
      [['--format=yaml', 'invariant', 'diff', '--staged'], 0],
      [['invariant', 'diff', '--project', 'myapp', '--plan', PLAN], 2],
      [['invariant', 'diff', 'no-such-rev..HEAD', '--store', '.agents', '--no-color'], 2],
      [['invariant', 'diff', 'A', 'B'], 2],
      [['invariant', 'diff', '--project'], 2],
    ] as const) {
      const r = await runMain([...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(code);
      if (code !== 2 && !(args as readonly string[]).includes('--staged'))
        expect(r.stdout, args.join(' ')).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    }
    // The real shim: the same parser, the same answer.
    const r = traceLoads([BIN, 'invariant', 'diff', 'HEAD~1..HEAD'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(r.dist).toContain('dist/agents.cjs');
  });

  it.each([
    [['--get-yargs-completions', 'invariant', 'list', '--eff']],
    [['--get-yargs-completions', 'pla']],
    [['--get-yargs-completions', '']],
    [['--get-yargs-completions', 'invariant', 'add', '--', 'x', '']],
    [['--get-yargs-completions', 'invariant', 'add', '--severity', 'info', '--severity', '']],
  ])('a shell asking for completions (%j) gets them or nothing, never an error or a stack trace', (args) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    if (args[1] === 'pla') expect(r.stdout.split('\n')).toContain('plan');
  });

  it('agents invariant list --help prints the usage of the command, with its options', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await runMain(['invariant', 'list', flag], { cwd: REPO });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('--effective');
    }
  });
});
