// A moved tag is never followed silently (docs/extends.md): nor is a tag that is gone at the source while a
// branch of the same name now names another commit.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git } from '../helpers/git.ts';
import { errorOf } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';
import { LOCAL, LOCK, LOCKED, SECRETS, consumer, edit, effectiveIds, policyRepo, run } from './repos.ts';

describe('a tag pin whose name now names a branch', () => {
  it('update refuses it until accepted, and fetch refuses the old pin', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    const lock = readFileSync(join(app, LOCK), 'utf8');
    // At the source: the tag v1 deleted, a branch v1 made on a commit without the locked floor.
    git(policy.work, 'rm', '-q', `.agents/global/${LOCKED}.yaml`);
    const dropped = commitAll(policy.work, 'drop the floor');
    git(policy.bare, 'tag', '-d', 'v1');
    git(policy.work, 'push', '-q', 'origin', `${dropped}:refs/heads/v1`);

    const refused = await run(app, 'extends', 'update', '--format', 'json');
    expect(refused.code).toBe(1);
    const report = JSON.parse(refused.stdout);
    expect(report.written).toBe(false);
    expect(report.sources[0]).toMatchObject({
      moved_tag: true,
      before: { kind: 'tag', commit: policy.v1 },
      after: { kind: 'branch', commit: dropped },
    });
    expect(readFileSync(join(app, LOCK), 'utf8')).toBe(lock);
    expect((await run(app, 'extends', 'update')).stdout).toContain('is gone at the source');

    const accepted = await run(app, 'extends', 'update', '--accept-moved-tag');
    expect(accepted.code).toBe(0);
    expect(readFileSync(join(app, LOCK), 'utf8')).toContain('kind: branch');
    const acceptedLock = readFileSync(join(app, LOCK), 'utf8');
    // A clone with the lock as committed: its fetch refuses the tag pin, which the branch does not name.
    git(app, 'checkout', '--', LOCK);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code).toBe(1);
    expect(errorOf(fetch).code).toBe('extends-pin-mismatch');

    // The pull request that accepts the move, reviewed in CI with a fresh cache: the base's pin is history the diff
    // reads for that side, fetched as pinned, so the report shows the floor leaving.
    writeFileSync(join(app, LOCK), acceptedLock);
    commitAll(app, 'accept the moved tag');
    expect((await run(app, 'extends', 'fetch', '--rev', 'HEAD^1')).code).toBe(0);
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    const diff = await run(app, 'invariant', 'diff', 'HEAD^1..HEAD', '--format', 'json');
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout).policy_sources.map((m: { left: string[] }) => m.left)).toEqual([[LOCKED]]);
  });
});

describe('a pinned tag deleted at the source', () => {
  it('fetch and update refuse it as deleted at its ref: line, and changing ref: as the hint says, then update, reads again', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    const lock = readFileSync(join(app, LOCK), 'utf8');
    // The policy team renames its release tag: v1 is deleted, v2 names the same commit.
    git(policy.bare, 'tag', 'v2', 'v1');
    git(policy.bare, 'tag', '-d', 'v1');
    const deleted = {
      code: 'extends-ref-deleted',
      exit_code: 2,
      detail: expect.objectContaining({
        source: 'policy',
        ref: 'v1',
        kind: 'tag',
        pinned: policy.v1,
        tags: ['v2'],
        suggestions: ['v2'],
        file: 'config.yaml',
        line: 3,
        col: 10,
      }),
    };
    // A clone's fetch (a fresh cache), and an update, which cannot follow a ref that is gone.
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect([fetch.code, errorOf(fetch)]).toEqual([2, deleted]);
    const update = await run(app, 'extends', 'update', '--format', 'json');
    expect([update.code, errorOf(update)]).toEqual([2, deleted]);
    expect(readFileSync(join(app, LOCK), 'utf8')).toBe(lock);

    // The advice followed: ref: changed to the tag the source holds, then update; a clone's fetch reads it.
    edit(app, '.agents/config.yaml', 'ref: v1', 'ref: v2');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
    // Or to the pinned commit itself, which keeps the inherited set as it was.
    edit(app, '.agents/config.yaml', 'ref: v2', `ref: ${policy.v1}`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
  });

  it('a pinned branch deleted at the source is refused the same way by fetch', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    git(policy.bare, 'branch', 'release', 'v1');
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: release\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    git(policy.bare, 'branch', '-D', 'release');
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code).toBe(2);
    expect(errorOf(fetch)).toMatchObject({ code: 'extends-ref-deleted', detail: { ref: 'release', kind: 'branch', line: 3, col: 10 } });
  });
});

describe('a tag moved at the source', () => {
  it('an update that refuses the move, or only reports it, leaves the clone reading the pin it had', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await effectiveIds(app)).toContain(LOCKED);
    // The tag moved on to a commit without the locked floor.
    git(policy.work, 'rm', '-q', `.agents/global/${LOCKED}.yaml`);
    commitAll(policy.work, 'drop the floor');
    git(policy.work, 'tag', '-f', 'v1');
    git(policy.work, 'push', '-q', '--force', 'origin', 'v1');
    expect((await run(app, 'extends', 'update', '--dry-run')).code).toBe(1);
    expect((await run(app, 'extends', 'update')).code).toBe(1);
    // Nothing was written: the lock's pin, checked when it was taken, is read as before, by readers and fetch alike.
    expect(await effectiveIds(app)).toContain(LOCKED);
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    expect((await run(app, 'extends', 'update', '--accept-moved-tag')).code).toBe(0);
    expect(await effectiveIds(app)).not.toContain(LOCKED);
  });
});

describe('an annotated tag', () => {
  it('pins the commit it names, with the tag object beside it; a new tag object on the same commit is no move', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    git(policy.bare, 'tag', '-a', 'r1', '-m', 'release 1', policy.v1);
    const tagObject = git(policy.bare, 'rev-parse', 'r1').trim();
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: r1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const lock = readFileSync(join(app, LOCK), 'utf8');
    expect(lock).toContain(`commit: ${policy.v1}`);
    expect(lock).toContain(`tag_object: ${tagObject}`);
    commitAll(app, 'pin');
    // Re-signed at the source: another tag object, the same commit.
    git(policy.bare, 'tag', '-f', '-a', 'r1', '-m', 'release 1 (re-signed)', policy.v1);
    const again = await run(app, 'extends', 'update', '--format', 'json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).sources[0]).toMatchObject({ moved_tag: false, after: { commit: policy.v1 } });
    // A clone with the lock as committed fetches it: the tag still names the pinned commit.
    git(app, 'checkout', '--', LOCK);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    // A lock written before tags were peeled holds the tag object as its commit: still the pin the tag names.
    const newTag = git(policy.bare, 'rev-parse', 'r1').trim();
    writeFileSync(join(app, LOCK), lock.replace(`commit: ${policy.v1}`, `commit: ${newTag}`).replace(/\n\s*tag_object: \S+/, ''));
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
  });

  it('a tag pin edited to kind: branch is refused by fetch, though the commit is the same', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    // As a branch pin, the tag could later move under `extends update`, which follows branches.
    writeFileSync(join(app, LOCK), readFileSync(join(app, LOCK), 'utf8').replace('kind: tag', 'kind: branch'));
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code).toBe(1);
    expect(errorOf(fetch)).toMatchObject({ code: 'extends-pin-mismatch', detail: { kind: 'branch', pinned: policy.v1, named: policy.v1 } });
    expect(existsSync(join(app, '.git', 'agents', 'extends', 'policy.git'))).toBe(false);
  });

  it('a tag that names a tree is refused, not pinned as a commit', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    git(policy.bare, 'tag', 'tree', `${policy.v1}^{tree}`);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: tree\n`);
    const r = await run(app, 'extends', 'update', '--format', 'json');
    expect(r.code).toBe(2);
    expect(errorOf(r).code).toBe('extends-fetch-failed');
    expect(existsSync(join(app, LOCK))).toBe(false);
  });
});

describe('what update says', () => {
  it('a lock git ignores is said, with its rule, as a clone would find its sources not pinned', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    writeFileSync(join(app, '.gitignore'), '*.lock.yaml\n');
    const r = await run(app, 'extends', 'update', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ignored_by_git).toEqual({ path: '.agents/extends.lock.yaml', rule: '.gitignore:1: *.lock.yaml' });
    writeFileSync(join(app, '.gitignore'), '');
    expect(JSON.parse((await run(app, 'extends', 'update', '--format', 'json')).stdout).ignored_by_git).toBeNull();
  });

  it('update says when a source is now fetched from another URL, even at the same commit', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - name: policy\n    url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - name: policy\n    url: ${policy.bare}\n    ref: v1\n`);
    // A lock checked out with a BOM and CRLF line ends keeps them, as the store's other files do: only the url changes.
    const crlf = (text: string) => `\uFEFF${text.replace(/\r?\n/g, '\r\n')}`;
    const lock = readFileSync(join(app, LOCK), 'utf8');
    writeFileSync(join(app, LOCK), crlf(lock));
    const r = await run(app, 'extends', 'update');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain(policy.bare);
    expect(r.stdout.split('\n')[0]).toContain(policy.url);
    expect(readFileSync(join(app, LOCK), 'utf8')).toBe(crlf(lock.replace(`url: ${policy.url}`, `url: ${policy.bare}`)));
  });

  it('a source removed from config.yaml leaves the lock, and update reports what left each set, the last source too', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    writeFileSync(join(app, '.agents/config.yaml'), 'extends: []\n');
    // The workflow fetches wherever a lock is: a store that extends nothing has nothing to fetch, its lock still
    // pinning the source or pinning none after update.
    const fetched = async () => {
      const f = await run(app, 'extends', 'fetch', '--format', 'json');
      return [f.code, JSON.parse(f.stdout)];
    };
    expect(await fetched()).toEqual([0, []]);
    const r = await run(app, 'extends', 'update', '--format', 'json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.written).toBe(true);
    expect(out.sources.map((m: { name: string; after: unknown }) => [m.name, m.after])).toEqual([['policy', null]]);
    const target = out.sources[0].diff.targets.find((t: { project?: string }) => t.project === 'myapp');
    expect(target.left.map((e: { id: string }) => e.id).sort()).toEqual([LOCKED, SECRETS]);
    expect(readFileSync(join(app, LOCK), 'utf8')).not.toContain('policy');
    expect(await effectiveIds(app)).toEqual([LOCAL]);
    expect(await fetched()).toEqual([0, []]);
  });

  it('a tag or branch the source does not hold is refused naming the branches and tags it holds, and the closest', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const branches = git(policy.bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n');
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v2\n`);
    const r = await run(app, 'extends', 'update', '--format', 'json');
    expect(r.code).toBe(2);
    expect(errorOf(r)).toMatchObject({
      code: 'extends-unknown-ref',
      detail: { source: 'policy', ref: 'v2', branches, tags: ['v1'], suggestions: ['v1'] },
    });
    expect(existsSync(join(app, LOCK))).toBe(false);
  });

  it('a full commit id the source does not hold is an unknown ref; an unreachable source is not', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const missing = 'f'.repeat(40);
    const app = consumer(dir, `  - name: policy\n    url: ${policy.url}\n    ref: ${missing}\n`);
    const r = await run(app, 'extends', 'update', '--format', 'json');
    expect(r.code).toBe(2);
    // Named at its ref: line with what the source holds, as a tag or branch it lacks is.
    expect(errorOf(r)).toMatchObject({
      code: 'extends-unknown-ref',
      detail: { source: 'policy', ref: missing, tags: ['v1'], file: 'config.yaml', line: 4, col: 10 },
    });
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - name: policy\n    url: ${dir}/nowhere.git\n    ref: ${missing}\n`);
    const gone = await run(app, 'extends', 'update', '--format', 'json');
    expect(gone.code).toBe(2);
    expect(errorOf(gone).code).not.toBe('extends-unknown-ref');
    // A commit the cache holds (pinned from the source) is unknown at a URL that does not hold it (a fork without it).
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - name: policy\n    url: ${policy.url}\n    ref: ${policy.v1}\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const lock = readFileSync(join(app, LOCK), 'utf8');
    const fork = join(dir, 'fork');
    mkdirSync(fork);
    git(fork, 'init', '-q');
    git(fork, 'commit', '-q', '--allow-empty', '-m', 'unrelated');
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - name: policy\n    url: ${fork}\n    ref: ${policy.v1}\n`);
    const elsewhere = await run(app, 'extends', 'update', '--format', 'json');
    expect(elsewhere.code).toBe(2);
    expect(errorOf(elsewhere).code).toBe('extends-unknown-ref');
    expect(readFileSync(join(app, LOCK), 'utf8')).toBe(lock);
  });
});
