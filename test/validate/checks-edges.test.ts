import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.ts';
import { FactsCache } from '../../src/validate/cache.ts';
import { validateTree } from '../../src/validate/validate-tree.ts';
import { MemorySource, type Spec } from '../helpers/memory-source.ts';
import { tempDir } from '../helpers/tmp.ts';

const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
/** A ULID of the global scope, distinct for each n (up to 32^4). */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = (n: number) => `01JDQ6X5Z8W4N3B2C1D0E9${[3, 2, 1, 0].map((k) => CROCKFORD[(n >> (5 * k)) & 31]).join('')}`;
const inv = (id: string, text: string) => `${ML}id: ${id}\ntext: ${text}\n`;

describe('validateTree with a progress display', () => {
  it('lets the event loop turn once every 512 files checked, so that Ctrl-C can erase the display', async () => {
    const spec: Record<string, Spec> = {};
    for (let n = 0; n < 600; n++) spec[`global/${ulid(n)}.yaml`] = inv(ulid(n), `Rule number ${n}`);
    // Queued when the second file is checked (reading an in-memory store and checking its files never wait on the event loop).
    let ran = false;
    let ranBy: number | undefined;
    await validateTree(new MemorySource(spec), {
      onProgress: (phase, done) => {
        if (phase !== 'check') return;
        if (done === 2) setImmediate(() => (ran = true));
        if (ran && ranBy === undefined) ranBy = done;
      },
    });
    expect(ranBy).toBe(513);
  });
});

const PRML = '# yaml-language-server: $schema=../../schemas/project.schema.json\n';
const project = (paths: string[]) => `${PRML}paths:\n${paths.map((p) => `  - "${p}"\n`).join('')}`;
const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const P = '01M8KK5920RS6CGAVDFVYYJ0B4';

describe('project paths', () => {
  it('two projects whose paths overlap more than once: one report, at the first pair', async () => {
    const found = await validateTree(
      new MemorySource({
        'projects/api/project.yaml': project(['shared/**', 'docs/**']),
        'projects/web/project.yaml': project(['shared/**', 'docs/**']),
      }),
      { repoFiles: async () => ['shared/a.ts', 'docs/b.md'] },
    );
    expect(found.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`)).toStrictEqual([
      'projects/web/project.yaml:3 paths.0 "shared/**" of project web overlaps paths.0 "shared/**" of project api (the globs alone show it)',
    ]);
  });

  it('an overlap is reported on the project whose name sorts last, whatever the order of the listing', async () => {
    // git lists by the whole path: projects/web-app/… before projects/web/… ("-" sorts before "/").
    const source = new MemorySource({
      'projects/web/project.yaml': project(['web/**']),
      'projects/web-app/project.yaml': project(['web/app/**']),
    });
    const list = source.list.bind(source);
    source.list = async () => (await list()).sort((a, b) => (a.path < b.path ? -1 : 1));
    expect((await source.list()).map((e) => e.path).filter((p) => p.endsWith('.yaml'))).toStrictEqual([
      'projects/web-app/project.yaml',
      'projects/web/project.yaml',
    ]);
    const found = await validateTree(source);
    expect(found.diagnostics.map((d) => `${d.file} ${d.message}`)).toStrictEqual([
      'projects/web-app/project.yaml paths.0 "web/app/**" of project web-app overlaps paths.0 "web/**" of project web (the globs alone show it)',
    ]);
  });
});

describe('config.yaml', () => {
  const config = 'extends:\n  - name: acme\n    url: https://git.example.com/acme/policy.git\n    ref: v1\n';
  const readsOfConfig = (source: MemorySource) => source.reads.flat().filter((p) => p === 'config.yaml').length;

  it('is read again for the checks only when one needs it, and then once', async () => {
    // Its own check reads it once, as every file.
    const alone = new MemorySource({ 'config.yaml': config, [`global/${A}.yaml`]: inv(A, 'One') });
    await validateTree(alone);
    expect(readsOfConfig(alone)).toBe(1);
    // A plan's action from a policy source, and projects' paths: both need it.
    const both = new MemorySource({
      'config.yaml': config,
      [`plans/${P}/plan.yaml`]: `# yaml-language-server: $schema=../../schemas/plan.schema.json\nid: ${P}\naction: acme:ns/name\n`,
      'projects/web/project.yaml': project(['web/**']),
    });
    await validateTree(both);
    expect(readsOfConfig(both)).toBe(2);
  });
});

describe('duplicates', () => {
  /** A store where B has A's text when first read, then `later` (a file changed or removed since). */
  const changing = (later: Spec) => {
    const source = new MemorySource({
      [`global/${A}.yaml`]: inv(A, 'Never delete data'),
      [`global/${B}.yaml`]: inv(B, 'never delete data'),
    });
    const read = source.read.bind(source);
    const changed = new MemorySource({ [`global/${B}.yaml`]: later });
    let n = 0;
    source.read = async (paths) => {
      const out = await read(paths);
      if (n++ > 0) for (const [p, r] of await changed.read(paths.filter((p) => p === `global/${B}.yaml`))) out.set(p, r);
      return out;
    };
    return source;
  };

  it('a file that no longer parses, or is gone, when read again is no copy', async () => {
    expect((await validateTree(changing(inv(B, 'never delete data')))).diagnostics.map((d) => `${d.code} ${d.file}`)).toStrictEqual([
      `duplicate-text global/${B}.yaml`,
    ]);
    expect((await validateTree(changing(`${ML}id: ${B}\ntext: [\n`))).diagnostics).toStrictEqual([]);
    expect((await validateTree(changing(undefined as unknown as Spec))).diagnostics).toStrictEqual([]);
  });
});

describe('shadows', () => {
  it('a key digest shared by different texts (a collision, forged here in the cache) makes no copies: their overrides hide no shadow', async () => {
    const [W, X, Y, Z] = [ulid(1), ulid(2), ulid(3), ulid(4)];
    const spec: Record<string, Spec> = {
      [`global/${W}.yaml`]: inv(W, 'Rotate keys'),
      [`global/${X}.yaml`]: `${inv(X, 'Use TLS')}overrides: ${Z}\n`,
      [`global/${Z}.yaml`]: inv(Z, 'Keep logs'),
      [`projects/web/${Y}.yaml`]: `# yaml-language-server: $schema=../../schemas/invariant.schema.json\nid: ${Y}\ntext: Keep logs\n`,
    };
    const blobs = Object.fromEntries(Object.keys(spec).map((p, n) => [p, `blob${n}`]));
    const file = join(tempDir(), 'cache');
    const first = FactsCache.load(file, 'test-build');
    const honest = await validateTree(new MemorySource(spec, blobs), { cache: first });
    first.save();
    // W's digest becomes X's.
    const keyOf = (line: string) => {
      const facts = line.split('\t')[2]!;
      return facts.startsWith('{') ? (JSON.parse(facts) as { k: string }).k : facts.split(' ')[0]!;
    };
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = (id: string) => lines.findIndex((l) => l.includes(`${id}.yaml\t`));
    lines[at(W)] = lines[at(W)]!.replace(keyOf(lines[at(W)]!), keyOf(lines[at(X)]!));
    writeFileSync(file, lines.join('\n'));
    const forged = FactsCache.load(file, 'test-build');
    const found = await validateTree(new MemorySource(spec, blobs), { cache: forged });
    expect(forged.hits).toBe(4);
    const brief = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.code} ${d.file}`);
    expect(brief(found.diagnostics)).toStrictEqual(brief(honest.diagnostics));
    expect(brief(found.diagnostics)).toStrictEqual([`shadowed global/${Z}.yaml`, `overrides-text global/${X}.yaml`]);
  });
});

describe('the listing', () => {
  it('is asked for the whole tree, of a source that lists only the top level by default', async () => {
    const source = new MemorySource({ [`global/${A}.yaml`]: inv(A, 'One'), 'notes.txt': 'x' });
    const list = source.list.bind(source);
    source.list = async (_dir, options) => (await list()).filter((e) => options?.recursive === true || !e.path.includes('/'));
    const report = await validateTree(source);
    expect(report.entries.map((e) => e.path)).toStrictEqual(['global', `global/${A}.yaml`, 'notes.txt']);
    expect(report.files).toBe(2);
  });
});

describe('references', () => {
  it("a plan's action of a source config.yaml does not declare: the hint says to declare it", async () => {
    const found = await validateTree(
      new MemorySource({
        [`plans/${P}/plan.yaml`]: `# yaml-language-server: $schema=../../schemas/plan.schema.json\nid: ${P}\naction: acme:ns/name\n`,
      }),
    );
    expect(found.diagnostics.map((d) => [d.code, d.message, d.hint])).toStrictEqual([
      [
        'unknown-action',
        `plan ${P} names action acme:ns/name of the policy source acme, which config.yaml's extends does not declare`,
        'Declare the source in config.yaml (extends), or correct the name.',
      ],
    ]);
  });
});

describe('a project.yaml that does not parse', () => {
  it('is reported as such and left out of the paths checks', async () => {
    const found = await validateTree(
      new MemorySource({
        'projects/api/project.yaml': `${PRML}paths: [\n`,
        'projects/web/project.yaml': project(['web/**']),
      }),
      { repoFiles: async () => ['web/a.ts'] },
    );
    expect(found.diagnostics.map((d) => `${d.code} ${d.file}`)).toStrictEqual(['yaml-syntax projects/api/project.yaml']);
  });
});

describe('near-duplicates of one id used twice', () => {
  it('the warning is on the file listed first, naming the other', async () => {
    const found = await validateTree(
      new MemorySource({
        [`global/${A}.yaml`]: inv(A, 'Rotate keys yearly'),
        [`projects/web/${A}.yaml`]: `# yaml-language-server: $schema=../../schemas/invariant.schema.json\nid: ${A}\ntext: Rotate keys yearly!\n`,
      }),
    );
    expect(found.diagnostics.map((d) => `${d.code} ${d.file} ${d.related?.map((r) => r.file).join()}`)).toStrictEqual([
      `id-reused projects/web/${A}.yaml global/${A}.yaml`,
      `near-duplicate global/${A}.yaml projects/web/${A}.yaml`,
    ]);
  });
});

describe('schema copies', () => {
  it('with a cache, from a source that knows no blob ids: each copy is read and compared', async () => {
    const cache = FactsCache.load(join(tempDir(), 'cache'), 'test-build');
    const found = await validateTree(new MemorySource({ 'schemas/invariant.schema.json': '{}' }), { cache });
    expect(found.diagnostics.map((d) => `${d.file} ${d.message.split(' ')[1]}`).slice(0, 2)).toStrictEqual([
      'schemas/invariant.schema.json differs',
      'schemas/plan.schema.json is',
    ]);
  });
});
