// One id in two repositories is no error (a fork of a policy, a store that extends its own history):
// `invariant show` takes it, shows the copy that applies, and lists the copies it shadows (docs/extends.md).
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';
import { LOCAL, LOCKED, SECRETS, consumer, policyRepo, run } from './repos.ts';

interface Shown {
  path: string;
  shadows: { id: string; path: string }[];
}

describe('an id two repositories share', () => {
  it('show of an id two sources hold shows the first listed, which shadows the other', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const fork = `file://${dir}/fork.git`;
    git(dir, 'clone', '-q', '--bare', policy.bare, `${dir}/fork.git`);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n  - name: fork\n    url: ${fork}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const r = await run(app, 'invariant', 'show', SECRETS, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as Shown;
    expect(shown.path).toBe(`extends/policy/global/${SECRETS}.yaml`);
    expect(shown.shadows.map((s) => s.path)).toEqual([`extends/fork/global/${SECRETS}.yaml`]);
  });

  it('show of a store copy with the id of the inherited copy it shadows lists that copy', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    writeTree(app, { [`.agents/global/${SECRETS}.yaml`]: invariantYaml(SECRETS, 'No secrets in prompts') });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const shown = JSON.parse((await run(app, 'invariant', 'show', SECRETS, '--format', 'json')).stdout) as Shown;
    expect(shown.path).toBe(`global/${SECRETS}.yaml`);
    expect(shown.shadows.map((s) => s.path)).toEqual([`extends/policy/global/${SECRETS}.yaml`]);
  });

  it('invariant list of every scope lists the sources in extends order, with the copies a same-id copy shadows', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    git(dir, 'clone', '-q', '--bare', policy.bare, `${dir}/zz.git`);
    // Listed first, though its name sorts last.
    const app = consumer(dir, `  - name: zz\n    url: file://${dir}/zz.git\n    ref: v1\n  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const listed = JSON.parse((await run(app, 'invariant', 'list', '--format', 'json')).stdout) as {
      id: string;
      path: string;
      shadows: { path: string }[];
      shadowed_by: { path: string }[];
    }[];
    const inherited = listed.filter((i) => i.path.startsWith('extends/'));
    expect(inherited.map((i) => i.path.split('/')[1])).toEqual(['zz', 'zz', 'policy', 'policy']);
    const kept = inherited.find((i) => i.path === `extends/zz/global/${SECRETS}.yaml`)!;
    expect(kept.shadows.map((o) => o.path)).toEqual([`extends/policy/global/${SECRETS}.yaml`]);
    const hidden = inherited.find((i) => i.path === `extends/policy/global/${SECRETS}.yaml`)!;
    expect(hidden.shadowed_by.map((o) => o.path)).toEqual([`extends/zz/global/${SECRETS}.yaml`]);
  });
});

describe('an id prefix the store and a source share', () => {
  it('ambiguous among the store own ids, lists the inherited ids it matches too, so a longer prefix can name any', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    const other = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
    writeTree(app, { [`.agents/global/${other}.yaml`]: invariantYaml(other, 'Keep a changelog') });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const r = await run(app, 'invariant', 'show', '01JDQ6X5Z8W4N3B2C1D0E9F8G', '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail.matches).toEqual([LOCKED, SECRETS, LOCAL, other]);
  });
});
