// A config.yaml the reading commands cannot trust never gives a shorter effective set (docs/resolution.md):
// every command that resolves, lists the sources' templates or checks a floor stops with exit 3, as
// `validate` and `export` do, instead of reading the defaults, which extend nothing.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorOf } from '../helpers/main.ts';
import { startMcp } from '../helpers/mcp.ts';
import { LOCAL, LOCK, LOCKED, SECRETS, edit, effectiveIds, pinnedApp, run, waiveForMyapp } from './repos.ts';

const BREAKS: [string, (app: string) => void][] = [
  ['a source without ref', (app) => edit(app, '.agents/config.yaml', /\n {4}ref: v1/, '')],
  ['two sources of one name', (app) => edit(app, '.agents/config.yaml', /(extends:\n)([\s\S]*)$/, '$1$2$2')],
  ['a URL with no name to derive', (app) => edit(app, '.agents/config.yaml', /url: \S+/, 'url: .')],
  ['an invalid key elsewhere', (app) => edit(app, '.agents/config.yaml', /^/, 'commit: maybe\n')],
  ['a YAML syntax error', (app) => edit(app, '.agents/config.yaml', /^/, 'export: [unclosed\n')],
  // The key itself mistyped: config.yaml no longer says `extends` anywhere, but the lock still pins the source.
  ['extends mistyped as extend', (app) => edit(app, '.agents/config.yaml', /^extends:/m, 'extend:')],
];

describe('an invalid config.yaml in a store that extends policy sources', () => {
  it.each(BREAKS)('%s: the effective set, show, action list and waive stop with exit 3', async (_, breakIt) => {
    const app = await pinnedApp({}, { commit: true });
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
    breakIt(app);
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(list.code).toBe(3);
    expect(errorOf(list).exit_code).toBe(3);
    expect((await run(app, 'invariant', 'show', LOCKED)).code).toBe(3);
    expect((await run(app, 'action', 'list')).code).toBe(3);
    const waive = await waiveForMyapp(app, LOCKED);
    expect(waive.code).not.toBe(0);
  });

  // Without the lock the word is all the readers look for before parsing: a key spelled by an escape, or a file
  // in UTF-16 (NULs between the letters), must not read as a store that extends nothing.
  it.each([
    ['extends: (as written)', (app: string) => app],
    ['the key spelled by an escape', (app: string) => edit(app, '.agents/config.yaml', /^extends:/m, '"\\x65xtends":')],
    [
      'config.yaml in UTF-16',
      (app: string) => {
        const path = join(app, '.agents/config.yaml');
        writeFileSync(path, Buffer.from(`\ufeff${readFileSync(path, 'utf8')}`, 'utf16le'));
      },
    ],
  ] as const)('with the lock gone, %s: the effective set stops (exit 2 or 3), never a set without the sources', async (_, change) => {
    const app = await pinnedApp({}, { commit: true });
    rmSync(join(app, LOCK));
    change(app);
    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect([2, 3]).toContain(list.code);
    expect(['extends-not-pinned', 'invalid-store']).toContain(errorOf(list).code);
  });

  it('the MCP effective_invariants answers an error, never a set without the inherited invariants', async () => {
    const app = await pinnedApp({}, { commit: true });
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
    edit(app, '.agents/config.yaml', /\n {4}ref: v1/, '');
    const s = await startMcp(`${app}/.agents`);
    const r = (await s.client.callTool({ name: 'effective_invariants', arguments: { project: 'myapp' } })) as CallToolResult;
    expect(r.isError).toBe(true);
  });

  it.each([
    ['two sources of one name', '.agents/config.yaml'],
    ['a URL with no name to derive', '.agents/config.yaml'],
    ['a lock that pins a source twice', LOCK],
  ] as const)('%s is placed at file:line:col', async (what, file) => {
    const app = await pinnedApp({}, { commit: true });
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
    if (file === LOCK) edit(app, LOCK, /(sources:\n)([\s\S]*)$/, '$1$2$2');
    else BREAKS.find(([name]) => name === what)![1](app);
    const v = await run(app, 'validate', '--format', 'json');
    expect(v.code).toBe(1);
    const found = (JSON.parse(v.stdout).diagnostics as { file: string; line: number; col: number }[]).filter(
      (d) => `.agents/${d.file}` === file,
    );
    expect(found.length).toBe(1);
    // The second of the two entries, or the one whose URL names nothing.
    const lines = readFileSync(join(app, file), 'utf8').split('\n');
    const entry = lines.findLastIndex((l) => /^ {2}- /.test(l)) + 1;
    expect(found[0]!.line).toBe(entry);
    expect(found[0]!.col).toBeGreaterThan(0);
  });
});

describe("a source URL's credentials", () => {
  const SECRET = 's3cret-token';
  const withCredentials = `http://user:${SECRET}@127.0.0.1:1/policy.git`;

  it('are never printed: not by update, fetch, a reading command or validate, text or JSON', async () => {
    const app = await pinnedApp({}, { commit: true });
    // The pin is for the file URL; config.yaml now names one with credentials (nothing listens on port 1).
    edit(app, '.agents/config.yaml', /url: \S+/, `url: ${withCredentials}`);
    const runs = [
      await run(app, 'extends', 'update'),
      await run(app, 'extends', 'update', '--format', 'json'),
      await run(app, 'extends', 'fetch'),
      await run(app, 'invariant', 'list', '--effective', '--project', 'myapp'),
    ];
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(errorOf(runs[1]!).code).toBe('extends-unreachable');
    // A config.yaml error quotes its line: the URL on it too.
    edit(app, '.agents/config.yaml', /\n {4}ref: v1/, '');
    runs.push(await run(app, 'validate'), await run(app, 'invariant', 'list', '--effective', '--project', 'myapp'));
    expect(runs.slice(4).map((r) => r.code)).toEqual([1, 3]);
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).toContain('user:***@127.0.0.1');
    }
  });

  it('are not printed in part by the excerpt of a long line, whose window may start inside them', async () => {
    const app = await pinnedApp({}, { commit: true });
    const long = 'Q'.repeat(120);
    // One flow-style line longer than an excerpt keeps, its error (an unknown key) a little after the password.
    edit(
      app,
      '.agents/config.yaml',
      /^[\s\S]*$/,
      `{"extends": [{"url": "http://user:${long}@127.0.0.1:1/policy.git", "reff": "v1"}]}${' '.repeat(150)}\n`,
    );
    const v = await run(app, 'validate');
    expect(v.code).toBe(1);
    expect(v.stdout + v.stderr).toContain('"reff"');
    expect(v.stdout + v.stderr).not.toContain('QQQ');
  });
});
