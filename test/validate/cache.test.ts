import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitTreeSource } from '../../src/store/git-source.ts';
import { WorkingTreeSource, type ReadResult, type TreeEntry, type TreeSource } from '../../src/store/tree-source.ts';
import { cacheFileIn, FactsCache } from '../../src/validate/cache.ts';
import { validateTree } from '../../src/validate/validate-tree.ts';
import { contentHash } from '../../src/validate/content-hash.ts';
import { formatJson } from '../../src/validate/format-json.ts';
import { runValidate } from '../../src/validate/run.ts';
import { agentsAsync } from '../helpers/cli.ts';
import { BROKEN, copyCase, readCase } from '../helpers/corpus.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const good = (id: string, text: string) => ML + invariantYaml(id, text);
/** In a project's folder, one level deeper: its modeline names ../../schemas/. */
const goodInProject = (id: string, text: string) => ML.replace('../', '../../') + invariantYaml(id, text);
const badSeverity = (id: string) => `${ML}id: ${id}\ntext: Never delete production data\nseverity: fatal\n`;

const deps = { processAlive: () => false, hostname: 'test-host' };
/** A text key's digest as keyDigest writes it (11 base64 digits), named for the test. */
const dk = (name: string) => name.padEnd(11, '0');

/** A store inside a fresh git repository (committed), and its cache folder. */
function repoStore(tree: Record<string, string>): { repo: string; store: string; cacheDir: string } {
  const store = testStore(tree);
  const repo = dirname(store);
  gitInit(repo);
  commitAll(repo, 'store');
  return { repo, store, cacheDir: join(repo, '.git', 'agents') };
}

/** `validate --format json` in-process: without the cache, or with it (for this build id). */
async function check(store: string, cacheDir: string | undefined, extra: { staged?: boolean; build?: string } = {}): Promise<string> {
  const r = await runValidate(
    { store, cwd: store, staged: extra.staged, ...(cacheDir ? { cache: { dir: cacheDir, build: extra.build ?? 'test-build' } } : {}) },
    deps,
  );
  return formatJson(r);
}

/** A TreeSource that records every path it is asked to read. */
class CountingSource implements TreeSource {
  readonly reads: string[] = [];
  constructor(private readonly inner: TreeSource) {}
  get description() {
    return this.inner.description;
  }
  list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    return this.inner.list(dir, options);
  }
  read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    this.reads.push(...paths);
    return this.inner.read(paths);
  }
  blobIds() {
    return this.inner.blobIds!();
  }
}

describe('the validation cache', () => {
  it('gives exactly the report of an uncached run for every case of the broken corpus, cold and warm', async () => {
    const cases = readdirSync(BROKEN).sort();
    expect(cases.length).toBeGreaterThanOrEqual(40);
    let cached = 0;
    for (const name of cases) {
      if (readCase(name).setup) continue; // files git cannot hold (a 2 GiB file, a FIFO, mode 000): covered by corpus.test.ts
      const dir = copyCase(name);
      const store = join(dir, 'store');
      const cacheDir = join(dir, 'cache');
      const plain = await check(store, undefined);
      const cold = await check(store, cacheDir);
      const warm = await check(store, cacheDir);
      expect(cold, `${name}: first run with the cache`).toBe(plain);
      expect(warm, `${name}: run answered from the cache`).toBe(plain);
      if (existsSync(cacheFileIn(cacheDir, false))) cached++;
    }
    // Most cases hold files that are checked, and so cached.
    expect(cached).toBeGreaterThanOrEqual(30);
  });

  it('follows edits, additions, duplicates and deletions in the working tree exactly as an uncached run does', async () => {
    const { store, cacheDir } = repoStore({
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`projects/web/${B}.yaml`]: goodInProject(B, 'Keep a backup'),
    });
    const same = async () => {
      const plain = await check(store, undefined);
      expect(await check(store, cacheDir)).toBe(plain);
      return JSON.parse(plain) as { diagnostics: { code: string; file: string }[] };
    };
    expect((await same()).diagnostics).toEqual([]);
    const cacheFile = cacheFileIn(cacheDir, false);
    expect(
      readFileSync(cacheFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('global/') || l.startsWith('projects/')),
    ).toHaveLength(2);

    writeFileSync(join(store, `global/${A}.yaml`), badSeverity(A));
    expect((await same()).diagnostics.map((d) => [d.code, d.file])).toEqual([['schema', `global/${A}.yaml`]]);

    writeFileSync(join(store, `global/${A}.yaml`), good(A, 'Never delete production data'));
    writeFileSync(join(store, `global/${C}.yaml`), good(C, 'never delete  PRODUCTION data'));
    expect((await same()).diagnostics.map((d) => [d.code, d.file])).toEqual([['duplicate-text', `global/${C}.yaml`]]);

    writeFileSync(join(store, `projects/web/${B}.yaml`), goodInProject(B, 'Never delete production data'));
    const shadowed = await same();
    expect(shadowed.diagnostics.map((d) => d.code).sort()).toEqual(['duplicate-text', 'shadowed', 'shadowed']);

    rmSync(join(store, `global/${C}.yaml`));
    rmSync(join(store, `projects/web/${B}.yaml`));
    expect((await same()).diagnostics).toEqual([]);
    // Deleted files drop out of the cache.
    expect(readFileSync(cacheFile, 'utf8')).not.toContain(C);
    expect(readFileSync(cacheFile, 'utf8')).not.toContain(B);
  });

  it('reads from the index only the files the cache does not know (--staged)', async () => {
    const { repo, store } = repoStore({
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`global/${B}.yaml`]: good(B, 'Keep a backup'),
    });
    const cache = FactsCache.load(join(repo, 'index.cache'), 'test-build');
    const first = new CountingSource(await GitTreeSource.index(store));
    await validateTree(first, { cache });
    expect(first.reads.sort()).toEqual([`global/${A}.yaml`, `global/${B}.yaml`]);
    cache.save();

    writeFileSync(join(store, `global/${B}.yaml`), badSeverity(B));
    git(repo, 'add', '-A');
    const again = FactsCache.load(join(repo, 'index.cache'), 'test-build');
    const second = new CountingSource(await GitTreeSource.index(store));
    const report = await validateTree(second, { cache: again });
    expect(second.reads).toEqual([`global/${B}.yaml`]);
    expect(again.hits).toBe(1);
    expect(report.diagnostics.map((d) => [d.code, d.file])).toEqual([['schema', `global/${B}.yaml`]]);
  });

  it('never uses the facts of another build, nor a damaged cache', async () => {
    const { store, cacheDir } = repoStore({ [`global/${A}.yaml`]: badSeverity(A) });
    const plain = await check(store, undefined);
    expect(JSON.parse(plain).ok).toBe(false);
    const cacheFile = cacheFileIn(cacheDir, false);
    const bytes = readFileSync(join(store, `global/${A}.yaml`));
    // A cache of another build that says the broken file is fine.
    mkdirSync(cacheDir, { recursive: true });
    const liar = `global/${A}.yaml\t${contentHash(bytes)}\tAAAAAAAAAAAAAAAA\n`;
    writeFileSync(cacheFile, `agents validate cache\t8\tother-build\tg1\n${liar}`);
    expect(await check(store, cacheDir)).toBe(plain);
    // Nor one of an older format, even with a line keyed as today's format keys it.
    for (const old of [6, 4, 3, 2, 1]) {
      writeFileSync(cacheFile, `agents validate cache\t${old}\ttest-build\n${liar}`);
      expect(await check(store, cacheDir)).toBe(plain);
    }
    expect(readFileSync(cacheFile, 'utf8')).toMatch(/^agents validate cache\t8\ttest-build\t\S+\n/);
    // Garbage, a damaged line, an empty file, a folder where the file should be.
    for (const junk of [
      '\u0000\u0001garbage',
      `agents validate cache\t8\ttest-build\tg1\nglobal/${A}.yaml\t${contentHash(bytes)}\t{"d":[{"code":1}]`,
      '',
    ]) {
      writeFileSync(cacheFile, junk);
      expect(await check(store, cacheDir)).toBe(plain);
    }
    rmSync(cacheFile);
    mkdirSync(cacheFile);
    expect(await check(store, cacheDir)).toBe(plain);
  });

  it('takes a line whose facts are no digest, or a cache cut short, as damaged: a miss, never a lost finding', async () => {
    const files = {
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`global/${B}.yaml`]: good(B, 'Never delete production data'),
      [`global/${C}.yaml`]: good(C, 'Keep a backup'),
    };
    const { store, cacheDir } = repoStore(files);
    const plain = await check(store, undefined);
    expect(JSON.parse(plain).diagnostics.map((d: { code: string }) => d.code)).toEqual(['duplicate-text']);
    expect(await check(store, cacheDir)).toBe(plain);
    const cacheFile = cacheFileIn(cacheDir, false);
    const warm = readFileSync(cacheFile, 'utf8');
    const lineOf = (path: string) => warm.split('\n').find((l) => l.startsWith(`${path}\t`))!;
    const facts = (line: string) => line.slice(line.lastIndexOf('\t') + 1);
    expect(facts(lineOf(`global/${B}.yaml`))).toMatch(/^[A-Za-z0-9+/]{11} /);
    // The memo would answer the duplicates of unchanged files: without it, every check reads the facts.
    const damaged = [
      // Facts that are not what the writer writes, in the middle of the file: no digest, a finding of no severity.
      warm.replace(lineOf(`global/${B}.yaml`), lineOf(`global/${B}.yaml`).replace(/\t[^\t]*$/, '\t[1,2]')),
      warm.replace(
        lineOf(`global/${B}.yaml`),
        lineOf(`global/${B}.yaml`).replace(
          /\t[^\t]*$/,
          `\t${JSON.stringify({ d: [{ code: 'schema', file: `global/${B}.yaml`, line: 1, col: 1, message: 'm' }] })}`,
        ),
      ),
      // The last line cut in its digest, and in its loose key: the file ends without its line break.
      warm.slice(0, warm.lastIndexOf(facts(lineOf(`global/${C}.yaml`))) + 5),
      warm.slice(0, -3),
    ];
    // The last line is C's: moving B there makes its cut line the one a duplicate depends on.
    const bLine = lineOf(`global/${B}.yaml`);
    const cLine = lineOf(`global/${C}.yaml`);
    const bLast = warm.replace(`${bLine}\n`, '').replace(`${cLine}\n`, `${cLine}\n${bLine}\n`);
    damaged.push(bLast.slice(0, bLast.lastIndexOf(facts(bLine)) + 5));
    for (const text of damaged) {
      writeFileSync(cacheFile, text);
      rmSync(`${cacheFile}.checks`, { force: true });
      expect(await check(store, cacheDir)).toBe(plain);
    }
  });

  it('compares real text keys when two digests are equal: a collision costs a parse, never a false duplicate', async () => {
    const files = { [`global/${A}.yaml`]: good(A, 'Never delete production data'), [`global/${B}.yaml`]: good(B, 'Keep a backup') };
    const { store, cacheDir } = repoStore(files);
    const plain = await check(store, undefined);
    expect(JSON.parse(plain).diagnostics).toEqual([]);
    // A cache in which both files claim one digest.
    const lines = Object.entries(files).map(([path, text]) => `${path}\t${contentHash(new TextEncoder().encode(text))}\tAAAAAAAAAAA`);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cacheFileIn(cacheDir, false), `agents validate cache\t8\ttest-build\tg1\n${lines.join('\n')}\n`);
    expect(await check(store, cacheDir)).toBe(plain);
  });

  it('lives in the git folder (also of a linked worktree), and nowhere outside git or with --no-cache', async () => {
    const { repo, store } = repoStore({ [`global/${A}.yaml`]: good(A, 'Never delete production data') });
    const r = await runAgents(['validate'], { cwd: store });
    expect(r.code).toBe(0);
    expect(existsSync(join(repo, '.git/agents/validate-worktree.cache'))).toBe(true);
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const linked = join(tempDir(), 'linked');
    git(repo, 'worktree', 'add', '-q', linked);
    expect((await runAgents(['validate', '--staged', '--all-files'], { cwd: linked })).code).toBe(0);
    const worktreeGitDir = git(linked, 'rev-parse', '--git-dir').trim();
    expect(existsSync(join(worktreeGitDir, 'agents/validate-index.cache'))).toBe(true);

    const { repo: other, store: otherStore } = repoStore({ [`global/${A}.yaml`]: good(A, 'Never delete production data') });
    expect((await runAgents(['validate', '--no-cache'], { cwd: otherStore })).code).toBe(0);
    expect((await runAgents(['validate'], { cwd: otherStore, env: { AGENTS_NO_CACHE: '1' } })).code).toBe(0);
    expect(existsSync(join(other, '.git/agents'))).toBe(false);

    const outside = testStore({ [`global/${A}.yaml`]: good(A, 'Never delete production data') });
    const before = readdirSync(dirname(outside), { recursive: true }).sort();
    expect((await runAgents(['validate'], { cwd: outside })).code).toBe(0);
    expect(readdirSync(dirname(outside), { recursive: true }).sort()).toEqual(before);
  });

  it('stays whole when several runs write it at once', async () => {
    const tree: Record<string, string> = {};
    const ids = ['01JDQ6X5Z8W4N3B2C1D0E9F8H0', '01JDQ6X5Z8W4N3B2C1D0E9F8H1', '01JDQ6X5Z8W4N3B2C1D0E9F8H2', '01JDQ6X5Z8W4N3B2C1D0E9F8H3'];
    for (const [i, id] of ids.entries()) tree[`global/${id}.yaml`] = good(id, `Rule number ${i}`);
    const { repo, store } = repoStore(tree);
    const runs = await Promise.all([0, 1, 2, 3].map(() => agentsAsync(['validate', '--format', 'json'], { cwd: store })));
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
    const lines = readFileSync(join(repo, '.git/agents/validate-worktree.cache'), 'utf8').split('\n');
    expect(lines[0]).toMatch(/^agents validate cache\t8\t/);
    expect(lines.filter((l) => l.startsWith('global/'))).toHaveLength(4);
    expect(readdirSync(join(repo, '.git/agents')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the memo of the whole-store checks', () => {
  /** Puts a finding the checks would never make into the memo the last run kept, for every check it kept. */
  const plant = (cacheDir: string) => {
    const file = `${cacheFileIn(cacheDir, false)}.checks`;
    const memo = JSON.parse(readFileSync(file, 'utf8'));
    // references too: a store that extends no policy source has its origins in its own files.
    expect(Object.keys(memo.checks).sort()).toEqual([
      'duplicates',
      'ids',
      'near-duplicates',
      'override-reach',
      'overrides',
      'references',
      'shadows',
    ]);
    memo.checks['near-duplicates'] = [
      { code: 'near-duplicate', severity: 'warning', file: `global/${A}.yaml`, line: 1, col: 1, message: 'planted' },
    ];
    writeFileSync(file, JSON.stringify(memo));
  };
  const planted = (json: string) => (JSON.parse(json).diagnostics as { message: string }[]).some((d) => d.message === 'planted');

  it('answers while the files and the listing are the same, and never once either changed', async () => {
    const files = {
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`global/${B}.yaml`]: good(B, 'Never delete production data.'),
    };
    const { store, cacheDir } = repoStore(files);
    const plain = await check(store, undefined);
    expect(JSON.parse(plain).diagnostics.map((d: { code: string }) => d.code)).toEqual(['near-duplicate']);
    // The first run keeps the memo; the second answers from it, with the same report.
    expect(await check(store, cacheDir)).toBe(plain);
    expect(await check(store, cacheDir)).toBe(plain);
    plant(cacheDir);
    expect(planted(await check(store, cacheDir))).toBe(true);
    // A file edited: every check runs again.
    writeFileSync(join(store, `global/${B}.yaml`), good(B, 'Never delete production data!'));
    expect(planted(await check(store, cacheDir))).toBe(false);
    plant(cacheDir);
    // A file the content checks do not read, added: the listing differs.
    writeFileSync(join(store, 'README.md'), 'notes\n');
    expect(planted(await check(store, cacheDir))).toBe(false);
    plant(cacheDir);
    rmSync(join(store, 'README.md'));
    // Another file removed.
    rmSync(join(store, `global/${A}.yaml`));
    expect(planted(await check(store, cacheDir))).toBe(false);
  });

  it('is written only when a run found something else: an unchanged store leaves the file as it was', async () => {
    const { store, cacheDir } = repoStore({
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`global/${B}.yaml`]: good(B, 'Never delete production data.'),
    });
    const file = `${cacheFileIn(cacheDir, false)}.checks`;
    await check(store, cacheDir);
    await check(store, cacheDir);
    const kept = statSync(file);
    await check(store, cacheDir);
    // A rewrite renames a new file into place: another inode.
    expect(statSync(file).ino).toBe(kept.ino);
    writeFileSync(join(store, `global/${B}.yaml`), good(B, 'Never delete production data!'));
    await check(store, cacheDir);
    expect(statSync(file).ino).not.toBe(kept.ino);
  });

  it('is ignored when damaged: a finding that is no diagnostic is a miss, never a trace nor a lost error', async () => {
    const { store, cacheDir } = repoStore({
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`global/${B}.yaml`]: good(B, 'Never delete production data'),
    });
    const plain = await check(store, undefined);
    expect(JSON.parse(plain).diagnostics.map((d: { code: string }) => d.code)).toEqual(['duplicate-text']);
    await check(store, cacheDir);
    const file = `${cacheFileIn(cacheDir, false)}.checks`;
    const memo = JSON.parse(readFileSync(file, 'utf8'));
    const [kept] = memo.checks.duplicates;
    for (const damaged of [
      [null],
      [5],
      [{ code: 'duplicate-text' }],
      [{ ...kept, severity: 'fatal' }],
      [{ ...kept, related: [null] }],
      [{ ...kept, hint: 7 }],
    ]) {
      writeFileSync(file, JSON.stringify({ ...memo, checks: { ...memo.checks, duplicates: damaged } }));
      expect(await check(store, cacheDir)).toBe(plain);
    }
  });

  it('answers the ids in use from the listing when the id check was not run (a memo answered it)', async () => {
    const { repo, store } = repoStore({
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`global/${B}.yaml`]: good(B, 'Keep a backup'),
    });
    const file = join(repo, 'worktree.cache');
    const run = async () => {
      const cache = FactsCache.load(file, 'test-build');
      const report = await validateTree(new WorkingTreeSource(store), { cache, memo: true });
      cache.save();
      return report;
    };
    const first = await run();
    expect([...first.usedIds()].sort()).toEqual([A, B].sort());
    await run();
    // Every file met in order: the memo answers the id check, and the ids come from the listing.
    const third = await run();
    expect([...third.usedIds()].sort()).toEqual([A, B].sort());
  });

  it('is neither used nor kept by --fix, whose report is amended after the checks', async () => {
    const { store, cacheDir } = repoStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Keep a backup') });
    await check(store, cacheDir);
    await check(store, cacheDir);
    plant(cacheDir);
    const fixed = await runValidate({ store, cwd: store, fix: true, cache: { dir: cacheDir, build: 'test-build' } }, deps);
    expect(fixed.diagnostics.some((d) => d.message === 'planted')).toBe(false);
    expect(fixed.fixes.map((f) => f.action)).toEqual(['add-modeline']);
    // The fixed file's facts were amended; no memo of the report before the fix answers for it.
    expect(planted(await check(store, cacheDir))).toBe(false);
  });
});

describe('a file changed to other bytes of the same size', () => {
  it('is checked afresh: the cache never answers for bytes it has not seen', async () => {
    const goodText = `${ML}id: ${A}\nseverity: error\ntext: "Never delete production data"\n`;
    const badText = goodText.replace('severity: error', 'severity: fatal');
    expect(badText.length).toBe(goodText.length);
    const { store, cacheDir } = repoStore({ [`global/${A}.yaml`]: goodText });
    expect((JSON.parse(await check(store, cacheDir)) as { ok: boolean }).ok).toBe(true);
    writeFileSync(join(store, `global/${A}.yaml`), badText);
    const plain = await check(store, undefined);
    const out = JSON.parse(plain) as { ok: boolean; diagnostics: { severity: string; file: string }[] };
    expect(out.ok).toBe(false);
    expect(out.diagnostics.some((d) => d.severity === 'error' && d.file === `global/${A}.yaml`)).toBe(true);
    expect(await check(store, cacheDir)).toBe(plain);
  });
});

describe('FactsCache', () => {
  it('writes a large cache in pieces and reads every entry back; a path met twice keeps its last facts, once', () => {
    const file = join(tempDir(), 'agents', 'validate-worktree.cache');
    const first = FactsCache.load(file, 'b1');
    const paths = Array.from({ length: 3000 }, (_, i) => `projects/p${i % 30}/${String(i).padStart(26, '0')}.yaml`);
    paths.forEach((p, i) => first.set(p, `hash${i}`, i % 7 === 0 ? { k: dk(`key${i}`), m: `first line ${i}` } : { k: dk(`key${i}`) }));
    // A second round over the first ten (as --fix does): their last facts win.
    paths.slice(0, 10).forEach((p, i) => first.set(p, `hash${i}`, { k: dk(`again${i}`) }));
    first.save();
    const text = readFileSync(file, 'utf8');
    expect(text.length).toBeGreaterThan(1 << 17); // several pieces
    expect(text.trim().split('\n')).toHaveLength(1 + 3000);

    const again = FactsCache.load(file, 'b1');
    paths.forEach((p, i) =>
      expect(again.get(p, `hash${i}`), p).toEqual(
        i < 10 ? { k: dk(`again${i}`) } : i % 7 === 0 ? { k: dk(`key${i}`), m: `first line ${i}` } : { k: dk(`key${i}`) },
      ),
    );
    expect(again.hits).toBe(3000);
    // The ten repeated paths were written last; asked for in their first order, the cache is written again in it.
    again.save();
    const third = FactsCache.load(file, 'b1');
    paths.forEach((p, i) => third.get(p, `hash${i}`));
    expect(third.hits).toBe(3000);
    // Unchanged and in order: not written again.
    const before = readFileSync(file, 'utf8');
    expect(before.split('\n')[1]).toMatch(/^projects\/p0\/0+\.yaml\t/);
    rmSync(file);
    third.save();
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, before);
    // Another hash for a path: a miss; another build: nothing.
    expect(FactsCache.load(file, 'b1').get(paths[5]!, 'other')).toBeUndefined();
    expect(FactsCache.load(file, 'b2').get(paths[5]!, 'hash5')).toBeUndefined();
  });
  it("misses on facts a check could not read (a plan, a project's paths, a waiver, a guard's write globs of another shape), and answers whole ones", () => {
    const file = join(tempDir(), 'agents', 'validate-worktree.cache');
    mkdirSync(dirname(file), { recursive: true });
    const good = [
      { p: { id: A, project: 'web' } },
      { j: { description: 'd', paths: ['src/**'] } },
      { w: { i: A, x: '2030-01-01' } },
      { g: ['secrets'] },
    ];
    const damaged = [
      { p: { id: A, project: 5 } },
      { p: null },
      { j: { paths: 5 } },
      { j: { paths: [5] } },
      { j: null },
      { w: null },
      { w: { i: A } },
      { w: 5 },
      { g: 'secrets' },
      { g: [5] },
    ];
    const all = [...good, ...damaged];
    writeFileSync(file, `agents validate cache\t8\tb1\tg1\n${all.map((f, i) => `f${i}.yaml\th${i}\t${JSON.stringify(f)}\n`).join('')}`);
    const cache = FactsCache.load(file, 'b1');
    expect(all.map((_, i) => cache.get(`f${i}.yaml`, `h${i}`))).toEqual([...good, ...damaged.map(() => undefined)]);
  });

  it('writes a missing modeline after a tab in the short form, and reads back the same facts from each form', () => {
    const file = join(tempDir(), 'agents', 'validate-worktree.cache');
    const facts = [
      { k: dk('a'), m: 'id: 01A' },
      { k: dk('b'), n: 'loose key words', m: 'first line\twith a tab and spaces' },
      { k: dk('c'), n: 'no modeline' },
      { k: dk('d'), m: '' },
      { k: dk('e') },
      // Not the short form: a modeline naming another schema, a first line holding a carriage return.
      { k: dk('f'), m: '# yaml-language-server: $schema=other.json', l: 1 },
      { k: dk('g'), n: 'x', m: 'cr\rinside' },
    ];
    const first = FactsCache.load(file, 'b1');
    facts.forEach((f, i) => first.set(`f${i}.yaml`, `h${i}`, f));
    first.save();
    expect(readFileSync(file, 'utf8').split('\n').slice(1, -1)).toEqual([
      `f0.yaml\th0\t${dk('a')}\tid: 01A`,
      `f1.yaml\th1\t${dk('b')} loose key words\tfirst line\twith a tab and spaces`,
      `f2.yaml\th2\t${dk('c')} no modeline`,
      `f3.yaml\th3\t${dk('d')}\t`,
      `f4.yaml\th4\t${dk('e')}`,
      `f5.yaml\th5\t${JSON.stringify(facts[5])}`,
      `f6.yaml\th6\t${JSON.stringify(facts[6])}`,
    ]);
    const second = FactsCache.load(file, 'b1');
    expect(facts.map((_, i) => second.get(`f${i}.yaml`, `h${i}`))).toEqual(facts);
    // A key digest of another length before the tab is a damaged line: a miss.
    writeFileSync(file, `agents validate cache\t8\tb1\tg1\nx.yaml\thx\tshort\tid: 01A\ny.yaml\thy\t${dk('y')}x\tid: 01A\n`);
    const damaged = FactsCache.load(file, 'b1');
    expect([damaged.get('x.yaml', 'hx'), damaged.get('y.yaml', 'hy')]).toEqual([undefined, undefined]);
  });

  it('amend moves an entry to its new blob with mapped facts, once; forget drops one; both for entries read or set', () => {
    const file = join(tempDir(), 'agents', 'validate-worktree.cache');
    const first = FactsCache.load(file, 'b1');
    first.set('a.yaml', 'ha', { k: dk('ka'), m: 'first a' });
    first.set('b.yaml', 'hb', { k: dk('kb'), m: 'first b' });
    first.set('c.yaml', 'hc', { k: dk('kc') });
    first.save();
    const dropModeline = (f: { k?: string; m?: string }) => ({ ...f, m: undefined });

    // Read back (entries that point into the file's text) and set (new entries) alike.
    const second = FactsCache.load(file, 'b1');
    expect(second.get('a.yaml', 'ha')).toEqual({ k: dk('ka'), m: 'first a' });
    second.set('b.yaml', 'hb', { k: dk('kb'), m: 'first b' });
    expect(second.get('c.yaml', 'hc')).toEqual({ k: dk('kc') });
    second.set('d.yaml', 'hd', { k: dk('kd') });
    second.amend('a.yaml', 'ha', 'ha2', dropModeline);
    second.amend('b.yaml', 'hb', 'hb2', dropModeline);
    // Only from the blob the entry holds: another `from` leaves it as it was.
    second.amend('c.yaml', 'not-hc', 'hc2', dropModeline);
    // Once: a second amend of an amended entry changes nothing.
    second.amend('a.yaml', 'ha2', 'ha3', () => ({ k: dk('wrong') }));
    // Facts mapped to undefined: the entry is kept as it was.
    second.amend('d.yaml', 'hd', 'hd2', () => undefined);
    second.forget('b.yaml');
    // Paths it never met: nothing.
    second.amend('e.yaml', 'he', 'he2', dropModeline);
    second.forget('e.yaml');
    second.save();

    const third = FactsCache.load(file, 'b1');
    expect(third.get('a.yaml', 'ha')).toBeUndefined();
    expect(third.get('a.yaml', 'ha2')).toEqual({ k: dk('ka') });
    expect(third.get('b.yaml', 'hb')).toBeUndefined();
    expect(third.get('b.yaml', 'hb2')).toBeUndefined();
    expect(third.get('c.yaml', 'hc')).toEqual({ k: dk('kc') });
    expect(third.get('d.yaml', 'hd')).toEqual({ k: dk('kd') });
    expect(readFileSync(file, 'utf8').split('\n').slice(1, -1)).toEqual([
      `a.yaml\tha2\t${dk('ka')}`,
      `c.yaml\thc\t${dk('kc')}`,
      `d.yaml\thd\t${dk('kd')}`,
    ]);
  });
});

describe('stat stamps (a settled file whose stamp the cache kept is not read)', () => {
  it('FactsCache: known answers by the stamp alone and leaves a miss for get, which keeps the entry under the new stamp', () => {
    const file = join(tempDir(), 'agents', 'validate-worktree.cache');
    const first = FactsCache.load(file, 'b1');
    first.set('a.yaml', 'ha@s1', { k: dk('ka') });
    first.set('b.yaml', 'hb', { k: dk('kb') });
    first.set('c.yaml', 'hc@s3', { k: dk('kc') });
    first.save();

    const second = FactsCache.load(file, 'b1');
    expect(second.known('a.yaml', 's1')).toEqual({ k: dk('ka') });
    // No stamp kept: a miss, and get still finds the line where it is.
    expect(second.known('b.yaml', 's2')).toBeUndefined();
    expect(second.get('b.yaml', 'hb', 's2')).toEqual({ k: dk('kb') });
    // Another stamp: a miss; the same bytes (blob) still answer, without a stamp (not settled) the old one stays.
    expect(second.known('c.yaml', 's9')).toBeUndefined();
    expect(second.get('c.yaml', 'hc')).toEqual({ k: dk('kc') });
    expect(second.hits).toBe(3);
    second.save();
    expect(readFileSync(file, 'utf8').split('\n').slice(1, -1)).toEqual([
      `a.yaml\tha@s1\t${dk('ka')}`,
      `b.yaml\thb@s2\t${dk('kb')}`,
      `c.yaml\thc@s3\t${dk('kc')}`,
    ]);

    const third = FactsCache.load(file, 'b1');
    for (const [path, stamp] of [
      ['a.yaml', 's1'],
      ['b.yaml', 's2'],
      ['c.yaml', 's3'],
    ] as const)
      expect(third.known(path, stamp), path).toBeDefined();
    // Every file met in order, by stamps alone: the whole-store checks' memo may answer.
    expect(third.unchanged).toBe(true);
    // A stamp is never taken for a blob, nor a blob for a stamp.
    const fourth = FactsCache.load(file, 'b1');
    expect(fourth.known('a.yaml', 'ha')).toBeUndefined();
    expect(fourth.get('a.yaml', 's1')).toBeUndefined();
    // --fix rewrote a stamped file: its entry moves to the new content hash, with no stamp.
    const fifth = FactsCache.load(file, 'b1');
    expect(fifth.get('a.yaml', 'ha')).toEqual({ k: dk('ka') });
    fifth.amend('a.yaml', 'ha', 'ha2', (f) => f);
    fifth.save();
    expect(readFileSync(file, 'utf8').split('\n')[1]).toBe(`a.yaml\tha2\t${dk('ka')}`);
  });

  it('WorkingTreeSource.visit offers the stamp of each settled regular file before reading it, and of no other', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.yaml'), 'a: 1\n');
    writeFileSync(join(root, 'b.yaml'), 'b: 2\n');
    mkdirSync(join(root, 'dir'));
    const tree = new WorkingTreeSource(root);
    const paths = ['a.yaml', 'b.yaml', 'dir', 'gone.yaml'];
    const visit = (settledBefore: number, known: (i: number) => boolean) => {
      const offered: number[] = [];
      const read: [number, string | undefined][] = [];
      const failed: [number, string][] = [];
      tree.visit(
        paths,
        (i, _b, _n, stamp) => read.push([i, stamp]),
        (i, r) => failed.push([i, r.code]),
        {
          settledBefore,
          known: (i) => {
            offered.push(i);
            return known(i);
          },
        },
      );
      return { offered, read, failed };
    };
    // All settled: both files offered; b answered from its stamp, not read; the folder and the missing file fail as before.
    const later = visit(Date.now() + 60_000, (i) => i === 1);
    expect(later.offered).toEqual([0, 1]);
    expect(later.read.map(([i]) => i)).toEqual([0]);
    expect(later.read[0]![1]).toMatch(/^[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[0-9.]+\.[0-9.]+$/);
    expect(later.failed).toEqual([
      [2, 'not-a-file'],
      [3, 'missing'],
    ]);
    // Changed since the settle time: no stamp, nothing offered, every file read.
    const recent = visit(Date.now() - 60_000, () => true);
    expect(recent.offered).toEqual([]);
    expect(recent.read).toEqual([
      [0, undefined],
      [1, undefined],
    ]);
    // The same size written again, at another time: another stamp.
    const stampOf = () => visit(Date.now() + 60_000, () => false).read[0]![1];
    const before = stampOf();
    writeFileSync(join(root, 'a.yaml'), 'a: 9\n');
    utimesSync(join(root, 'a.yaml'), new Date(1_000_000), new Date(1_000_000));
    expect(stampOf()).not.toBe(before);
  });

  it('validate: a settled file is kept under its stamp, and an edit of the same size is checked afresh', async () => {
    const goodText = `${ML}id: ${A}\nseverity: error\ntext: "Never delete production data"\n`;
    const badText = goodText.replace('severity: error', 'severity: fatal');
    const { store, cacheDir } = repoStore({
      [`global/${A}.yaml`]: goodText,
      [`projects/web/${B}.yaml`]: goodInProject(B, 'Keep a backup'),
    });
    const cacheLines = () => readFileSync(cacheFileIn(cacheDir, false), 'utf8').split('\n').slice(1, -1);
    // Just written: not settled, so kept under the content hash alone.
    expect((JSON.parse(await check(store, cacheDir)) as { ok: boolean }).ok).toBe(true);
    expect(cacheLines().every((l) => !l.split('\t')[1]!.includes('@'))).toBe(true);
    // A minute on, the files are settled: the next run keeps each under its stamp.
    const later = { processAlive: () => false, hostname: 'test-host', clock: () => new Date(Date.now() + 60_000) };
    const run = async () => formatJson(await runValidate({ store, cwd: store, cache: { dir: cacheDir, build: 'test-build' } }, later));
    const plainGood = await check(store, undefined);
    expect(await run()).toBe(plainGood);
    expect(cacheLines().every((l) => l.split('\t')[1]!.includes('@'))).toBe(true);
    expect(await run()).toBe(plainGood);
    // Rewritten in place, the same size: another stamp, so read, hashed and checked again.
    writeFileSync(join(store, `global/${A}.yaml`), badText);
    utimesSync(join(store, `global/${A}.yaml`), new Date(1_000_000), new Date(1_000_000));
    const plainBad = await check(store, undefined);
    expect((JSON.parse(plainBad) as { ok: boolean }).ok).toBe(false);
    expect(await run()).toBe(plainBad);
  });
});

describe('contentHash', () => {
  it('is the SHA-256 of the bytes (base64, unpadded), of a whole buffer or of its first bytes', () => {
    expect(contentHash(new Uint8Array())).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU');
    const text = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
    expect(contentHash(text)).toBe('16j7swfXgJRpypq8sAguT41WUeRtPNt2LQLQvzfJ5ZI');
    // The first bytes of a larger (shared) buffer hash as those bytes alone.
    const shared = new Uint8Array(100).fill(7);
    shared.set(text);
    expect(contentHash(shared, text.byteLength)).toBe(contentHash(text));
    expect(contentHash(new TextEncoder().encode('The quick brown fox jumps over the lazy cog'))).not.toBe(contentHash(text));
  });
});

describe('the validation cache across clones (CI restoring .git/agents)', () => {
  it("a cache restored from another clone's run gives the verdict of an uncached run, whatever changed since", async () => {
    const tree = {
      [`global/${A}.yaml`]: good(A, 'Never delete production data'),
      [`projects/web/${B}.yaml`]: goodInProject(B, 'Keep a backup'),
      [`projects/api/${C}.yaml`]: good(C, 'Log every payment'),
    };
    const first = repoStore(tree);
    expect(JSON.parse(await check(first.store, first.cacheDir)).ok).toBe(true);
    // The next run is a fresh clone of a later commit: one file broken, one a duplicate, one gone; the old cache restored into it.
    const next = repoStore(tree);
    writeFileSync(join(next.store, `global/${A}.yaml`), badSeverity(A));
    writeFileSync(join(next.store, `projects/web/${B}.yaml`), goodInProject(B, 'log every  PAYMENT'));
    rmSync(join(next.store, `projects/api/${C}.yaml`));
    writeFileSync(join(next.store, `projects/web/${A.slice(0, -1)}Z.yaml`), goodInProject(`${A.slice(0, -1)}Z`, 'Log every payment'));
    mkdirSync(next.cacheDir, { recursive: true });
    writeFileSync(cacheFileIn(next.cacheDir, false), readFileSync(cacheFileIn(first.cacheDir, false)));
    const plain = await check(next.store, undefined);
    expect(await check(next.store, next.cacheDir)).toBe(plain);
    expect((JSON.parse(plain) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code).sort()).toEqual([
      'duplicate-text',
      'schema',
    ]);
  });
});

describe('the validation cache after validate --fix', () => {
  it('holds the facts of the files --fix rewrote, under their new content hash, and answers as an uncached run', async () => {
    const plain = invariantYaml(A, 'Never delete production data');
    const { store, cacheDir } = repoStore({ [`global/${A}.yaml`]: plain, [`projects/web/${B}.yaml`]: goodInProject(B, 'Keep a backup') });
    const fixed = await runValidate({ store, cwd: store, fix: true, cache: { dir: cacheDir, build: 'test-build' } }, deps);
    expect(fixed.fixes.map((f) => [f.action, f.file, f.done])).toEqual([['add-modeline', `global/${A}.yaml`, true]]);
    expect(fixed.diagnostics).toEqual([]);
    const bytes = readFileSync(join(store, `global/${A}.yaml`));
    expect(bytes.toString('utf8')).toBe(ML + plain);
    const line = readFileSync(cacheFileIn(cacheDir, false), 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`global/${A}.yaml\t`));
    expect(line?.split('\t')[1]).toBe(contentHash(bytes));
    expect(await check(store, cacheDir)).toBe(await check(store, undefined));
  });
});
