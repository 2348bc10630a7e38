// The command `init --hooks` offers, pasted where it ran, reaches the store given by --store (git runs: the hook
// is written into the repository's hooks folder).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('the next command init --hooks suggests', () => {
  it('reaches, with --hooks, the store whose exports the hook is offered to check', async () => {
    const cwd = tempDir();
    git(cwd, 'init', '-q');
    const store = 'policy store';
    expect((await runAgents(['init', '--store', store, '--actor', 'none'], { cwd })).code).toBe(0);
    writeFileSync(join(cwd, store, 'config.yaml'), 'export:\n  targets: [agents-md]\n');
    const hooked = await runAgents(['--store', store, 'init', '--hooks'], { cwd });
    expect(hooked.code, hooked.stderr).toBe(0);
    const offered = /`agents (init --hooks --export-check[^`]*)`/.exec(hooked.stdout)?.[1];
    expect(offered).toBeDefined();
    const r = await runAgents(shellWords(offered as string), { cwd });
    expect(r.code, r.stderr).toBe(0);
    // The hook now checks the exports of that store, and no other store was made where it was pasted.
    expect(readFileSync(join(cwd, '.git/hooks/pre-commit'), 'utf8')).toContain('export --check');
    expect(existsSync(join(cwd, '.agents'))).toBe(false);
    // --export-check without --hooks is refused with the command to run instead, the store with it.
    const refused = await runAgents(['--store', store, '--format', 'json', 'init', '--export-check'], { cwd });
    expect(refused.code).toBe(2);
    const hint = (JSON.parse(refused.stdout) as { error: { hint: string } }).error.hint;
    expect(shellWords(/`agents ([^`]+)`/.exec(hint)![1]!)).toEqual(['--store', store, 'init', '--hooks', '--export-check']);
  });
});

describe('the commands init --hooks names when it refuses a hook', () => {
  const hintOf = (stdout: string) => (JSON.parse(stdout) as { error: { hint: string } }).error.hint;
  const store = 'policy store';
  const repo = async () => {
    const cwd = tempDir();
    git(cwd, 'init', '-q');
    expect((await runAgents(['init', '--store', store, '--actor', 'none'], { cwd })).code).toBe(0);
    return cwd;
  };

  it("reruns init --hooks on the run's store when the hook cannot be read", async () => {
    const cwd = await repo();
    mkdirSync(join(cwd, '.git/hooks/pre-commit'), { recursive: true });
    const refused = await runAgents(['--store', store, '--format', 'json', 'init', '--hooks'], { cwd });
    expect(refused.code).toBe(2);
    expect(shellWords(/`agents ([^`]+)`/.exec(hintOf(refused.stdout))![1]!)).toEqual(['--store', store, 'init', '--hooks']);
  });

  it('says to add the check of that store, from the top, to a hook of another tool or a shared folder', async () => {
    const cwd = await repo();
    writeFileSync(join(cwd, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const foreign = await runAgents(['--store', store, '--format', 'json', 'init', '--hooks'], { cwd });
    expect(foreign.code).toBe(2);
    expect(shellWords(/`agents ([^`]+)`/.exec(hintOf(foreign.stdout))![1]!)).toEqual(['validate', '--staged', '--store', store]);
    const shared = tempDir();
    git(cwd, 'config', 'core.hooksPath', shared);
    const outside = await runAgents(['--store', store, '--format', 'json', 'init', '--hooks'], { cwd });
    expect(outside.code).toBe(2);
    expect(shellWords(/`agents ([^`]+)`/.exec(hintOf(outside.stdout))![1]!)).toEqual(['validate', '--staged', '--store', store]);
  });
});
