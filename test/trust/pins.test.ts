// A hand-edited pin of extends.lock.yaml (issue 30, B): refused by
// `extends fetch`, shown by `invariant diff` on the working tree and the index.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

const LOCKED = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const LOCAL = '01JDQ6X5Z8W4N3B2C1D0E9F8G5';

/** A policy repository: v0 without the locked invariant, v1 with it, and an orphan commit no branch holds. */
function policyRepo(dir: string): { work: string; url: string; v0: string; v1: string; orphan: string } {
  const work = join(dir, 'policy');
  mkdirSync(work);
  gitInit(work);
  writeTree(work, { '.agents/global/.keep': '' });
  commitAll(work, 'v0');
  const v0 = git(work, 'rev-parse', 'HEAD').trim();
  writeTree(work, { [`.agents/global/${LOCKED}.yaml`]: invariantYaml(LOCKED, 'Never delete production data', { locked: 'true' }) });
  commitAll(work, 'v1');
  git(work, 'tag', 'v1');
  const v1 = git(work, 'rev-parse', 'HEAD').trim();
  git(work, 'checkout', '-q', '--orphan', 'tmp');
  git(work, 'rm', '-rq', '--cached', '.agents/global');
  writeTree(work, { '.agents/global/.keep': 'x' });
  git(work, 'add', '.agents/global/.keep');
  git(work, 'commit', '-qm', 'orphan');
  const orphan = git(work, 'rev-parse', 'HEAD').trim();
  git(work, 'checkout', '-qf', 'main');
  git(work, 'branch', '-qD', 'tmp');
  git(work, 'tag', 'keep-orphan', orphan);
  const bare = join(dir, 'policy.git');
  git(dir, 'clone', '-q', '--bare', work, bare);
  // The orphan stays reachable by id only (uploadpack allows any reachable... or any) — the tag is gone.
  git(bare, 'tag', '-d', 'keep-orphan');
  git(bare, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  return { work, url: `file://${bare}`, v0, v1, orphan };
}

function consumer(dir: string, url: string, ref = 'v1'): string {
  const top = join(dir, 'app');
  mkdirSync(top);
  gitInit(top);
  writeTree(top, {
    '.agents/global/': null,
    [`.agents/projects/myapp/${LOCAL}.yaml`]: invariantYaml(LOCAL, 'All API changes need tests'),
    '.agents/config.yaml': `extends:\n  - url: ${url}\n    ref: ${ref}\n`,
  });
  commitAll(top, 'consumer');
  return top;
}

const run = (cwd: string, ...args: string[]) => runMain(args, { cwd });
const LOCK = '.agents/extends.lock.yaml';

function editPin(app: string, from: string, to: string): void {
  const path = join(app, LOCK);
  writeFileSync(path, readFileSync(path, 'utf8').replace(`commit: ${from}`, `commit: ${to}`));
}

describe('a hand-edited pin', () => {
  it('extends fetch refuses a tag pin whose commit is not what the tag names (exit 1, both commits named)', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    editPin(app, p.v1, p.v0);
    const r = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe('extends-pin-mismatch');
    expect(err.detail).toMatchObject({ source: 'policy', pinned: p.v0, named: p.v1 });
    // The pin named by the tag fetches as before.
    editPin(app, p.v0, p.v1);
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
  });

  it('extends fetch refuses a branch pin whose commit the branch does not hold', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url, 'main');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    editPin(app, p.v1, p.orphan);
    const r = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('extends-pin-mismatch');
    // An older commit of the branch is a pin the branch held: fetched.
    editPin(app, p.orphan, p.v0);
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
  });

  it('a lock edited back to an earlier pin of a tag that moved on is checked again and refused, in a clone that once fetched it', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    const old = readFileSync(join(app, LOCK), 'utf8');
    // The source moves the tag on (v1 → a commit after it); the repository follows it on purpose.
    writeTree(p.work, { '.agents/global/.later': '' });
    const later = commitAll(p.work, 'later');
    git(p.work, 'tag', '-f', 'v1');
    git(p.work, 'push', '-q', '--force', p.url.slice('file://'.length), 'main', 'v1');
    expect((await run(app, 'extends', 'update', '--accept-moved-tag')).code).toBe(0);
    expect(readFileSync(join(app, LOCK), 'utf8')).toContain(later);
    // The old lock put back by hand: its commit is cached and was checked once, but the tag names another now.
    writeFileSync(join(app, LOCK), old);
    const r = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.detail).toMatchObject({ pinned: p.v1, named: later });
  });

  it('a hand-edited pin whose commit the cache holds is read by no command until extends fetch checks it', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    // v0 cached too, as in a clone that once pinned it (or fetched a base side with --rev): no fetch would be needed.
    git(join(app, '.git/agents/extends/policy.git'), 'fetch', '-q', '--depth', '1', p.url, `+${p.v0}:refs/agents/pins/${p.v0}`);
    editPin(app, p.v1, p.v0);
    // Read as it says, v0 would drop the locked invariant from every set without a word.
    for (const args of [
      ['invariant', 'list', '--effective', '--project', 'myapp'],
      ['invariant', 'show', LOCKED],
      ['validate'],
      ['export', '--target', 'agents-md', '--dry-run'],
    ]) {
      const r = await run(app, ...args, '--format', 'json');
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error, args.join(' ')).toMatchObject({
        code: 'extends-not-fetched',
        detail: { source: 'policy', commit: p.v0 },
      });
    }
    // The review still reads it, to show the edit; the fetch it names refuses it.
    expect((await run(app, 'invariant', 'diff', '--format', 'json')).code).toBe(0);
    expect((await run(app, 'extends', 'fetch')).code).toBe(1);
    // The pin as update wrote it is read again at once: it was checked when it was taken.
    editPin(app, p.v0, p.v1);
    const back = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout).map((e: { id: string }) => e.id)).toContain(LOCKED);
  });

  it('validate --staged refuses a hand-edited pin staged in the index, cached or not, as validate refuses the working tree one', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    const pinned = readFileSync(join(app, LOCK), 'utf8');
    // v0 cached too, as in a clone that once pinned it: the staged edit needs no fetch to be read as it says.
    git(join(app, '.git/agents/extends/policy.git'), 'fetch', '-q', '--depth', '1', p.url, `+${p.v0}:refs/agents/pins/${p.v0}`);
    for (const commit of [p.v0, p.orphan]) {
      editPin(app, p.v1, commit);
      git(app, 'add', LOCK);
      // The working tree's lock as update wrote it: only the index holds the edit.
      writeFileSync(join(app, LOCK), pinned);
      expect((await run(app, 'validate')).code).toBe(0);
      const r = await run(app, 'validate', '--staged', '--format', 'json');
      expect(r.code, commit).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error, commit).toMatchObject({ code: 'extends-not-fetched', detail: { source: 'policy', commit } });
      expect(error.message).toContain('index');
      // The guard's judgement of the staged change reads the same pins.
      expect((await run(app, 'guard', 'check', '--staged', '--format', 'json')).code, commit).toBe(2);
      git(app, 'reset', '-q', '--', LOCK);
    }
    // The pin as update wrote it, staged, passes: it was checked when it was taken.
    expect((await run(app, 'validate', '--staged')).code).toBe(0);
  });

  it('a lock edited to kind: commit under a tag, or to another commit under a commit id, is refused by every command', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    const path = join(app, LOCK);
    const pinned = readFileSync(path, 'utf8');
    // v0 cached too, as in a clone that once pinned it: nothing but the lock's own check stands in the way.
    git(join(app, '.git/agents/extends/policy.git'), 'fetch', '-q', '--depth', '1', p.url, `+${p.v0}:refs/agents/pins/${p.v0}`);
    writeFileSync(path, pinned.replace('kind: tag', 'kind: commit').replace(`commit: ${p.v1}`, `commit: ${p.v0}`));
    const refuse = async () => {
      for (const args of [
        ['extends', 'fetch'],
        ['invariant', 'list', '--effective', '--project', 'myapp'],
      ]) {
        const r = await run(app, ...args, '--format', 'json');
        expect(r.code, args.join(' ')).toBe(3);
      }
      const v = JSON.parse((await run(app, 'validate', '--format', 'json')).stdout);
      expect(v.diagnostics.find((d: { file: string; line: number }) => d.file === 'extends.lock.yaml').line).toBeGreaterThan(0);
    };
    await refuse();
    // A pin by commit id names itself: a lock whose commit is another one is refused the same way.
    writeFileSync(path, pinned);
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${p.url}\n    ref: ${p.v1}\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toContain('kind: commit');
    editPin(app, p.v1, p.v0);
    await refuse();
  });

  it('invariant diff shows a changed pin on the working tree and on --staged, marked when the ref did not change', async () => {
    const dir = tempDir();
    const p = policyRepo(dir);
    const app = consumer(dir, p.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    editPin(app, p.v1, p.v0);
    // The cache holds v0 (a fetch by someone who trusted the edit): the diff reads both sides.
    git(join(app, '.git/agents/extends/policy.git'), 'fetch', '-q', '--depth', '1', p.url, `+${p.v0}:refs/agents/pins/${p.v0}`);
    for (const args of [[], ['--staged']]) {
      if (args.length) git(app, 'add', LOCK);
      const r = await run(app, 'invariant', 'diff', ...args, '--format', 'json');
      const out = JSON.parse(r.stdout);
      expect(r.code, r.stderr).toBe(0);
      expect(out.policy_sources).toEqual([
        {
          name: 'policy',
          before: { ref: 'v1', commit: p.v1, path: '.agents', url: p.url },
          after: { ref: 'v1', commit: p.v0, path: '.agents', url: p.url },
          ref_unchanged: true,
          // Both sides pinned (the pin moved, the ref kept): no side read without the source.
          not_pinned: { before: null, after: null },
          entered: [],
          left: [LOCKED],
          edited: [],
        },
      ]);
    }
  });
});
