import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseCache, parseCacheOf } from '../../src/store/parse-cache.ts';
import { readProjects } from '../../src/store/projects.ts';
import { readFolders, readStore } from '../../src/store/read.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { recordReads } from '../helpers/reads.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const G1 = '01JAAAAAAAAAAAAAAAAAAAAAA1';
const G2 = '01JAAAAAAAAAAAAAAAAAAAAAA2';
const G3 = '01JAAAAAAAAAAAAAAAAAAAAAA3';
const P1 = '01JAAAAAAAAAAAAAAAAAAAAAB1';
const T1 = '01JAAAAAAAAAAAAAAAAAAAAAC1';
const PLAN = '01JAAAAAAAAAAAAAAAAAAAAAD1';
const I1 = '01JAAAAAAAAAAAAAAAAAAAAAE1';

/** A store with every kind of record the cache keeps, good and bad. */
function store(): string {
  return testStore({
    'config.yaml': 'version: 1\n',
    [`global/${G1}.yaml`]: invariantYaml(G1, 'Never delete production data', {
      severity: 'error',
      tags: '[data, safety]',
      rationale: '"It cannot be restored."',
      guard: '\n  write: ["db/**"]',
    }),
    [`global/${G2}.yaml`]: 'id: [unclosed\n',
    [`global/${G3}.yaml`]: invariantYaml(G3, 'Keep the changelog', { severity: 'warning' }),
    'projects/api/project.yaml': 'description: The API\npaths: ["services/api/**"]\n',
    [`projects/api/${P1}.yaml`]: invariantYaml(P1, 'Version every endpoint'),
    'projects/web/project.yaml': 'paths: 7\n',
    'actions/ops/deploy/action.yaml': 'description: Ship it\n',
    [`actions/ops/deploy/${T1}.yaml`]: invariantYaml(T1, 'Announce the deploy'),
    [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: api\ngoal: Ship v2\n`,
    [`plans/${PLAN}/${I1}.yaml`]: invariantYaml(I1, 'Keep v1 working', {
      source: `\n  kind: action\n  ref: ops/deploy\n  origin_id: ${T1}`,
    }),
  });
}

/** A working tree whose files all count as settled, with a cache under `dir`, and the paths it read. */
function cached(root: string, dir: string, build = 'b1') {
  return recordReads(new WorkingTreeSource(root, { parseCache: new ParseCache(dir, build), now: () => Date.now() + 60_000 }));
}

describe('the parse cache (src/store/parse-cache.ts)', () => {
  it('answers a second read of the store with the very snapshot a fresh read gives, reading no record again', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    const fresh = await readStore(new WorkingTreeSource(root));
    // The store's problems are in it: a parse cache keeps them with the values.
    expect(fresh.diagnostics.map((d) => [d.file, d.code])).toEqual(
      expect.arrayContaining([
        [`global/${G2}.yaml`, 'yaml-syntax'],
        ['projects/web/project.yaml', 'schema'],
      ]),
    );
    const first = cached(root, dir);
    expect(await readStore(first.source)).toStrictEqual(fresh);
    const second = cached(root, dir);
    const again = await readStore(second.source);
    expect(again).toStrictEqual(fresh);
    // Only config.yaml, which is one file and not kept, is read again.
    expect(second.read).toEqual(['config.yaml']);
    // The folder's one scope object, as a fresh read shares it.
    const globals = again.invariants.filter((i) => i.scope.kind === 'global');
    expect(globals.length).toBe(2);
    expect(globals[0]!.scope).toBe(globals[1]!.scope);
  });

  it('lets go of each group once its files are answered, and answers a second read in the same process from the files', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    const fresh = await readStore(new WorkingTreeSource(root));
    const cache = new ParseCache(dir, 'b1');
    const one = recordReads(new WorkingTreeSource(root, { parseCache: cache, now: () => Date.now() + 60_000 }));
    expect(await readStore(one.source)).toStrictEqual(fresh);
    // Written as each group was done, before the read returned: a group's entries are not kept in memory to the end.
    const written = readdirSync(dir).length;
    expect(written).toBeGreaterThan(1);
    one.read.length = 0;
    // The same cache object, its groups let go: read again from their files, no record parsed afresh.
    expect(await readStore(one.source)).toStrictEqual(fresh);
    expect(one.read).toEqual(['config.yaml']);
    expect(readdirSync(dir).length).toBe(written);
    // Nothing of them stays in memory: with the files gone, the records are read again.
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    one.read.length = 0;
    expect(await readStore(one.source)).toStrictEqual(fresh);
    expect(one.read).toContain(`global/${G1}.yaml`);
  });

  it('answers readProjects from one group of every project.yaml, the same as a fresh read', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    const fresh = await readProjects(new WorkingTreeSource(root));
    expect(fresh.meta.get('api')).toEqual({ description: 'The API', paths: ['services/api/**'] });
    expect(await readProjects(cached(root, dir).source)).toStrictEqual(fresh);
    const second = cached(root, dir);
    expect(await readProjects(second.source)).toStrictEqual(fresh);
    expect(second.read).toEqual([]);
    expect(readdirSync(dir).length).toBe(1);
  });

  it('parses a file again once its stamp changes: new content, or the same length written at another time', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    const file = join(root, 'global', `${G1}.yaml`);
    await readFolders(cached(root, dir).source, ['global']);
    writeFileSync(file, invariantYaml(G1, 'Never drop production tables'));
    let next = cached(root, dir);
    let snap = await readFolders(next.source, ['global']);
    expect(next.read).toEqual([`global/${G1}.yaml`]);
    expect(snap.invariants.find((i) => i.id === G1)?.text).toBe('Never drop production tables');
    // Same length, other letters: the size is the same, the times are not.
    writeFileSync(file, invariantYaml(G1, 'Never drop production columns'.slice(0, 'Never drop production tables'.length)));
    utimesSync(file, new Date(2001, 0, 1), new Date(2001, 0, 1));
    next = cached(root, dir);
    snap = await readFolders(next.source, ['global']);
    expect(next.read).toEqual([`global/${G1}.yaml`]);
    expect(snap.invariants.find((i) => i.id === G1)?.text).toBe('Never drop production column');
  });

  it('never answers a file that is not settled yet: it is read every time and kept for no one', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    for (let run = 0; run < 2; run++) {
      // The real clock: every file was written just now.
      const { source, read } = recordReads(new WorkingTreeSource(root, { parseCache: new ParseCache(dir, 'b1') }));
      await readFolders(source, ['global']);
      expect(read).toEqual([`global/${G1}.yaml`, `global/${G2}.yaml`, `global/${G3}.yaml`]);
    }
  });

  it('reports a file below a folder swapped for a link as a link, though its stamp is the one the cache kept', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    expect((await readProjects(cached(root, dir).source, ['api'])).meta.has('api')).toBe(true);
    // The same files (same inodes, sizes and times), now reached through a link.
    const outside = join(tempDir(), 'api');
    renameSync(join(root, 'projects', 'api'), outside);
    symlinkSync(outside, join(root, 'projects', 'api'));
    const read = await readProjects(cached(root, dir).source, ['api']);
    expect(read.meta.has('api')).toBe(false);
    expect(read.diagnostics.map((d) => [d.file, d.code])).toEqual([['projects/api/project.yaml', 'symlink']]);
  });

  it('takes the link check of the project folders a read of every project.yaml listed from that listing', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    expect([...(await readProjects(cached(root, dir).source)).meta.keys()]).toEqual(['api']);
    const outside = join(tempDir(), 'api');
    renameSync(join(root, 'projects', 'api'), outside);
    symlinkSync(outside, join(root, 'projects', 'api'));
    // The listing sees the link: never a project, its stamp never asked for.
    const read = await readProjects(cached(root, dir).source);
    expect(read.names).toEqual(['web']);
    expect(read.diagnostics.map((d) => [d.file, d.code])).toEqual(expect.arrayContaining([['projects/api', 'symlink']]));
    // A folder named as listed is not looked at again; one not named is.
    const source = new WorkingTreeSource(root, { now: () => Date.now() + 60_000 });
    expect(source.stamps(['projects/api/project.yaml'])).toEqual([undefined]);
    expect(source.stamps(['projects/api/project.yaml'], ['projects', 'projects/api'])[0]).toMatch(/^[0-9a-z]+\./);
  });

  it('ignores a damaged cache file, or one of another build, and writes it again whole', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    const fresh = await readFolders(new WorkingTreeSource(root), ['global']);
    await readFolders(cached(root, dir).source, ['global']);
    const [name] = readdirSync(dir);
    const file = join(dir, name!);
    const good = readFileSync(file, 'utf8');
    const lines = good.split('\n');
    for (const damaged of [
      'not a cache\n',
      `${lines[0]!.replace('\tb1\t', '\tb0\t')}\n${lines.slice(1).join('\n')}`,
      // Every entry's JSON cut short.
      lines.map((l, i) => (i === 0 ? l : l.slice(0, -5))).join('\n'),
      good.slice(0, Math.floor(good.length / 2)),
    ]) {
      writeFileSync(file, damaged);
      const next = cached(root, dir);
      expect(await readFolders(next.source, ['global'])).toStrictEqual(fresh);
      expect(next.read.length).toBeGreaterThan(0);
      expect(readFileSync(file, 'utf8')).toBe(good);
    }
    // Another build parses differently: nothing of this one's is used.
    const other = cached(root, dir, 'b2');
    await readFolders(other.source, ['global']);
    expect(other.read.length).toBe(3);
  });

  it('parses a file again when its entry was edited out of the shape its parser gives, and writes the entry again', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    const folders = ['global', 'projects/api', 'projects/web', 'actions/ops/deploy', `plans/${PLAN}`];
    const fresh = await readFolders(new WorkingTreeSource(root), folders);
    const freshProjects = await readProjects(new WorkingTreeSource(root));
    await readFolders(cached(root, dir).source, folders);
    await readProjects(cached(root, dir).source);
    const files = readdirSync(dir).map((n) => join(dir, n));
    const kept = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
    type Entry = { value?: Record<string, unknown>; diagnostics: Record<string, unknown>[] };
    const damages: [string, (e: Entry) => unknown][] = [
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, text: 5 } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, tags: 'data' } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, severity: 'fatal' } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, guard: { write: 'db/**' } } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, id: G3 } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, active: undefined } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: { ...e.value, extra: 1 } })],
      [`global/${G1}.yaml`, (e) => ({ ...e, value: [e.value] })],
      [`global/${G1}.yaml`, (e) => [e]],
      [`global/${G2}.yaml`, (e) => ({ ...e, diagnostics: [{ ...e.diagnostics[0], message: 5 }] })],
      [`global/${G2}.yaml`, (e) => ({ ...e, diagnostics: [{ ...e.diagnostics[0], line: undefined }] })],
      [`global/${G2}.yaml`, (e) => ({ ...e, diagnostics: {} })],
      [`plans/${PLAN}/${I1}.yaml`, (e) => ({ ...e, value: { ...e.value, source: { kind: 'action', ref: 7 } } })],
      [`plans/${PLAN}/plan.yaml`, (e) => ({ ...e, value: { ...e.value, goal: ['Ship v2'] } })],
      ['actions/ops/deploy/action.yaml', (e) => ({ ...e, value: { description: null } })],
      ['projects/api/project.yaml', (e) => ({ ...e, value: { ...e.value, paths: 'services/api/**' } })],
    ];
    for (const [path, damage] of damages) {
      for (const [f, text] of kept)
        writeFileSync(
          f,
          text
            .split('\n')
            .map((line) => {
              const [key, stamp, json] = line.split('\t');
              return key === path ? `${key}\t${stamp}\t${JSON.stringify(damage(JSON.parse(json!) as Entry))}` : line;
            })
            .join('\n'),
        );
      const next = cached(root, dir);
      expect(await readFolders(next.source, folders)).toStrictEqual(fresh);
      expect(next.read).toEqual([path]);
      const projects = cached(root, dir);
      expect(await readProjects(projects.source)).toStrictEqual(freshProjects);
      expect(projects.read).toEqual(path === 'projects/api/project.yaml' ? [path] : []);
      // The entry parsed again is kept again: the cache is as it was.
      for (const [f, text] of kept) expect(readFileSync(f, 'utf8')).toBe(text);
    }
  });

  it('drops the entries of deleted files when a group is written again, and keeps those of files it did not read', async () => {
    const root = store();
    const dir = join(tempDir(), 'parsed');
    await readProjects(cached(root, dir).source);
    const [name] = readdirSync(dir);
    const keys = () =>
      readFileSync(join(dir, name!), 'utf8')
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split('\t')[0]);
    expect(keys()).toEqual(['projects/api/project.yaml', 'projects/web/project.yaml']);
    // A read of one project that learns something keeps the other's entry (its file is still there).
    writeFileSync(join(root, 'projects', 'api', 'project.yaml'), 'paths: ["services/api/**", "libs/api/**"]\n');
    await readProjects(cached(root, dir).source, ['api']);
    expect(keys()).toEqual(['projects/api/project.yaml', 'projects/web/project.yaml']);
    // web's project.yaml is gone: the next write of the group leaves it out.
    writeFileSync(join(root, 'projects', 'web', 'project.yaml'), '');
    renameSync(join(root, 'projects', 'web', 'project.yaml'), join(tempDir(), 'gone.yaml'));
    writeFileSync(join(root, 'projects', 'api', 'project.yaml'), 'paths: ["services/api/**"]\n');
    await readProjects(cached(root, dir).source, ['api']);
    expect(keys()).toEqual(['projects/api/project.yaml']);
  });

  it('lives in the git folder of the repository holding the store, and nowhere outside one', () => {
    const outside = testStore();
    expect(parseCacheOf(outside, 'b1')).toBeUndefined();
    const top = tempDir();
    mkdirSync(join(top, '.git'));
    writeFileSync(join(top, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(top, '.git', 'objects'));
    mkdirSync(join(top, '.git', 'refs'));
    mkdirSync(join(top, '.agents'));
    expect(parseCacheOf(join(top, '.agents'), 'b1')?.dir).toBe(join(top, '.git', 'agents', 'parsed'));
  });
});
