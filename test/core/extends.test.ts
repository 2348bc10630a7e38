import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isName } from '../../src/core/names.ts';
import { fcRuns } from '../helpers/fc-runs.ts';
import { YAML_SYNTAX } from '../../src/core/parse.ts';
import { DEFAULT_SOURCE_PATH, defaultSourceName, sourcesFromConfig } from '../../src/core/extends-config.ts';
import { EXTENDS_LOCK_FILE, inheritedPath, isCommitId, splitSourceRef, stalePin } from '../../src/core/extends.ts';
import { parseExtendsLock } from '../../src/core/extends-lock.ts';
import { parseConfig } from '../../src/core/parse-core.ts';

const COMMIT = 'a'.repeat(40);
const bytes = (s: string) => new TextEncoder().encode(s);
const lockText = (...names: string[]) =>
  `version: 1\nsources:\n${names.map((n) => `  - name: ${n}\n    url: https://x/${n}.git\n    ref: v1\n    kind: tag\n    commit: ${COMMIT}\n`).join('')}`;

describe('defaultSourceName (docs/extends.md, "Names")', () => {
  it.each([
    ['trailing slashes and backslashes go', 'https://x/policy//', 'policy'],
    ['a trailing backslash goes', 'C:\\repos\\policy\\', 'policy'],
    ['.git goes, whatever its case', 'https://x/policy.GIT', 'policy'],
    ['only a final .git goes', 'https://x/policy.git.d', 'policy.git.d'],
    ['a git folder named as such is its repository', '../policy/.git/', 'policy'],
    ['a bare repository named by its git folder', '../policy.git/.git', 'policy'],
    ['a colon separates parts (scp-like URLs)', 'host:policy', 'policy'],
    ['a backslash separates parts', 'a\\policy', 'policy'],
    ['upper case is lowered', 'https://x/Org', 'org'],
    ['a run of other characters is one dash', 'https://x/a  +  b', 'a-b'],
    ['dots, underscores and dashes are kept', 'https://x/a.b_c-d', 'a.b_c-d'],
    ['leading characters a name cannot start with go', 'https://x/..._-policy', 'policy'],
    ['at most 64 characters are kept', `https://x/${'a'.repeat(70)}`, 'a'.repeat(64)],
    ['nothing usable left', 'https://x/---', undefined],
    ['an empty URL', '', undefined],
    ['a dot the cut ends in goes', `https://x/${'a'.repeat(63)}.b`, 'a'.repeat(63)],
    ['a name Windows keeps for a device is none', 'https://x/aux.git', undefined],
  ])('%s: %s', (_why, url, name) => {
    expect(defaultSourceName(url)).toBe(name);
  });
});

describe('defaultSourceName gives a valid name or none, for any URL', () => {
  it('never gives a string that is not a name', () => {
    const unit = fc.constantFrom('a', 'Z', '0', '.', '_', '-', '/', '\\', ':', ' ', '+', 'é', '.git', 'G');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit, maxLength: 80 })), (url) => {
        const name = defaultSourceName(url);
        if (name !== undefined) expect(isName(name)).toBe(true);
      }),
      { seed: 20261201, numRuns: fcRuns(2000) },
    );
  });
});

describe('sourcesFromConfig', () => {
  it('fills the name from the URL and the path with .agents; keeps a given name and path', () => {
    expect(DEFAULT_SOURCE_PATH).toBe('.agents');
    const r = sourcesFromConfig('config.yaml', [
      { url: 'https://x/org.git', ref: 'v1' },
      { name: 'team', url: 'https://x/other.git', ref: 'main', path: 'rules' },
    ]);
    expect(r).toEqual({
      sources: [
        { name: 'org', url: 'https://x/org.git', ref: 'v1', path: '.agents' },
        { name: 'team', url: 'https://x/other.git', ref: 'main', path: 'rules' },
      ],
      diagnostics: [],
    });
  });

  it('reports a URL with no usable name and a name used twice, each at its index, and goes on', () => {
    const r = sourcesFromConfig('config.yaml', [
      { url: 'https://x/---', ref: 'v1' },
      { url: 'https://a/policy.git', ref: 'v1' },
      { name: 'policy', url: 'https://b/x.git', ref: 'v2' },
      { url: 'https://c/last.git', ref: 'v3' },
    ]);
    expect(r.sources.map((s) => s.name)).toEqual(['policy', 'last']);
    expect(r.diagnostics).toEqual([
      {
        code: 'schema',
        severity: 'error',
        file: 'config.yaml',
        line: 0,
        col: 0,
        message: 'extends[0]: no name can be derived from the URL https://x/---',
        hint: 'Give the source a `name:` (a-z, 0-9, ".", "_", "-").',
      },
      {
        code: 'schema',
        severity: 'error',
        file: 'config.yaml',
        line: 0,
        col: 0,
        message: 'extends[2]: two sources are named policy',
        hint: 'Give one of them another `name:`; names address their invariants and actions.',
      },
    ]);
  });
});

describe('the pure helpers of extends', () => {
  it('inheritedPath puts a source under extends/<source>/', () => {
    expect(inheritedPath('org', 'global/X.yaml')).toBe('extends/org/global/X.yaml');
  });

  it.each([
    ['a'.repeat(40), true],
    ['0123456789abcdef'.repeat(4), true],
    ['a'.repeat(39), false],
    ['a'.repeat(41), false],
    ['a'.repeat(63), false],
    ['a'.repeat(65), false],
    ['A'.repeat(40), false],
    [`${'a'.repeat(40)}\n`, false],
    [`x${'a'.repeat(40)}`, false],
    ['g'.repeat(40), false],
  ])('isCommitId(%j) is %s', (value, ok) => {
    expect(isCommitId(value)).toBe(ok);
  });

  it('splitSourceRef splits at the first colon; no colon means no source', () => {
    expect(splitSourceRef('deploy/prod')).toEqual({ local: 'deploy/prod' });
    expect(splitSourceRef('org:deploy/prod')).toEqual({ source: 'org', local: 'deploy/prod' });
    expect(splitSourceRef('a:b:c')).toEqual({ source: 'a', local: 'b:c' });
    expect(splitSourceRef(':x')).toEqual({ source: '', local: 'x' });
  });

  it('stalePin: none when url and ref match; else what differs', () => {
    const source = { name: 'org', url: 'u', ref: 'v2', path: '.agents' };
    const pin = { name: 'org', url: 'u', ref: 'v2', kind: 'tag' as const, commit: COMMIT };
    expect(EXTENDS_LOCK_FILE).toBe('extends.lock.yaml');
    expect(stalePin(source, pin)?.message).toBeUndefined();
    expect(stalePin(source, undefined)?.message).toBe('the policy source org has no pin in extends.lock.yaml');
    expect(stalePin(source, { ...pin, url: 'w' })?.message).toBe('the pin of org is for w, but config.yaml names u');
    expect(stalePin(source, { ...pin, ref: 'v1' })?.message).toBe('the pin of org is for ref v1, but config.yaml names v2');
    // The URL is checked first.
    expect(stalePin(source, { ...pin, url: 'w', ref: 'v1' })?.message).toBe('the pin of org is for w, but config.yaml names u');
  });
});

describe('parseExtendsLock', () => {
  it('reads a valid lock', () => {
    const r = parseExtendsLock('extends.lock.yaml', bytes(lockText('org', 'team')));
    expect(r.diagnostics).toEqual([]);
    expect(r.value?.sources.map((s) => [s.name, s.commit])).toEqual([
      ['org', COMMIT],
      ['team', COMMIT],
    ]);
  });

  it('refuses a name pinned twice, with what to do', () => {
    const r = parseExtendsLock('extends.lock.yaml', bytes(lockText('org', 'team', 'org')));
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toEqual([
      {
        code: 'schema',
        severity: 'error',
        file: 'extends.lock.yaml',
        // The second entry of the name: the one to look at after a merge.
        line: 13,
        col: 11,
        lineText: '  - name: org',
        message: 'the source org is pinned twice',
        hint: expect.not.stringContaining('Run `agents extends update` to write'),
      },
    ]);
  });

  it('refuses a lock the schema refuses, and one that is not YAML', () => {
    const bad = parseExtendsLock('extends.lock.yaml', bytes('version: 2\nsources: []\n'), YAML_SYNTAX);
    expect(bad.value).toBeUndefined();
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['schema']);
    const broken = parseExtendsLock('extends.lock.yaml', bytes('version: [1\n'), YAML_SYNTAX);
    expect(broken.value).toBeUndefined();
    expect(broken.diagnostics.length).toBeGreaterThan(0);
    expect(broken.diagnostics.every((d) => d.file === 'extends.lock.yaml')).toBe(true);
  });

  it('refuses a lock whose text fields hold characters plain text may not', () => {
    const r = parseExtendsLock('extends.lock.yaml', bytes(lockText('org').replace('ref: v1', 'ref: "v1"')));
    expect(r.diagnostics).toEqual([]);
    const ctl = parseExtendsLock(
      'extends.lock.yaml',
      bytes(lockText('org').replace('url: https://x/org.git', 'url: "https://x/\\u200eorg"')),
      YAML_SYNTAX,
    );
    expect(ctl.value).toBeUndefined();
    expect(ctl.diagnostics.map((d) => [d.code, d.line])).toEqual([['control-character', 4]]);
    // A schema error is reported alone: the text is checked only in a lock the schema accepts.
    const both = parseExtendsLock(
      'extends.lock.yaml',
      bytes(lockText('org').replace('url: https://x/org.git', 'url: "https://x/\\u200eorg"').replace('kind: tag', 'kind: nope')),
      YAML_SYNTAX,
    );
    expect(both.diagnostics.map((d) => d.code)).toEqual(['schema']);
  });
});

describe('parseExtendsLock with the full parser passed in', () => {
  it('reads a lock off the fast path, and reports a schema error with its position', () => {
    const fine = parseExtendsLock('extends.lock.yaml', bytes('version: 1\nsources: []  # none\n'), YAML_SYNTAX);
    expect(fine).toEqual({ value: { version: 1, sources: [] }, diagnostics: [] });
    const bad = parseExtendsLock('extends.lock.yaml', bytes('version: 1\nsources: [{name: org}]\n'), YAML_SYNTAX);
    expect(bad.value).toBeUndefined();
    expect(bad.diagnostics.length).toBeGreaterThan(0);
    expect(bad.diagnostics.every((d) => d.code === 'schema' && d.file === 'extends.lock.yaml' && d.line === 2)).toBe(true);
  });
});

describe('a source name config.yaml cannot take', () => {
  it.each(['.', '..'])('%s is refused at its line, naming the value', (name) => {
    const r = parseConfig('config.yaml', bytes(`extends:\n  - name: "${name}"\n    url: https://x/p.git\n    ref: v1\n`), YAML_SYNTAX);
    expect(r.value).toBeUndefined();
    const not = r.diagnostics.filter((d) => d.message.includes(JSON.stringify(name)));
    expect(not.length).toBeGreaterThan(0);
    expect(not.every((d) => d.line === 2)).toBe(true);
  });
});

describe("a source's URL with white space", () => {
  it('is refused at its line, with how to write a path that holds a space', () => {
    const r = parseConfig('config.yaml', bytes('extends:\n  - url: "/srv/My Policy.git"\n    ref: v1\n'), YAML_SYNTAX);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['schema', 2]]);
    expect(r.diagnostics[0]!.hint).toContain('%20');
  });

  it.each(['fd::3', 'ext::sh -c id', 'ext::git'])(
    '%s: git transports that read or run on this machine are refused at their line',
    (url) => {
      const r = parseConfig('config.yaml', bytes(`extends:\n  - name: p\n    url: "${url}"\n    ref: v1\n`), YAML_SYNTAX);
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['schema', 3]]);
    },
  );
});

describe("a source's name, ref or path the schema's pattern refuses", () => {
  it.each([
    ['name', 'Acme Policy'],
    ['ref', 'v1~1'],
    ['path', 'tools/.agents/'],
  ])('%s %s is placed at its line, quoted, without the regular expression', (key, value) => {
    const entry = { name: 'policy', url: 'https://x/policy.git', ref: 'v1', [key]: value };
    const yaml = `extends:\n  - ${Object.entries(entry)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n    ')}\n`;
    const r = parseConfig('config.yaml', bytes(yaml), YAML_SYNTAX);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect([d.code, d.line]).toEqual(['schema', 2 + Object.keys(entry).indexOf(key)]);
    expect(d.message).toContain(JSON.stringify(value));
    expect(d.message).not.toContain('(?!');
    expect(d.message).not.toContain('^[');
  });
});
