import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { git, GIT_ENV, gitInit } from '../helpers/git.ts';
import { userSetup } from '../helpers/hermetic-env.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';
import { B1, exportedRepo, inv } from '../export/repo.ts';
import { runAgents } from '../helpers/main.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const FILE = `.agents/global/${A}.yaml`;
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const GOOD = ML + invariantYaml(A, 'Never delete production data');
const BAD = `${ML}id: ${A}\ntext: Never delete production data\nseverity: fatal\n`;

/** `git commit` as a person runs it: hooks on, `agents` found on PATH. */
function commit(repo: string, message: string, path: string): { code: number; out: string } {
  const r = spawnSync('git', ['commit', '-m', message], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV, PATH: path, NO_COLOR: '1' },
  });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
}

function agentsOnPath(): string {
  const bin = tempDir();
  symlinkSync(BIN, join(bin, 'agents'));
  return `${bin}:${process.env.PATH}`;
}

describe('the plain git hook (agents init --hooks)', () => {
  it('blocks a commit of a bad file and lets it through once fixed', async () => {
    const repo = tempDir();
    gitInit(repo);
    const init = await runAgents(['init', '--hooks'], { cwd: repo });
    expect(init.code).toBe(0);
    const hook = join(repo, '.git/hooks/pre-commit');
    expect(readFileSync(hook, 'utf8')).toMatch(/^#!\/bin\/sh\n# agents-pre-commit-hook\n/);
    const path = agentsOnPath();
    writeFileSync(join(repo, FILE), BAD);
    git(repo, 'add', '-A');
    const blocked = commit(repo, 'bad', path);
    expect(blocked.code).toBe(1);
    expect(blocked.out).toContain(`.agents/global/${A}.yaml:4:11  error  schema  severity must be one of "error", "warning", "info"`);
    expect(() => git(repo, 'rev-parse', '--verify', 'HEAD')).toThrow();
    // Fixed on disk but not staged: still blocked, the hook checks what is committed.
    writeFileSync(join(repo, FILE), GOOD);
    expect(commit(repo, 'still bad', path).code).toBe(1);
    git(repo, 'add', FILE);
    const passed = commit(repo, 'good', path);
    expect(passed.out).toMatch(/ok {2}no problems in \d+ files \(index\)/);
    expect(passed.code).toBe(0);
    expect(git(repo, 'log', '--format=%s').trim()).toBe('good');
    // Three real commits, each running the hook: while the agent-CLI and npm-install tests load the machine at the
    // start of the suite they have taken longer than the default bound, which is meant for a hang.
  }, 120_000);

  it('blocks a merge git commits itself whose two sides pass alone (the same text added to one scope on each)', async () => {
    const repo = tempDir();
    gitInit(repo);
    const init = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
    expect(JSON.parse(init.stdout).hook.merge_hook).toEqual({ path: join(repo, '.git/hooks/pre-merge-commit'), action: 'installed' });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'store', '--no-verify');
    const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
    for (const [branch, id] of [
      ['one', A],
      ['two', B],
    ] as const) {
      git(repo, 'checkout', '-qb', branch, 'main');
      writeFileSync(join(repo, `.agents/global/${id}.yaml`), ML + invariantYaml(id, 'Tag every release'));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', branch, '--no-verify');
    }
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'merge', '-q', 'one');
    // One real merge, running the hooks as `git pull` would: the store it would record holds one text twice.
    const r = spawnSync('git', ['merge', '--no-edit', 'two'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, ...GIT_ENV, PATH: agentsOnPath(), NO_COLOR: '1' },
    });
    expect(r.stdout + r.stderr).toContain('duplicate-text');
    expect(r.status).toBe(1);
    expect(git(repo, 'log', '--format=%s').trim().split('\n')).toEqual(['one', 'store']);
    // A pre-merge-commit hook of another origin is left alone, and said so; the pre-commit hook is still ours.
    git(repo, 'merge', '--abort');
    writeFileSync(join(repo, '.git/hooks/pre-merge-commit'), '#!/bin/sh\nexec make lint\n');
    const kept = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout).hook).toMatchObject({ action: 'unchanged', merge_hook: { action: 'kept' } });
    expect(readFileSync(join(repo, '.git/hooks/pre-merge-commit'), 'utf8')).toBe('#!/bin/sh\nexec make lint\n');
  }, 120_000);

  it('lets through a commit on a branch without the store, and one that removes the store', async () => {
    const repo = tempDir();
    gitInit(repo);
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-qm', 'base');
    git(repo, 'branch', 'old');
    expect((await runAgents(['init', '--hooks'], { cwd: repo })).code).toBe(0);
    const path = agentsOnPath();
    git(repo, 'add', '-A');
    expect(commit(repo, 'store', path).code).toBe(0);
    git(repo, 'checkout', '-q', 'old');
    writeFileSync(join(repo, 'a.txt'), 'b\n');
    git(repo, 'add', 'a.txt');
    const unrelated = commit(repo, 'unrelated', path);
    expect(unrelated.out).not.toContain('error');
    expect(unrelated.code).toBe(0);
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'rm', '-rq', '.agents');
    expect(commit(repo, 'remove the store', path).code).toBe(0);
    expect(git(repo, 'log', '--format=%s').trim().split('\n')).toEqual(['remove the store', 'store', 'base']);
    // Four real commits, each running the hook (see above).
  }, 120_000);

  it('installs into an existing store, updates its own hook, and never overwrites a foreign one', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
    const first = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: [], hook: { action: 'installed' } });
    expect(JSON.parse((await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo })).stdout).hook.action).toBe('unchanged');
    const hook = join(repo, '.git/hooks/pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexec make lint\n');
    chmodSync(hook, 0o755);
    const refused = await runAgents(['init', '--hooks'], { cwd: repo });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/a pre-commit hook that agents did not install already exists/);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nexec make lint\n');
  });

  it('in a repository with a foreign hook, refuses before the store is made: exit 2, no store, the hook as it was', async () => {
    const repo = tempDir();
    gitInit(repo);
    const hook = join(repo, '.git/hooks/pre-commit');
    mkdirSync(join(repo, '.git/hooks'), { recursive: true });
    writeFileSync(hook, '#!/bin/sh\nexec make lint\n');
    chmodSync(hook, 0o755);
    const r = await runAgents(['init', '--hooks', '--actor', 'none', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).ok).toBe(false);
    expect(existsSync(join(repo, '.agents'))).toBe(false);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nexec make lint\n');
    // Without --hooks the store is made, and the hook left alone.
    expect((await runAgents(['init', '--actor', 'none'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nexec make lint\n');
  });

  it('checks what the store folder holds before --hooks or --schemas writes anything', async () => {
    const json = async (args: string[], cwd: string) => {
      const r = await runAgents([...args, '--format', 'json'], { cwd });
      return { code: r.code, doc: JSON.parse(r.stdout) };
    };
    const hook = (repo: string) => join(repo, '.git/hooks/pre-commit');
    // Another tool's .agents/: refused as `init` alone refuses it, no hook and no schemas written beside it.
    const other = tempDir();
    gitInit(other);
    mkdirSync(join(other, '.agents/skills'), { recursive: true });
    for (const args of [
      ['init', '--hooks'],
      ['init', '--schemas'],
    ]) {
      const r = await json(args, other);
      expect(r.code).toBe(2);
      expect(r.doc.error.code).toBe('not-a-store');
    }
    expect(existsSync(hook(other))).toBe(false);
    expect(existsSync(join(other, '.agents/schemas'))).toBe(false);
    // An empty folder is made a store, as `init` alone makes it, with the hook.
    const empty = tempDir();
    gitInit(empty);
    mkdirSync(join(empty, '.agents'));
    const made = await json(['init', '--hooks', '--actor', 'none'], empty);
    expect(made.code).toBe(0);
    expect(made.doc.created).toContain('config.yaml');
    expect(existsSync(join(empty, '.agents/config.yaml'))).toBe(true);
    expect(existsSync(hook(empty))).toBe(true);
    // In an existing store the actor flags would change nothing: exit 2, the hook not installed, config.yaml as it was.
    const store = tempDir();
    gitInit(store);
    expect((await runAgents(['init', '--actor', 'none'], { cwd: store })).code).toBe(0);
    const config = readFileSync(join(store, '.agents/config.yaml'), 'utf8');
    const actor = await json(['init', '--hooks', '--actor', 'agent', '--agent', 'claude'], store);
    expect(actor.code).toBe(2);
    expect(actor.doc.error.detail).toMatchObject({ option: 'actor' });
    expect(existsSync(hook(store))).toBe(false);
    expect(readFileSync(join(store, '.agents/config.yaml'), 'utf8')).toBe(config);
    // Without --hooks or an actor flag, an existing store is still refused whole.
    expect((await json(['init'], store)).code).toBe(2);
    // --schemas refreshes the schemas only: a flag of another mode with it is refused, not dropped.
    const schemas = await json(['init', '--schemas', '--hooks'], store);
    expect(schemas.code).toBe(2);
    expect(schemas.doc.error).toMatchObject({ code: 'conflicting-options', detail: { options: ['schemas', 'hooks'] } });
    expect(existsSync(hook(store))).toBe(false);
  });

  it('names the file a hook manager writes its hook from (husky 9, pre-commit, lefthook), not the hook it rewrites', async () => {
    const repo = tempDir();
    gitInit(repo);
    // The layout `husky` (9.1) makes: core.hooksPath .husky/_, whose wrappers source `h`, which runs .husky/<hook>.
    mkdirSync(join(repo, '.husky/_'), { recursive: true });
    writeFileSync(join(repo, '.husky/_/h'), '#!/usr/bin/env sh\n');
    writeFileSync(join(repo, '.husky/_/pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"', { mode: 0o755 });
    writeFileSync(join(repo, '.husky/pre-commit'), 'npx lint-staged\n');
    git(repo, 'config', 'core.hooksPath', '.husky/_');
    const r = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'foreign-hook',
      detail: { path: join(repo, '.husky/_/pre-commit'), edit: join(repo, '.husky/pre-commit') },
    });
    expect(existsSync(join(repo, '.agents'))).toBe(false);
    // The pre-commit framework's and lefthook's hooks are written from their config files, which are the ones to edit.
    git(repo, 'config', '--unset', 'core.hooksPath');
    mkdirSync(join(repo, '.git/hooks'), { recursive: true });
    const managed = join(repo, '.git/hooks/pre-commit');
    for (const [hook, config] of [
      ['#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n', '.pre-commit-config.yaml'],
      ['#!/bin/sh\ncall_lefthook run "pre-commit" "$@"\n', 'lefthook.yml'],
    ]) {
      writeFileSync(managed, hook!, { mode: 0o755 });
      const r = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.detail).toEqual({ path: managed, edit: join(repo, config!) });
      expect(readFileSync(managed, 'utf8')).toBe(hook);
    }
    // lefthook reads a TOML or JSON config too: that file is named, not a lefthook.yml it would not read beside it.
    for (const config of ['lefthook.toml', '.config/lefthook.json']) {
      mkdirSync(dirname(join(repo, config)), { recursive: true });
      writeFileSync(join(repo, config), '');
      const r = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
      expect(JSON.parse(r.stdout).error.detail).toEqual({ path: managed, edit: join(repo, config) });
      rmSync(join(repo, config));
    }
    // Another tool's hook is the file to edit itself.
    git(repo, 'config', 'core.hooksPath', '.husky');
    const plain = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo });
    expect(plain.code).toBe(2);
    expect(JSON.parse(plain.stdout).error.detail).toEqual({ path: join(repo, '.husky/pre-commit'), edit: join(repo, '.husky/pre-commit') });
  });

  it('refuses a bare repository, which has no working tree to commit a store from, unless --store names the folder', async () => {
    const bare = tempDir();
    git(bare, 'init', '-q', '--bare');
    for (const [args, cwd] of [
      [['init'], bare],
      [['init', '--hooks'], join(bare, 'refs')],
    ] as const) {
      const r = await runAgents([...args, '--format', 'json'], { cwd });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'bare-repository', detail: { repository: bare } });
    }
    expect(existsSync(join(bare, '.agents'))).toBe(false);
    expect(existsSync(join(bare, 'refs/.agents'))).toBe(false);
    expect(existsSync(join(bare, 'hooks/pre-commit'))).toBe(false);
    const elsewhere = join(tempDir(), 'store');
    expect((await runAgents(['init', '--store', elsewhere], { cwd: bare })).code).toBe(0);
    expect(existsSync(join(elsewhere, 'config.yaml'))).toBe(true);
  });

  it('is exit 2, not-a-repository, for a store in no repository (--store outside the one it runs in), nothing written', async () => {
    const repo = tempDir();
    gitInit(repo);
    const outside = join(tempDir(), 'store');
    const r = await runAgents(['--store', outside, 'init', '--hooks', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('not-a-repository');
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(repo, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('names a store that is not .agents/ in the hook', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['--store', 'policy/store', 'init', '--hooks'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, '.git/hooks/pre-commit'), 'utf8')).toContain("exec agents validate --staged --store 'policy/store'");
  });
});

describe('the pre-commit framework manifest', () => {
  const manifest = parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];

  it('declares the hook with the fields pre-commit requires', () => {
    expect(Array.isArray(manifest)).toBe(true);
    expect(manifest).toHaveLength(3);
    const hook = manifest[0]!;
    for (const field of ['id', 'name', 'entry', 'language']) expect(typeof hook[field], field).toBe('string');
    // The index in hook mode on every commit, not the files pre-commit passes: it passes no deleted file.
    expect(hook).toMatchObject({
      id: 'agents-validate',
      entry: 'agents validate --staged',
      language: 'node',
      always_run: true,
      pass_filenames: false,
      require_serial: true,
    });
    // The entry names the package's bin.
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.bin)).toContain((hook.entry as string).split(' ')[0]);
  });

  it("is given args in docs/validation.md that add to each hook's entry, none repeating an option it has", () => {
    const page = readFileSync(join(REPO, 'docs/validation.md'), 'utf8');
    const given = [...page.matchAll(/`args: \[([^\]]*)\]`/g)].map((m) => m[1]!.split(/,\s*/).map((w) => w.trim()));
    expect(given.length).toBeGreaterThanOrEqual(2);
    for (const args of given)
      for (const hook of manifest) {
        const entry = (hook.entry as string).split(' ');
        expect({ hook: hook.id, repeated: args.filter((a) => a.startsWith('--') && entry.includes(a)) }).toEqual({
          hook: hook.id,
          repeated: [],
        });
      }
  });

  it('declares agents-guard-check: the staged diff against the guards, once per commit', () => {
    // On every commit: one that only deletes a guarded file stages nothing pre-commit passes, and would skip it.
    expect(manifest[2]).toMatchObject({
      id: 'agents-guard-check',
      entry: 'agents guard check --staged',
      language: 'node',
      always_run: true,
      pass_filenames: false,
      require_serial: true,
    });
  });

  it('declares agents-export-check: the whole export checked once, on every commit', () => {
    const hook = manifest[1]!;
    for (const field of ['id', 'name', 'entry', 'language']) expect(typeof hook[field], field).toBe('string');
    // On every commit, whatever its files: one that only removes an invariant stages nothing pre-commit passes.
    expect(hook).toMatchObject({
      id: 'agents-export-check',
      entry: 'agents export --check',
      language: 'node',
      always_run: true,
      pass_filenames: false,
      require_serial: true,
    });
  });
});

const hasPreCommit = spawnSync('pre-commit', ['--version']).status === 0;
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

describe.skipIf(!hasPreCommit && !inCi)('the real pre-commit framework, with this repository as the hook source', () => {
  // One clone of the commit under test as the hook source (as `repo:` in a user's config), and one
  // pre-commit cache: the node environment pre-commit builds for it is built once for both hooks.
  let source = '';
  let cache = '';
  let rev = '';
  beforeAll(() => {
    rev = git(REPO, 'rev-parse', 'HEAD').trim();
    source = mkdtempSync(join(tmpdir(), 'agents-hook-source-'));
    cache = mkdtempSync(join(tmpdir(), 'agents-pre-commit-home-'));
    git(source, 'clone', '-q', REPO, '.');
    git(source, 'checkout', '-q', rev);
  });
  afterAll(() => {
    for (const dir of [source, cache]) if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const commitWithHooks = (repo: string, hookId: string) => {
    writeFileSync(
      join(repo, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${source}\n    rev: ${rev}\n    hooks:\n      - id: ${hookId}\n`,
    );
    // npm, which builds the hook's environment, takes the packages from its cache without asking the
    // registry whether each is still current (it still downloads what the cache lacks), and skips the
    // security audit and funding report it would send for and print after the install.
    const env = {
      ...process.env,
      ...GIT_ENV,
      PRE_COMMIT_HOME: cache,
      NO_COLOR: '1',
      // npm's configuration, cache and proxies are the user's (the tests' own environment has none).
      ...userSetup(),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      // The certificates npm needs should it reach the registry (vitest.config.ts empties them for the rest).
      NODE_EXTRA_CA_CERTS: process.env.AGENTS_TEST_REGISTRY_CA ?? '',
    };
    expect(spawnSync('pre-commit', ['install'], { cwd: repo, env, encoding: 'utf8' }).status).toBe(0);
    return (message: string) => {
      const r = spawnSync('git', ['commit', '-m', message], { cwd: repo, env, encoding: 'utf8', timeout: 540_000 });
      return { code: r.status ?? -1, out: r.stdout + r.stderr };
    };
  };

  it('installs the node hook, blocks a bad file and passes once fixed', () => {
    expect(hasPreCommit, 'pre-commit is not installed (apt-get install pre-commit)').toBe(true);
    const repo = tempDir();
    gitInit(repo);
    mkdirSync(join(repo, '.agents/global'), { recursive: true });
    writeFileSync(join(repo, FILE), BAD);
    writeFileSync(join(repo, 'README.md'), 'not an invariant\n');
    const run = commitWithHooks(repo, 'agents-validate');
    git(repo, 'add', '-A');
    const blocked = run('bad');
    expect(blocked.out).toContain(`.agents/global/${A}.yaml:4:11  error  schema`);
    expect(blocked.out).toMatch(/agents validate\.+Failed/);
    expect(blocked.code).toBe(1);
    writeFileSync(join(repo, FILE), GOOD);
    git(repo, 'add', '-A');
    const passed = run('good');
    expect(passed.out).toMatch(/agents validate\.+Passed/);
    expect(passed.code).toBe(0);
    expect(existsSync(join(repo, '.git/refs/heads/main'))).toBe(true);
    // Slow by design (a named slow test): the pre-commit framework installs the hook's node environment first.
  }, 600_000);

  it('agents-export-check blocks a real git commit while the exported files are stale, and passes once exported', async () => {
    expect(hasPreCommit, 'pre-commit is not installed (apt-get install pre-commit)').toBe(true);
    const repo = await exportedRepo();
    const run = commitWithHooks(repo, 'agents-export-check');
    git(repo, 'add', '-A');
    expect(run('the pre-commit config').code).toBe(0);
    // The store changes, the exported files do not: the commit is blocked.
    writeFileSync(join(repo, `.agents/projects/billing/${B1}.yaml`), inv(B1, 'Amounts are integers of cents, always'));
    git(repo, 'add', '-A');
    const blocked = run('stale export');
    expect(blocked.out).toContain('services/billing/AGENTS.md: out of date');
    expect(blocked.out).toMatch(/agents export --check\.+Failed/);
    expect(blocked.code).toBe(1);
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    git(repo, 'add', '-A');
    const passed = run('exported');
    expect(passed.out).toMatch(/agents export --check\.+Passed/);
    expect(passed.code).toBe(0);
    // Slow by design (a named slow test): the pre-commit framework installs the hook's node environment first.
  }, 600_000);
});

describe.skipIf(!hasPreCommit && !inCi)("the real pre-commit framework running the manifest's hook from PATH", () => {
  // The manifest's hook as a `repo: local` hook with `language: system`: the framework runs the `agents` on PATH
  // (this build) exactly as it runs the node hook, without building a Node environment first.
  const hook = (parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[])[0]!;
  const local = [
    'repos:',
    '  - repo: local',
    '    hooks:',
    `      - id: ${hook.id as string}`,
    '        language: system',
    // Every other field as the manifest says (the framework reads them from there for a remote hook).
    ...Object.entries(hook)
      .filter(([k]) => !['id', 'language', 'description', 'minimum_pre_commit_version'].includes(k))
      .map(([k, v]) => `        ${k}: ${JSON.stringify(v)}`),
    '',
  ].join('\n');
  const hookEnvironment = () => ({
    ...process.env,
    ...GIT_ENV,
    PATH: agentsOnPath(),
    PRE_COMMIT_HOME: join(tempDir(), 'cache'),
    NO_COLOR: '1',
  });

  it('blocks a bad file in a linked worktree (git runs the hook there with GIT_DIR set) and passes once fixed', () => {
    expect(hasPreCommit, 'pre-commit is not installed (apt-get install pre-commit)').toBe(true);
    const repo = tempDir();
    gitInit(repo);
    mkdirSync(join(repo, '.agents/global'), { recursive: true });
    writeFileSync(join(repo, FILE), GOOD);
    writeFileSync(join(repo, '.pre-commit-config.yaml'), local);
    const env = hookEnvironment();
    expect(spawnSync('pre-commit', ['install'], { cwd: repo, env, encoding: 'utf8' }).status).toBe(0);
    const commitIn = (dir: string, message: string) => {
      const r = spawnSync('git', ['commit', '-m', message], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      return { code: r.status ?? -1, out: r.stdout + r.stderr };
    };
    git(repo, 'add', '-A');
    expect(commitIn(repo, 'first').code).toBe(0);
    const linked = join(tempDir(), 'linked');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', linked);
    const before = git(linked, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(linked, FILE), BAD);
    git(linked, 'add', '-A');
    const blocked = commitIn(linked, 'bad');
    expect(blocked.out).toContain(`.agents/global/${A}.yaml:4:11  error  schema`);
    expect(blocked.out).toMatch(/agents validate\.+Failed/);
    expect(blocked.code).toBe(1);
    expect(git(linked, 'rev-parse', 'HEAD').trim()).toBe(before);
    writeFileSync(join(linked, FILE), GOOD.replace('Never delete production data', 'Never delete production data or backups'));
    git(linked, 'add', '-A');
    const passed = commitIn(linked, 'good');
    expect(passed.out).toMatch(/agents validate\.+Passed/);
    expect(passed.code).toBe(0);
    expect(git(linked, 'log', '-1', '--format=%s').trim()).toBe('good');
    // Slower than most: real git commits through the pre-commit framework.
  }, 60_000);

  it('blocks a commit that deletes an invariant another one overrides, and passes one that touches no store file', () => {
    expect(hasPreCommit, 'pre-commit is not installed (apt-get install pre-commit)').toBe(true);
    const repo = tempDir();
    gitInit(repo);
    const P = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
    mkdirSync(join(repo, '.agents/global'), { recursive: true });
    mkdirSync(join(repo, '.agents/projects/web'), { recursive: true });
    writeFileSync(join(repo, FILE), GOOD);
    writeFileSync(
      join(repo, `.agents/projects/web/${P}.yaml`),
      `# yaml-language-server: $schema=../../schemas/invariant.schema.json\n${invariantYaml(P, 'Never delete production data', { overrides: A })}`,
    );
    writeFileSync(join(repo, '.pre-commit-config.yaml'), local);
    const hookEnv = hookEnvironment();
    expect(spawnSync('pre-commit', ['install'], { cwd: repo, env: hookEnv, encoding: 'utf8' }).status).toBe(0);
    const run = (message: string) => {
      const r = spawnSync('git', ['commit', '-m', message], { cwd: repo, env: hookEnv, encoding: 'utf8', timeout: 60_000 });
      return { code: r.status ?? -1, out: r.stdout + r.stderr };
    };
    git(repo, 'add', '-A');
    expect(run('base').code).toBe(0);
    git(repo, 'rm', '-q', FILE);
    const blocked = run('delete the overridden invariant');
    expect(blocked.out).toContain('overrides-unknown');
    expect(blocked.code).toBe(1);
    git(repo, 'reset', '-q', 'HEAD', '--', FILE);
    git(repo, 'checkout', '--', FILE);
    writeFileSync(join(repo, 'README.md'), 'not an invariant\n');
    git(repo, 'add', 'README.md');
    const passed = run('readme');
    expect(passed.out).toMatch(/agents validate\.+Passed/);
    expect(passed.code).toBe(0);
    // Slower than most: real git commits through the pre-commit framework.
  }, 60_000);
});
