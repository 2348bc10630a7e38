// Bad input is exit 2 with one line and a hint, and changes nothing on disk;
// a typo'd project never reads as an empty one; every failure under
// --format json is one document (docs/json-output.md, "Errors").
import { PassThrough } from 'node:stream';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { COMMANDS, GROUPS } from '../../src/cli/registry.ts';
import { closestNames, editDistance, isCloseName } from '../../src/core/closest.ts';
import { parseInvariant } from '../../src/core/parse.ts';
import { agents } from '../helpers/cli.ts';
import { commitAll, gitInit } from '../helpers/git.ts';
import { runMain } from '../helpers/main.ts';
import { PtySession } from '../helpers/pty.ts';
import { exampleStore } from '../helpers/plans.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';
import { storeState } from '../helpers/store-state.ts';

/** The example store with a second project, billing, beside myapp. */
function billingStore(): string {
  const root = exampleStore();
  mkdirSync(join(root, 'projects', 'billing'));
  writeFileSync(
    join(root, 'projects', 'billing', '01M8PX0000000000000000000B.yaml'),
    invariantYaml('01M8PX0000000000000000000B', 'Invoices are immutable'),
  );
  return root;
}

interface JsonError {
  ok: false;
  exit_code: number;
  error: { code: string; message: string; hint: string | null; detail: Record<string, unknown> | null };
}

function jsonError(stdout: string): JsonError {
  const doc = JSON.parse(stdout) as JsonError;
  expect(Object.keys(doc).sort()).toEqual(['error', 'exit_code', 'ok']);
  expect(Object.keys(doc.error).sort()).toEqual(['code', 'detail', 'hint', 'message']);
  expect(doc.ok).toBe(false);
  return doc;
}

describe('usage errors are usage errors', () => {
  it.each([
    ['--project without a value', ['invariant', 'list', '--project'], 'missing-value', '--project needs a value'],
    ['--project before another flag', ['invariant', 'add', '--project', '--global', 'T'], 'missing-value', '--project needs a value'],
    ['--store alone', ['--store'], 'missing-value', '--store needs a value'],
    ['--store before a command', ['--store', '--format', 'json', 'invariant', 'list'], 'missing-value', '--store needs a value'],
    ['--tag without a value', ['invariant', 'add', '--global', 'T', '--tag'], 'missing-value', '--tag needs a value'],
    [
      'a value that looks like a flag',
      ['invariant', 'add', '--global', '--rationale', '-x', 'T'],
      'missing-value',
      '--rationale needs a value',
    ],
    ['--plan that looks like a flag', ['invariant', 'list', '--plan', '-x'], 'missing-value', '--plan needs a value'],
    ['a valueless --severity', ['invariant', 'add', '--global', 'T', '--severity'], 'missing-value', '--severity needs a value'],
    [
      'a valueless --severity on violation list',
      ['invariant', 'violation', 'list', '--severity'],
      'missing-value',
      '--severity needs a value',
    ],
    ['a valueless --format', ['invariant', 'list', '--format'], 'missing-value', '--format needs a value'],
    [
      'a bad --severity',
      ['invariant', 'add', '--global', 'T', '--severity', 'fatal'],
      'invalid-value',
      '--severity "fatal" is not one of "error", "warning", "info"',
    ],
    [
      'an extra word after --',
      ['invariant', 'show', '01M8KJT9G0XNWEM589ZS7FV0VT', '--', 'more'],
      'unexpected-argument',
      'unexpected argument "more"',
    ],
    // A mistyped option before the command takes no value: the word after it is not the unknown command.
    ['a mistyped option before the command', ['--formt', 'json', 'invariant', 'list'], 'unknown-option', 'unknown option --formt'],
    ['a mistyped --no- option before the command', ['--no-inpt', 'nonsense'], 'unknown-option', 'unknown option --no-inpt'],
  ])('%s: exit 2, one line and a hint, no stack trace, nothing written', async (_name, args, code, message) => {
    const root = exampleStore();
    const before = storeState(root);
    const r = await runMain(['--store', root, ...args], { cwd: root });
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`error: ${message}`);
    expect(lines[1]).toMatch(/^hint: /);
    expect(r.stderr).not.toMatch(/internal error|YError|\n\s+at /);
    expect(storeState(root)).toEqual(before);
    const j = await runMain(['--format', 'json', '--store', root, ...args], { cwd: root });
    expect(j.code).toBe(2);
    expect(jsonError(j.stdout).error).toMatchObject({ code, message });
  });

  it('a mistyped option before the command is named with the global options spelled like it', async () => {
    const root = exampleStore();
    for (const [args, suggestions] of [
      [['--formt', 'json', 'invariant', 'list'], ['--format']],
      [['--no-inpt', 'nonsense'], ['--no-input']],
      [['--bogus', 'nonsense'], []],
    ] as const) {
      const r = await runMain(['--format', 'json', '--store', root, ...args], { cwd: root });
      expect(r.code).toBe(2);
      expect(jsonError(r.stdout).error).toMatchObject({ code: 'unknown-option', detail: { arguments: [args[0]], suggestions } });
    }
    // A known global option before an unknown command leaves the command the one at fault.
    const r = await runMain(['--format', 'json', '--store', root, '--quiet', 'lst'], { cwd: root });
    expect(jsonError(r.stdout).error).toMatchObject({ code: 'unknown-command', detail: { command: 'lst' } });
  });

  it('the built binary answers the same (exit 2, never 70)', () => {
    const root = exampleStore();
    for (const args of [['invariant', 'list', '--project'], ['--store'], ['invariant', 'add', '--global', 'T', '--tag']]) {
      const r = agents(args[0] === '--store' ? args : ['--store', root, ...args], { cwd: root });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).not.toContain('internal error');
    }
  });

  it('text that starts with "-" can be given after --', async () => {
    const root = exampleStore();
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'add', '--global', '--', '-x marks the spot'], {
      cwd: root,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).text).toBe('-x marks the spot');
  });

  it('invariant diff -- REV compares with REV, as invariant diff REV does', async () => {
    const dir = tempDir();
    gitInit(dir);
    const root = join(dir, '.agents');
    mkdirSync(join(root, 'global'), { recursive: true });
    writeFileSync(
      join(root, 'global', '01M8KJT9G0XNWEM589ZS7FV0VT.yaml'),
      invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
    );
    commitAll(dir, 'one');
    writeFileSync(join(root, 'global', '01M8KJW430VF8WCABSB8RTQ8RY.yaml'), invariantYaml('01M8KJW430VF8WCABSB8RTQ8RY', 'Log all changes'));
    commitAll(dir, 'two');
    const plain = await runMain(['--format', 'json', 'invariant', 'diff', 'HEAD~1'], { cwd: dir });
    const dashed = await runMain(['--format', 'json', 'invariant', 'diff', '--', 'HEAD~1'], { cwd: dir });
    expect(dashed.code, dashed.stderr).toBe(0);
    expect(JSON.parse(dashed.stdout).summary).toMatchObject({ added: 1 });
    expect(JSON.parse(dashed.stdout)).toEqual(JSON.parse(plain.stdout));
    const two = await runMain(['invariant', 'diff', 'HEAD', '--', 'HEAD~1'], { cwd: dir });
    expect(two.code).toBe(2);
    // A typo of a project in a diff names the project it probably meant.
    mkdirSync(join(root, 'projects', 'billing'), { recursive: true });
    writeFileSync(
      join(root, 'projects', 'billing', '01M8PX0000000000000000000B.yaml'),
      invariantYaml('01M8PX0000000000000000000B', 'Invoices are immutable'),
    );
    commitAll(dir, 'three');
    const typo = await runMain(['--format', 'json', 'invariant', 'diff', 'HEAD~1', '--project', 'biling'], { cwd: dir });
    expect(typo.code).toBe(2);
    expect(jsonError(typo.stdout).error).toMatchObject({
      code: 'unknown-project',
      detail: { project: 'biling', suggestions: ['billing'] },
    });
  });

  it("a revision written ^X (the commits to leave out), or git's null id, is a usage error for diff and guard check, never exit 70 or a hang", async () => {
    const dir = tempDir();
    gitInit(dir);
    const root = join(dir, '.agents');
    mkdirSync(join(root, 'global'), { recursive: true });
    writeFileSync(
      join(root, 'global', '01M8KJT9G0XNWEM589ZS7FV0VT.yaml'),
      invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
    );
    commitAll(dir, 'one');
    commitAll(dir, 'two');
    for (const args of [
      ['invariant', 'diff', '^HEAD'],
      ['invariant', 'diff', 'HEAD~1..^HEAD'],
      ['invariant', 'diff', '^HEAD~1...HEAD'],
      ['guard', 'check', 'HEAD~1..^HEAD'],
    ]) {
      const r = await runMain(['--format', 'json', ...args], { cwd: dir });
      expect({ args, code: r.code, error: jsonError(r.stdout).error.code }).toEqual({ args, code: 2, error: 'usage' });
    }
    // git's null id (CI's commit before a push that made the branch) is said as such, not as a commit to fetch.
    for (const args of [
      ['invariant', 'diff', `${'0'.repeat(40)}..HEAD`],
      ['guard', 'check', `${'0'.repeat(40)}..HEAD`],
    ]) {
      const r = await runMain(['--format', 'json', ...args], { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(jsonError(r.stdout).error.message).toContain('null id');
    }
  });
});

describe('unknown YAML tags are an error, not dropped', () => {
  it.each([
    ['!!js/function', 'text: !!js/function "function () {}"'],
    ['!foo', 'text: !foo Never delete data'],
    ['a tag on a key in a list', 'text: T\ntags: [!secret a]'],
    ['a YAML 1.1 tag yaml reads all the same, whose map the schema saw as empty', 'text: T\nguard: !!omap [write: [a]]'],
  ])('%s', (_name, body) => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const r = parseInvariant(`global/${id}.yaml`, new TextEncoder().encode(`id: ${id}\n${body}\n`), { kind: 'global' }, id);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([['yaml-unknown-tag', 'error']]);
  });

  it('the standard tags of the core schema still read', () => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const r = parseInvariant(
      `global/${id}.yaml`,
      new TextEncoder().encode(`id: ${id}\ntext: !!str Never delete data\nactive: !!bool true\n`),
      { kind: 'global' },
      id,
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.value?.text).toBe('Never delete data');
  });

  it('a command that needs the file stops with exit 3 naming it', async () => {
    const root = testStore({ 'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: !foo Never delete data\n' });
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'list'], { cwd: root });
    expect(r.code).toBe(3);
    const doc = jsonError(r.stdout);
    expect(doc.error.code).toBe('invalid-store');
    expect(
      ((doc.error.detail?.diagnostics ?? []) as { code: string; line: number; col: number }[]).map((d) => [d.code, d.line, d.col]),
    ).toEqual([['yaml-unknown-tag', 2, 7]]);
  });
});

describe('no silently shortened set: unknown projects', () => {
  it.each([
    ['list --effective --project', ['invariant', 'list', '--effective', '--project', 'biling']],
    ['list --project', ['invariant', 'list', '--project', 'biling']],
    ['list -i --project', ['invariant', 'list', '-i', '--project', 'biling']],
    ['plan use --project', ['plan', 'use', 'local/code-coverage', '--project', 'biling']],
  ])('%s of a typo: exit 2 with the closest names, nothing written', async (_name, args) => {
    const root = billingStore();
    const before = storeState(root);
    const r = await runMain(['--store', root, ...args], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: unknown project biling: projects/biling/ does not exist; did you mean billing?');
    const j = await runMain(['--store', root, '--format', 'json', ...args], { cwd: root });
    expect(j.code).toBe(2);
    expect(jsonError(j.stdout).error).toMatchObject({
      code: 'unknown-project',
      detail: { project: 'biling', suggestions: ['billing'], known: ['billing', 'myapp'] },
    });
    expect(storeState(root)).toEqual(before);
  });

  it('a store of many projects names ten of them in the hint, and every one in the JSON', async () => {
    const root = billingStore();
    for (let i = 0; i < 30; i++) mkdirSync(join(root, 'projects', `svc${String(i).padStart(2, '0')}`));
    const r = await runMain(['--store', root, 'invariant', 'list', '--project', 'warehouse'], { cwd: root });
    expect(r.code).toBe(2);
    const hint = r.stderr.split('\n').find((l) => l.startsWith('hint:'))!;
    expect(hint).toContain('Known projects: billing, myapp, svc00, svc01, svc02, svc03, svc04, svc05, svc06, svc07 and 22 more (');
    expect(hint).not.toContain('svc08');
    const j = await runMain(['--store', root, '--format', 'json', 'invariant', 'list', '--project', 'warehouse'], { cwd: root });
    expect((jsonError(j.stdout).error.detail as { known: string[] }).known).toHaveLength(32);
  });

  it('an unknown project with no close name suggests nothing unrelated', async () => {
    const root = billingStore();
    const j = await runMain(['--store', root, '--format', 'json', 'invariant', 'list', '--effective', '--project', 'warehouse'], {
      cwd: root,
    });
    expect(j.code).toBe(2);
    expect(jsonError(j.stdout).error.detail).toMatchObject({ suggestions: [] });
  });

  it('an existing project, even an empty one, reads as before', async () => {
    const root = billingStore();
    mkdirSync(join(root, 'projects', 'empty'));
    for (const p of ['billing', 'myapp', 'empty']) {
      expect((await runMain(['--store', root, 'invariant', 'list', '--effective', '--project', p], { cwd: root })).code).toBe(0);
    }
  });

  it('adding to a new project creates it and says so on stderr', async () => {
    const root = billingStore();
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'add', '--project', 'warehouse', 'Count twice'], {
      cwd: root,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('agents: created project warehouse (projects/warehouse/)\n');
    expect(JSON.parse(r.stdout)).toMatchObject({ project: 'warehouse', created_project: 'warehouse' });
    const again = await runMain(['--store', root, '--format', 'json', 'invariant', 'add', '--project', 'warehouse', 'Count three times'], {
      cwd: root,
    });
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toMatchObject({ created_project: null });
  });

  it.each([
    ['one edit away', 'biling', ['billing']],
    ['two edits away', 'bilings', ['billing']],
    ['equal ignoring separators', 'bill-ing', ['billing']],
    ['equal ignoring separators (underscore)', 'my_app', ['myapp']],
  ])('a new project name close to an existing one is refused unless --new-project: %s', async (_name, project, suggestions) => {
    const root = billingStore();
    const before = storeState(root);
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'add', '--project', project, 'Count twice'], { cwd: root });
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout).error).toMatchObject({ code: 'close-project-name', detail: { project, suggestions } });
    expect(storeState(root)).toEqual(before);
    const forced = await runMain(['--store', root, 'invariant', 'add', '--project', project, '--new-project', 'Count twice'], {
      cwd: root,
    });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toBe(`agents: created project ${project} (projects/${project}/)\n`);
  });

  it('an action template that does not exist is unknown-action to list and plan use, with the closest names; nothing written', async () => {
    const root = exampleStore();
    const before = storeState(root);
    for (const args of [
      ['invariant', 'list', '--action', 'local/code-coverag'],
      ['plan', 'use', 'local/code-coverag'],
    ]) {
      const r = await runMain(['--store', root, '--format', 'json', ...args], { cwd: root });
      expect(r.code, args.join(' ')).toBe(2);
      expect(jsonError(r.stdout).error).toMatchObject({
        code: 'unknown-action',
        detail: { action: 'local/code-coverag', suggestions: ['local/code-coverage'], known: ['local/code-coverage'] },
      });
    }
    // A template that exists and holds no invariant is listed as empty, not refused.
    mkdirSync(join(root, 'actions', 'local', 'empty'));
    writeFileSync(join(root, 'actions', 'local', 'empty', 'action.yaml'), '{}\n');
    expect((await runMain(['--store', root, 'invariant', 'list', '--action', 'local/empty'], { cwd: root })).code).toBe(0);
    rmSync(join(root, 'actions', 'local', 'empty'), { recursive: true });
    expect(storeState(root)).toEqual(before);
  });

  it('add and move to a new action template named like an existing one are refused until action add creates it', async () => {
    const root = exampleStore();
    const before = storeState(root);
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    for (const args of [
      ['invariant', 'add', '--action', 'local/code-coverag', 'Run the slow tests'],
      ['invariant', 'move', id, '--action', 'local/code-coverag'],
    ]) {
      const r = await runMain(['--store', root, '--format', 'json', ...args], { cwd: root });
      expect(r.code, args.join(' ')).toBe(2);
      expect(jsonError(r.stdout).error).toMatchObject({
        code: 'close-action-name',
        detail: { action: 'local/code-coverag', suggestions: ['local/code-coverage'] },
      });
    }
    expect(storeState(root)).toEqual(before);
    // A name close to none is a new template, made by its first invariant; one made on purpose takes invariants too.
    expect(
      (await runMain(['--store', root, 'invariant', 'add', '--action', 'ops/rollback', 'Keep the last release'], { cwd: root })).code,
    ).toBe(0);
    expect((await runMain(['--store', root, 'action', 'add', 'local/code-coverag'], { cwd: root })).code).toBe(0);
    const added = await runMain(['--store', root, 'invariant', 'add', '--action', 'local/code-coverag', 'Run the slow tests'], {
      cwd: root,
    });
    expect(added.code, added.stderr).toBe(0);
  });

  it('at a terminal, add --project with a typo is refused before the form opens', async () => {
    const root = billingStore();
    const before = storeState(root);
    let stderr = '';
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
    const code = await main(['--store', root, 'invariant', 'add', '--project', 'biling'], {
      stdout: { write: () => true, isTTY: true, columns: 80 },
      stderr: { write: (c: string) => (stderr += c) },
      stdin,
      env: { NO_COLOR: '1' },
      cwd: root,
    });
    stdin.end();
    expect(code).toBe(2);
    expect(stderr).toContain('did you mean billing?');
    expect(storeState(root)).toEqual(before);
  });

  it('an error is coloured by where it goes: stderr to a file gets no escapes though stdout is a terminal, and the other way round', async () => {
    const root = billingStore();
    const run = async (stdoutTty: boolean, stderrTty: boolean, args = ['invariant', 'list', '--project', 'biling']) => {
      let stderr = '';
      const stdin = new PassThrough();
      stdin.end();
      const code = await main(['--store', root, ...args], {
        stdout: { write: () => true, isTTY: stdoutTty, columns: 80 },
        stderr: { write: (c: string) => (stderr += c), isTTY: stderrTty },
        stdin,
        env: {},
        cwd: root,
      });
      expect(code).toBe(2);
      return stderr;
    };
    expect(await run(true, false)).not.toContain('\x1b[');
    expect(await run(false, true)).toContain('\x1b[');
    // --no-color holds for an error the parse itself finds, before it has read the option.
    expect(await run(true, true, ['--no-color', 'invariant', 'lst'])).not.toContain('\x1b[');
    expect(await run(true, true, ['invariant', 'list', '--project', '--no-color'])).not.toContain('\x1b[');
  });

  it('--store naming a folder that is not a store: exit 2 with a hint, nothing written there', async () => {
    const dir = tempDir();
    const root = join(dir, '.agents');
    mkdirSync(join(root, 'global'), { recursive: true });
    const before = storeState(dir);
    for (const args of [
      ['invariant', 'add', '--global', 'Never read secrets'],
      ['invariant', 'list'],
      ['plan', 'use', 'local/x'],
    ]) {
      const r = await runMain(['--store', dir, '--format', 'json', ...args], { cwd: dir });
      expect(r.code).toBe(2);
      const doc = jsonError(r.stdout);
      expect(doc.error.code).toBe('not-a-store');
      expect(doc.error.hint).toContain(`--store ${join(dir, '.agents')}`);
      const env = await runMain(['--format', 'json', ...args], { cwd: dir, env: { AGENTS_STORE: dir } });
      expect(env.code).toBe(2);
      expect(jsonError(env.stdout).error.code).toBe('not-a-store');
    }
    const empty = tempDir();
    const r = await runMain(['--store', empty, '--format', 'json', 'invariant', 'add', '--global', 'Never read secrets'], { cwd: empty });
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout).error.code).toBe('not-a-store');
    expect(storeState(empty)).toEqual({});
    expect(storeState(dir)).toEqual(before);
  });

  it("a .agents/ found by searching that holds no store (another tool's) is passed over, never written into", async () => {
    const home = tempDir();
    mkdirSync(join(home, '.agents/skills'), { recursive: true });
    const project = join(home, 'project');
    mkdirSync(project);
    const before = storeState(home);
    for (const args of [['invariant', 'add', '--global', 'Never read secrets'], ['validate']]) {
      const r = await runMain(['--format', 'json', ...args], { cwd: project });
      expect(r.code, args.join(' ')).toBe(2);
      expect(jsonError(r.stdout).error.detail, args.join(' ')).toEqual({ passed: join(home, '.agents') });
    }
    expect(storeState(home)).toEqual(before);
    // A store above it is the one found.
    const outer = tempDir();
    mkdirSync(join(outer, '.agents/global'), { recursive: true });
    const inner = join(outer, 'tool');
    mkdirSync(join(inner, '.agents/skills'), { recursive: true });
    const r = await runMain(['--format', 'json', 'invariant', 'add', '--global', 'Never read secrets'], { cwd: inner });
    expect(r.code).toBe(0);
    expect(readdirSync(join(outer, '.agents/global'))).toHaveLength(1);
    expect(readdirSync(join(inner, '.agents'))).toEqual(['skills']);
  });
});

describe('closest names (src/core/closest.ts)', () => {
  it.each([
    ['billing', 'biling', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['same', 'same', 0],
  ])('editDistance(%j, %j) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('stops early past a bound', () => {
    expect(editDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
  });

  it.each([
    ['biling', 'billing', true],
    ['bill-ing', 'billing', true],
    ['Billing', 'billing', true],
    ['web', 'wed', true],
    ['qa', 'ui', false],
    ['myapp', 'billing', false],
    ['billing', 'billing', false],
  ])('isCloseName(%j, %j) = %s', (a, b, close) => {
    expect(isCloseName(a, b)).toBe(close);
  });

  it('ranks fold-equal, then by edits, then prefixes; nothing unrelated', () => {
    expect(closestNames('biling', ['myapp', 'billing', 'bling', 'billings'])).toEqual(['billing', 'bling', 'billings']);
    expect(closestNames('edit', ['add', 'list', 'ls', 'show', 'remove', 'rm', 'diff', 'log', 'violation'])).toEqual([]);
    expect(closestNames('sync', ['use', 'list', 'ls', 'show', 'strategize', 'decisions', 'status'])).toEqual([]);
    expect(closestNames('stat', ['status', 'show'])).toEqual(['status']);
  });
});

describe('CLI consistency', () => {
  const groupWords = GROUPS.map((g) => g.name.split(' '));
  const commandWords = COMMANDS.map((c) => [
    ...(c.group ? c.group.split(' ') : []),
    (typeof c.command === 'string' ? c.command : c.command[0]!).split(' ')[0]!,
  ]);

  it('-h prints exactly what --help prints, for every command and group', async () => {
    const cwd = tempDir();
    for (const words of [[], ...groupWords, ...commandWords]) {
      const long = await runMain([...words, '--help'], { cwd });
      const short = await runMain([...words, '-h'], { cwd });
      expect(short, words.join(' ')).toEqual(long);
      expect(short.code).toBe(0);
      expect(short.stdout).toContain('--help');
    }
  });

  it.each([
    [['invariant', 'explode', 'X'], 'invariant explode', []],
    [['plan', 'rewind', 'X'], 'plan rewind', []],
    [['invariant', 'lst'], 'invariant lst', ['invariant list', 'invariant ls']],
    [['plan', 'stauts', 'X'], 'plan stauts', ['plan status']],
    [['invarant', 'list'], 'invarant', ['invariant']],
    [['invariant', 'violation', 'ad'], 'invariant violation ad', ['invariant violation add']],
  ])('an unknown subcommand %j suggests a real one by spelling, or none', async (args, command, suggestions) => {
    const r = await runMain(['--format', 'json', ...args], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout).error).toMatchObject({
      code: 'unknown-command',
      message: `unknown command "${command}"`,
      detail: { command, suggestions },
    });
    const text = await runMain(args, { cwd: tempDir() });
    if (suggestions.length === 0) expect(text.stderr).not.toContain('Did you mean');
    else expect(text.stderr).toContain(`Did you mean \`agents ${suggestions[0]}\``);
  });

  it('remove --yes says which copies come back into effect, as the confirmation does', async () => {
    const root = exampleStore();
    // A fresh shadowing pair: a project copy of a global text.
    const add = async (...args: string[]) =>
      JSON.parse((await runMain(['--store', root, '--format', 'json', 'invariant', 'add', ...args], { cwd: root })).stdout);
    const global = await add('--global', 'Run the linter');
    const project = await add('--project', 'myapp', 'Run the linter');
    const r = await runMain(['--store', root, 'invariant', 'remove', '--yes', project.id], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('back in effect');
    expect(r.stdout).toContain(`global ${global.id}  global/${global.id}.yaml`);
    const again = await add('--project', 'myapp', 'Run the linter');
    const j = await runMain(['--store', root, '--format', 'json', 'invariant', 'remove', '--yes', again.id], { cwd: root });
    expect(JSON.parse(j.stdout).back_in_effect).toEqual([{ id: global.id, scope: 'global', path: `global/${global.id}.yaml` }]);
    const lone = await runMain(['--store', root, '--format', 'json', 'invariant', 'remove', '--yes', global.id], { cwd: root });
    expect(JSON.parse(lone.stdout).back_in_effect).toEqual([]);
  });
});

describe('--format json: one error document for every exit code', () => {
  it('1: a check failed (duplicate)', async () => {
    const root = exampleStore();
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'add', '--global', 'never delete   PRODUCTION data'], {
      cwd: root,
    });
    expect(r.code).toBe(1);
    expect(jsonError(r.stdout)).toMatchObject({
      exit_code: 1,
      error: { code: 'duplicate', detail: { existing_id: '01M8KJT9G0XNWEM589ZS7FV0VT' } },
    });
    expect(r.stderr).toMatch(/^error: duplicate: global already holds this text as 01M8KJT9G0XNWEM589ZS7FV0VT\n/);
  });

  it('2: usage (no store, unknown id, bad flag)', async () => {
    const cwd = tempDir();
    const none = await runMain(['--format', 'json', 'invariant', 'list'], { cwd });
    expect(none.code).toBe(2);
    expect(jsonError(none.stdout)).toMatchObject({ exit_code: 2, error: { code: 'usage', detail: null } });
    const root = exampleStore();
    const unknown = await runMain(['--store', root, '--format=json', 'invariant', 'show', '7ZZZZ'], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(jsonError(unknown.stdout).error.hint).toContain('agents invariant list');
    const flag = await runMain(['--format', 'json', 'invariant', 'list', '--no-such-flag'], { cwd });
    expect(flag.code).toBe(2);
    expect(jsonError(flag.stdout).error.message).toContain('no-such-flag');
  });

  it('3: the store holds invalid files, with the diagnostics in detail', async () => {
    const root = testStore({
      'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml': 'id: 01M8KJW430VF8WCABSB8RTQ8RY\ntext: Log all changes\nseverity: fatal\n',
    });
    const r = await runMain(['--store', root, '--format', 'json', 'invariant', 'list', '--effective', '--project', 'myapp'], { cwd: root });
    expect(r.code).toBe(3);
    const doc = jsonError(r.stdout);
    expect(doc).toMatchObject({ exit_code: 3, error: { code: 'invalid-store' } });
    expect(doc.error.detail?.diagnostics).toEqual([
      expect.objectContaining({ code: 'schema', file: 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml', line: 3, col: 11, severity: 'error' }),
    ]);
  });

  it('70: an internal error prints the document too (the trace only on stderr)', async () => {
    let stdout = '';
    let stderr = '';
    const stdin = new PassThrough();
    stdin.end();
    const code = await main(['--format', 'json', 'invariant', 'list'], {
      stdout: {
        write: (c: string) => (stdout += c),
        // A terminal whose state cannot be read: an exception no command expects.
        get isTTY(): boolean {
          throw new Error('the terminal went away');
        },
      },
      stderr: { write: (c: string) => (stderr += c) },
      stdin,
      env: { NO_COLOR: '1' },
      cwd: tempDir(),
    });
    expect(code).toBe(70);
    expect(jsonError(stdout)).toMatchObject({ exit_code: 70, error: { code: 'internal', detail: { error: 'the terminal went away' } } });
    expect(stdout).not.toContain('    at ');
    expect(stderr).toContain('internal error: this is a bug in agents');
  });

  it('130: cancelled in a real terminal (Ctrl-C in the add form)', async () => {
    const root = exampleStore();
    const pty = PtySession.start(['--store', root, '--format', 'json', 'invariant', 'add', '--global'], {
      cwd: root,
      columns: 100,
      rows: 40,
    });
    await pty.waitFor(/text|Text/);
    pty.keys('C-c');
    const done = await pty.exit();
    expect(done.code).toBe(130);
    const screen = done.screen.replace(/\n/g, ' ');
    expect(screen).toMatch(/"ok": false,\s+"exit_code": 130,\s+"error": \{\s+"code": "cancelled"/);
  });

  it('text output prints nothing on stdout for a failure', async () => {
    const r = await runMain(['invariant', 'list', '--project'], { cwd: tempDir() });
    expect(r.stdout).toBe('');
  });
});
