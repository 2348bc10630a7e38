// A merge that conflicts on a store file, made by git itself: the conflict is
// reported as what it is (`merge-conflict`) by every reader of the working
// tree and of the index, and no stage of it passes for what is staged.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorOf, runAgents } from '../helpers/main.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

const G = '01JG1000000000000000000000';
const FILE = `global/${G}.yaml`;

type Diagnostics = { diagnostics: { code: string; file: string; line: number; col: number }[] };

/**
 * A repository whose merge of branch feature conflicts on FILE, left unresolved; `warm`: the validation cache
 * knows the merge base's blob, the stage git lists first.
 */
async function conflicted(warm = false): Promise<string> {
  const repo = tempDir('agents-conflict-');
  gitInit(repo);
  writeTree(join(repo, '.agents'), { 'projects/': null, 'plans/': null, [FILE]: invariantYaml(G, 'Never delete production data') });
  commitAll(repo, 'base');
  if (warm) expect((await runAgents(['validate', '--staged', '--all-files'], { cwd: repo })).code).toBe(0);
  git(repo, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(repo, '.agents', FILE), invariantYaml(G, 'Never delete production data or backups'));
  commitAll(repo, 'theirs');
  git(repo, 'checkout', '-q', 'main');
  writeFileSync(join(repo, '.agents', FILE), invariantYaml(G, 'Never drop production data'));
  commitAll(repo, 'ours');
  expect(() => git(repo, 'merge', '-q', 'feature')).toThrow();
  expect(git(repo, 'status', '--porcelain')).toBe(`UU .agents/${FILE}\n`);
  return repo;
}

describe('a store file a merge left in conflict', () => {
  it('in the working tree: one merge-conflict error at the first marker line; the listing stops on it', async () => {
    const repo = await conflicted();
    const r = await runAgents(['validate', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as Diagnostics;
    expect(out.diagnostics.map((d) => [d.code, d.file, d.line, d.col])).toEqual([['merge-conflict', FILE, 2, 1]]);
    const list = await runAgents(['invariant', 'list', '--format', 'json'], { cwd: repo });
    expect(list.code).toBe(3);
    expect(errorOf(list).code).toBe('invalid-store');
    expect(list.stdout).toContain('merge-conflict');
  });

  it('in the index: validate --staged (with a cache that knows the merge base) and invariant diff --staged refuse it instead of taking one of its stages; once resolved, both take the file', async () => {
    const repo = await conflicted(true);
    for (const round of ['first', 'second']) {
      const r = await runAgents(['validate', '--staged', '--all-files', '--format', 'json'], { cwd: repo });
      expect(r.code, round).toBe(1);
      const out = JSON.parse(r.stdout) as Diagnostics;
      expect(
        out.diagnostics.map((d) => [d.code, d.file]),
        round,
      ).toEqual([['merge-conflict', FILE]]);
    }
    const diff = await runAgents(['invariant', 'diff', '--staged', '--format', 'json'], { cwd: repo });
    expect(diff.code).toBe(3);
    expect(diff.stdout).toContain('merge-conflict');
    // The merge base's text is not shown as what is staged.
    expect(diff.stdout).not.toContain('Never delete production data');

    writeFileSync(join(repo, '.agents', FILE), invariantYaml(G, 'Never drop production data or backups'));
    git(repo, 'add', '-A');
    expect((await runAgents(['validate', '--staged', '--all-files'], { cwd: repo })).code).toBe(0);
    const resolved = await runAgents(['invariant', 'diff', '--staged', '--format', 'json'], { cwd: repo });
    expect(resolved.code).toBe(0);
    expect(resolved.stdout).toContain('Never drop production data or backups');
  });
});
