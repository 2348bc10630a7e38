// A cloned repository is someone else's: what it holds must not make `agents` run a program.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

/**
 * A repository whose committed store folder is also a bare git repository (HEAD, config, objects/, refs/
 * as plain files), its config naming a program git runs when it reads the working tree (core.fsmonitor).
 * Returns the repository and the file that program writes.
 */
async function storeHoldingARepository(): Promise<{ repo: string; marker: string }> {
  const dir = tempDir();
  const marker = join(dir, 'ran');
  const program = join(dir, 'program.sh');
  writeFileSync(program, `#!/bin/sh\necho "$@" >> '${marker}'\n`);
  chmodSync(program, 0o755);
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  gitInit(repo);
  expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
  const store = join(repo, '.agents');
  writeFileSync(join(store, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(
    join(store, 'config'),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = ${program}\n[diff]\n\texternal = ${program}\n`,
  );
  for (const folder of ['objects', 'refs/heads', 'refs/tags']) {
    mkdirSync(join(store, folder), { recursive: true });
    writeFileSync(join(store, folder, '.keep'), '');
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'a store that is a repository too');
  return { repo, marker };
}

describe('a store folder that holds a git repository of its own', () => {
  it.each([
    [['validate', '--staged']],
    [['validate', '--changed']],
    [['invariant', 'diff']],
    [['invariant', 'add', '--global', 'Keep it', '--commit']],
  ])('agents %j runs nothing of its config: exit 2, embedded-repository', async (args) => {
    const { repo, marker } = await storeHoldingARepository();
    const r = await runAgents([...args, '--format', 'json'], { cwd: repo });
    expect(existsSync(marker)).toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(errorOf(r).code).toBe('embedded-repository');
    expect(errorOf(r).detail).toEqual({ folder: join(repo, '.agents') });
  });

  it('reading commands that start no git still read the store', async () => {
    const { repo, marker } = await storeHoldingARepository();
    const r = await runAgents(['invariant', 'list', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
