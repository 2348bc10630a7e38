import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverStore, explicitStore, initTarget } from '../../src/store/discover.ts';
import { runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

// `--store=~/x` (bash expands no `~` after `=`), or `AGENTS_STORE: ~/x` in a CI file or an .env file, reaches the
// tool with its `~`: it is the home folder, never a folder named `~` below the current one.
describe('a store path that starts with ~', () => {
  it('--store and AGENTS_STORE: ~ and ~/… are the home folder; the current folder gets no ~ folder', () => {
    const home = tempDir();
    const cwd = tempDir();
    const env = { HOME: home };
    expect(explicitStore({ store: '~/policies', env, cwd })).toBe(join(home, 'policies'));
    expect(explicitStore({ env: { ...env, AGENTS_STORE: '~/policies' }, cwd })).toBe(join(home, 'policies'));
    expect(explicitStore({ store: '~', env, cwd })).toBe(home);
    expect(initTarget({ store: '~/policies/.agents', env, cwd })).toBe(join(home, 'policies/.agents'));
    // Only a leading ~ alone or before a separator: another user's home is not guessed, and a name merely starting with ~ is a name.
    expect(explicitStore({ store: '~other/x', env, cwd })).toBe(join(cwd, '~other/x'));
    expect(explicitStore({ store: 'a/~/x', env, cwd })).toBe(join(cwd, 'a/~/x'));
    const store = join(home, 'store');
    mkdirSync(join(store, 'global'), { recursive: true });
    expect(discoverStore({ store: '~/store', env, cwd })).toBe(store);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an empty or relative HOME is refused, never read as the current folder or one below it', async () => {
    const cwd = tempDir();
    for (const home of ['', 'relative']) {
      for (const [args, env] of [
        [['--store', '~/x'], { HOME: home }],
        [[], { HOME: home, AGENTS_STORE: '~' }],
      ] as const) {
        const r = await runAgents([...args, '--format', 'json', 'init'], { cwd, env });
        expect(r.code).toBe(2);
        expect(JSON.parse(r.stdout).error.detail).toMatchObject({ home });
      }
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a command given --store=~/… reads the store in the home folder', async () => {
    const store = testStore();
    const home = join(store, '..');
    const cwd = tempDir();
    const r = await runAgents(['--store=~/.agents', '--format', 'json', 'invariant', 'list', '--global'], { cwd, env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const e = await runAgents(['--format', 'json', 'invariant', 'list', '--global'], { cwd, env: { HOME: home, AGENTS_STORE: '~/nope' } });
    expect(e.code).toBe(2);
    expect(JSON.parse(e.stdout).error.detail.store).toBe(join(home, 'nope'));
    expect(existsSync(join(cwd, '~'))).toBe(false);
  });
});

// Node reads bytes that are not UTF-8 as U+FFFD, in the environment as in the arguments: a store made at the
// replacement's path is a folder nobody named.
describe('an AGENTS_STORE that is not UTF-8', () => {
  it('is refused (exit 2), by init too, nothing made', async () => {
    const dir = tempDir();
    for (const args of [['init'], ['invariant', 'list']]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: dir, env: { AGENTS_STORE: join(dir, 'caf\uFFFD') } });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.detail).toEqual({ store: join(dir, 'caf\uFFFD') });
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

// A path below a file can never become a store: the error names the file, and offers no init that would fail the same way.
describe('a store path below a file', () => {
  it('--store and AGENTS_STORE: no-store names the file in the way; nothing is made', async () => {
    const dir = tempDir();
    const file = join(dir, 'notes');
    writeFileSync(file, 'x\n');
    for (const [args, env] of [
      [['--store', join(file, 'sub/.agents')], {}],
      [[], { AGENTS_STORE: join(file, 'sub') }],
      [['--store', file], {}],
    ] as const) {
      const r = await runAgents([...args, '--format', 'json', 'invariant', 'list'], { cwd: dir, env });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'no-store', detail: { file } });
    }
    expect(readdirSync(dir)).toEqual(['notes']);
    // A path that is merely missing names no file: init is the way there.
    const missing = await runAgents(['--store', join(dir, 'nope'), '--format', 'json', 'invariant', 'list'], { cwd: dir });
    expect(JSON.parse(missing.stdout).error.detail).toEqual({ store: join(dir, 'nope') });
  });
});

// A file named .agents where `agents init` would make the store: the hint to run init would only be refused.
describe('a file where the store folder goes', () => {
  it('is named in the refusal of the search (detail.file)', () => {
    const top = tempDir();
    mkdirSync(join(top, '.git'));
    writeFileSync(join(top, '.agents'), "another tool's settings\n");
    let error: unknown;
    try {
      discoverStore({ cwd: top, env: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ exitCode: 2, detail: { file: join(top, '.agents') } });
  });
});

// A worktree or submodule made inside a repository with a store (`.claude/worktrees/x`): the search ends at its own top.
describe('no store up to the top of a worktree inside another repository', () => {
  it('names the top where the search stopped, not the folders above it, and says it is a linked worktree, or names the store around a nested repository', () => {
    const outer = testStore();
    const common = join(dirname(outer), '.git');
    mkdirSync(join(common, 'worktrees/old'), { recursive: true });
    writeFileSync(join(common, 'worktrees/old/commondir'), '../..\n');
    const top = join(dirname(outer), '.claude/worktrees/old');
    mkdirSync(join(top, 'src'), { recursive: true });
    writeFileSync(join(top, '.git'), `gitdir: ${join(common, 'worktrees/old')}\n`);
    const refusal = (cwd: string) => {
      try {
        discoverStore({ cwd, env: {} });
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(refusal(join(top, 'src'))).toMatchObject({ exitCode: 2, detail: { top, worktree: true } });
    // A nested repository of its own (a submodule's folder, a plain clone) is no linked worktree: the store of the
    // repository around it is named (detail.outer), where init would make a second one.
    const nested = join(dirname(outer), 'vendor/lib');
    mkdirSync(join(nested, '.git'), { recursive: true });
    expect(refusal(nested)).toMatchObject({ exitCode: 2, detail: { top: nested, outer } });
    expect((refusal(nested) as { detail: object }).detail).not.toHaveProperty('worktree');
    // A store in a folder no repository holds (a personal one, outside git) is no outer repository's: a clone below
    // it is told of no store around it.
    const personal = testStore();
    const clone = join(dirname(personal), 'src/app');
    mkdirSync(join(clone, '.git'), { recursive: true });
    expect(refusal(clone)).toMatchObject({ exitCode: 2, detail: { top: clone } });
    expect((refusal(clone) as { detail: object }).detail).not.toHaveProperty('outer');
  });
});

describe('a store path that is a folder of a store', () => {
  it('--store and AGENTS_STORE: not-a-store names the store it lies in, never read as a store of its own', async () => {
    const store = testStore({
      'global/01JDQ6X5Z8W4N3B2C1D0E9F8G7.yaml': 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8G7\ntext: Never delete production data\n',
    });
    writeFileSync(join(store, 'config.yaml'), 'version: 1\n');
    for (const [args, env] of [
      [['--store', join(store, 'global')], {}],
      [[], { AGENTS_STORE: join(store, 'projects') }],
    ] as const) {
      const r = await runAgents([...args, '--format', 'json', 'invariant', 'list'], { cwd: store, env });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'not-a-store', detail: { inside: store } });
    }
    // A folder in no store says no store.
    const elsewhere = tempDir();
    expect(
      JSON.parse((await runAgents(['--store', elsewhere, '--format', 'json', 'invariant', 'list'], { cwd: elsewhere })).stdout).error
        .detail,
    ).toEqual({
      store: elsewhere,
    });
  });
});

// The first thing a new user does after init is paste the command it suggests: it must reach the store init made.
describe('the next command init suggests', () => {
  it('reaches a store made with --store, which no search from the current folder finds', async () => {
    const cwd = tempDir();
    for (const store of ["policy store/it's", '.agents']) {
      const init = await runAgents(['init', '--store', store], { cwd });
      expect(init.code, init.stderr).toBe(0);
      const next = /^Next: agents (.*)$/m.exec(init.stdout)?.[1];
      expect(next).toBeDefined();
      const r = await runAgents([...shellWords(next as string), '--format', 'json'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).file).toBe(join(cwd, store, 'global', `${JSON.parse(r.stdout).id}.yaml`));
    }
  });
});

// A command a refusal names (OptionWords' calls), pasted where the refused one ran, must reach the store it was given.
describe('the command a refusal under --store names', () => {
  it('reaches the store given, which no search from the current folder finds', async () => {
    const cwd = tempDir();
    const store = "policy store/it's";
    expect((await runAgents(['init', '--store', store, '--actor', 'none'], { cwd })).code).toBe(0);
    const refused = await runAgents(['--store', store, '--format', 'json', 'plan', 'show', '01ZZZZ'], { cwd });
    expect(refused.code).toBe(2);
    const hint = (JSON.parse(refused.stdout) as { error: { hint: string } }).error.hint;
    const named = /`agents ([^`]+)`/.exec(hint)![1]!;
    expect(shellWords(named).slice(0, 2)).toEqual(['--store', store]);
    const r = await runAgents([...shellWords(named), '--format', 'json'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    // So does the command an empty list says makes the first one.
    const empty = await runAgents(['--store', store, 'project', 'list'], { cwd });
    const make = /`agents ([^`]+)`/.exec(empty.stdout)![1]!.replace('NAME', 'web');
    const made = await runAgents(shellWords(make), { cwd });
    expect(made.code).toBe(0);
    // And the next step it names adds to that project of that store.
    const next = /^Next: agents (.*)$/m.exec(made.stdout)![1]!.replace('…', 'Keep logs');
    const added = await runAgents([...shellWords(next), '--format', 'json'], { cwd });
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).file).toBe(join(cwd, store, 'projects/web', `${JSON.parse(added.stdout).id}.yaml`));
  });
});

// A store path that starts with `-`: a command suggested with it, pasted as it is written, must not read it as an option.
describe('a store path that starts with -', () => {
  it('the init that no-store suggests, and the command init suggests next, run as written', async () => {
    const dir = tempDir();
    const words = (command: string) => command.split(' ').slice(1);
    const missing = await runAgents(['--store=-policies', 'invariant', 'list'], { cwd: dir });
    expect(missing.code).toBe(2);
    const init = /`(agents init [^`]+)`/.exec(missing.stderr)![1]!;
    expect(init).toBe('agents init --store ./-policies');
    const made = await runAgents([...words(init), '--actor', 'none'], { cwd: dir });
    expect(made.code, made.stderr).toBe(0);
    const next = /Next: (agents .*) invariant add --global "Never delete production data"\n/.exec(made.stdout)![1]!;
    expect(next).toBe('agents --store ./-policies');
    const added = await runAgents([...words(next), 'invariant', 'add', '--global', 'Never delete production data'], { cwd: dir });
    expect(added.code, added.stderr).toBe(0);
  });
});
