import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { InvariantService, storeWords } from '../../src/service/invariant-service.ts';
import { GitTreeSource } from '../../src/store/git-source.ts';
import { readStore } from '../../src/store/read.ts';
import { WorkingTreeSource, type ReadResult, type TreeEntry, type TreeSource } from '../../src/store/tree-source.ts';
import { commitAll, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir, testStore, writeTree } from '../helpers/tmp.ts';

/** A TreeSource that records every folder it is asked to list and every file it is asked to read. */
class RecordingSource implements TreeSource {
  readonly description = 'recording';
  readonly listed: string[] = [];
  readonly read_: string[] = [];

  constructor(private readonly inner: TreeSource) {}

  list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    this.listed.push(`${dir}${options?.recursive === false ? '' : ' (recursive)'}`);
    return this.inner.list(dir, options);
  }

  read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    this.read_.push(...paths);
    return this.inner.read(paths);
  }
}

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const OTHER_PLAN = '01M8KK5920RS6CGAVDFVYYJ0B5';

/** ULIDs 01M8KJ…000 + n. */
const id = (n: number) => `01M8KJ${String(n).padStart(20, '0')}`;

/** A store with the scopes a project and a plan need, and many that neither needs. */
function bigStore(): string {
  const tree: Record<string, string> = {
    [`global/${id(1)}.yaml`]: invariantYaml(id(1), 'Log all changes'),
    [`projects/myapp/${id(2)}.yaml`]: invariantYaml(id(2), 'All API changes need tests'),
    [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n`,
    [`plans/${PLAN}/${id(3)}.yaml`]: invariantYaml(id(3), 'Use Python 3.13 only'),
    [`plans/${PLAN}/decisions/${id(4)}.yaml`]: `id: ${id(4)}\n`,
    [`plans/${OTHER_PLAN}/plan.yaml`]: `id: ${OTHER_PLAN}\nproject: other-0\n`,
    [`actions/local/code-coverage/${id(5)}.yaml`]: invariantYaml(id(5), 'Minimum 80% coverage'),
  };
  for (let p = 0; p < 30; p++) tree[`projects/other-${p}/${id(100 + p)}.yaml`] = invariantYaml(id(100 + p), `Rule ${p}`);
  return testStore(tree);
}

describe('reading only what a command needs', () => {
  it('list --effective --project P lists and reads projects/P and global only', async () => {
    const source = new RecordingSource(new WorkingTreeSource(bigStore()));
    const service = new InvariantService('', {}, source);
    const result = await service.effective({ project: 'myapp' });
    expect(result.entries.map((e) => e.invariant.id)).toEqual([id(2), id(1)]);
    expect(source.listed.sort()).toEqual(['global', 'projects/myapp']);
    // config.yaml and the lock: does the store extend policy sources (docs/extends.md)? config.yaml's text is looked
    // at, not parsed, when it does not and nothing is pinned.
    expect(source.read_.sort()).toEqual(['config.yaml', 'extends.lock.yaml', `global/${id(1)}.yaml`, `projects/myapp/${id(2)}.yaml`]);
  });

  it('list --effective --plan X reads its plan.yaml, then plans/X, its project and global, not the plan records', async () => {
    const source = new RecordingSource(new WorkingTreeSource(bigStore()));
    const service = new InvariantService('', {}, source);
    const result = await service.effective({ plan: PLAN });
    expect(result.entries.map((e) => e.invariant.id)).toEqual([id(3), id(2), id(1)]);
    expect(new Set(source.listed)).toEqual(new Set([`plans/${PLAN}`, 'projects/myapp', 'global']));
    expect(source.listed.every((l) => !l.includes('recursive'))).toBe(true);
    expect(
      source.read_.filter(
        (p) =>
          p !== 'config.yaml' &&
          p !== 'extends.lock.yaml' &&
          !p.startsWith('global/') &&
          !p.startsWith('projects/myapp/') &&
          !p.startsWith(`plans/${PLAN}/`),
      ),
    ).toEqual([]);
    expect(source.read_).not.toContain(`plans/${PLAN}/decisions/${id(4)}.yaml`);
  });
});

describe('reading a revision', () => {
  it('lists with one git ls-tree and reads every file with one git cat-file --batch process', async () => {
    const repo = tempDir();
    gitInit(repo);
    const store = join(repo, '.agents');
    const tree: Record<string, string> = {};
    for (let n = 0; n < 40; n++) tree[`projects/p${n % 4}/${id(n)}.yaml`] = invariantYaml(id(n), `Rule ${n}`);
    writeTree(store, tree);
    const commit = commitAll(repo, 'store');

    // A `git` first on PATH that logs its arguments, then runs the real one.
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const shim = tempDir();
    const logFile = join(shim, 'calls.log');
    writeFileSync(join(shim, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${logFile}'\nexec '${real}' "$@"\n`);
    chmodSync(join(shim, 'git'), 0o755);
    const oldPath = process.env.PATH;
    process.env.PATH = `${shim}:${oldPath}`;
    onTestFinished(() => {
      process.env.PATH = oldPath;
    });

    const source = await GitTreeSource.revision(store, commit);
    const snapshot = await readStore(source);
    expect(snapshot.invariants).toHaveLength(40);
    expect(snapshot.diagnostics).toEqual([]);
    const calls = readFileSync(logFile, 'utf8').trim().split('\n');
    expect(calls.filter((c) => c.startsWith('cat-file'))).toEqual(['cat-file --batch']);
    expect(calls.filter((c) => c.startsWith('ls-tree'))).toHaveLength(1);
    // Nothing else runs a process per file.
    expect(calls.length).toBeLessThanOrEqual(5);
  });

  it('completes ids, plans and projects in a store of 10,000 invariants from listings, reading no file', async () => {
    const tree: Record<string, string> = { [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n` };
    for (let n = 0; n < 10_000; n++) {
      const scope = n % 3 === 0 ? 'global' : n % 3 === 1 ? 'projects/myapp' : `plans/${PLAN}`;
      tree[`${scope}/${id(10_000 + n)}.yaml`] = invariantYaml(id(10_000 + n), `Rule ${n}`);
    }
    const source = new RecordingSource(new WorkingTreeSource(testStore(tree)));
    expect(await storeWords(source, 'invariant')).toHaveLength(10_000);
    expect(await storeWords(source, 'plan')).toEqual([PLAN]);
    expect(await storeWords(source, 'project')).toEqual(['myapp']);
    expect(source.read_).toEqual([]);
    // A listing per kind of name, never one per file.
    expect(source.listed.length).toBeLessThanOrEqual(10);
  });
});
