import { readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_SUMMARIES } from '../../src/validate/codes.ts';
import { REPO } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const PML = '# yaml-language-server: $schema=../../schemas/invariant.schema.json\n';

type D = { code: string; file: string; severity: string; message: string };
async function run(
  cwd: string,
  ...args: string[]
): Promise<{ code: number; diagnostics: D[]; files: number; stderr: string; error?: string }> {
  const r = await runMain(['validate', '--format', 'json', ...args], { cwd });
  if (r.stdout === '') return { code: r.code, diagnostics: [], files: 0, stderr: r.stderr };
  const out = JSON.parse(r.stdout);
  return { code: r.code, diagnostics: out.diagnostics ?? [], files: out.files, stderr: r.stderr, error: out.error?.code };
}
const codes = (ds: D[]) => ds.map((d) => `${d.code} ${d.file}`).sort();

describe('validate PATHS', () => {
  it('reports on the named files only, but still finds a duplicate of a sibling', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: ML + invariantYaml(A, 'Never delete data'),
      [`global/${B}.yaml`]: ML + invariantYaml(B, 'never delete DATA'),
      [`projects/web/${C}.yaml`]: `${PML}id: ${C}\ntext: [\n`,
    });
    const repo = dirname(store);
    const one = await run(repo, `.agents/global/${B}.yaml`);
    expect(codes(one.diagnostics)).toEqual([`duplicate-text global/${B}.yaml`]);
    expect(one.files).toBe(1);
    expect(one.code).toBe(1);
    // Naming the kept copy shows the duplicate too: it is about both files.
    expect(codes((await run(repo, `.agents/global/${A}.yaml`)).diagnostics)).toEqual([`duplicate-text global/${B}.yaml`]);
    // A folder, and an absolute path (as lint-staged passes them).
    expect(codes((await run(repo, join(store, 'projects'))).diagnostics)).toEqual([`yaml-syntax projects/web/${C}.yaml`]);
    // From inside the store, paths are relative to the current folder.
    expect(codes((await run(join(store, 'projects'), 'web')).diagnostics)).toEqual([`yaml-syntax projects/web/${C}.yaml`]);
  });

  it('takes an absolute path written through a linked folder as the file it names', async () => {
    const store = testStore({ [`global/${A}.yaml`]: ML + invariantYaml(A, 'Never delete data') });
    const repo = dirname(store);
    const link = join(tempDir(), 'linked-checkout');
    symlinkSync(repo, link);
    const through = await run(repo, join(link, `.agents/global/${A}.yaml`));
    expect([through.code, through.files, through.diagnostics]).toEqual([0, 1, []]);
    expect((await run(repo, join(link, '.agents'))).code).toBe(0);
    // A path through the link that is outside the store still is.
    writeFileSync(join(repo, 'README.md'), 'hi\n');
    expect((await run(repo, join(link, 'README.md'))).code).toBe(2);
  });

  it('refuses a path outside the store, or one that is not there (exit 2)', async () => {
    const store = testStore({ [`global/${A}.yaml`]: ML + invariantYaml(A, 'Never delete data') });
    writeFileSync(join(dirname(store), 'README.md'), 'hi\n');
    const outside = await run(dirname(store), 'README.md');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/README.md is outside the store/);
    const missing = await run(dirname(store), '.agents/global/nope.yaml');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/is not in the store's working tree/);
  });
});

describe('validate exit codes and severities', () => {
  it('passes with warnings, fails with them under --strict', async () => {
    const store = testStore({ [`global/${A}.yaml`]: ML + invariantYaml(A, 'Never delete data'), 'global/notes.txt': 'x\n' });
    const plain = await run(dirname(store));
    expect(codes(plain.diagnostics)).toEqual(['unknown-path global/notes.txt']);
    expect(plain.code).toBe(0);
    expect((await run(dirname(store), '--strict')).code).toBe(1);
  });

  it('infos never fail, even with --strict', async () => {
    const store = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data') });
    const r = await run(dirname(store), '--strict');
    expect(codes(r.diagnostics)).toEqual([`modeline-missing global/${A}.yaml`]);
    expect(r.code).toBe(0);
  });

  it('is a usage error without a store', async () => {
    const r = await run(tempDir());
    expect(r.code).toBe(2);
    expect(r.error).toBe('usage');
    expect(r.stderr).toMatch(/no store found/);
  });

  it('flags a lock of a process that is gone, not one that is running', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: ML + invariantYaml(A, 'Never delete data'),
      'global/.lock': `999999999 ${hostname()} 2026-11-29T12:00:00Z\n`,
      'projects/web/.lock': `${process.ppid} ${hostname()} ${new Date().toISOString()}\n`,
      [`projects/web/${B}.yaml`]: PML + invariantYaml(B, 'Use TLS'),
    });
    expect(codes((await run(dirname(store))).diagnostics)).toEqual(['stale-lock global/.lock']);
  });

  it('judges a lock that names no process as the writers do: stale only once older than 10 s', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: ML + invariantYaml(A, 'Never delete data'),
      // Just created: a writer may not have written its line yet, and would keep it.
      'global/.lock': '',
      'projects/web/.lock': '',
      [`projects/web/${B}.yaml`]: PML + invariantYaml(B, 'Use TLS'),
    });
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(join(store, 'projects/web/.lock'), longAgo, longAgo);
    expect(codes((await run(dirname(store))).diagnostics)).toEqual(['stale-lock projects/web/.lock']);
  });
});

describe('diagnostics on a long line', () => {
  it('each shows a window of the line with its caret under the fault, not the whole line', async () => {
    // One flow mapping on one line, 100 KB: every unknown key is a diagnostic on line 1.
    const keys = Array.from({ length: 500 }, (_, i) => `k${i}: ${'a'.repeat(200)}`).join(', ');
    const store = testStore({ [`global/${A}.yaml`]: `{id: ${A}, text: Never delete data, ${keys}}\n` });
    const r = await runMain(['validate', '--no-cache'], { cwd: dirname(store) });
    expect(r.code).toBe(1);
    // 20 diagnostics of the code are listed: each with its excerpt, not 20 copies of the line.
    expect(r.stdout.length).toBeLessThan(20_000);
    const lines = r.stdout.split('\n');
    let excerpts = 0;
    lines.forEach((line, i) => {
      const key = /error {2}schema {2}unknown key "(k\d+)"/.exec(line)?.[1];
      if (key === undefined) return;
      const text = lines[i + 1]!;
      const caret = lines[i + 2]!.indexOf('^');
      expect(text.slice(caret)).toMatch(new RegExp(`^${key}: `));
      expect(text.length).toBeLessThan(250);
      excerpts++;
    });
    expect(excerpts).toBe(20);
  });
});

describe('schema copies for editors', () => {
  it('warns when a copy differs from the tool schema or is missing, and init --schemas refreshes them', async () => {
    const root = join(tempDir(), '.agents');
    expect((await runMain(['--store', root, 'init'], { cwd: dirname(root) })).code).toBe(0);
    expect((await run(dirname(root))).diagnostics).toEqual([]);
    const copy = join(root, 'schemas/invariant.schema.json');
    writeFileSync(copy, readFileSync(copy, 'utf8').replace('"maxLength": 2000', '"maxLength": 5000'));
    writeFileSync(join(root, 'schemas/plan.schema.json'), '{ not json');
    const r = await run(dirname(root));
    expect(codes(r.diagnostics)).toEqual(['schema-outdated schemas/invariant.schema.json', 'schema-outdated schemas/plan.schema.json']);
    expect(r.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
    const refresh = await runMain(['init', '--schemas'], { cwd: dirname(root) });
    expect(refresh.code).toBe(0);
    expect((await run(dirname(root))).diagnostics).toEqual([]);
  });

  it('the example store passes, with the seed example shadow as its only warning', async () => {
    // --no-cache: the store is in this repository, whose .git would keep the facts between runs; under
    // mutation testing a mutant's facts would then answer the next mutant's run (docs/mutation.md).
    const r = await run(REPO, '--store', '.agents.example', '--no-cache');
    expect(codes(r.diagnostics)).toEqual(['shadowed global/01M8KJW430VF8WCABSB8RTQ8RY.yaml']);
    expect(r.code).toBe(0);
  });
});

describe('documentation', () => {
  it('docs/validation.md documents every diagnostic code', () => {
    const page = readFileSync(join(REPO, 'docs/validation.md'), 'utf8');
    const section = page.slice(page.indexOf('## Diagnostic codes'));
    for (const code of Object.keys(CODE_SUMMARIES)) expect(section, code).toContain(`| \`${code}\` |`);
  });

  it('the table of docs/validation.md holds each code once, with the words of its SARIF rule, and no code the tool lacks', () => {
    const page = readFileSync(join(REPO, 'docs/validation.md'), 'utf8');
    const section = page.slice(page.indexOf('## Diagnostic codes'));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| [^|]+ \| (.*) \|$/gm)].map((m) => [m[1]!, m[2]!] as const);
    expect(rows.map(([code]) => code).sort()).toEqual(Object.keys(CODE_SUMMARIES).sort());
    expect(Object.fromEntries(rows)).toEqual(CODE_SUMMARIES);
  });
});

describe('extends.lock.yaml written by hand', () => {
  it('is checked with the full YAML parser when it is not in the shape the tool writes', async () => {
    // An end-of-line comment and a flow mapping take the file off the fast reader.
    const ml = '# yaml-language-server: $schema=schemas/extends-lock.schema.json\n';
    const fine = testStore({ 'extends.lock.yaml': `${ml}version: 1\nsources: []  # nothing pinned yet\n` });
    const ok = await run(dirname(fine));
    expect(ok.stderr).toBe('');
    expect(codes(ok.diagnostics)).toEqual([]);
    expect(ok.code).toBe(0);
    const bad = testStore({ 'extends.lock.yaml': `${ml}version: 1\nsources: [{name: org}]\n` });
    const refused = await run(dirname(bad));
    expect(refused.stderr).toBe('');
    // Each key the source lacks is said, though all are placed at its mapping.
    expect(refused.diagnostics.map((d) => `${d.code} ${d.file} ${d.message}`)).toEqual(
      ['url', 'ref', 'kind', 'commit'].map((k) => `schema extends.lock.yaml missing required key "${k}" in sources.0`),
    );
    expect(refused.code).toBe(1);
  });
});
