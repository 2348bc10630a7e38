// A policy source's action template is named SOURCE:NS/NAME by every command that takes one (docs/extends.md,
// "Actions"): `invariant list --action` lists it as `plan use` uses it, `show` takes the ids it prints, and the
// writers refuse it, since the template is changed in the source's repository.
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll } from '../helpers/git.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';
import { appWithTemplate, consumer, policyCommit, policyRepo, run, TEMPLATE } from './repos.ts';

const PATH = `extends/policy/actions/org/release/${TEMPLATE}.yaml`;

const errorCode = (stdout: string) => (JSON.parse(stdout) as { error: { code: string } }).error.code;

describe('a policy source action template, SOURCE:NS/NAME', () => {
  it('invariant list --action lists it by that name, and show takes the ids it prints', async () => {
    const app = await appWithTemplate();
    const listed = await run(app, 'invariant', 'list', '--action', 'policy:org/release', '--format', 'json');
    expect(listed.code, listed.stderr).toBe(0);
    const items = JSON.parse(listed.stdout) as { id: string; action: string; path: string }[];
    expect(items.map((i) => [i.id, i.action, i.path])).toEqual([[TEMPLATE, 'policy:org/release', PATH]]);
    for (const id of [TEMPLATE, TEMPLATE.slice(0, 8)]) {
      const shown = await run(app, 'invariant', 'show', id, '--format', 'json');
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({ id: TEMPLATE, action: 'policy:org/release', path: PATH });
    }
    // A listing of every scope holds them too, after the store's own, as show finds them.
    const all = JSON.parse((await run(app, 'invariant', 'list', '--format', 'json')).stdout) as { id: string; path: string }[];
    expect(all.at(-1)).toMatchObject({ id: TEMPLATE, path: PATH });
    // Its history is the source's, as an inherited invariant's is.
    const log = await run(app, 'invariant', 'log', TEMPLATE, '--format', 'json');
    expect(log.code).toBe(2);
    expect(JSON.parse(log.stdout).error.detail).toEqual({ id: TEMPLATE, source: 'policy', path: `actions/org/release/${TEMPLATE}.yaml` });
    // The name plan use takes is the one list takes.
    expect((await run(app, 'plan', 'use', 'policy:org/release')).code).toBe(0);
  });

  it('a template the source lacks, or a source config.yaml does not name, is exit 2', async () => {
    const app = await appWithTemplate();
    const missing = await run(app, 'invariant', 'list', '--action', 'policy:org/relase', '--format', 'json');
    expect(missing.code).toBe(2);
    expect(errorCode(missing.stdout)).toBe('unknown-action');
    expect(JSON.parse(missing.stdout).error.detail.suggestions).toEqual(['policy:org/release']);
    expect((await run(app, 'invariant', 'list', '--action', 'other:org/release')).code).toBe(2);
    // Its NS/NAME alone names no template of the store: the hint offers the source's.
    const local = await run(app, 'invariant', 'list', '--action', 'org/release', '--format', 'json');
    expect(local.code).toBe(2);
    expect(JSON.parse(local.stdout).error.detail.suggestions).toEqual(['policy:org/release']);
  });

  it('SOURCE/NS/NAME, a slash for the colon, is refused by plan use and --action with SOURCE:NS/NAME suggested; nothing written', async () => {
    const app = await appWithTemplate();
    for (const args of [
      ['plan', 'use', 'policy/org/release'],
      ['invariant', 'list', '--action', 'policy/org/release'],
    ]) {
      const r = await run(app, ...args, '--format', 'json');
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.detail, args.join(' ')).toEqual({
        action: 'policy/org/release',
        suggestions: ['policy:org/release'],
      });
    }
    expect(existsSync(join(app, '.agents/plans'))).toBe(false);
    // A name of that shape near no template is refused as before, with nothing to suggest.
    const far = await run(app, 'plan', 'use', 'other/thing/else', '--format', 'json');
    expect([far.code, JSON.parse(far.stdout).error.detail]).toEqual([2, null]);
  });

  it("an invalid file of a template is the source's, each problem naming the source, as an invalid file of its global/ does", async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    policyCommit(policy, { [`.agents/actions/org/release/${TEMPLATE}.yaml`]: `id: ${TEMPLATE}\ntext: "unclosed\n` });
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: main\n`);
    const r = await run(app, 'extends', 'update', '--format', 'json');
    expect(r.code).toBe(3);
    const diagnostics = JSON.parse(r.stdout).error.detail.diagnostics as { file: string; source?: string }[];
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.map((d) => [d.file, d.source])).toEqual(diagnostics.map(() => [PATH, 'policy']));
  });

  it('a template folder that is a link in the source is refused as a link, naming the source, never left out without a word', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    policyCommit(policy, { [`.agents/actions/org/release/${TEMPLATE}.yaml`]: invariantYaml(TEMPLATE, 'Tag every release') });
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    // The pinned commit gains the link: the update that moves the pin, and every listing of the templates at it, refuse it.
    symlinkSync('release', join(policy.work, '.agents/actions/org/hotfix'));
    policyCommit(policy, {});
    const refusedBy = async (...args: string[]) => {
      const r = await run(app, ...args, '--format', 'json');
      const detail = JSON.parse(r.stdout).error.detail as { diagnostics: { code: string; file: string; source?: string }[] };
      return [r.code, detail.diagnostics.map((d) => [d.code, d.file, d.source])];
    };
    const link = ['symlink', 'extends/policy/actions/org/hotfix', 'policy'];
    expect(await refusedBy('extends', 'update')).toEqual([3, [link]]);
  });

  it('add, move, edit and action add into the template are refused with nothing written', async () => {
    const app = await appWithTemplate();
    const store = join(app, '.agents');
    expect((await run(app, 'invariant', 'add', '--action', 'policy:org/release', 'Sign every tag')).code).toBe(2);
    expect((await run(app, 'invariant', 'move', '01JDQ6X5Z8W4N3B2C1D0E9F8G5', '--action', 'policy:org/release')).code).toBe(2);
    expect(existsSync(join(store, 'projects/myapp/01JDQ6X5Z8W4N3B2C1D0E9F8G5.yaml'))).toBe(true);
    expect((await run(app, 'invariant', 'edit', TEMPLATE, '--text', 'Tag releases')).code).toBe(2);
    expect((await run(app, 'action', 'add', 'policy:org/other')).code).toBe(2);
    expect(existsSync(join(store, 'actions'))).toBe(false);
    expect(existsSync(join(store, 'extends'))).toBe(false);
  });

  it('a pin move that edits or removes a template is in the report of extends update and of invariant diff', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const OTHER = '01M91M5SHWTSNA3QA4Q8JH4SSG';
    policyCommit(policy, {
      [`.agents/actions/org/release/${TEMPLATE}.yaml`]: invariantYaml(TEMPLATE, 'Tag every release'),
      [`.agents/actions/org/hotfix/${OTHER}.yaml`]: invariantYaml(OTHER, 'Name the incident'),
    });
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin');
    rmSync(join(policy.work, `.agents/actions/org/hotfix/${OTHER}.yaml`));
    policyCommit(policy, { [`.agents/actions/org/release/${TEMPLATE}.yaml`]: invariantYaml(TEMPLATE, 'Tag and sign every release') });
    type Files = { change: string; id: string; path: string }[];
    const changes = (files: Files) => files.map((f) => [f.change, f.id, f.path]);
    const expected = [
      ['edited', TEMPLATE, PATH],
      ['removed', OTHER, `extends/policy/actions/org/hotfix/${OTHER}.yaml`],
    ];
    const update = await run(app, 'extends', 'update', '--format', 'json');
    expect(update.code, update.stderr).toBe(0);
    const moved = (JSON.parse(update.stdout) as { sources: { diff: { invariants: Files } }[] }).sources[0]!.diff.invariants;
    expect(changes(moved).sort()).toEqual(expected.sort());
    commitAll(app, 'move the pin');
    const diff = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json');
    expect(diff.code, diff.stderr).toBe(0);
    expect(changes((JSON.parse(diff.stdout) as { invariants: Files }).invariants).sort()).toEqual(expected.sort());
    const markdown = await run(app, 'invariant', 'diff', 'HEAD~1..HEAD', '--format', 'markdown');
    expect(markdown.stdout).toContain('action `policy:org/release`');
  });
});
