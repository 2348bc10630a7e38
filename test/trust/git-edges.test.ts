// Git and export edges (issue 30, E).
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('init --hooks and core.hooksPath', () => {
  it('refuses a hooks folder outside the repository (a global core.hooksPath): exit 2, nothing written', async () => {
    const dir = tempDir();
    const shared = join(dir, 'githooks');
    mkdirSync(shared);
    const globalConfig = join(dir, 'gitconfig');
    writeFileSync(globalConfig, `[core]\n\thooksPath = ${shared}\n`);
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    gitInit(repo);
    const r = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo, env: { GIT_CONFIG_GLOBAL: globalConfig } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('hooks-outside-repository');
    expect(readdirSync(shared)).toEqual([]);
    expect(existsSync(join(repo, '.agents'))).toBe(false);
  });

  it('installs into a hooks folder inside the repository (core.hooksPath .githooks), which git keeps LF: added under core.safecrlf, run after a CRLF checkout', async () => {
    const repo = tempDir();
    gitInit(repo);
    appendFileSync(join(repo, '.git/config'), '[core]\n\thooksPath = .githooks\n\tautocrlf = true\n\tsafecrlf = true\n');
    mkdirSync(join(repo, '.githooks'));
    writeFileSync(join(repo, '.githooks/.gitattributes'), '*.sh text eol=lf');
    const r = await runAgents(['--format', 'json', 'init', '--hooks'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(repo, '.githooks/pre-commit'))).toBe(true);
    // The owner's line stays; ours follow it.
    expect(readFileSync(join(repo, '.githooks/.gitattributes'), 'utf8')).toMatch(
      /^\*\.sh text eol=lf\n#.*\n\.gitattributes text eol=lf\npre-commit text eol=lf\n/,
    );
    // git refuses (exit 128) a file a checkout would turn CRLF; the hook checked out again is one sh runs.
    git(repo, 'add', '-A');
    rmSync(join(repo, '.githooks'), { recursive: true });
    git(repo, 'checkout', '--', '.githooks');
    expect(readFileSync(join(repo, '.githooks/pre-commit'), 'utf8')).not.toContain('\r');
    expect(JSON.parse(r.stdout).hook.attributes).toBe(join(repo, '.githooks/.gitattributes'));
    expect(JSON.parse((await runAgents(['--format', 'json', 'init', '--hooks'], { cwd: repo })).stdout).hook.attributes).toBe(null);
  });
  it('adds its lines to a hooks .gitattributes of mixed line ends in those most of its lines have, as every writer does', async () => {
    const repo = tempDir();
    gitInit(repo);
    appendFileSync(join(repo, '.git/config'), '[core]\n\thooksPath = .githooks\n');
    mkdirSync(join(repo, '.githooks'));
    // One CRLF line pasted into an LF file: the lines added are LF, as the file's others.
    writeFileSync(join(repo, '.githooks/.gitattributes'), '*.sh text eol=lf\r\n*.py text\n*.md text\n');
    expect((await runAgents(['init', '--hooks'], { cwd: repo })).code).toBe(0);
    const added = readFileSync(join(repo, '.githooks/.gitattributes'), 'utf8').split('*.md text\n')[1]!;
    expect(added).toContain('pre-commit text eol=lf\n');
    expect(added).not.toContain('\r');
  });
});

describe('init in a submodule not checked out', () => {
  it('refuses the empty folder git holds as a gitlink (a fresh clone without --recurse-submodules): exit 2, nothing made there', async () => {
    const repo = tempDir();
    gitInit(repo);
    writeFileSync(join(repo, '.gitmodules'), '[submodule "policy"]\n\tpath = .agents\n\turl = ./policy\n');
    git(repo, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},.agents`);
    git(repo, 'add', '.gitmodules');
    git(repo, 'commit', '-qm', 'the store as a submodule');
    mkdirSync(join(repo, '.agents'));
    const r = await runAgents(['init', '--format', 'json'], { cwd: repo });
    expect([r.code, JSON.parse(r.stdout).error.code, JSON.parse(r.stdout).error.detail]).toEqual([
      2,
      'submodule-not-checked-out',
      { folder: '.agents' },
    ]);
    expect(readdirSync(join(repo, '.agents'))).toEqual([]);
    // Every other command finding its store there says the same, from the top, inside the folder, or told it by --store.
    for (const [args, cwd] of [
      [['validate'], repo],
      [['invariant', 'list'], join(repo, '.agents')],
      [['--store', '.agents', 'validate'], repo],
    ] as const) {
      const other = await runAgents(['--format', 'json', ...args], { cwd });
      expect([other.code, JSON.parse(other.stdout).error.code, JSON.parse(other.stdout).error.detail], args.join(' ')).toEqual([
        2,
        'submodule-not-checked-out',
        { folder: '.agents' },
      ]);
    }
  });

  it('refuses a store below a gitlink that holds a folder already (shared/.agents made first), and names a store an older version made there instead of reading it', async () => {
    const repo = tempDir();
    gitInit(repo);
    writeFileSync(join(repo, '.gitmodules'), '[submodule "shared"]\n\tpath = shared\n\turl = ./shared\n');
    git(repo, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},shared`);
    git(repo, 'add', '.gitmodules');
    git(repo, 'commit', '-qm', 'a submodule');
    mkdirSync(join(repo, 'shared/.agents'), { recursive: true });
    for (const store of ['shared/.agents', 'shared/docs/.agents']) {
      const r = await runAgents(['init', '--store', store, '--format', 'json'], { cwd: repo });
      expect([r.code, JSON.parse(r.stdout).error.code, JSON.parse(r.stdout).error.detail], store).toEqual([
        2,
        'submodule-not-checked-out',
        { folder: 'shared' },
      ]);
    }
    expect(readdirSync(join(repo, 'shared'))).toEqual(['.agents']);
    expect(readdirSync(join(repo, 'shared/.agents'))).toEqual([]);
    // A store there, as an older version made it: found by the search or named, it is refused, not read.
    mkdirSync(join(repo, 'shared/.agents/global'));
    writeFileSync(join(repo, 'shared/.agents/config.yaml'), 'version: 1\n');
    for (const [args, cwd] of [
      [['invariant', 'list'], join(repo, 'shared')],
      [['--store', 'shared/.agents', 'validate'], repo],
      [['init', '--hooks', '--store', 'shared/.agents'], repo],
    ] as const) {
      const r = await runAgents(['--format', 'json', ...args], { cwd });
      expect([r.code, JSON.parse(r.stdout).error.code, JSON.parse(r.stdout).error.detail], args.join(' ')).toEqual([
        2,
        'submodule-not-checked-out',
        { folder: 'shared' },
      ]);
    }
    expect(existsSync(join(repo, '.git/hooks/pre-commit'))).toBe(false);
    // Its folder removed, the gitlink stays: a store made on its way would still be one git cannot add.
    rmSync(join(repo, 'shared'), { recursive: true });
    const gone = await runAgents(['init', '--store', 'shared/.agents', '--format', 'json'], { cwd: repo });
    expect([gone.code, JSON.parse(gone.stdout).error.code]).toEqual([2, 'submodule-not-checked-out']);
    expect(existsSync(join(repo, 'shared'))).toBe(false);
  });
});

describe('a gitlink without a line of .gitmodules', () => {
  it('is a repository of its own though its folder was never made: init --store, export, import and init --hooks refuse it (exit 2), nothing made there', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
    git(repo, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/x`);
    const init = await runAgents(['init', '--store', 'vendor/x/.agents', '--format', 'json'], { cwd: repo });
    expect([init.code, JSON.parse(init.stdout).error.code, JSON.parse(init.stdout).error.detail]).toEqual([
      2,
      'submodule-not-checked-out',
      { folder: 'vendor/x' },
    ]);
    expect((await runAgents(['project', 'add', 'vendor', '--path', 'vendor/x/**'], { cwd: repo })).code).toBe(0);
    expect((await runAgents(['invariant', 'add', '--project', 'vendor', 'Never edit vendored code.'], { cwd: repo })).code).toBe(0);
    for (const args of [['export'], ['export', '--check']]) {
      const r = await runAgents(['--format', 'json', ...args, '--target', 'agents-md'], { cwd: repo });
      const error = JSON.parse(r.stdout).error;
      expect([r.code, error.code, error.detail], args.join(' ')).toEqual([
        2,
        'export-target-refused',
        { path: 'vendor/x/AGENTS.md', reason: 'other-repository' },
      ]);
    }
    // Named to import, it is said as the repository of its own it is, not as a file of no known kind.
    const named = await runAgents(['--format', 'json', 'import', '--dry-run', 'vendor/x'], { cwd: repo });
    expect([named.code, JSON.parse(named.stdout).error.detail]).toEqual([2, { repository: 'vendor/x' }]);
    // A hooks folder there (core.hooksPath) is that repository's: no hook written into it.
    git(repo, 'config', 'core.hooksPath', 'vendor/x/hooks');
    const hooks = await runAgents(['--format', 'json', 'init', '--hooks'], { cwd: repo });
    expect([hooks.code, JSON.parse(hooks.stdout).error.code]).toEqual([2, 'hooks-outside-repository']);
    expect(existsSync(join(repo, 'vendor'))).toBe(false);
    // Its folder made and holding files without a .git (an AGENTS.md, a store an older version made): that
    // repository's all the same, as the index tells with no line of .gitmodules, in any index version.
    mkdirSync(join(repo, 'vendor/x/.agents/global'), { recursive: true });
    writeFileSync(join(repo, 'vendor/x/AGENTS.md'), 'x\n');
    for (const version of ['2', '4']) {
      git(repo, 'update-index', '--index-version', version);
      const r = await runAgents(['--format', 'json', 'export', '--target', 'agents-md'], { cwd: repo });
      expect([r.code, JSON.parse(r.stdout).error.detail], version).toEqual([2, { path: 'vendor/x/AGENTS.md', reason: 'other-repository' }]);
    }
    expect(readFileSync(join(repo, 'vendor/x/AGENTS.md'), 'utf8')).toBe('x\n');
    const found = await runAgents(['--format', 'json', 'invariant', 'list'], { cwd: join(repo, 'vendor/x') });
    expect([found.code, JSON.parse(found.stdout).error.code, JSON.parse(found.stdout).error.detail]).toEqual([
      2,
      'submodule-not-checked-out',
      { folder: 'vendor/x' },
    ]);
  });
});

describe('reserved project names', () => {
  it.each(['global', 'plans', 'inherited'])(
    'project %s is refused by project add and invariant add (exit 2), and is a bad-name in validate',
    async (name) => {
      const repo = tempDir();
      gitInit(repo);
      expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
      const add = await runAgents(['project', 'add', name], { cwd: repo });
      expect(add.code).toBe(2);
      expect(existsSync(join(repo, '.agents/projects', name))).toBe(false);
      expect((await runAgents(['invariant', 'add', '--project', name, 'Keep it'], { cwd: repo })).code).toBe(2);
      mkdirSync(join(repo, '.agents/projects', name));
      const id = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
      writeFileSync(join(repo, '.agents/projects', name, `${id}.yaml`), `id: ${id}\ntext: Keep it\n`);
      const v = await runAgents(['validate', '--format', 'json'], { cwd: repo });
      expect(v.code).toBe(1);
      expect(JSON.parse(v.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('bad-name');
    },
  );
});

describe('a partial clone whose remote cannot be reached', () => {
  it('invariant diff, guard check and invariant log of commits whose files or trees were never fetched: exit 2, promisor-unreachable, no internal error', async () => {
    const dir = tempDir();
    const source = join(dir, 'source');
    mkdirSync(source);
    gitInit(source);
    git(source, 'config', 'uploadpack.allowFilter', 'true');
    expect((await runAgents(['init'], { cwd: source })).code).toBe(0);
    const added = await runAgents(['invariant', 'add', '--global', 'Never delete production data', '--format', 'json'], { cwd: source });
    commitAll(source, 'first');
    const id = JSON.parse(added.stdout).id as string;
    expect((await runAgents(['invariant', 'edit', id, '--text', 'Never drop production tables'], { cwd: source })).code).toBe(0);
    commitAll(source, 'second');
    // The checkout fetches HEAD's files only: the first commit's text of the invariant stays on the remote.
    const clone = join(dir, 'clone');
    git(dir, 'clone', '-q', '--filter=blob:none', `file://${source}`, clone);
    // Without trees too: git log itself then fails, which invariant log once took for an invariant no commit holds.
    const treeless = join(dir, 'treeless');
    git(dir, 'clone', '-q', '--filter=tree:0', `file://${source}`, treeless);
    renameSync(source, `${source}-gone`);
    const log = await runAgents(['invariant', 'log', id, '--format', 'json'], { cwd: treeless });
    expect(JSON.parse(log.stdout).error.code).toBe('promisor-unreachable');
    expect(log.code).toBe(2);
    for (const args of [
      ['invariant', 'diff', 'HEAD~1..HEAD'],
      ['guard', 'check', 'HEAD~1..HEAD'],
    ]) {
      const r = await runAgents([...args, '--format', 'json'], { cwd: clone });
      expect({ args, code: JSON.parse(r.stdout).error.code }).toEqual({ args, code: 'promisor-unreachable' });
      expect(r.code).toBe(2);
    }
  });
});

describe('a damaged index', () => {
  it('guard check --staged, invariant diff --staged and validate --staged say so with the way to rebuild it: exit 2, index-damaged, not a range to name or a revision to fetch', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
    commitAll(repo, 'store');
    const index = join(repo, '.git/index');
    writeFileSync(index, 'garbage\n');
    for (const args of [
      ['guard', 'check', '--staged'],
      ['invariant', 'diff', '--staged'],
      ['validate', '--staged'],
    ]) {
      const r = await runAgents([...args, '--format', 'json'], { cwd: repo });
      expect({ args, code: r.code, error: JSON.parse(r.stdout).error }).toMatchObject({
        args,
        code: 2,
        error: { code: 'index-damaged', detail: { index } },
      });
    }
    expect(readFileSync(index, 'utf8')).toBe('garbage\n');
  });
});
