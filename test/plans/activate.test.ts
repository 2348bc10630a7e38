import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { makeReadOnly } from '../helpers/read-only.ts';

describe('plan activate outside a git repository', () => {
  it('has no place to keep a plan (exit 2), and --clear has nothing to clear (exit 0, no plan)', async () => {
    const root = exampleStore();
    const cwd = dirname(root);
    const set = await runAgents(['plan', 'activate', EXAMPLE_PLAN, '--format', 'json'], { cwd });
    expect(set.code).toBe(2);
    const clear = await runAgents(['plan', 'activate', '--clear', '--format', 'json'], { cwd });
    expect(clear.code).toBe(0);
    expect(JSON.parse(clear.stdout)).toEqual({ plan: null, env: null, found: null, matches: [] });
  });
});

describe('plan activate, shown', () => {
  it('names the plan in effect, and warns (exit 1) when the store holds no such plan', async () => {
    const root = exampleStore();
    const repo = dirname(root);
    gitInit(repo);
    const show = async (env: Record<string, string> = {}) => {
      const r = await runAgents(['plan', 'activate', '--format', 'json'], { cwd: repo, env });
      return {
        code: r.code,
        data: JSON.parse(r.stdout) as { plan: string | null; env: string | null; found: boolean | null; matches: string[] },
      };
    };
    expect(await show()).toEqual({ code: 0, data: { plan: null, env: null, found: null, matches: [] } });
    expect((await runAgents(['plan', 'activate', EXAMPLE_PLAN.slice(0, 8)], { cwd: repo })).code).toBe(0);
    expect(await show()).toEqual({ code: 0, data: { plan: EXAMPLE_PLAN, env: null, found: true, matches: [] } });
    // A plan removed, or a file edited by hand: the hook could not check a call.
    mkdirSync(join(repo, '.git/agents'), { recursive: true });
    writeFileSync(join(repo, '.git/agents/active-plan'), 'garbage\n');
    expect(await show()).toEqual({ code: 1, data: { plan: 'garbage', env: null, found: false, matches: [] } });
    // AGENTS_PLAN takes precedence, and is what is looked up.
    expect((await show({ AGENTS_PLAN: EXAMPLE_PLAN })).data.found).toBe(true);
    expect(await show({ AGENTS_PLAN: '01M8ZZZZ' })).toMatchObject({ code: 1, data: { found: false } });
    const text = await runAgents(['plan', 'activate'], { cwd: repo });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^warning: /m);
    // A prefix two plans share names both: ambiguous, with them, never "no plan of the store".
    const twin = `${EXAMPLE_PLAN.slice(0, 25)}Z`;
    mkdirSync(join(root, 'plans', twin));
    writeFileSync(join(root, 'plans', twin, 'plan.yaml'), `id: ${twin}\n`);
    const prefix = EXAMPLE_PLAN.slice(0, 8);
    expect(await show({ AGENTS_PLAN: prefix })).toEqual({
      code: 1,
      data: { plan: 'garbage', env: prefix, found: false, matches: [EXAMPLE_PLAN, twin] },
    });
    const both = await runAgents(['plan', 'activate'], { cwd: repo, env: { AGENTS_PLAN: prefix } });
    expect(both.stdout).not.toContain('names no plan');
    expect(both.stdout).toContain(`\n  ${twin}\n`);
    // The guard hook says the same of it (guard.on_error answers), naming both plans.
    const hookInput = JSON.stringify({
      session_id: 's',
      cwd: repo,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: 'x', content: '' },
    });
    const hook = await runAgents(['guard', 'hook'], { cwd: repo, env: { AGENTS_PLAN: prefix }, input: hookInput });
    expect(hook.code).toBe(2);
    expect(hook.stderr).not.toContain('is not in the store');
    expect(hook.stderr).toContain(twin);
    // A plan the store holds whose plan.yaml is invalid: the file and place to fix, not a plan to replace.
    writeFileSync(join(root, 'plans', twin, 'plan.yaml'), `id: ${twin}\nbogus: 1\n`);
    const invalid = await runAgents(['guard', 'hook'], { cwd: repo, env: { AGENTS_PLAN: twin }, input: hookInput });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).not.toContain('is not in the store');
    const audit = readFileSync(join(repo, '.git/agents/guard-audit.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(audit.at(-1)!).reason).toContain(`plans/${twin}/plan.yaml:2:1`);
    // plan activate reads it as the hook does: shown or made active, it is refused with the file to fix (exit 3).
    for (const args of [
      ['plan', 'activate', twin],
      ['plan', 'activate'],
    ]) {
      const r = await runAgents([...args, '--format', 'json'], { cwd: repo, env: args.length === 2 ? { AGENTS_PLAN: twin } : {} });
      expect(r.code).toBe(3);
      expect(errorOf(r).detail).toMatchObject({ diagnostics: [{ file: `plans/${twin}/plan.yaml`, line: 2 }] });
    }
    expect(readFileSync(join(repo, '.git/agents/active-plan'), 'utf8')).toBe('garbage\n');
  });
});

describe("plan activate where git's folder refuses the file", () => {
  it('a file where .git/agents/ goes: exit 2 write-failed, the file left as it was, for ID and --clear', async () => {
    const root = exampleStore();
    const repo = dirname(root);
    gitInit(repo);
    const blocking = join(repo, '.git/agents');
    writeFileSync(blocking, 'not a folder\n');
    for (const args of [[EXAMPLE_PLAN], ['--clear']]) {
      const r = await runAgents(['plan', 'activate', ...args, '--format', 'json'], { cwd: repo });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe('write-failed');
      expect(readFileSync(blocking, 'utf8')).toBe('not a folder\n');
    }
  });
});

describe('plan activate where .git/agents/ is read-only', () => {
  it('refuses at the lock with the advice to make it writable or set AGENTS_PLAN, detail.path its folder', async (ctx) => {
    const root = exampleStore();
    const repo = dirname(root);
    gitInit(repo);
    const dir = join(repo, '.git/agents');
    mkdirSync(dir);
    const undo = makeReadOnly(dir);
    if (undo === undefined) {
      console.log('skipped: cannot make .git/agents read-only here (needs mount as root)');
      ctx.skip();
      return;
    }
    onTestFinished(undo);
    for (const args of [[EXAMPLE_PLAN], ['--clear']]) {
      const r = await runAgents(['plan', 'activate', ...args, '--format', 'json'], { cwd: repo });
      expect(r.code).toBe(2);
      expect(errorOf(r)).toMatchObject({ code: 'write-failed', detail: { path: dir } });
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});

describe('plan activate in a worktree whose git folder is gone', () => {
  it('is outside git (exit 2): no folder is made where the .git file points, by activate or by a write', async () => {
    const root = exampleStore();
    const repo = dirname(root);
    const gone = join(dirname(repo), `${basename(repo)}-gone`, 'worktrees', 'w');
    writeFileSync(join(repo, '.git'), `gitdir: ${gone}\n`);
    const r = await runAgents(['plan', 'activate', EXAMPLE_PLAN, '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(2);
    const add = await runAgents(['invariant', 'add', '--global', 'Written beside a gone git folder'], { cwd: repo });
    expect(add.code).toBe(0);
    expect(existsSync(dirname(dirname(gone)))).toBe(false);
  });
});
