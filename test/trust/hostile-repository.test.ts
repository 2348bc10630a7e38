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

describe('output a GitHub Actions step prints', () => {
  const command = /^[ \t]*::/m;

  it('no line of text or YAML output starts a workflow command, whatever a folder name or a rationale holds', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
    const folder = '::stop-commands::abc';
    mkdirSync(join(repo, folder));
    writeFileSync(join(repo, folder, 'x.ts'), '');
    expect((await runAgents(['project', 'add', 'web', '--path', `${folder}/**`], { cwd: repo })).code).toBe(0);
    const rationale = 'Because\n::error file=README.md::fake\n  ::stop-commands::x';
    const add = await runAgents(['invariant', 'add', '--global', 'Keep logs', '--rationale', rationale, '--format', 'json'], { cwd: repo });
    expect(add.code, add.stderr).toBe(0);
    const id = (JSON.parse(add.stdout) as { id: string }).id;
    expect((await runAgents(['invariant', 'add', '--project', 'web', 'Use strict types'], { cwd: repo })).code).toBe(0);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'a folder named as a workflow command');
    const check = await runAgents(['export', '--check', '--target', 'agents-md'], { cwd: repo });
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toContain('stop-commands');
    expect(check.stdout + check.stderr).not.toMatch(command);
    for (const format of ['text', 'yaml']) {
      const show = await runAgents(['invariant', 'show', id, '--format', format], { cwd: repo });
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toContain('stop-commands');
      expect(show.stdout).not.toMatch(command);
    }
  });
});
