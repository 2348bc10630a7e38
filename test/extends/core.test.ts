import { resolveSourceUrl, sourceDiagnostic } from '../../src/store/extends.ts';
import { describe, expect, it } from 'vitest';
import { defaultSourceName, sourcesFromConfig } from '../../src/core/extends-config.ts';
import { parseInvariant } from '../../src/core/parse.ts';
import { stalePin } from '../../src/core/extends.ts';
import { hideCredentials } from '../../src/core/plain-text.ts';
import type { Scope, ScopedInvariant } from '../../src/core/model.ts';
import { resolveEffective } from '../../src/core/resolve.ts';

function inv(id: string, text: string, scope: Scope, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return { id, text, severity: 'error', active: true, tags: [], scope, path: `x/${id}.yaml`, ...extra };
}

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G3';
const ORG: Scope = { kind: 'inherited', source: 'org', order: 0 };
const TEAM: Scope = { kind: 'inherited', source: 'team', order: 1 };
const MYAPP = { kind: 'project', project: 'myapp' } as const;

describe('policy sources: the pure rules', () => {
  it.each([
    ['https://git.example.com/acme/Acme-Policy.git', 'acme-policy'],
    ['git@github.com:acme/policy.git', 'policy'],
    ['file:///srv/repos/org%20rules/', 'org-20rules'],
    ['../policy', 'policy'],
    ['https://example.com/--', undefined],
  ])('derives the name of %s', (url, name) => {
    expect(defaultSourceName(url)).toBe(name);
  });

  it('refuses two sources with one name and fills path with .agents', () => {
    const r = sourcesFromConfig('config.yaml', [
      { url: 'https://a/policy.git', ref: 'v1' },
      { url: 'https://b/policy', ref: 'main', path: 'rules' },
    ]);
    expect(r.sources).toEqual([{ name: 'policy', url: 'https://a/policy.git', ref: 'v1', path: '.agents' }]);
    expect(r.diagnostics.map((d) => [d.code, d.file])).toEqual([['schema', 'config.yaml']]);
  });

  it('a pin is stale when config.yaml names another url or ref', () => {
    const source = { name: 'org', url: 'u', ref: 'v2', path: '.agents' };
    expect(stalePin(source, { name: 'org', url: 'u', ref: 'v2', kind: 'tag', commit: 'c' })?.message).toBeUndefined();
    expect(stalePin(source, { name: 'org', url: 'u', ref: 'v1', kind: 'tag', commit: 'c' })?.message).toContain('ref v1');
    expect(stalePin(source, undefined)?.message).toContain('no pin');
  });

  it('inherited comes after global; of two sources the first in extends is kept', () => {
    const entries = resolveEffective({ kind: 'project', project: 'myapp' }, [
      inv(A, 'Same rule', TEAM),
      inv(B, 'same RULE', ORG),
      inv(C, 'Own rule', { kind: 'global' }),
    ]);
    expect(entries.map((e) => [e.invariant.id, e.shadows.map((s) => s.id)])).toEqual([
      [C, []],
      [B, [A]],
    ]);
  });

  it('a locked inherited copy is kept over a weaker repository copy, which it then shadows; a stricter copy still wins', () => {
    const weak = resolveEffective({ kind: 'project', project: 'myapp' }, [
      inv(A, 'Never delete production data', MYAPP, { severity: 'warning' }),
      inv(B, 'never delete production data', ORG, { locked: true }),
    ]);
    expect(weak.map((e) => [e.invariant.id, e.invariant.severity, e.shadows.map((s) => s.id)])).toEqual([[B, 'error', [A]]]);
    const same = resolveEffective({ kind: 'project', project: 'myapp' }, [
      inv(A, 'Never delete production data', MYAPP),
      inv(B, 'never delete production data', ORG, { locked: true, severity: 'warning' }),
    ]);
    expect(same.map((e) => [e.invariant.id, e.shadows.map((s) => s.id)])).toEqual([[A, [B]]]);
  });
});

describe('resolveSourceUrl: a URL as git takes it', () => {
  const root = '/work/repo/.agents';
  it.each([
    ['an ssh alias host:path', 'github-work:acme/policy.git', 'github-work:acme/policy.git'],
    ['host:/absolute', 'myhost:/srv/pol', 'myhost:/srv/pol'],
    ['user@host:path', 'git@example.com:acme/policy.git', 'git@example.com:acme/policy.git'],
    ['a URL', 'https://example.com/acme/policy.git', 'https://example.com/acme/policy.git'],
    ['an absolute path', '/srv/pol', '/srv/pol'],
    ['a colon after a slash is a path', './a:b', null],
  ])('%s', (_, url, expected) => {
    const got = resolveSourceUrl(root, url);
    // null: a folder, made absolute (against the repository's top, or the store when there is none).
    if (expected === null) expect(got).toMatch(/^\/.*\/a:b$/);
    else expect(got).toBe(expected);
  });
});

describe('hideCredentials', () => {
  it.each([
    ['cannot reach https://user:tok@git.example.com/a.git: x', 'cannot reach https://user:***@git.example.com/a.git: x'],
    ['https://ghp_token@github.com/acme/policy.git', 'https://***@github.com/acme/policy.git'],
    ['ssh://git@git.example.com/acme/policy.git', 'ssh://git@git.example.com/acme/policy.git'],
    ['ssh://git:pw@host/p.git and http://a:b@c/d', 'ssh://git:***@host/p.git and http://a:***@c/d'],
    ['file:///srv/policy.git', 'file:///srv/policy.git'],
    ['git@github.com:acme/policy.git', 'git@github.com:acme/policy.git'],
  ])('%s', (text, shown) => {
    expect(hideCredentials(text)).toBe(shown);
  });
});

describe('a name config.yaml gives a source', () => {
  it('is refused as a project name would be: a device name Windows keeps, a trailing dot (plan use SOURCE:ns/name refuses them)', () => {
    const r = sourcesFromConfig('config.yaml', [
      { name: 'aux', url: 'https://git.example.com/a.git', ref: 'v1' },
      { name: 'acme.', url: 'https://git.example.com/b.git', ref: 'v1' },
      { name: 'acme', url: 'https://git.example.com/c.git', ref: 'v1' },
    ]);
    expect(r.sources.map((s) => s.name)).toEqual(['acme']);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['schema', 'error'],
      ['schema', 'error'],
    ]);
  });
});

describe("a policy source's invalid file as this store says it", () => {
  it("keeps the file's own hint (the key it guesses), then says to fix it in the source's repository", () => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const bytes = new TextEncoder().encode(`id: ${id}\ntext: Keep backups\nseverty: error\n`);
    const parsed = parseInvariant(`global/${id}.yaml`, bytes, { kind: 'global' }, id);
    const own = parsed.diagnostics.find((d) => d.code === 'schema')!;
    expect(own.hint).toMatch(/severity/);
    const said = sourceDiagnostic(own, 'policy');
    expect(said.file).toBe(`extends/policy/global/${id}.yaml`);
    expect(said.hint!.startsWith(own.hint!)).toBe(true);
    expect(said.hint!.slice(own.hint!.length)).toMatch(/policy/);
    // A problem with no hint of its own gets the source's alone.
    expect(sourceDiagnostic({ ...own, hint: undefined }, 'policy').hint).toMatch(/^This file is in the policy source policy/);
  });
});
