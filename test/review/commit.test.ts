import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeReadOnly } from '../helpers/read-only.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';
import { G1, Repo } from './repo.ts';
import { errorOf, rejectionOf, runAgents } from '../helpers/main.ts';
import { InvariantService, withCommit } from '../../src/index.ts';

const failure = rejectionOf;

function setup(): Repo {
  const repo = new Repo();
  repo.inv('global', G1, 'Never delete production data').write('projects/myapp/.gitkeep', '');
  repo.write('../README.md', 'hello\n');
  repo.commit('base');
  return repo;
}

const count = (repo: Repo) => Number(repo.git('rev-list', '--count', 'HEAD').trim());

describe('--commit on add and remove', () => {
  it('commits exactly the new file, with a clear message', async () => {
    const repo = setup();
    repo.write('../README.md', 'edited, not staged\n');
    const r = await runAgents(['invariant', 'add', '--project', 'myapp', '--commit', 'All API changes need tests', '--format', 'json'], {
      cwd: repo.dir,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { id: string; commit: string; created_by: string };
    expect(out.created_by).toBe('Test Author <author@example.com>');
    expect(count(repo)).toBe(2);
    expect(out.commit).toBe(repo.git('rev-parse', 'HEAD').trim());
    expect(repo.git('log', '-1', '--format=%B', 'HEAD').trim()).toBe(
      `invariant: add ${out.id} to project myapp\n\nAll API changes need tests`,
    );
    expect(repo.git('show', '--name-status', '--format=', 'HEAD').trim()).toBe(`A\t.agents/projects/myapp/${out.id}.yaml`);
    // The unrelated edit is still there, uncommitted and unstaged.
    expect(repo.git('status', '--porcelain').trim()).toBe('M README.md');
  });

  it('commits in a checkout that turns LF into CRLF with core.safecrlf=true (core.autocrlf=true): an added file, then an edit of its CRLF form', async () => {
    const repo = setup();
    repo.git('config', 'core.autocrlf', 'true');
    repo.git('config', 'core.safecrlf', 'true');
    const r = await runAgents(['invariant', 'add', '--global', '--commit', 'All API changes need tests', '--format', 'json'], {
      cwd: repo.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const { id, commit } = JSON.parse(r.stdout) as { id: string; commit: string };
    expect(commit).toBe(repo.git('rev-parse', 'HEAD').trim());
    // The checkout's own form of the file, CRLF, is edited in place and committed as well.
    repo.write(`global/${id}.yaml`, readFileSync(join(repo.store, `global/${id}.yaml`), 'utf8').replace(/\n/g, '\r\n'));
    const edit = await runAgents(['invariant', 'edit', id, '--severity', 'warning', '--commit'], { cwd: repo.dir });
    expect(edit.code, edit.stderr).toBe(0);
    expect(count(repo)).toBe(3);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });

  it("records a message holding an invariant's accented text as UTF-8, whatever i18n.commitEncoding says", async () => {
    const repo = setup();
    repo.git('config', 'i18n.commitEncoding', 'ISO-8859-1');
    const r = await runAgents(['invariant', 'add', '--global', '--commit', 'Règle numéro deux'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    repo.git('config', '--unset', 'i18n.commitEncoding');
    expect(repo.git('log', '-1', '--format=%b').trim()).toBe('Règle numéro deux');
  });

  it('refuses, before writing anything, when other changes are staged', async () => {
    const repo = setup();
    repo.write('../README.md', 'staged by someone\n');
    repo.git('add', 'README.md');
    const r = await runAgents(['invariant', 'add', '--project', 'myapp', '--commit', 'All API changes need tests'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('other changes are already staged');
    expect(r.stderr).toContain('README.md');
    expect(readdirSync(join(repo.store, 'projects/myapp'))).toEqual(['.gitkeep']);
    expect(count(repo)).toBe(1);
    const rm = await runAgents(['invariant', 'remove', '--yes', '--commit', G1], { cwd: repo.dir });
    expect(rm.code).toBe(2);
    expect(existsSync(join(repo.store, `global/${G1}.yaml`))).toBe(true);
  });

  it('refuses, before writing anything, when git cannot write in its folder (read-only, or another user’s)', async (ctx) => {
    const repo = setup();
    const gitDir = join(repo.dir, '.git');
    const undo = makeReadOnly(gitDir);
    if (undo === undefined) {
      console.log('skipped: cannot make the git folder read-only here (needs mount as root)');
      ctx.skip();
      return;
    }
    onTestFinished(undo);
    const r = await runAgents(['invariant', 'add', '--project', 'myapp', '--commit', '--format', 'json', 'All API changes need tests'], {
      cwd: repo.dir,
    });
    expect(errorOf(r)).toMatchObject({ code: 'write-failed', exit_code: 2, detail: { path: gitDir } });
    expect(readdirSync(join(repo.store, 'projects/myapp'))).toEqual(['.gitkeep']);
    const rm = await runAgents(['invariant', 'remove', '--yes', '--commit', '--format', 'json', G1], { cwd: repo.dir });
    expect(errorOf(rm)).toMatchObject({ code: 'write-failed', exit_code: 2 });
    expect(existsSync(join(repo.store, `global/${G1}.yaml`))).toBe(true);
    expect(count(repo)).toBe(1);
  });

  it('remove --commit commits the deletion alone', async () => {
    const repo = setup();
    const r = await runAgents(['invariant', 'remove', '--yes', '--commit', G1.slice(0, 8)], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(repo.git('show', '--name-status', '--format=%s', 'HEAD').trim().split('\n')).toEqual([
      `invariant: remove ${G1} from global`,
      '',
      `D\t.agents/global/${G1}.yaml`,
    ]);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });

  it('an invariant git never had: move --commit commits the new file alone, remove --commit commits nothing (exit 0)', async () => {
    const repo = setup();
    const add = async (text: string) =>
      (
        JSON.parse((await runAgents(['invariant', 'add', '--global', text, '--format', 'json'], { cwd: repo.dir })).stdout) as {
          id: string;
        }
      ).id;
    const [moving, removing] = [await add('Never commit secrets'), await add('Never skip the review')];
    const moved = await runAgents(['invariant', 'move', moving, '--project', 'myapp', '--commit', '--format', 'json'], { cwd: repo.dir });
    expect(moved.code).toBe(0);
    const head = repo.git('rev-parse', 'HEAD').trim();
    expect((JSON.parse(moved.stdout) as { commit: string }).commit).toBe(head);
    expect(repo.git('show', '--name-status', '--format=', 'HEAD').trim()).toBe(`A\t.agents/projects/myapp/${moving}.yaml`);
    const removed = await runAgents(['invariant', 'remove', '--yes', '--commit', removing, '--format', 'json'], { cwd: repo.dir });
    expect(removed.code).toBe(0);
    expect((JSON.parse(removed.stdout) as { commit: string | null }).commit).toBeNull();
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head);
    expect(existsSync(join(repo.store, `global/${removing}.yaml`))).toBe(false);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });

  it('an edit back to what the last commit holds: --commit commits nothing (exit 0) and leaves nothing staged', async () => {
    const repo = setup();
    const edit = (text: string, ...more: string[]) =>
      runAgents(['invariant', 'edit', G1, '--text', text, '--format', 'json', ...more], { cwd: repo.dir });
    // The file as the tool writes it, committed; then edited and edited back.
    expect((await edit('Never remove production data', '--commit')).code).toBe(0);
    expect((await edit('Never drop production data')).code).toBe(0);
    const undone = await edit('Never remove production data', '--commit');
    expect(undone.stderr).toBe('');
    expect(undone.code).toBe(0);
    expect((JSON.parse(undone.stdout) as { commit?: string | null }).commit ?? null).toBeNull();
    expect(count(repo)).toBe(2);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });

  it('a store named through a link (--store): --commit commits in the repository, and invariant log reads it', async () => {
    const repo = setup();
    const link = join(tempDir(), 'repo-link');
    symlinkSync(repo.dir, link);
    const store = ['--store', join(link, '.agents')];
    const added = await runAgents([...store, 'invariant', 'add', '--global', '--commit', 'Never commit secrets', '--format', 'json']);
    expect(added.code).toBe(0);
    const { id, commit } = JSON.parse(added.stdout) as { id: string; commit: string };
    expect(commit).toBe(repo.git('rev-parse', 'HEAD').trim());
    expect(repo.git('show', '--name-status', '--format=', 'HEAD').trim()).toBe(`A\t.agents/global/${id}.yaml`);
    const log = await runAgents([...store, 'invariant', 'log', id, '--format', 'json']);
    expect(log.code).toBe(0);
    expect((JSON.parse(log.stdout) as { events: { commit: string; change: string }[] }).events).toMatchObject([
      { commit, change: 'added' },
    ]);
  });

  it("keeps a text that starts with '#' in the message, whatever commit.cleanup says", async () => {
    const repo = setup();
    repo.git('config', 'commit.cleanup', 'strip');
    const r = await runAgents(['invariant', 'add', '--global', '--commit', '#1 rule: never push to main', '--format', 'json'], {
      cwd: repo.dir,
    });
    expect(r.code).toBe(0);
    const { id } = JSON.parse(r.stdout) as { id: string };
    expect(repo.git('log', '-1', '--format=%B', 'HEAD').trim()).toBe(`invariant: add ${id} to global\n\n#1 rule: never push to main`);
  });

  it('commit: true in config.yaml turns it on; --no-commit turns it off', async () => {
    const repo = setup();
    repo.write('config.yaml', 'version: 1\ncommit: true\n');
    repo.commit('config');
    expect((await runAgents(['invariant', 'add', '--global', 'Log all changes'], { cwd: repo.dir })).code).toBe(0);
    expect(count(repo)).toBe(3);
    expect(repo.git('log', '-1', '--format=%s')).toMatch(/^invariant: add [0-9A-Z]{26} to global$/m);
    expect((await runAgents(['invariant', 'add', '--global', '--no-commit', 'Keep it small'], { cwd: repo.dir })).code).toBe(0);
    expect(count(repo)).toBe(3);
    expect(repo.git('status', '--porcelain').trim()).toMatch(/^\?\? \.agents\/global\/[0-9A-Z]{26}\.yaml$/);
    // With both forms the last one wins, as for every on/off option (docs/commands.md, "Options").
    const both = await runAgents(['invariant', 'add', '--global', '--commit', '--no-commit', 'Keep it short'], { cwd: repo.dir });
    expect(both.code).toBe(0);
    expect(count(repo)).toBe(3);
    // Refused, the commit config.yaml asked for is named as such: leaving out --commit (or commit: true) changes nothing.
    repo.write('../staged.txt', 'x\n').git('add', 'staged.txt');
    const cli = await runAgents(['invariant', 'add', '--global', '--format', 'json', 'Keep it tidy'], { cwd: repo.dir });
    const lib = await failure(InvariantService.open({ store: repo.store }).add({ scope: { global: true }, text: 'Keep it tidy' }));
    for (const [message, hint] of [
      [JSON.parse(cli.stdout).error.message, JSON.parse(cli.stdout).error.hint],
      [lib.message, lib.hint],
    ]) {
      expect(message).toMatch(/^config\.yaml's commit: true refused/);
      expect(hint).toContain('commit: false in config.yaml');
    }
    expect([cli.code, lib.exitCode]).toEqual([2, 2]);
    expect(count(repo)).toBe(3);
  });

  it('a duplicate is refused (exit 1) and nothing is committed', async () => {
    const repo = setup();
    const r = await runAgents(['invariant', 'add', '--global', '--commit', 'never delete production data'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(count(repo)).toBe(1);
  });

  it('refuses, before writing anything, a store folder git ignores (exit 2), naming the rule', async () => {
    const repo = new Repo();
    repo.write('../.gitignore', '# local state\n.agents/\n').write('../README.md', 'hello\n');
    repo.commit('base');
    repo.write('projects/myapp/.gitkeep', '');
    const r = await runAgents(['invariant', 'add', '--project', 'myapp', '--commit', 'All API changes need tests', '--format', 'json'], {
      cwd: repo.dir,
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail.ignored).toEqual([{ path: '.agents/', rule: '.gitignore:2: .agents/' }]);
    expect(readdirSync(join(repo.store, 'projects/myapp'))).toEqual(['.gitkeep']);
    expect(count(repo)).toBe(1);
  });

  it('says which file git ignores when a rule inside the store refuses it: written, not staged, nothing committed (exit 1)', async () => {
    const repo = setup();
    repo.write('.gitignore', 'projects/*/*.yaml\n');
    const r = await runAgents(['invariant', 'add', '--project', 'myapp', '--commit', 'All API changes need tests', '--format', 'json'], {
      cwd: repo.dir,
    });
    expect(r.code).toBe(1);
    const { detail } = JSON.parse(r.stdout).error as {
      detail: { paths: string[]; staged: boolean; ignored: { path: string; rule: string }[] };
    };
    const [written] = detail.paths;
    expect(written).toMatch(/^\.agents\/projects\/myapp\/[0-9A-Z]{26}\.yaml$/);
    expect(detail.staged).toBe(false);
    expect(detail.ignored).toEqual([{ path: written, rule: '.agents/.gitignore:1: projects/*/*.yaml' }]);
    expect(existsSync(join(repo.dir, written!))).toBe(true);
    expect(repo.git('diff', '--cached', '--name-only')).toBe('');
    expect(count(repo)).toBe(1);
  });

  it('leaves the index as it found it when git add refuses one of the paths a move changes (the new file, ignored)', async () => {
    const repo = setup();
    repo.write('.gitignore', 'projects/*/*.yaml\n');
    const r = await runAgents(['invariant', 'move', G1, '--project', 'myapp', '--commit', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.detail.staged).toBe(false);
    // The old file's removal, which git add staged before it refused the new file, is unstaged again.
    expect(repo.git('diff', '--cached', '--name-only')).toBe('');
    expect(count(repo)).toBe(1);
  });

  it('init says when git ignores the store it creates', async () => {
    const repo = new Repo();
    repo.write('../.gitignore', '.agents\n');
    const r = await runAgents(['init', '--actor', 'none', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ignored_by_git).toEqual({ path: '.agents/', rule: '.gitignore:1: .agents' });
    expect(r.stderr).toContain('git ignores .agents/');
    const kept = new Repo();
    const plain = await runAgents(['init', '--actor', 'none', '--format', 'json'], { cwd: kept.dir });
    expect(JSON.parse(plain.stdout).ignored_by_git).toBeNull();
    expect(plain.stderr).toBe('');
  });

  it('init says when git ignores a file of the store it creates (a config.yaml rule), which no clone would have', async () => {
    const repo = new Repo();
    repo.write('../.gitignore', 'config.yaml\n*.json\n');
    const r = await runAgents(['init', '--actor', 'none', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ignored_by_git).toEqual({ path: '.agents/config.yaml', rule: '.gitignore:1: config.yaml' });
    expect(r.stderr).toContain('.agents/config.yaml');
  });

  it('outside a git repository --commit is a usage error and writes nothing', async () => {
    const store = testStore();
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', '--commit', 'Never delete production data'], {
      cwd: store,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--commit needs a git repository');
    const json = await runAgents(
      ['--store', store, 'invariant', 'add', '--global', '--commit', '--format', 'json', 'Never delete production data'],
      {
        cwd: store,
      },
    );
    expect(errorOf(json)).toEqual({ code: 'not-a-repository', exit_code: 2, detail: null });
    expect(readdirSync(join(store, 'global'))).toEqual([]);
  });

  it("the library's refusals name its option, commit: true, not the command line's --commit; nothing written", async () => {
    const outside = testStore();
    const lib = InvariantService.open({ store: outside });
    const notRepo = await failure(lib.add({ scope: { global: true }, text: 'Never push to main', commit: true }));
    expect([notRepo.code, notRepo.message]).toEqual(['not-a-repository', expect.stringMatching(/^commit: true needs a git repository/)]);
    expect(readdirSync(join(outside, 'global'))).toEqual([]);
    const repo = setup();
    repo.write('../staged.txt', 'x\n').git('add', 'staged.txt');
    const service = InvariantService.open({ store: repo.store });
    for (const refused of [
      await failure(service.add({ scope: { global: true }, text: 'Never push to main', commit: true })),
      await failure(withCommit(repo.store, true, async () => ({ value: {}, paths: [], message: 'm' }))),
    ]) {
      expect([refused.exitCode, refused.detail?.staged]).toEqual([2, ['staged.txt']]);
      expect(refused.message).toMatch(/^commit: true refused/);
      expect(`${refused.message} ${refused.hint}`).not.toContain('--commit');
    }
    expect(readdirSync(join(repo.store, 'global'))).toEqual([`${G1}.yaml`]);
  });

  it('with no git identity --commit is refused before anything is written (exit 2, no-git-identity)', async () => {
    const repo = setup();
    // No identity from the environment nor the repository, and user.useConfigOnly: git never guesses one from the host name.
    repo.git('config', '--remove-section', 'user');
    repo.git('config', 'user.useConfigOnly', 'true');
    const env = { GIT_AUTHOR_NAME: undefined, GIT_AUTHOR_EMAIL: undefined, GIT_COMMITTER_NAME: undefined, GIT_COMMITTER_EMAIL: undefined };
    const r = await runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', 'Never push to main'], {
      cwd: repo.dir,
      env,
    });
    expect(errorOf(r)).toMatchObject({ code: 'no-git-identity', exit_code: 2 });
    // A committer named by the environment, and no author anywhere: git would still refuse the commit.
    const committer = { ...env, GIT_COMMITTER_NAME: 'Test Author', GIT_COMMITTER_EMAIL: 'author@example.com' };
    const half = await runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', 'Never push to main'], {
      cwd: repo.dir,
      env: committer,
    });
    expect(errorOf(half)).toMatchObject({ code: 'no-git-identity', exit_code: 2 });
    const add = (extra: Record<string, string>) =>
      runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', 'Never push to main'], {
        cwd: repo.dir,
        env: { ...env, ...extra },
      });
    // A committer the configuration names (committer.*), and no author anywhere.
    repo.git('config', 'committer.name', 'Test Committer');
    repo.git('config', 'committer.email', 'committer@example.com');
    expect(errorOf(await add({}))).toMatchObject({ code: 'no-git-identity', exit_code: 2 });
    // user.name, and an e-mail in the environment for the committer alone.
    repo.git('config', '--remove-section', 'committer');
    repo.git('config', 'user.name', 'Test Author');
    expect(errorOf(await add({ GIT_COMMITTER_EMAIL: 'committer@example.com' }))).toMatchObject({ code: 'no-git-identity', exit_code: 2 });
    expect(readdirSync(join(repo.store, 'global'))).toEqual([`${G1}.yaml`]);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
    expect(count(repo)).toBe(1);
    // What git accepts is not refused: user.name, with both e-mails from the environment.
    const both = await add({ GIT_AUTHOR_EMAIL: 'author@example.com', GIT_COMMITTER_EMAIL: 'committer@example.com' });
    expect(both.code).toBe(0);
    expect(count(repo)).toBe(2);
    expect(repo.git('log', '-1', '--format=%an <%ae> %cn <%ce>').trim()).toBe(
      'Test Author <author@example.com> Test Author <committer@example.com>',
    );
  });

  it('on a detached HEAD the commit is made and said to be on no branch, in text and JSON alike', async () => {
    const repo = setup();
    repo.git('checkout', '-q', '--detach');
    for (const format of ['text', 'json']) {
      const r = await runAgents(['invariant', 'add', '--global', '--commit', '--format', format, `Never push to main (${format})`], {
        cwd: repo.dir,
      });
      expect(r.code).toBe(0);
      const head = repo.git('rev-parse', 'HEAD').trim();
      expect(r.stderr).toContain(head.slice(0, 12));
      expect(r.stderr).toContain('detached HEAD');
    }
    expect(count(repo)).toBe(3);
    repo.git('checkout', '-q', 'main');
    const onBranch = await runAgents(['invariant', 'add', '--global', '--commit', 'Never skip the review'], { cwd: repo.dir });
    expect(onBranch.code).toBe(0);
    expect(onBranch.stderr).toBe('');
  });

  it('refuses, before writing anything, while a merge is under way (git makes no partial commit during one)', async () => {
    const repo = setup();
    // What git leaves while a merge waits for its commit: a merge that resolved to HEAD's own files stages nothing.
    writeFileSync(join(repo.dir, '.git/MERGE_HEAD'), repo.git('rev-parse', 'HEAD'));
    const r = await runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', 'Never merge blind'], { cwd: repo.dir });
    expect(errorOf(r)).toMatchObject({ code: 'usage', exit_code: 2, detail: { operation: 'merge' } });
    expect(readdirSync(join(repo.store, 'global'))).toEqual([`${G1}.yaml`]);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });

  it('refuses, before writing anything, the files a rebase stopped part-way has staged, naming the rebase', async () => {
    const repo = setup();
    // What a rebase leaves when it stops on a conflict: its folder in git's, and the commit it replays staged.
    mkdirSync(join(repo.dir, '.git/rebase-merge'));
    writeFileSync(join(repo.dir, 'notes.txt'), 'replayed\n');
    repo.git('add', 'notes.txt');
    const r = await runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', 'Never rebase blind'], { cwd: repo.dir });
    expect(errorOf(r)).toMatchObject({ code: 'usage', exit_code: 2, detail: { operation: 'rebase', staged: ['notes.txt'] } });
    expect(readdirSync(join(repo.store, 'global'))).toEqual([`${G1}.yaml`]);
  });

  it("waits for git's index lock another process holds, and refuses before writing anything when it is not let go (exit 2, locked)", async () => {
    const repo = setup();
    const lock = join(repo.dir, '.git/index.lock');
    writeFileSync(lock, '');
    const add = (text: string, wait: string) =>
      runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', text], {
        cwd: repo.dir,
        env: { AGENTS_LOCK_TIMEOUT_MS: wait },
      });
    const r = await add('Never push to main', '0');
    expect(errorOf(r)).toMatchObject({ code: 'locked', exit_code: 2, detail: { lock: '.git/index.lock', waited_ms: 0 } });
    expect(readdirSync(join(repo.store, 'global'))).toEqual([`${G1}.yaml`]);
    rmSync(lock);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
    // Let go while the command waits (an IDE's git refreshing its status): the change is written and committed, and a
    // wait past a second is said, once, so that the command does not look hung.
    writeFileSync(lock, '');
    const release = setTimeout(() => rmSync(lock), 1_300);
    const waited = await add('Never skip the review', '20000');
    clearTimeout(release);
    expect(waited.code).toBe(0);
    expect(
      waited.stderr.match(
        /^agents: waiting for \.git\/index\.lock, git's index lock, held by another git process; gives up after 20000 ms/gm,
      ),
    ).toHaveLength(1);
    expect(count(repo)).toBe(2);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
    // Taken after the check, when the change is written and git add meets it: the commit is tried again once it goes.
    const shims = tempDir();
    const realGit = join(repo.git('--exec-path').trim(), 'git');
    writeFileSync(
      join(shims, 'git'),
      `#!/bin/sh\nif [ "$1" = add ] && [ ! -e '${shims}/once' ]; then\n  : > '${shims}/once'; : > '${lock}'\n  '${realGit}' "$@"; s=$?\n  (sleep 1; rm -f '${lock}') </dev/null >/dev/null 2>&1 &\n  exit $s\nfi\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    const retried = await runAgents(['invariant', 'add', '--global', '--commit', '--format', 'json', 'Never force-push'], {
      cwd: repo.dir,
      env: { AGENTS_LOCK_TIMEOUT_MS: '20000', PATH: `${shims}:${process.env.PATH}` },
    });
    expect(existsSync(join(shims, 'once'))).toBe(true);
    expect(retried.code).toBe(0);
    expect(count(repo)).toBe(3);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });
});
