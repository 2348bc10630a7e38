import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { commitAll, GIT_ENV, git, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';
import { guardedYaml, invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

// Every place the tool reads a file, given something that is not a regular
// file: a named pipe (which blocks a plain open until a writer comes), a
// device that never ends, a link, a folder. Each run that meets a FIFO or a
// device is a process bounded by a time-out that kills it; a run that had to be
// killed fails the test (it hung). The others run in this process (runHere).

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const LIMIT_MS = 10_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Whether the time-out had to kill it. */
  hung: boolean;
}

function run(args: string[], cwd: string, env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', AGENTS_LOCK_TIMEOUT_MS: '2000', ...env },
    input: '',
    encoding: 'utf8',
    timeout: LIMIT_MS,
    killSignal: 'SIGKILL',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, hung: r.signal === 'SIGKILL' };
}

/**
 * The CLI run in this process (test/helpers/main.ts), for a run that meets no FIFO or device: a link, a folder or a
 * regular file cannot block a read, so no process has to bound the run (the test's time-out does). A process costs
 * about 0.15 s of CPU, and 43 of the file's 74 runs need none.
 */
async function runHere(args: string[], cwd: string): Promise<Run> {
  const r = await runAgents(args, { cwd, env: { AGENTS_LOCK_TIMEOUT_MS: '2000' } });
  return { ...r, hung: false };
}

const fifo = (path: string) => execFileSync('mkfifo', [path]);

/** Whether anything (a dangling link too) is at `path`. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A store with one invariant in a committed git repository. */
function repoStore(): { repo: string; store: string } {
  const store = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data') });
  const repo = dirname(store);
  gitInit(repo);
  commitAll(repo, 'store');
  return { repo, store };
}

/** The errors and warnings of a JSON report, as `code file` (the test stores lack the editor modeline: info). */
function codes(stdout: string): string[] {
  return (JSON.parse(stdout) as { diagnostics: { code: string; file: string; severity: string }[] }).diagnostics
    .filter((d) => d.severity !== 'info')
    .map((d) => `${d.code} ${d.file}`);
}

describe('a FIFO where a store file belongs', () => {
  it('stops invariant diff, invariant list and validate with the file named, never waiting on it', () => {
    const { store } = repoStore();
    rmSync(join(store, `global/${A}.yaml`));
    fifo(join(store, `global/${A}.yaml`));
    const diff = run(['invariant', 'diff'], store);
    expect(diff.hung).toBe(false);
    expect(diff.code).toBe(3);
    expect(diff.stderr).toContain(`global/${A}.yaml  not-a-file`);
    const list = run(['invariant', 'list'], store);
    expect(list.hung).toBe(false);
    expect(list.code).toBe(3);
    expect(list.stderr).toContain('not-a-file');
    const validate = run(['validate', '--format', 'json'], store);
    expect(validate.hung).toBe(false);
    expect(validate.code).toBe(1);
    expect(codes(validate.stdout)).toEqual([`not-a-file global/${A}.yaml`]);
  });

  it('a folder or FIFO with a .yaml name that is no id is named for what it is (not-a-file), not for its name', () => {
    const { store } = repoStore();
    mkdirSync(join(store, 'global/notes.yaml'));
    writeFileSync(join(store, 'global/notes.yaml/a.txt'), 'x\n');
    fifo(join(store, 'global/pipe.yaml'));
    const validate = run(['validate', '--format', 'json'], store);
    expect(validate.hung).toBe(false);
    expect(validate.code).toBe(1);
    expect(codes(validate.stdout).sort()).toEqual(['not-a-file global/notes.yaml', 'not-a-file global/pipe.yaml']);
  });

  it('as config.yaml: a writing command refuses (exit 3) instead of taking the defaults, and writes nothing', () => {
    const { store } = repoStore();
    fifo(join(store, 'config.yaml'));
    const before = readdirSync(join(store, 'global')).sort();
    const add = run(['invariant', 'add', '--global', 'Keep a backup'], store);
    expect(add.hung).toBe(false);
    expect(add.code).toBe(3);
    expect(add.stderr).toContain('config.yaml  not-a-file');
    expect(readdirSync(join(store, 'global')).sort()).toEqual(before);
  });

  it("as the store's copy of a schema: validate reports it (the copies are read by path, not from a listing)", () => {
    const { store } = repoStore();
    mkdirSync(join(store, 'schemas'));
    fifo(join(store, 'schemas/invariant.schema.json'));
    const r = run(['validate', '--format', 'json'], store);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(codes(r.stdout)).toContain('not-a-file schemas/invariant.schema.json');
  });

  it('as an enforcement record: plan show stops with the record named', () => {
    const store = exampleStore();
    const dir = join(store, 'plans', EXAMPLE_PLAN, 'enforcement');
    mkdirSync(dir, { recursive: true });
    fifo(join(dir, '01M8KK6000000000000000000A.yaml'));
    const r = run(['--store', store, 'plan', 'show', EXAMPLE_PLAN], store);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`plans/${EXAMPLE_PLAN}/enforcement/01M8KK6000000000000000000A.yaml  not-a-file`);
  });
});

describe('the validation cache is read only when it is a regular file', () => {
  it.each([
    ['a FIFO', (p: string) => fifo(p)],
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
    ['a folder', (p: string) => mkdirSync(p)],
  ])('%s as the cache: validate answers as without a cache', (_, make) => {
    const { repo, store } = repoStore();
    const cache = join(repo, '.git/agents/validate-worktree.cache');
    mkdirSync(dirname(cache), { recursive: true });
    make(cache);
    const r = run(['validate', '--format', 'json'], store);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expect(codes(r.stdout)).toEqual([]);
    expect(r.stdout).toBe(run(['validate', '--format', 'json', '--no-cache'], store).stdout);
  });

  it('a FIFO as the .git file of a worktree: validate answers (without a cache)', () => {
    const store = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data') });
    fifo(join(dirname(store), '.git'));
    const r = run(['validate', '--format', 'json'], store);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expect(readdirSync(dirname(store)).sort()).toEqual(['.agents', '.git']);
  });
});

describe('plan strategize --context', () => {
  it.each([
    ['/dev/zero (a device that never ends)', () => '/dev/zero'],
    [
      'a FIFO',
      (dir: string) => {
        fifo(join(dir, 'context.md'));
        return join(dir, 'context.md');
      },
    ],
    ['a folder', (dir: string) => dir],
  ])('refuses %s at once with exit 2, reading nothing and writing nothing', (_, make) => {
    const store = exampleStore();
    const context = make(tempDir());
    const before = fileList(store);
    const r = run(['--store', store, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], store);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot read the context file .*: it is (a character device|a FIFO \(named pipe\)|a folder), not a regular file\n/,
    );
    expect(fileList(store)).toEqual(before);
  });

  it('follows a link the user names to a regular file', async () => {
    const store = exampleStore();
    const dir = tempDir();
    writeFileSync(join(dir, 'real.md'), 'We migrate the billing database.\n');
    symlinkSync(join(dir, 'real.md'), join(dir, 'context.md'));
    const r = await runHere(
      ['--store', store, 'plan', 'strategize', EXAMPLE_PLAN, '--context', join(dir, 'context.md'), '--format', 'json'],
      store,
    );
    expect(r.code).toBe(0);
  });
});

describe('init --hooks', () => {
  it('refuses a FIFO as the existing pre-commit hook with exit 2, changing nothing', () => {
    const { repo, store } = repoStore();
    mkdirSync(join(repo, '.git/hooks'), { recursive: true });
    fifo(join(repo, '.git/hooks/pre-commit'));
    const r = run(['--store', store, 'init', '--hooks'], repo);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a FIFO (named pipe), not a regular file');
    expect(lstatSync(join(repo, '.git/hooks/pre-commit')).isFIFO()).toBe(true);
  });
});

describe('a .lock that is not a lock file', () => {
  it.each([
    ['a symbolic link', (p: string) => symlinkSync('../config.yaml', p)],
    ['a folder', (p: string) => mkdirSync(p)],
    ['a FIFO', (p: string) => fifo(p)],
  ])('%s: add stops at once (exit 3), validate --strict reports bad-lock, --fix removes it, then add works', async (kind, make) => {
    const { store } = repoStore();
    const lock = join(store, 'global/.lock');
    make(lock);
    // Only the FIFO can block a read: the runs that meet it are started as processes.
    const cli = kind === 'a FIFO' ? async (args: string[], cwd: string) => run(args, cwd) : runHere;
    const add = await cli(['invariant', 'add', '--global', 'Keep a backup'], store);
    expect(add.hung).toBe(false);
    expect(add.code).toBe(3);
    expect(add.stderr).toContain('global/.lock  bad-lock');
    expect(readdirSync(join(store, 'global')).filter((n) => n.endsWith('.yaml'))).toEqual([`${A}.yaml`]);

    const strict = await cli(['validate', '--strict', '--format', 'json'], store);
    expect(strict.hung).toBe(false);
    expect(strict.code).toBe(1);
    expect(codes(strict.stdout)).toEqual(['bad-lock global/.lock']);

    const fix = await cli(['validate', '--fix', '--format', 'json'], store);
    expect(fix.hung).toBe(false);
    expect(fix.code).toBe(0);
    expect(JSON.parse(fix.stdout).fixes).toContainEqual(
      expect.objectContaining({ file: 'global/.lock', action: 'remove-bad-lock', done: true }),
    );
    expect(present(lock)).toBe(false);

    const again = await runHere(['invariant', 'add', '--global', 'Keep a backup'], store);
    expect(again.code).toBe(0);
    expect(readdirSync(join(store, 'global')).filter((n) => n.endsWith('.yaml'))).toHaveLength(2);
  });

  it('a .lock folder that holds files is reported, and kept by --fix with the reason', async () => {
    const { store } = repoStore();
    mkdirSync(join(store, 'global/.lock'));
    writeFileSync(join(store, 'global/.lock/notes.txt'), 'mine\n');
    const fix = await runHere(['validate', '--fix', '--format', 'json'], store);
    expect(fix.code).toBe(1);
    expect(codes(fix.stdout)).toEqual(['bad-lock global/.lock']);
    expect(JSON.parse(fix.stdout).fixes).toContainEqual(
      expect.objectContaining({ file: 'global/.lock', action: 'remove-bad-lock', done: false }),
    );
    expect(existsSync(join(store, 'global/.lock/notes.txt'))).toBe(true);
  });
});

describe('a committed .lock', () => {
  it.each([
    [
      'a lock file',
      (repo: string, store: string) => {
        writeFileSync(join(store, 'global/.lock'), '4242 build-host 2026-11-29T12:00:00Z\n');
        git(repo, 'add', '-f', join(store, 'global/.lock'));
      },
    ],
    [
      'a link',
      (repo: string, store: string) => {
        symlinkSync('../config.yaml', join(store, 'global/.lock'));
        git(repo, 'add', '-f', join(store, 'global/.lock'));
      },
    ],
    [
      'a folder holding a file',
      (repo: string, store: string) => {
        mkdirSync(join(store, 'global/.lock'));
        writeFileSync(join(store, 'global/.lock/x'), 'x\n');
        git(repo, 'add', '-f', join(store, 'global/.lock/x'));
      },
    ],
  ])('%s in the index fails validate --staged (error bad-lock)', async (_, stage) => {
    const { repo, store } = repoStore();
    stage(repo, store);
    const r = await runHere(['validate', '--staged', '--format', 'json'], store);
    expect(r.code).toBe(1);
    expect(codes(r.stdout)).toEqual(['bad-lock global/.lock']);
    // Once out of the index, the commit is clean again.
    git(repo, 'rm', '-r', '-q', '--cached', join(store, 'global/.lock'));
    rmSync(join(store, 'global/.lock'), { recursive: true });
    expect((await runHere(['validate', '--staged'], store)).code).toBe(0);
  });
});

describe('agents export reads its targets and its cache only when they are regular files', () => {
  it('a FIFO where AGENTS.md belongs: export and export --check stop at once with exit 2 and the file named, writing nothing', () => {
    const { repo, store } = repoStore();
    fifo(join(repo, 'AGENTS.md'));
    for (const args of [
      ['export', '--target', 'agents-md'],
      ['export', '--check', '--target', 'agents-md'],
    ]) {
      const r = run(args, store);
      expect(r.hung, args.join(' ')).toBe(false);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('AGENTS.md');
    }
    expect(lstatSync(join(repo, 'AGENTS.md')).isFIFO()).toBe(true);
  });

  it('a FIFO as the export cache: the check answers without it', async () => {
    const { repo, store } = repoStore();
    expect((await runHere(['export', '--target', 'agents-md'], store)).code).toBe(0);
    const cache = join(repo, '.git/agents/export.cache');
    rmSync(cache, { force: true });
    mkdirSync(dirname(cache), { recursive: true });
    fifo(cache);
    const check = run(['export', '--check', '--target', 'agents-md'], store);
    expect(check.hung).toBe(false);
    expect(check.code).toBe(0);
  });

  it.each([
    ['a FIFO', (path: string) => fifo(path)],
    ['a folder', (path: string) => mkdirSync(path)],
  ])(
    "%s at an invariant's name after an export: export and export --check refuse it (exit 3) as list does, not answer from the cache",
    async (kind, make) => {
      const { store } = repoStore();
      expect((await runHere(['export', '--target', 'agents-md'], store)).code).toBe(0);
      const odd = `global/${B}.yaml`;
      make(join(store, odd));
      for (const args of [
        ['invariant', 'list'],
        ['export', '--target', 'agents-md'],
        ['export', '--check', '--target', 'agents-md'],
      ]) {
        // Only the FIFO can block a read: the runs that meet it are started as processes.
        const r = kind === 'a FIFO' ? run(['--format', 'json', ...args], store) : await runHere(['--format', 'json', ...args], store);
        expect(r.hung, args.join(' ')).toBe(false);
        expect(r.code, args.join(' ')).toBe(3);
        expect(JSON.parse(r.stdout).error.detail.diagnostics[0], args.join(' ')).toMatchObject({ code: 'not-a-file', file: odd });
      }
    },
  );
});

// projects/ or a project's folder that is a link or a file lists as no project at all: export would remove the
// project's AGENTS.md, `which` answer no project and the guard drop the project's guards, each with exit 0.
describe('a link or file where projects/ or a project folder goes', () => {
  it.each([
    [
      'projects/ a link to a folder',
      'projects',
      (store: string, repo: string) => symlinkSync(movedAway(store, 'projects', repo), join(store, 'projects')),
    ],
    [
      'projects/ a file',
      'projects',
      (store: string, repo: string) => (movedAway(store, 'projects', repo), writeFileSync(join(store, 'projects'), 'x\n')),
    ],
    [
      'projects/web a link to a folder',
      'projects/web',
      (store: string, repo: string) => symlinkSync(movedAway(store, 'projects/web', repo), join(store, 'projects/web')),
    ],
  ])('%s: export, export --check, which, guard check and the set refuse it (exit 3), the exported file kept', async (_, file, breakIt) => {
    const store = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data'),
      [`projects/web/${B}.yaml`]: guardedYaml(B, 'Never touch the secrets', { write: ['secrets/**'] }),
      'projects/web/project.yaml': 'paths: ["src/**"]\n',
    });
    const repo = dirname(store);
    mkdirSync(join(repo, 'src'));
    writeFileSync(join(repo, 'src/x.ts'), '');
    gitInit(repo);
    expect((await runHere(['export', '--target', 'agents-md'], store)).code).toBe(0);
    expect(existsSync(join(repo, 'src/AGENTS.md'))).toBe(true);
    commitAll(repo, 'store');
    breakIt(store, repo);
    for (const args of [
      ['export', '--target', 'agents-md'],
      ['export', '--check', '--target', 'agents-md'],
      ['which', 'src/x.ts'],
      ['guard', 'check', '--staged'],
      ['invariant', 'list', '--effective', '--project', 'web'],
    ]) {
      const r = await runHere(['--format', 'json', ...args], join(repo, 'src'));
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics[0], args.join(' ')).toMatchObject({ file });
    }
    expect(existsSync(join(repo, 'src/AGENTS.md'))).toBe(true);
  });
});

/** Moves the store's folder `path` out of the store (to a folder of the repository), and returns where it went. */
function movedAway(store: string, path: string, repo: string): string {
  const to = join(repo, `moved-${path.replace('/', '-')}`);
  execFileSync('mv', [join(store, path), to]);
  return to;
}

describe('agents guard install', () => {
  it("refuses a FIFO as a client's settings file with exit 2, install and --check alike, writing nothing", () => {
    const { repo } = repoStore();
    mkdirSync(join(repo, '.codex'));
    fifo(join(repo, '.codex/hooks.json'));
    for (const args of [
      ['guard', 'install', '--client', 'claude,codex'],
      ['guard', 'install', '--client', 'codex', '--check'],
    ]) {
      const r = run(args, repo);
      expect(r.hung, args.join(' ')).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('.codex/hooks.json');
    }
    expect(present(join(repo, '.claude'))).toBe(false);
    expect(lstatSync(join(repo, '.codex/hooks.json')).isFIFO()).toBe(true);
  });
});

describe("the guard hook's files in git's folder", () => {
  it('a FIFO as the active plan or the audit log: the hook answers at once (on_error for the plan), and --clear replaces it', () => {
    const { repo, store } = repoStore();
    writeFileSync(
      join(store, 'global', '01JGGEBWJTQ6P08NTXZQ7TKM2Q.yaml'),
      'id: 01JGGEBWJTQ6P08NTXZQ7TKM2Q\ntext: Agents never touch secrets\nseverity: error\nguard:\n  write: ["secrets/**"]\n',
    );
    const input = JSON.stringify({
      session_id: 's',
      cwd: repo,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: 'secrets/a', content: 'x' },
    });
    const hook = () =>
      spawnSync(process.execPath, [BIN, 'guard', 'hook'], {
        cwd: repo,
        env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' },
        input,
        encoding: 'utf8',
        timeout: LIMIT_MS,
        killSignal: 'SIGKILL',
      });
    const agents = join(repo, '.git/agents');
    mkdirSync(agents, { recursive: true });
    fifo(join(agents, 'guard-audit.jsonl'));
    const logged = hook();
    expect(logged.signal).toBeNull();
    expect(JSON.parse(logged.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    rmSync(join(agents, 'guard-audit.jsonl'));
    fifo(join(agents, 'active-plan'));
    const planned = hook();
    expect(planned.signal).toBeNull();
    expect(planned.status, planned.stderr).toBe(2);
    expect(planned.stderr).toContain('active-plan');
    const shown = run(['plan', 'activate'], repo);
    expect(shown.hung).toBe(false);
    expect(shown.code).toBe(2);
    expect(run(['plan', 'activate', '--clear'], repo).code).toBe(0);
    expect(lstatSync(join(agents, 'active-plan')).isFile()).toBe(true);
  });
});

describe('a store file whose name is not UTF-8', () => {
  it('is named for what it is (file-name-not-utf8), not as a file that vanished and will read next time', async () => {
    const { repo, store } = repoStore();
    // caf\xe9.yaml in Latin-1: the name Node lists holds U+FFFD for the byte, a name no file has.
    writeFileSync(
      Buffer.concat([Buffer.from(join(store, 'global', 'caf')), Buffer.from([0xe9]), Buffer.from('.yaml')]),
      invariantYaml(A, 'x'),
    );
    const r = await runHere(['validate', '--format', 'json'], repo);
    expect(r.code).toBe(1);
    const found = codes(r.stdout);
    expect(found).toContain('file-name-not-utf8 global/caf\uFFFD.yaml');
    expect(found.some((c) => c.startsWith('file-unreadable'))).toBe(false);
    // A reader stops on it, as on every invalid file (exit 3).
    expect((await runHere(['invariant', 'list'], repo)).code).toBe(3);
  });
});

// A current folder removed after the shell entered it (a checkout of another branch, `rm -rf` in another shell):
// Node cannot name it, and every path and the store's search start from it.
describe('a current folder that no longer exists', () => {
  /** The built CLI started in `dir` after `dir` is removed, as a shell left in it starts one. */
  const inRemoved = (args: string[], input = '') => {
    const dir = join(tempDir(), 'gone');
    mkdirSync(dir);
    const r = spawnSync('sh', ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', dir, process.execPath, BIN, ...args], {
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', AGENTS_STORE: '' },
      input,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('is exit 2 with the error document, not a trace; the guard hook answers by guard.on_error (deny)', () => {
    const list = inRemoved(['--format', 'json', 'invariant', 'list']);
    expect(list.code).toBe(2);
    expect(JSON.parse(list.stdout)).toMatchObject({ ok: false, exit_code: 2, error: { code: 'usage' } });
    expect(list.stderr).not.toMatch(/\n\s+at /);
    const call = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/' };
    const hook = inRemoved(['guard', 'hook', '--client', 'claude'], JSON.stringify(call));
    // Claude Code reads exit 2 as a refusal; the crash's exit 1 let the call through unchecked.
    expect(hook.code).toBe(2);
    expect(hook.stderr).not.toMatch(/\n\s+at /);
  });
});

// A folder named on a Latin-1 system (`caf\xe9`): Node reads the current folder's path with U+FFFD for that byte,
// a path that names another folder (or none).
describe('a current folder whose path is not UTF-8', () => {
  /** `command` run by sh in `prefix` followed by the byte 0xE9 (a name no string of Node's can hold). */
  const inLatin1 = (prefix: string, command: string[]) => {
    const r = spawnSync('sh', ['-c', `cd "$1$(printf '\\351')" && shift && exec "$@"`, 'sh', prefix, ...command], {
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', AGENTS_STORE: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('is refused (path-not-utf8), nothing made: init made the store in a new folder beside it, named with U+FFFD', () => {
    const parent = tempDir();
    const latin1 = Buffer.concat([Buffer.from(`${parent}/caf`), Buffer.from([0xe9])]);
    mkdirSync(latin1);
    expect(inLatin1(`${parent}/caf`, ['git', 'init', '-q']).code).toBe(0);
    for (const args of [
      ['init', '--actor', 'none'],
      ['invariant', 'list'],
      ['validate', '--staged'],
    ]) {
      const r = inLatin1(`${parent}/caf`, [process.execPath, BIN, '--format', 'json', ...args]);
      expect({ args, code: r.code, error: JSON.parse(r.stdout).error.code }).toEqual({ args, code: 2, error: 'path-not-utf8' });
    }
    expect(readdirSync(parent, { encoding: 'buffer' })).toEqual([Buffer.from('caf\xe9', 'latin1')]);
    expect(readdirSync(latin1)).toEqual(['.git']);
    // The U+FFFD spelling of a folder below it runs through a file of that name (ENOTDIR): refused all the same.
    mkdirSync(Buffer.concat([latin1, Buffer.from('/sub')]));
    writeFileSync(join(parent, 'caf\uFFFD'), '');
    const below = inLatin1(`${parent}/caf`, [
      'sh',
      '-c',
      `cd sub && exec "$0" "$@"`,
      process.execPath,
      BIN,
      '--format',
      'json',
      'invariant',
      'list',
    ]);
    expect({ code: below.code, error: JSON.parse(below.stdout).error.code }).toEqual({ code: 2, error: 'path-not-utf8' });
    rmSync(join(parent, 'caf\uFFFD'));
    // A name that holds U+FFFD itself, in UTF-8, is that folder: read as usual.
    const named = join(parent, 'caf\uFFFD');
    mkdirSync(named);
    git(named, 'init', '-q');
    const r = spawnSync(process.execPath, [BIN, 'init', '--actor', 'none'], {
      cwd: named,
      env: { ...process.env, ...GIT_ENV, CI: 'true', AGENTS_STORE: '' },
    });
    expect(r.status).toBe(0);
    expect(existsSync(join(named, '.agents/config.yaml'))).toBe(true);
  });
});
