import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { git, GIT_ENV } from '../helpers/git.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';
import { B1, exportedRepo, inv } from './repo.ts';
import { errorOf, runAgents } from '../helpers/main.ts';

// The real pre-commit framework's test of the agents-export-check hook is in test/validate/hooks.test.ts,
// beside the agents-validate one: both share one hook environment, which takes minutes to build.

describe('the plain git hook with --export-check', () => {
  it('blocks a commit while the exported files are stale, and passes once exported', async () => {
    const repo = await exportedRepo();
    const init = await runAgents(['init', '--hooks', '--export-check'], { cwd: repo });
    expect(init.code).toBe(0);
    expect(readFileSync(join(repo, '.git/hooks/pre-commit'), 'utf8')).toContain('exec "$AGENTS" export --check');
    const bin = tempDir();
    spawnSync('ln', ['-s', join(REPO, 'bin/agents.js'), join(bin, 'agents')]);
    const env = { ...process.env, ...GIT_ENV, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' };
    writeFileSync(join(repo, `.agents/projects/billing/${B1}.yaml`), inv(B1, 'Amounts are integers of cents, always'));
    git(repo, 'add', '-A');
    const blocked = spawnSync('git', ['commit', '-m', 'stale'], { cwd: repo, env, encoding: 'utf8' });
    expect(blocked.stdout + blocked.stderr).toContain('services/billing/AGENTS.md: out of date');
    expect(blocked.status).toBe(1);
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    git(repo, 'add', '-A');
    const passed = spawnSync('git', ['commit', '-m', 'exported'], { cwd: repo, env, encoding: 'utf8' });
    expect(passed.status).toBe(0);
    // The hook is every branch's: where there is no store (here the commit that removes it), it passes, as validate does.
    git(repo, 'rm', '-rq', '.agents');
    const removed = spawnSync('git', ['commit', '-m', 'remove the store'], { cwd: repo, env, encoding: 'utf8' });
    expect(removed.stdout + removed.stderr).not.toContain('no store found');
    expect(removed.status).toBe(0);
    // So does export --check itself, as the pre-commit framework's agents-export-check hook and the workflow run it.
    const check = await runAgents(['export', '--check', '--format', 'json'], { cwd: repo });
    expect([check.code, JSON.parse(check.stdout)]).toEqual([0, { ok: true, files: [], up_to_date: 0 }]);
    // A store the index still holds, its folder gone from the working tree, is not a removal: exit 2 as validate --staged.
    git(repo, 'checkout', 'HEAD~1', '--', '.agents');
    rmSync(join(repo, '.agents'), { recursive: true });
    expect((await runAgents(['export', '--check'], { cwd: repo })).code).toBe(2);
  });

  it('a --commit the hook refuses for stale exports names them in its error, and a refusal of another hook names none', async () => {
    const repo = await exportedRepo();
    expect((await runAgents(['init', '--hooks', '--export-check'], { cwd: repo })).code).toBe(0);
    // The hook runs the repository's own agents first: a stand-in whose export check fails, as the real one would here.
    writeTree(repo, { 'node_modules/.bin/agents': '#!/bin/sh\n[ "$1" = export ] && exit 1\nexit 0\n' });
    chmodSync(join(repo, 'node_modules/.bin/agents'), 0o755);
    const add = ['--format', 'json', 'invariant', 'add', '--project', 'billing', 'Refunds are idempotent', '--commit'];
    const refused = errorOf(await runAgents(add, { cwd: repo }));
    expect(refused.exit_code).toBe(1);
    expect(refused.detail).toMatchObject({ staged: true, exports: ['services/billing/AGENTS.md'] });
    // The command its hint gives, run where the --commit was (a folder below the top), commits the change: its paths
    // are the top's. A stand-in that passes stands for the export done and checked.
    git(repo, 'reset', '-q');
    const below = join(repo, 'services/billing');
    const fromBelow = await runAgents([...add.slice(0, -2), 'Refunds are logged', '--commit'], { cwd: below });
    const hint = (JSON.parse(fromBelow.stdout) as { error: { hint: string } }).error.hint;
    writeTree(repo, { 'node_modules/.bin/agents': '#!/bin/sh\nexit 0\n' });
    const env = { ...process.env, ...GIT_ENV, PATH: `${join(repo, 'node_modules/.bin')}:${process.env.PATH}` };
    const ran = spawnSync('sh', ['-c', /`([^`]+)`\.$/.exec(hint)![1]!], { cwd: below, env, encoding: 'utf8' });
    expect([ran.status, ran.stderr]).toEqual([0, '']);
    expect(git(repo, 'show', '--format=', '--name-only', 'HEAD')).toContain('.agents/projects/billing/');
    writeTree(repo, { 'node_modules/.bin/agents': '#!/bin/sh\n[ "$1" = export ] && exit 1\nexit 0\n' });
    // A hook without the export check refuses for reasons of its own: no exported file is blamed.
    git(repo, 'reset', '-q');
    expect((await runAgents(['init', '--hooks', '--no-export-check'], { cwd: repo })).code).toBe(0);
    const other = errorOf(await runAgents(add, { cwd: repo }));
    expect(other.exit_code).toBe(1);
    expect(other.detail).not.toHaveProperty('exports');
  });

  it('init --hooks offers the export check when the store exports', async () => {
    const repo = await exportedRepo();
    const r = await runAgents(['init', '--hooks'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('`agents init --hooks --export-check` also checks they are up to date');
    expect(readFileSync(join(repo, '.git/hooks/pre-commit'), 'utf8')).not.toContain('export --check');
    expect((await runAgents(['init', '--export-check'], { cwd: repo })).code).toBe(2);
  });

  it('init --hooks again keeps the export check an installed hook has; --no-export-check takes it out', async () => {
    const repo = await exportedRepo();
    const hook = () => readFileSync(join(repo, '.git/hooks/pre-commit'), 'utf8');
    expect((await runAgents(['init', '--hooks', '--export-check'], { cwd: repo })).code).toBe(0);
    const again = await runAgents(['--format', 'json', 'init', '--hooks'], { cwd: repo });
    expect(JSON.parse(again.stdout).hook).toMatchObject({ action: 'unchanged', export_check: true });
    expect(hook()).toContain('export --check');
    const off = await runAgents(['--format', 'json', 'init', '--hooks', '--no-export-check'], { cwd: repo });
    expect(JSON.parse(off.stdout).hook).toMatchObject({ action: 'updated', export_check: false });
    expect(hook()).not.toContain('export --check');
  });
});
