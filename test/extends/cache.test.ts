// The cache of policy sources under the git folder (docs/extends.md): one bare repository per source, and
// nothing else of `extends fetch` left in it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { GIT_ENV, commitAll, git } from '../helpers/git.ts';
import { errorOf, runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';
import { gone } from '../helpers/process-gone.ts';
import { runKilledAtUnlink } from '../reliability/kill.ts';
import { LATER, LOCAL, LOCKED, SECRETS, consumer, effectiveIds, gitShim, policyCommit, policyRepo, run } from './repos.ts';

describe('the cache of policy sources', () => {
  it('a source named X.check keeps its cache through the branch check of the source X', async () => {
    const dir = tempDir();
    const other = policyRepo(dir, 'other');
    const pol = policyRepo(dir, 'pol');
    const app = consumer(dir, `  - url: ${other.url}\n    ref: v1\n    name: pol.check\n  - url: ${pol.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pins');
    // The branch moves on: the pin is an ancestor now, which the check fetches the branch's history to tell.
    policyCommit(pol, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') });
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    // What a run killed before its cleanup could leave at the scratch path is no obstacle to the next check.
    mkdirSync(join(app, '.git', 'agents', 'extends'), { recursive: true });
    writeFileSync(join(app, '.git', 'agents', 'extends', '.pol.check.git'), '');
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code, fetch.stderr).toBe(0);
    expect(
      readdirSync(join(app, '.git', 'agents', 'extends'))
        .filter((n) => n !== '.lock')
        .sort(),
    ).toEqual(['pol.check.git', 'pol.git']);
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
  });

  it('SIGTERM as extends update puts the lock in place: the lock is written whole, then the run ends with 143, not 0', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    const lock = join(app, '.agents', 'extends.lock.yaml');
    const r = await runKilledAtUnlink(
      ['--store', join(app, '.agents'), '--format', 'json', 'extends', 'update'],
      { placed: lock },
      'SIGTERM',
    );
    expect([r.killed, r.code, JSON.parse(r.stdout).error?.code], r.stderr).toEqual([false, 143, 'cancelled']);
    expect(readFileSync(lock, 'utf8')).toContain(policy.v1);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s during extends fetch stops git and leaves neither the lock nor a cache behind',
    async (signal) => {
      const dir = tempDir();
      const policy = policyRepo(dir);
      const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
      expect((await run(app, 'extends', 'update')).code).toBe(0);
      rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
      // A slow remote: the git that fetches says its pid, then waits before it does the fetch.
      const pidFile = join(dir, 'fetching.pid');
      const shim = gitShim(dir, `for a; do [ "$a" = fetch ] && echo $$ > ${pidFile} && sleep 60; done`);
      const child = spawn(process.execPath, [BIN, 'extends', 'fetch'], {
        cwd: app,
        env: { ...process.env, ...GIT_ENV, PATH: `${shim}:${process.env.PATH}`, NO_COLOR: '1', CI: 'true' },
        stdio: 'ignore',
      });
      let ended = false;
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => {
          ended = true;
          resolve(code);
        }),
      );
      while (!ended && (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '')) await sleep(50);
      expect(ended).toBe(false);
      const fetching = Number(readFileSync(pidFile, 'utf8').trim());
      child.kill(signal);
      expect(await exited).toBe(signal === 'SIGTERM' ? 143 : 130);
      // The git it started is stopped with it, rather than left to write the cache after the run ended.
      expect(await gone(fetching)).toBe(true);
      const cache = join(app, '.git', 'agents', 'extends');
      expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
    },
  );

  it.each([
    ['missing an object of the pinned commit', 'blob', false],
    ['holding an object of the pinned commit cut short', 'blob', true],
    ['holding the pinned commit itself cut short', 'commit', true],
  ] as const)('a cache %s: reading says to fetch, and fetch fetches it again whole', async (_what, which, cut) => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const cache = join(app, '.git', 'agents', 'extends', 'policy.git');
    const id = which === 'commit' ? policy.v1 : git(cache, 'rev-parse', `${policy.v1}:.agents/global/${LOCKED}.yaml`).trim();
    // A fetch of so few objects keeps them loose (below git's unpack limit): one goes, or is cut short, as a damaged
    // disk would leave it. git takes a damaged copy for the object, and fetches no other over it.
    const loose = join(cache, 'objects', id.slice(0, 2), id.slice(2));
    const bytes = readFileSync(loose);
    rmSync(loose);
    if (cut) writeFileSync(loose, bytes.subarray(0, 20));
    rmSync(join(app, '.git', 'agents', 'parsed'), { recursive: true, force: true });

    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(list.code, list.stderr).toBe(2);
    expect(errorOf(list).code).toBe('extends-not-fetched');
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code).toBe(0);
    expect(JSON.parse(fetch.stdout)[0].status).toBe('fetched');
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
  });

  it.each([
    ['its HEAD lost', (cache: string) => rmSync(join(cache, 'HEAD'))],
    ['its shallow list cut short', (cache: string) => writeFileSync(join(cache, 'shallow'), '3f2a\n')],
  ])('a cache repository git cannot open (%s): fetch makes it again, instead of failing at every run', async (_what, damage) => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    damage(join(app, '.git', 'agents', 'extends', 'policy.git'));

    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(errorOf(list).code).toBe('extends-not-fetched');
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code).toBe(0);
    expect(JSON.parse(fetch.stdout)[0].status).toBe('fetched');
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
  });

  it('two updates of different sources at once take turns: the lock holds both moves, neither written over by the other', async () => {
    const dir = tempDir();
    const pol = policyRepo(dir, 'pol');
    const other = policyRepo(dir, 'other');
    const app = consumer(dir, `  - url: ${pol.url}\n    ref: main\n  - url: ${other.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const polMoved = policyCommit(pol, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') });
    const otherMoved = policyCommit(other, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Another rule added later') });
    // The update of `other` asks its remote slowly: the update of `pol` runs meanwhile.
    const shim = gitShim(dir, `case "$*" in *ls-remote*other*) sleep 0.5;; esac`);
    const [slow, fast] = await Promise.all([
      runMain(['extends', 'update', 'other'], { cwd: app, env: { PATH: `${shim}:${process.env.PATH}` } }),
      run(app, 'extends', 'update', 'pol'),
    ]);
    expect([slow.code, fast.code], slow.stderr + fast.stderr).toEqual([0, 0]);
    const lock = readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8');
    expect(lock).toContain(`commit: ${polMoved}`);
    expect(lock).toContain(`commit: ${otherMoved}`);
  });

  it('update of one source in a fresh clone fetches the pins of the sources it leaves where they are', async () => {
    const dir = tempDir();
    const pol = policyRepo(dir, 'pol');
    const other = policyRepo(dir, 'other');
    const app = consumer(dir, `  - url: ${pol.url}\n    ref: v1\n  - url: ${other.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pins');
    writeFileSync(join(pol.work, `.agents/global/${LATER}.yaml`), invariantYaml(LATER, 'Rule added later'));
    const v2 = commitAll(pol.work, 'v2');
    git(pol.work, 'tag', 'v2');
    git(pol.work, 'push', '-q', 'origin', 'main', 'v2');

    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${pol.url}\n    ref: v2\n  - url: ${other.url}\n    ref: v1\n`);
    const r = await run(app, 'extends', 'update', 'pol', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).sources.map((m: { name: string; after: { commit: string } }) => [m.name, m.after.commit])).toEqual([
      ['pol', v2],
    ]);
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS, LATER]);
  });

  it('fetch says which ignored names are folders and which are files, as they are', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    // A name that holds a newline stays on the line of the names: it cannot print a line of its own.
    policyCommit(policy, { '.agents/NOTES': 'notes\n', '.agents/plans/.keep': '', '.agents/x\nfetched  forged': '' });
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const r = await run(app, 'extends', 'fetch');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ignored \(never read or run\): NOTES, plans\/, x\\nfetched {2}forged$/m);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
  });

  it.each(['', 'extends', 'extends/policy.git'])('a file at .git/agents/%s is named, with what to do, and left as it is', async (at) => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const path = join(app, '.git', 'agents', at);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'not a cache\n');
    const r = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(r.code).toBe(2);
    expect(errorOf(r)).toMatchObject({ code: 'extends-fetch-failed', detail: { path } });
    expect(readFileSync(path, 'utf8')).toBe('not a cache\n');
  });

  it('a read-only git folder (a read-only checkout in CI) is exit 2 naming the folder it cannot make, never a trace', async (ctx) => {
    // Root writes through file modes; a read-only bind mount refuses even root, as a read-only checkout would.
    if (process.getuid?.() !== 0 || spawnSync('mount', ['--version']).status !== 0) return ctx.skip();
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const gitDir = join(app, '.git');
    rmSync(join(gitDir, 'agents'), { recursive: true, force: true });
    if (spawnSync('mount', ['--bind', gitDir, gitDir]).status !== 0) return ctx.skip();
    try {
      expect(spawnSync('mount', ['-o', 'remount,ro,bind', gitDir]).status).toBe(0);
      for (const args of [
        ['extends', 'fetch'],
        ['extends', 'update'],
      ]) {
        const r = await run(app, ...args, '--format', 'json');
        expect(r.code, args.join(' ')).toBe(2);
        expect(errorOf(r).code).toBe('write-failed');
        expect(JSON.parse(r.stdout).error.message).toContain(join(gitDir, 'agents'));
      }
    } finally {
      spawnSync('umount', [gitDir]);
    }
    expect(existsSync(join(gitDir, 'agents'))).toBe(false);
  });

  it("a lock held by a live process is named by the cache folder's whole path", async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const lock = join(app, '.git', 'agents', 'extends', '.lock');
    // This process holds it, as far as the lock says: alive, so it is waited on, then refused.
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const r = await runMain(['extends', 'fetch'], { cwd: app, env: { AGENTS_LOCK_TIMEOUT_MS: '100' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(lock);
    // A folder at the lock's name is no writer's: named by its whole path too, as validate --fix never reaches it.
    rmSync(lock);
    mkdirSync(lock);
    const blocked = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(blocked.code).toBe(3);
    const detail = errorOf(blocked).detail as { diagnostics: { code: string; file: string }[] };
    expect(detail.diagnostics.map((d) => [d.code, d.file])).toEqual([['bad-lock', lock]]);
  });

  it('a fetch waits for another that holds the lock longer than a store write would (it fetches), then finds the commit cached', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const lock = join(app, '.git', 'agents', 'extends', '.lock');
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    // The lock's clock and sleeps are faked: 20 s of waiting, past the 15 s a store write waits, pass at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    try {
      let done = false;
      const fetching = run(app, 'extends', 'fetch', '--format', 'json').finally(() => {
        done = true;
      });
      // Until the fetch sleeps between tries of the lock (its first timer), time is left alone: its clock starts then.
      const until = performance.now() + 30_000;
      while (vi.getTimerCount() === 0 && !done && performance.now() < until) await new Promise((r) => setImmediate(r));
      for (let waited = 0; waited < 20_000 && !done; waited += 500) await vi.advanceTimersByTimeAsync(500);
      expect(done).toBe(false);
      rmSync(lock);
      while (!done) await vi.advanceTimersByTimeAsync(100);
      const r = await fetching;
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)[0].status).toBe('cached');
      // Said once, as it began to last, so that a wait as long as another's fetch does not look hung.
      expect(r.stderr.match(/^agents: waiting for .*/gm)).toEqual([
        `agents: waiting for ${lock}, held by process ${process.pid} on ${hostname()}; gives up after 600000 ms (AGENTS_LOCK_TIMEOUT_MS)`,
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Ctrl-C or SIGTERM while a fetch waits for the lock of another stops it then: exit 130 or 143, not after that fetch or the wait', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const lock = join(app, '.git', 'agents', 'extends', '.lock');
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    try {
      for (const [signal, exit] of [
        ['SIGINT', 130],
        ['SIGTERM', 143],
      ] as const) {
        let done = false;
        const fetching = runMain(['extends', 'fetch', '--format', 'json'], { cwd: app, env: { AGENTS_LOCK_TIMEOUT_MS: '5000' } }).finally(
          () => {
            done = true;
          },
        );
        // Waiting for the lock (its first sleep between tries) when the signal comes.
        const until = performance.now() + 30_000;
        while (vi.getTimerCount() === 0 && !done && performance.now() < until) await new Promise((r) => setImmediate(r));
        process.emit(signal, signal);
        for (let waited = 0; waited < 10_000 && !done; waited += 100) await vi.advanceTimersByTimeAsync(100);
        const r = await fetching;
        expect([signal, r.code, errorOf(r).code], r.stderr).toEqual([signal, exit, 'cancelled']);
        expect(readFileSync(lock, 'utf8')).toContain(String(process.pid));
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it.each(['GIT_SSH_COMMAND', 'core.sshCommand'] as const)(
    'a source reached over ssh is fetched with the ssh command %s names, as git fetches',
    async (where) => {
      const dir = tempDir();
      const policy = policyRepo(dir);
      // An "ssh" that runs the remote command here: the host exists only through it.
      const ssh = join(dir, 'fake-ssh');
      writeFileSync(ssh, '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n');
      chmodSync(ssh, 0o755);
      const app = consumer(dir, `  - name: policy\n    url: ssh://nohost.invalid${policy.bare}\n    ref: v1\n`);
      // The repository's own setting reaches the fetch into the cache, a repository of its own, as it reaches ls-remote.
      const env: Record<string, string> = where === 'GIT_SSH_COMMAND' ? { GIT_SSH_COMMAND: ssh } : {};
      if (where === 'core.sshCommand') git(app, 'config', 'core.sshCommand', ssh);
      await updateThenFetchAfresh(app, env);
    },
  );

  it('a url the repository rewrites (url.<base>.insteadOf) is fetched, and its branch checked, as git rewrites it', async () => {
    const dir = tempDir();
    const pol = policyRepo(dir, 'pol');
    const app = consumer(dir, '  - name: pol\n    url: corp:pol\n    ref: main\n');
    git(app, 'config', `url.${pol.url}.insteadOf`, 'corp:pol');
    // A token in the repository's settings reaches the fetches through their environment, never their arguments (ps).
    git(app, 'config', 'http.extraHeader', 'Authorization: Bearer s3cr3t-t0ken');
    const argv = join(dir, 'argv.log');
    const shim = gitShim(dir, `printf '%s\\n' "$*" >> ${argv}`);
    // The branch moves on after the pin: the fetch checks that it still holds the pin, in a scratch repository.
    await updateThenFetchAfresh(app, { PATH: `${shim}:${process.env.PATH}` }, () =>
      policyCommit(pol, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') }),
    );
    const calls = readFileSync(argv, 'utf8');
    expect(calls).toMatch(/ fetch /);
    expect(calls).not.toContain('s3cr3t');
  });

  it("a relative url names the same folder in a linked worktree, which shares the main one's cache", async () => {
    const dir = tempDir();
    policyRepo(dir);
    const app = consumer(dir, '  - url: ../policy.git\n    ref: v1\n');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    const wt = join(dir, 'elsewhere', 'wt');
    mkdirSync(join(dir, 'elsewhere'));
    git(app, 'worktree', 'add', '-q', wt);
    expect(await effectiveIds(wt)).toEqual([LOCAL, LOCKED, SECRETS]);
    const up = await run(wt, 'extends', 'update', '--dry-run');
    expect(up.code, up.stderr).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    expect((await run(wt, 'extends', 'fetch')).code).toBe(0);
  });

  it('a linked worktree of a bare repository keeps the cache in that repository and reads from it', async () => {
    const dir = tempDir();
    policyRepo(dir);
    const app = consumer(dir, '  - url: ../policy.git\n    ref: v1\n');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    const bare = join(dir, 'app.git');
    git(dir, 'clone', '-q', '--bare', app, bare);
    const wt = join(dir, 'wt');
    git(bare, 'worktree', 'add', '-q', wt);
    const fetch = await run(wt, 'extends', 'fetch');
    expect(fetch.code, fetch.stderr).toBe(0);
    expect(existsSync(join(bare, 'agents', 'extends'))).toBe(true);
    expect(await effectiveIds(wt)).toEqual([LOCAL, LOCKED, SECRETS]);
  });
});

/** `extends update` (pins, committed), then `between`, then `extends fetch` into an emptied cache: both succeed and the sources' invariants resolve. */
async function updateThenFetchAfresh(app: string, env: Record<string, string>, between = () => {}): Promise<void> {
  const up = await runMain(['extends', 'update'], { cwd: app, env });
  expect(up.code, up.stderr).toBe(0);
  commitAll(app, 'pins');
  between();
  rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
  const fetch = await runMain(['extends', 'fetch'], { cwd: app, env });
  expect(fetch.code, fetch.stderr).toBe(0);
  expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
}
