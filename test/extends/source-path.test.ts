// A source's `path:` decides what is inherited as much as its commit (docs/extends.md): a changed path is
// a source not pinned, and a path that holds no store at the pin is refused, never an empty inherited set.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git } from '../helpers/git.ts';
import { errorOf } from '../helpers/main.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';
import { LATER, LOCAL, LOCK, LOCKED, SECRETS, consumer, edit, effectiveIds, policyCommit, policyRepo, run, pinnedApp } from './repos.ts';

describe("a source's path", () => {
  it('a path changed after the pin is not pinned: reading commands refuse it, and the review shows what leaves', async () => {
    const app = await pinnedApp({}, { commit: true });
    const lock = readFileSync(join(app, LOCK), 'utf8');
    edit(app, '.agents/config.yaml', /ref: v1\n/, 'ref: v1\n    path: policy\n');
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(list.code).toBe(2);
    expect(errorOf(list).code).toBe('extends-not-pinned');
    expect((await run(app, 'validate')).code).not.toBe(0);
    const diff = JSON.parse((await run(app, 'invariant', 'diff', '--format', 'json')).stdout);
    expect(diff.policy_sources.map((m: { name: string; left: string[] }) => [m.name, m.left.sort()])).toEqual([
      ['policy', [LOCKED, SECRETS]],
    ]);
    // update refuses a folder that holds no store, and writes nothing.
    const up = await run(app, 'extends', 'update', '--format', 'json');
    expect(up.code).toBe(2);
    expect(errorOf(up).code).toBe('extends-no-store');
    expect(readFileSync(join(app, LOCK), 'utf8')).toBe(lock);
  });

  it('update refuses a folder that exists but holds no store', async () => {
    const app = await pinnedApp({}, { commit: true });
    const lock = readFileSync(join(app, LOCK), 'utf8');
    edit(app, '.agents/config.yaml', /ref: v1\n/, 'ref: v1\n    path: .agents/actions\n');
    const up = await run(app, 'extends', 'update', '--format', 'json');
    expect(up.code).toBe(2);
    // Named at its `path:` in config.yaml, the key to set.
    expect(errorOf(up)).toMatchObject({
      code: 'extends-no-store',
      detail: { source: 'policy', path: '.agents/actions', file: 'config.yaml', line: 4, col: 11 },
    });
    expect(readFileSync(join(app, LOCK), 'utf8')).toBe(lock);
  });

  it('a lock edited by hand to a path with no store is refused by reading commands, not read as empty', async () => {
    const app = await pinnedApp({}, { commit: true });
    edit(app, '.agents/config.yaml', /ref: v1\n/, 'ref: v1\n    path: policy\n');
    edit(app, LOCK, /ref: v1\n/, 'ref: v1\n    path: policy\n');
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(list.code).toBe(2);
    expect(errorOf(list).code).toBe('extends-no-store');
    expect((await run(app, 'extends', 'fetch')).code).toBe(2);
  });

  it('a path given as the default is the pin of the default, and another store folder is pinned with its path', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    edit(app, '.agents/config.yaml', /ref: v1\n/, 'ref: v1\n    path: .agents\n');
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
    policyCommit(policy, { [`store/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') });
    edit(app, '.agents/config.yaml', /ref: v1\n {4}path: .agents\n/, 'ref: main\n    path: store\n');
    const up = await run(app, 'extends', 'update');
    expect(up.code, up.stderr).toBe(0);
    expect(readFileSync(join(app, LOCK), 'utf8')).toContain('path: store');
    expect(await effectiveIds(app)).toEqual([LOCAL, LATER]);
    // Another folder at the same commit: the move is said in the first line, never "unchanged", and the review shows it.
    commitAll(app, 'pin the store folder');
    edit(app, '.agents/config.yaml', /path: store\n/, 'path: .agents\n');
    const back = await run(app, 'extends', 'update');
    expect(back.code, back.stderr).toBe(0);
    const first = back.stdout.split('\n')[0]!;
    expect(first).not.toContain('unchanged');
    expect(first).toContain('store');
    expect(first).toContain('.agents');
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
    const diff = JSON.parse((await run(app, 'invariant', 'diff', '--format', 'json')).stdout);
    expect(
      diff.policy_sources.map((m: { before: { path: string }; after: { path: string }; entered: string[]; left: string[] }) => [
        m.before.path,
        m.after.path,
        m.entered.sort(),
        m.left,
      ]),
    ).toEqual([['store', '.agents', [LOCKED, SECRETS], [LATER]]]);
    expect(diff.summary.targets_changed).toBe(1);
  });

  it("an invalid file of a source is exit 3 naming it under extends/, and says to fix it in the source's repository", async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const broken = policyCommit(policy, {
      '.agents/global/01M9000000000000000000000A.yaml': 'id: 01M9000000000000000000000A\ntext: [broken\n',
    });
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: ${broken}\n`);
    for (const args of [['extends', 'update'], ['validate']]) {
      if (args[0] === 'validate')
        writeFileSync(
          join(app, LOCK),
          `version: 1\nsources:\n  - name: policy\n    url: ${policy.url}\n    ref: ${broken}\n    kind: commit\n    commit: ${broken}\n`,
        );
      const r = await run(app, ...args, '--format', 'json');
      const out = JSON.parse(r.stdout);
      const diags = (out.error?.detail?.diagnostics ?? out.diagnostics) as { file: string; hint: string }[];
      const mine = diags.filter((d) => d.file.startsWith('extends/policy/'));
      expect(mine.length, args.join(' ')).toBe(1);
      // The repository to fix it in and the commit, never a file of this one.
      expect(mine[0]!.hint).toContain(policy.url);
      expect(mine[0]!.hint).toContain(broken.slice(0, 12));
    }
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(list.code).toBe(3);
  });
});

describe("a policy source's file in validate's reports", () => {
  it('is never placed under the store folder: not in text, JSON or a GitHub annotation', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const broken = policyCommit(policy, {
      '.agents/global/01M9000000000000000000000A.yaml': 'id: 01M9000000000000000000000A\ntext: [broken\n',
    });
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: ${broken}\n`);
    // A weaker copy of the locked text: its related location is the source's file.
    writeTree(app, {
      '.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml': invariantYaml('01JDQ6X5Z8W4N3B2C1D0E9F8G9', 'Never delete production data', {
        severity: 'info',
      }),
    });
    writeFileSync(
      join(app, LOCK),
      `version: 1\nsources:\n  - name: policy\n    url: ${policy.url}\n    ref: ${broken}\n    kind: commit\n    commit: ${broken}\n`,
    );
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    const json = JSON.parse((await run(app, 'validate', '--format', 'json')).stdout) as {
      diagnostics: { code: string; file: string; path: string; related: { file: string; path: string }[] }[];
    };
    const inSource = json.diagnostics.find((d) => d.file.startsWith('extends/'))!;
    expect(inSource.path).toBe(inSource.file);
    const weakened = json.diagnostics.find((d) => d.code === 'locked-weakened')!;
    expect(weakened.related.map((r) => r.path)).toEqual([`extends/policy/global/${LOCKED}.yaml`]);
    const text = (await run(app, 'validate')).stdout;
    expect(text).not.toContain('.agents/extends/');
    const github = (await run(app, 'validate', '--format', 'github')).stdout.split('\n');
    expect(github.filter((l) => l.includes('yaml-syntax'))).toHaveLength(1);
    expect(github.find((l) => l.includes('yaml-syntax'))).not.toContain('file=');
  });
});

describe("a source's action template", () => {
  it('gone from the source at its new pin is an unknown action for the plans made from it, as a store template would be', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const use = await run(app, 'plan', 'use', 'policy:org/release', '--project', 'myapp');
    expect(use.code, use.stderr).toBe(0);
    const codes = async () =>
      (JSON.parse((await run(app, 'validate', '--format', 'json')).stdout).diagnostics as { code: string }[]).map((d) => d.code);
    expect(await codes()).not.toContain('unknown-action');
    git(policy.work, 'rm', '-rq', '.agents/actions');
    commitAll(policy.work, 'no template');
    git(policy.work, 'push', '-q', 'origin', 'main');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await codes()).toContain('unknown-action');
  });
});
