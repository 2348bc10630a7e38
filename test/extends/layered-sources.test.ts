// A policy source that extends another (an organisation's policy under a platform's): only the source's own
// global/ and actions/ are inherited, so fetch and update name the sources it pins itself for the consumer to list.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git } from '../helpers/git.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';
import { consumer, edit, LOCKED, policyCommit, policyRepo, run } from './repos.ts';

/** A platform policy that extends an organisation's (its own lock pins org at v1), and a consumer of the platform's. */
async function layered() {
  const dir = tempDir();
  const org = policyRepo(dir, 'org');
  const platform = policyRepo(dir, 'platform');
  writeTree(platform.work, { '.agents/config.yaml': `extends:\n  - url: ${org.url}\n    ref: v1\n` });
  const pinned = await run(platform.work, 'extends', 'update');
  expect(pinned.code).toBe(0);
  policyCommit(platform, {}, 'HEAD:refs/tags/v2');
  const app = consumer(dir, `  - url: ${platform.url}\n    ref: v2\n`);
  return { org, platform, app };
}

describe('extends: a source that extends another', () => {
  it('update and fetch name the sources a source pins itself as not inherited, until config.yaml lists them', async () => {
    const { org, app } = await layered();
    const up = await run(app, 'extends', 'update', '--format', 'json');
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout).sources[0].not_inherited).toEqual([{ name: 'org', url: org.url, ref: 'v1' }]);
    const text = await run(app, 'extends', 'fetch');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`not inherited: platform itself extends org (${org.url} at v1)`);
    const fetched = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(JSON.parse(fetched.stdout)[0].not_inherited).toEqual([{ name: 'org', url: org.url, ref: 'v1' }]);

    // Listed by the consumer, org is inherited directly: nothing is said of it any more.
    edit(app, '.agents/config.yaml', 'extends:\n', `extends:\n  - url: ${org.url}\n    ref: v1\n`);
    const both = await run(app, 'extends', 'update', '--format', 'json');
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout).sources.map((s: { not_inherited: unknown[] }) => s.not_inherited)).toEqual([[], []]);
    const again = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(JSON.parse(again.stdout).map((s: { not_inherited: unknown[] }) => s.not_inherited)).toEqual([[], []]);
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect((JSON.parse(list.stdout) as { id: string; inherited_from?: string }[]).map((e) => e.inherited_from ?? null)).toContain('org');
  });

  it('a source whose own lock pins nothing, or is no lock, is said to extend nothing', async () => {
    const dir = tempDir();
    const platform = policyRepo(dir, 'platform');
    policyCommit(platform, { '.agents/extends.lock.yaml': 'version: 1\nsources: []\n' }, 'HEAD:refs/tags/v2');
    const app = consumer(dir, `  - url: ${platform.url}\n    ref: v2\n`);
    const up = await run(app, 'extends', 'update', '--format', 'json');
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout).sources[0].not_inherited).toEqual([]);
    writeTree(platform.work, { '.agents/extends.lock.yaml': 'not: [a lock\n' });
    commitAll(platform.work, 'broken lock');
    git(platform.work, 'push', '-q', '--force', 'origin', 'HEAD:refs/tags/v3');
    edit(app, '.agents/config.yaml', 'ref: v2', 'ref: v3');
    const broken = await run(app, 'extends', 'update', '--format', 'json');
    expect(broken.code).toBe(0);
    expect(JSON.parse(broken.stdout).sources[0].not_inherited).toEqual([]);
    // The source's lock is never read as its store: its invariants are read as they are.
    expect((await run(app, 'invariant', 'show', LOCKED)).code).toBe(0);
  });
});

describe('extends: the order of a source and a source that extends it', () => {
  /** validate's extends-order warnings: where each stands in config.yaml and what it names. */
  const orderWarnings = async (app: string) => {
    const r = await run(app, 'validate', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    type D = { code: string; severity: string; file: string; line: number; related?: { line: number }[] };
    return (JSON.parse(r.stdout) as { diagnostics: D[] }).diagnostics
      .filter((d) => d.code === 'extends-order')
      .map((d) => ({ severity: d.severity, file: d.file, line: d.line, related: d.related?.map((x) => x.line) }));
  };

  it('validate warns at the nested source listed before the source that extends it (the nested copy of a shared text would win), and not once they are listed the other way', async () => {
    const { org, platform, app } = await layered();
    // org listed first: both hold "Never delete production data", and org's copy shadows the platform's.
    edit(app, '.agents/config.yaml', 'extends:\n', `extends:\n  - url: ${org.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    const kept = (JSON.parse(list.stdout) as { id: string; inherited_from?: string }[]).find((e) => e.id === LOCKED);
    expect(kept?.inherited_from).toBe('org');
    // config.yaml: line 1 `extends:`, org's entry at line 2, the platform's at line 4.
    expect(await orderWarnings(app)).toEqual([{ severity: 'warning', file: 'config.yaml', line: 2, related: [4] }]);

    writeTree(app, { '.agents/config.yaml': `extends:\n  - url: ${platform.url}\n    ref: v2\n  - url: ${org.url}\n    ref: v1\n` });
    expect(await orderWarnings(app)).toEqual([]);
  });

  it('two sources that each list the other have no right order: nothing is said', async () => {
    const { org, platform, app } = await layered();
    // org now extends the platform too.
    writeTree(org.work, { '.agents/config.yaml': `extends:\n  - url: ${platform.url}\n    ref: v2\n` });
    expect((await run(org.work, 'extends', 'update')).code).toBe(0);
    policyCommit(org, {}, 'HEAD:refs/tags/v2');
    edit(app, '.agents/config.yaml', 'extends:\n', `extends:\n  - url: ${org.url}\n    ref: v2\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await orderWarnings(app)).toEqual([]);
  });
});

describe('extends: near-duplicates between two sources', () => {
  it("are left to the sources: the consumer's validate says nothing of them, the source that extends the other warns in its own", async () => {
    const { org, platform, app } = await layered();
    const NEAR = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
    // The platform's text one character from the organisation's "No secrets in prompts".
    policyCommit(platform, { [`.agents/global/${NEAR}.yaml`]: invariantYaml(NEAR, 'No secrets in prompt') }, 'HEAD:refs/tags/v3');
    writeTree(app, { '.agents/config.yaml': `extends:\n  - url: ${platform.url}\n    ref: v3\n  - url: ${org.url}\n    ref: v1\n` });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const near = async (top: string) => {
      const r = await run(top, 'validate', '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { diagnostics: { code: string; file: string }[] }).diagnostics
        .filter((d) => d.code === 'near-duplicate')
        .map((d) => d.file);
    };
    expect(await near(app)).toEqual([]);
    expect(await near(platform.work)).toEqual([`global/${NEAR}.yaml`]);
  });
});

describe('extends: a source taken out of config.yaml without extends update', () => {
  it('extends fetch says the lock still pins it, naming the update that removes the pin; once updated, nothing', async () => {
    const { org, platform, app } = await layered();
    edit(app, '.agents/config.yaml', 'extends:\n', `extends:\n  - url: ${org.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    // org taken out by hand, its pin left: nothing reads it, and fetch says so.
    edit(app, '.agents/config.yaml', `  - url: ${org.url}\n    ref: v1\n`, '');
    const fetched = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetched.code).toBe(0);
    expect(JSON.parse(fetched.stdout).map((s: { name: string }) => s.name)).toEqual(['platform']);
    expect(fetched.stderr).toContain('org');
    expect(fetched.stderr).toContain('agents extends update');
    // The last source taken out too: nothing to fetch, the pins still said.
    edit(app, '.agents/config.yaml', `extends:\n  - url: ${platform.url}\n    ref: v2\n`, 'extends: []\n');
    const none = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual([]);
    expect(none.stderr).toContain('platform');
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect((await run(app, 'extends', 'fetch')).stderr).toBe('');
  });

  /** validate's extends-pin-unlisted errors: the pins each names and where each stands in the lock. */
  const unlisted = async (top: string, ...args: string[]) => {
    const r = await run(top, 'validate', ...args, '--format', 'json');
    type D = { code: string; severity: string; file: string; line: number; message: string };
    const found = (JSON.parse(r.stdout) as { diagnostics: D[] }).diagnostics.filter((d) => d.code === 'extends-pin-unlisted');
    return {
      code: r.code,
      found: found.map((d) => ({ severity: d.severity, file: d.file, line: d.line, org: d.message.includes(' org,') })),
    };
  };

  it('validate refuses a pin config.yaml does not list, in the working tree and the index, until extends update removes it', async () => {
    const { org, app } = await layered();
    edit(app, '.agents/config.yaml', 'extends:\n', `extends:\n  - url: ${org.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await unlisted(app)).toEqual({ code: 0, found: [] });
    const lock = readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8').split('\n');
    const orgLine = lock.findIndex((l) => l.includes('name: org')) + 1;
    edit(app, '.agents/config.yaml', `  - url: ${org.url}\n    ref: v1\n`, '');
    expect(await unlisted(app)).toEqual({ code: 1, found: [{ severity: 'error', file: 'extends.lock.yaml', line: orgLine, org: true }] });
    git(app, 'add', '-A');
    expect((await unlisted(app, '--staged')).found).toHaveLength(1);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await unlisted(app)).toEqual({ code: 0, found: [] });
  });

  it('a config.yaml emptied (a 0-byte file) while the lock pins sources is refused by validate, never read as extending nothing', async () => {
    const { app } = await layered();
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    writeFileSync(join(app, '.agents/config.yaml'), '');
    const r = await unlisted(app);
    expect(r.code).toBe(1);
    expect(r.found.map((d) => [d.severity, d.file])).toEqual([['error', 'extends.lock.yaml']]);
  });
});
