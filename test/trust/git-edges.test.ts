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
