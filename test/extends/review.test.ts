import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { errorOf, runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';
import { LATER, LOCKED, consumer, policyCommit, policyRepo } from './repos.ts';

const NEVER_DELETE = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const NO_SECRETS = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const LOG_CHANGES = '01JDQ6X5Z8W4N3B2C1D0E9F8G4';
const LOCAL_TESTS = '01JDQ6X5Z8W4N3B2C1D0E9F8G5';
const PLAN = '01JDQ6X5Z8W4N3B2C1D0E9F8P1';

const run = (cwd: string, ...args: string[]) => runMain(args, { cwd });

/** A new git repository at dir/name holding `tree` (not committed). */
function repoWith(dir: string, name: string, tree: Record<string, string | null>): string {
  const repo = join(dir, name);
  mkdirSync(repo);
  gitInit(repo);
  writeTree(repo, tree);
  return repo;
}

describe('invariant diff across a commit that moves a policy pin', () => {
  it('shows the inherited changes as such, and the markdown says the source moved from v1 to v2 with what entered and left', async () => {
    const dir = tempDir();
    const policy = repoWith(dir, 'policy', {
      [`.agents/global/${NEVER_DELETE}.yaml`]: invariantYaml(NEVER_DELETE, 'Never delete production data'),
      [`.agents/global/${NO_SECRETS}.yaml`]: invariantYaml(NO_SECRETS, 'No secrets in prompts'),
    });
    commitAll(policy, 'v1');
    git(policy, 'tag', 'v1');
    git(policy, 'rm', '-q', `.agents/global/${NO_SECRETS}.yaml`);
    writeTree(policy, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    commitAll(policy, 'v2');
    git(policy, 'tag', 'v2');

    const app = repoWith(dir, 'app', {
      [`.agents/projects/myapp/${LOCAL_TESTS}.yaml`]: invariantYaml(LOCAL_TESTS, 'All API changes need tests'),
      '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: v1\n`,
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    // Before the first commit the working tree is compared with nothing: the source enters, pinned on one side only.
    const unborn = await run(app, 'invariant', 'diff', '--format', 'json');
    expect(unborn.code).toBe(0);
    expect(JSON.parse(unborn.stdout).policy_sources).toMatchObject([{ name: 'acme', before: null, after: { ref: 'v1' } }]);
    commitAll(app, 'inherit acme v1');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: v2\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'acme v2');

    const md = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'markdown');
    expect(md.code).toBe(0);
    const v1 = git(policy, 'rev-parse', 'v1').trim().slice(0, 12);
    const v2 = git(policy, 'rev-parse', 'v2').trim().slice(0, 12);
    expect(md.stdout).toContain(`**policy source \`acme\` moved from \`v1\` (\`${v1}\`) to \`v2\` (\`${v2}\`)**`);
    expect(md.stdout).toContain(`- **entered** Log all changes — \`${LOG_CHANGES}\``);
    expect(md.stdout).toContain(`- **left** No secrets in prompts — \`${NO_SECRETS}\``);
    expect(md.stdout).toContain('inherited from `acme`');

    const json = JSON.parse((await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json')).stdout);
    expect(json.policy_sources).toEqual([
      {
        name: 'acme',
        before: { ref: 'v1', commit: git(policy, 'rev-parse', 'v1').trim(), path: '.agents', url: policy },
        after: { ref: 'v2', commit: git(policy, 'rev-parse', 'v2').trim(), path: '.agents', url: policy },
        ref_unchanged: false,
        not_pinned: { before: null, after: null },
        entered: [LOG_CHANGES],
        left: [NO_SECRETS],
        edited: [],
      },
    ]);
    const target = json.targets.find((t: { project: string | null }) => t.project === 'myapp');
    expect(target.entered.map((e: { id: string; scope: string }) => [e.id, e.scope])).toEqual([[LOG_CHANGES, 'inherited']]);
    expect(target.left.map((e: { id: string; scope: string }) => [e.id, e.scope])).toEqual([[NO_SECRETS, 'inherited']]);

    // The working tree against HEAD: no pin moved, nothing reported.
    const same = JSON.parse((await run(app, 'invariant', 'diff', '--format', 'json')).stdout);
    expect(same.policy_sources).toEqual([]);

    // The same commit pinned for another ref (a second tag on it, a branch) is a move the review shows too: the lock
    // changed, and the next update follows that ref.
    git(policy, 'tag', 'v2-lts', 'v2');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: v2-lts\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const retagged = await run(app, 'invariant', 'diff', '--exit-code', '--format', 'json');
    expect(retagged.code).toBe(1);
    expect(JSON.parse(retagged.stdout).policy_sources).toMatchObject([
      { name: 'acme', before: { ref: 'v2' }, after: { ref: 'v2-lts' }, ref_unchanged: false, entered: [], left: [] },
    ]);

    // The same commit fetched from another URL (a fork, a mirror, here the same repository by a file:// URL) is a
    // move the review shows: the next update follows the ref there.
    const fork = `file://${policy}`;
    writeTree(app, { '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${fork}\n    ref: v2\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const moved = await run(app, 'invariant', 'diff', '--exit-code', '--format', 'json');
    expect(moved.code).toBe(1);
    expect(JSON.parse(moved.stdout).policy_sources).toMatchObject([
      { name: 'acme', before: { url: policy }, after: { url: fork }, ref_unchanged: false, entered: [], left: [] },
    ]);
    const title = await run(app, 'invariant', 'diff', '--format', 'markdown');
    expect(title.stdout).toContain(`now from \`${fork}\` (was \`${policy}\`)`);
    // A URL's credentials are never printed: the review shows the user and *** for the token.
    const secret = 'https://ci:s3cr3t@git.example.invalid/acme/policy.git';
    git(app, 'config', `url.${fork}.insteadOf`, secret);
    writeTree(app, { '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${secret}\n    ref: v2\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    for (const format of ['json', 'markdown', 'text']) {
      const r = await run(app, 'invariant', 'diff', '--format', format);
      expect(r.stdout).toContain('https://ci:***@git.example.invalid/acme/policy.git');
      expect(r.stdout + r.stderr).not.toContain('s3cr3t');
    }
  });

  it('a new order of the sources in extends is a change: the review names it and what it newly shadows in each project', async () => {
    const dir = tempDir();
    const mk = (name: string, id: string, severity: string) => {
      const repo = repoWith(dir, name, { [`.agents/global/${id}.yaml`]: invariantYaml(id, 'No secrets in prompts', { severity }) });
      commitAll(repo, name);
      return repo;
    };
    const strict = mk('strict', NO_SECRETS, 'error');
    const soft = mk('soft', LOG_CHANGES, 'info');
    const app = join(dir, 'app');
    mkdirSync(app);
    gitInit(app);
    const source = (repo: string) => `  - url: ${repo}\n    ref: main\n`;
    writeTree(app, {
      [`.agents/projects/myapp/${LOCAL_TESTS}.yaml`]: invariantYaml(LOCAL_TESTS, 'All API changes need tests'),
      '.agents/config.yaml': `extends:\n${source(strict)}${source(soft)}`,
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'two sources');
    writeTree(app, { '.agents/config.yaml': `extends:\n${source(soft)}${source(strict)}` });
    const r = await run(app, 'invariant', 'diff', '--format', 'json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.policy_order).toEqual({ before: ['strict', 'soft'], after: ['soft', 'strict'] });
    const target = out.targets.find((t: { project?: string }) => t.project === 'myapp');
    // The strict copy is now shadowed by the soft one listed first.
    expect(target.newly_shadowed.map((e: { id: string; by: { id: string } }) => [e.id, e.by.id])).toEqual([[NO_SECRETS, LOG_CHANGES]]);
    expect(target.no_longer_shadowed.map((e: { id: string }) => e.id)).toEqual([LOG_CHANGES]);
    const md = await run(app, 'invariant', 'diff', '--format', 'markdown');
    expect(md.stdout).toContain('reordered');
  });

  it('a pin move counts a project with no invariant of its own, and update and diff count the same sets', async () => {
    const dir = tempDir();
    const policy = repoWith(dir, 'policy', {
      [`.agents/global/${NEVER_DELETE}.yaml`]: invariantYaml(NEVER_DELETE, 'Never delete production data'),
    });
    commitAll(policy, 'v1');
    const app = repoWith(dir, 'app', {
      '.agents/projects/api/.gitkeep': '',
      // A plan's set holds the inherited invariants too: a target of the move, as of a global file's change.
      [`.agents/plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: api\n`,
      '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: main\n`,
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'inherit');
    writeTree(policy, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    commitAll(policy, 'v2');
    const up = JSON.parse((await run(app, 'extends', 'update', '--format', 'json')).stdout);
    const diff = JSON.parse((await run(app, 'invariant', 'diff', '--format', 'json')).stdout);
    const sets = (d: { targets: { project: string | null; plan: string | null; entered: { id: string }[] }[] }) =>
      d.targets.map((t) => [t.plan ?? t.project, t.entered.map((e) => e.id)]);
    const both = [
      ['api', [LOG_CHANGES]],
      [PLAN, [LOG_CHANGES]],
    ];
    expect(sets(up.sources[0].diff)).toEqual(both);
    expect(sets(diff)).toEqual(both);
    commitAll(app, 'v2');
    expect(sets(JSON.parse((await run(app, 'invariant', 'diff', 'HEAD^1..HEAD', '--format', 'json')).stdout))).toEqual(both);
    // Nothing moves: no set changed.
    const again = JSON.parse((await run(app, 'extends', 'update', '--dry-run', '--format', 'json')).stdout);
    expect(again.sources[0].diff.summary.targets_changed).toBe(0);
  });

  it('a move that only lifts a floor (locked: true dropped at the source) is an edit in update and in the review', async () => {
    const dir = tempDir();
    const policy = repoWith(dir, 'policy', {
      [`.agents/global/${NEVER_DELETE}.yaml`]: invariantYaml(NEVER_DELETE, 'Never delete production data', { locked: 'true' }),
    });
    commitAll(policy, 'v1');
    const app = repoWith(dir, 'app', {
      [`.agents/projects/myapp/${LOCAL_TESTS}.yaml`]: invariantYaml(LOCAL_TESTS, 'All API changes need tests'),
      '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: main\n`,
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'inherit acme');
    writeTree(policy, { [`.agents/global/${NEVER_DELETE}.yaml`]: invariantYaml(NEVER_DELETE, 'Never delete production data') });
    commitAll(policy, 'unlock');

    const update = await run(app, 'extends', 'update', '--format', 'json');
    expect(update.code).toBe(0);
    const edited = JSON.parse(update.stdout).sources[0].diff.invariants;
    expect(
      edited.map((c: { change: string; id: string; fields: { field: string; before: unknown; after: unknown }[] }) => [
        c.change,
        c.id,
        c.fields,
      ]),
    ).toEqual([['edited', NEVER_DELETE, [{ field: 'locked', before: true, after: null }]]]);
    commitAll(app, 'move acme');
    const review = JSON.parse((await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json')).stdout);
    expect(review.policy_sources[0].edited).toEqual([NEVER_DELETE]);
  });

  it('a revision whose config.yaml is invalid is named by fetch --rev and by the diff, as the working tree is valid', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - url: ${policy.url}\n    reff: v1\n` });
    const broken = commitAll(app, 'broken');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - url: ${policy.url}\n    ref: v1\n` });
    commitAll(app, 'fixed');
    expect((await run(app, 'validate')).code).toBe(0);

    const fetch = await run(app, 'extends', 'fetch', '--rev', 'HEAD~1', '--format', 'json');
    expect(fetch.code).toBe(3);
    expect(JSON.parse(fetch.stdout).error.message).toContain('revision HEAD~1');
    const diff = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json');
    expect(diff.code).toBe(3);
    expect(JSON.parse(diff.stdout).error.message).toContain(`revision ${broken.slice(0, 12)}`);
  });

  it('a revision whose config.yaml names an actor without a key it needs: the diff and fetch --rev run, as they run no actor', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - url: ${policy.url}\n    ref: v1\nreconciliation:\n  actor: llm\n` });
    commitAll(app, 'an llm actor, its provider and model to come');
    const diff = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json');
    expect(diff.code, diff.stderr).toBe(0);
    expect((await run(app, 'extends', 'fetch', '--rev', 'HEAD')).code).toBe(0);
    expect((await run(app, 'validate')).code).toBe(1);
  });

  it('a revision whose config.yaml names a ref its lock does not pin: fetch --rev fetches what the diff reads of it, and the diff runs', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    policyCommit(policy, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') });
    git(policy.work, 'tag', 'v2');
    git(policy.work, 'push', '-q', 'origin', 'v2');
    // The base side: ref edited to v2 and committed without `extends update` (its lock pins nothing).
    writeTree(app, { '.agents/config.yaml': `extends:\n  - url: ${policy.url}\n    ref: v2\n` });
    commitAll(app, 'ref v2, not pinned');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin v2');

    const fetch = await run(app, 'extends', 'fetch', '--rev', 'HEAD~1', '--format', 'json');
    expect(fetch.code, fetch.stderr).toBe(0);
    expect(JSON.parse(fetch.stdout)).toEqual([]);
    const diff = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json');
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout).policy_sources.map((m: { name: string; before: unknown }) => [m.name, m.before])).toEqual([
      ['policy', null],
    ]);
    // That side is read without the source because it is not pinned there, not because config.yaml dropped it: said so.
    const stale = 'the policy source policy has no pin in extends.lock.yaml';
    expect(JSON.parse(diff.stdout).policy_sources[0].not_pinned).toEqual({ before: stale, after: null });
    const back = await run(app, 'invariant', 'diff', 'HEAD..HEAD~1', '--format', 'json');
    expect(JSON.parse(back.stdout).policy_sources[0]).toMatchObject({ after: null, not_pinned: { before: null, after: stale } });
    const text = await run(app, 'invariant', 'diff', 'HEAD..HEAD~1');
    expect(text.stdout).toContain('policy source policy not pinned now');
    expect(text.stdout).not.toContain('removed (was at');
    // Named, the source is refused as not pinned at that revision.
    const named = await run(app, 'extends', 'fetch', '--rev', 'HEAD~1', 'policy', '--format', 'json');
    expect(errorOf(named).code).toBe('extends-not-pinned');
  });

  it('a first source added without its lock is no "no change": every side reads without it, and the diff says so', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = repoWith(dir, 'app', {
      [`.agents/projects/myapp/${LOCAL_TESTS}.yaml`]: invariantYaml(LOCAL_TESTS, 'All API changes need tests'),
      '.agents/config.yaml': 'version: 1\n',
    });
    commitAll(app, 'no sources yet');
    const named = `version: 1\nextends:\n  - url: ${policy.url}\n    ref: v1\n`;
    const stale = 'the policy source policy has no pin in extends.lock.yaml';
    // In the working tree and staged, as in the pull request's commit: neither side holds a lock.
    writeTree(app, { '.agents/config.yaml': named });
    const sides = [
      ['invariant', 'diff'],
      ['invariant', 'diff', '--staged'],
      ['invariant', 'diff', 'HEAD~1..HEAD'],
    ];
    for (const [i, args] of sides.entries()) {
      if (i === 1) git(app, 'add', '-A');
      if (i === 2) commitAll(app, 'extends policy, no lock');
      const diff = await run(app, ...args!, '--format', 'json');
      expect(diff.code, diff.stderr).toBe(0);
      expect(JSON.parse(diff.stdout).policy_sources).toMatchObject([
        { name: 'policy', before: null, after: null, not_pinned: { before: null, after: stale } },
      ]);
      // A change, for a CI gate that asks one.
      expect((await run(app, ...args!, '--exit-code')).code).toBe(1);
    }
    expect((await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).code).toBe(2);
    const md = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'markdown');
    expect(md.stdout).toContain('policy source `policy` not pinned');
    // Undone, the source is no longer named: said too, never as a removal of something pinned.
    const back = await run(app, 'invariant', 'diff', 'HEAD..HEAD~1', '--format', 'json');
    expect(JSON.parse(back.stdout).policy_sources).toMatchObject([
      { before: null, after: null, not_pinned: { before: stale, after: null } },
    ]);

    // A second source named without its pin beside one that is pinned: the pinned one is no change, the new one is.
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin policy');
    const other = policyRepo(dir, 'other');
    writeTree(app, { '.agents/config.yaml': `${named}  - url: ${other.url}\n    ref: v1\n` });
    commitAll(app, 'extends other, no pin');
    const second = JSON.parse((await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json')).stdout);
    expect(second.policy_sources).toMatchObject([
      {
        name: 'other',
        before: null,
        after: null,
        not_pinned: { before: null, after: 'the policy source other has no pin in extends.lock.yaml' },
      },
    ]);
    // A commit that changes neither config.yaml nor the lock says nothing of a source it left as unpinned as it was.
    writeTree(app, { 'README.md': 'x\n' });
    commitAll(app, 'unrelated');
    expect(JSON.parse((await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json')).stdout).policy_sources).toEqual([]);
  });

  // The key spelled with an escape holds no `extends` in its text: the look for the word must not pass over it.
  it.each([
    ['in flow style', '"extends"'],
    ['with the key spelled by an escape', '"\\x65xtends"'],
  ])('a config.yaml %s extends as the block style does: the diff shows a pin move, validate checks the floors', async (_, key) => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    const flow = (ref: string) => ({ '.agents/config.yaml': `{${key}: [{"url": "${policy.url}", "ref": "${ref}"}]}\n` });
    writeTree(app, flow('v1'));
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin v1');
    policyCommit(policy, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') });
    git(policy.work, 'tag', 'v2');
    git(policy.work, 'push', '-q', 'origin', 'v2');
    writeTree(app, flow('v2'));
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin v2');

    const diff = JSON.parse((await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json')).stdout);
    expect(diff.policy_sources.map((m: { name: string; entered: string[] }) => [m.name, m.entered])).toEqual([['policy', [LATER]]]);
    // A copy here that lowers the locked floor is the validate error it is in a block-style config.yaml.
    const weak = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
    writeTree(app, { [`.agents/global/${weak}.yaml`]: invariantYaml(weak, 'Never delete production data', { severity: 'warning' }) });
    const v = await run(app, 'validate', '--format', 'json');
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('locked-weakened');
  });

  it("a fresh clone fetches the base side's pins with fetch --rev, which the diff's hint names", async () => {
    const dir = tempDir();
    const policy = repoWith(dir, 'policy', {
      [`.agents/global/${NEVER_DELETE}.yaml`]: invariantYaml(NEVER_DELETE, 'Never delete production data'),
    });
    commitAll(policy, 'v1');
    git(policy, 'tag', 'v1');
    writeTree(policy, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    commitAll(policy, 'v2');
    git(policy, 'tag', 'v2');
    const app = repoWith(dir, 'app', {
      [`.agents/projects/myapp/${LOCAL_TESTS}.yaml`]: invariantYaml(LOCAL_TESTS, 'All API changes need tests'),
      '.agents/config.yaml': 'version: 1\n',
    });
    // Before the store extended anything, fetch --rev of that revision has nothing to do.
    const first = commitAll(app, 'no sources yet');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: v1\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'inherit acme v1');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - name: acme\n    url: ${policy}\n    ref: v2\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'acme v2');
    const ci = join(dir, 'ci');
    git(dir, 'clone', '-q', app, ci);
    expect((await run(ci, 'extends', 'fetch')).code).toBe(0);
    const missing = await run(ci, 'invariant', 'diff', 'HEAD^1..HEAD', '--format', 'json');
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.hint).toContain('--rev');
    expect((await run(ci, 'extends', 'fetch', '--rev', 'HEAD^1')).code).toBe(0);
    const diff = await run(ci, 'invariant', 'diff', 'HEAD^1..HEAD', '--format', 'json');
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout).policy_sources.map((m: { entered: string[] }) => m.entered)).toEqual([[LOG_CHANGES]]);
    expect(JSON.parse((await run(ci, 'extends', 'fetch', '--rev', first, '--format', 'json')).stdout)).toEqual([]);
    // A range is two sides, not a revision the clone lacks: refused as a usage error naming it.
    const range = await run(ci, 'extends', 'fetch', '--rev', 'HEAD^1..HEAD', '--format', 'json');
    expect(range.code).toBe(2);
    expect(JSON.parse(range.stdout).error.message).toContain('range HEAD^1..HEAD');
    // A CI clone one commit deep lacks the base: fetch --rev says it as the diff does, with the same way to fetch it.
    const shallow = join(dir, 'shallow');
    git(dir, 'clone', '-q', '--depth', '1', `file://${app}`, shallow);
    const base = JSON.parse((await run(shallow, 'extends', 'fetch', '--rev', 'HEAD^1', '--format', 'json')).stdout);
    const diffBase = JSON.parse((await run(shallow, 'invariant', 'diff', 'HEAD^1..HEAD', '--format', 'json')).stdout);
    expect(base.exit_code).toBe(2);
    expect(base.error).toEqual(diffBase.error);

    // A pull request that removes the whole store, in a fresh CI cache: the base's pins are fetched where the base
    // held the store, and the diff reports the inherited invariants leaving with it.
    git(ci, 'rm', '-rq', '.agents');
    commitAll(ci, 'remove the store');
    rmSync(join(ci, '.git/agents'), { recursive: true, force: true });
    expect((await run(ci, 'extends', 'fetch', '--rev', 'HEAD^1')).code).toBe(0);
    const removed = await run(ci, 'invariant', 'diff', 'HEAD^1..HEAD', '--format', 'json');
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout).policy_sources.map((m: { left: string[] }) => m.left)).toEqual([[NEVER_DELETE, LOG_CHANGES]]);
    // A revision that holds no store there either is still no store found.
    expect((await run(ci, 'extends', 'fetch', '--rev', 'HEAD')).code).toBe(2);
  });
});

describe('invariant log of an inherited id', () => {
  it('says it comes from the policy source, whose repository holds its history (exit 2), not that no invariant has that id', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const r = await run(app, '--format', 'json', 'invariant', 'log', LOCKED);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail).toEqual({ id: LOCKED, source: 'policy', path: `global/${LOCKED}.yaml` });
    // An id neither in the history nor inherited is still unknown.
    expect(JSON.parse((await run(app, '--format', 'json', 'invariant', 'log', '01JZZZZZZZ')).stdout).error).toMatchObject({
      code: 'unknown-id',
      detail: { id: '01JZZZZZZZ', suggestions: [] },
    });
  });
});
