// Git and export edges (issue 30, E).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('init --hooks and core.hooksPath', () => {
  it('refuses a hooks folder outside the repository (a global core.hooksPath): exit 2, nothing written', async () => {
    const dir = tempDir();
    const shared = join(dir, 'githooks');
    mkdirSync(shared);
    const globalConfig = join(dir, 'gitconfig');
    writeFileSync(globalConfig, `[core]\n\thooksPath = ${shared}\n`);
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    gitInit(repo);
    const r = await runAgents(['init', '--hooks', '--format', 'json'], { cwd: repo, env: { GIT_CONFIG_GLOBAL: globalConfig } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('hooks-outside-repository');
    expect(readdirSync(shared)).toEqual([]);
    expect(existsSync(join(repo, '.agents'))).toBe(false);
  });

  it('installs into a hooks folder inside the repository (core.hooksPath .githooks)', async () => {
    const repo = tempDir();
    gitInit(repo);
    git(repo, 'config', 'core.hooksPath', '.githooks');
    mkdirSync(join(repo, '.githooks'));
    const r = await runAgents(['init', '--hooks'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(repo, '.githooks/pre-commit'))).toBe(true);
  });
});

describe('reserved project names', () => {
  it.each(['global', 'plans', 'inherited'])(
    'project %s is refused by project add and invariant add (exit 2), and is a bad-name in validate',
    async (name) => {
      const repo = tempDir();
      gitInit(repo);
      expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
      const add = await runAgents(['project', 'add', name], { cwd: repo });
      expect(add.code).toBe(2);
      expect(existsSync(join(repo, '.agents/projects', name))).toBe(false);
      expect((await runAgents(['invariant', 'add', '--project', name, 'Keep it'], { cwd: repo })).code).toBe(2);
      mkdirSync(join(repo, '.agents/projects', name));
      const id = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
      writeFileSync(join(repo, '.agents/projects', name, `${id}.yaml`), `id: ${id}\ntext: Keep it\n`);
      const v = await runAgents(['validate', '--format', 'json'], { cwd: repo });
      expect(v.code).toBe(1);
      expect(JSON.parse(v.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('bad-name');
    },
  );
});
