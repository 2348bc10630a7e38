// A client gives its hook a time (`guard install` writes 30 s) and lets the call through, unlogged, when the hook
// runs past it: the hook bounds its own time and answers by guard.on_error when the store or git is too slow.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hookTimeout } from '../../src/core/guard-bound.ts';
import { main } from '../../src/cli/main.ts';
import { agentsAsync, BIN } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/git.ts';
import { guardedRepo } from '../helpers/guard.ts';
import { tempDir } from '../helpers/tmp.ts';

/** A folder holding a `git` that waits `seconds` before it runs the real one. */
function slowGit(seconds: number): string {
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const dir = tempDir();
  writeFileSync(join(dir, 'git'), `#!/bin/sh\nsleep ${seconds}\nexec ${real} "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
  return dir;
}

const lastAudit = (dir: string) => JSON.parse(readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8').trim().split('\n').at(-1)!);

describe('agents guard hook, a store or git too slow', () => {
  it('answers by guard.on_error within AGENTS_GUARD_TIMEOUT_MS and logs it, never left to the client', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    const input = JSON.stringify({
      session_id: 's1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: 'secrets/key.txt', content: 'x' },
    });
    const env = { PATH: `${slowGit(10)}:${process.env.PATH}`, AGENTS_NO_CACHE: '1', AGENTS_GUARD_TIMEOUT_MS: '1000' };
    const started = Date.now();
    const denied = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input, env });
    expect(Date.now() - started).toBeLessThan(7000);
    expect(denied.code).toBe(2);
    expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny', tool: 'Write' });

    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
    const allowed = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input, env });
    expect(allowed.code).toBe(0);
    expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'allow', tool: 'Write' });
  }, 40_000);

  it('an AGENTS_GUARD_TIMEOUT_MS that is no number is answered by guard.on_error, naming it', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    const input = JSON.stringify({
      session_id: 's1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: 'docs/a.md', content: 'x' },
    });
    const r = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input, env: { AGENTS_GUARD_TIMEOUT_MS: '20s' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AGENTS_GUARD_TIMEOUT_MS="20s"');
    expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny' });
  });
});

/**
 * Starts the hook with standard input that never ends: `through` 'socket' as Node's clients give it, 'pipe' as a
 * shell pipe (a program that keeps writing nothing). Resolves with the hook's exit code and stderr, and how long it ran.
 */
function hookOnOpenInput(dir: string, start: string, through: 'socket' | 'pipe'): Promise<{ code: number; stderr: string; ms: number }> {
  const env = { ...process.env, AGENTS_GUARD_TIMEOUT_MS: '1000', IN: start, BIN };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child =
      through === 'socket'
        ? spawn(process.execPath, [BIN, 'guard', 'hook', '--client', 'claude'], { cwd: dir, env })
        : // The hook's exit code on stderr, said as it ends: the pipe's writer runs on.
          spawn(
            'sh',
            ['-c', `(printf '%s' "$IN"; sleep 30) | { "${process.execPath}" "$BIN" guard hook --client claude; echo "exit=$?" >&2; }`],
            {
              cwd: dir,
              env,
              detached: true,
            },
          );
    let stderr = '';
    const done = (code: number) => {
      clearTimeout(bound);
      if (through === 'pipe') process.kill(-child.pid!, 'SIGKILL');
      resolve({ code, stderr, ms: Date.now() - started });
    };
    const bound = setTimeout(() => {
      if (through === 'pipe') process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      reject(new Error(`the hook still ran after 15 s: ${stderr}`));
    }, 15_000);
    child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      const exit = /exit=(\d+)/.exec(stderr);
      if (exit) done(Number(exit[1]));
    });
    if (through === 'socket') {
      child.stdin!.write(start);
      child.on('exit', (code) => done(code ?? -1));
    }
  });
}

describe('agents guard hook, standard input that does not end', () => {
  it.each(['socket', 'pipe'] as const)(
    'through a %s: answered by guard.on_error within AGENTS_GUARD_TIMEOUT_MS, and logged',
    async (through) => {
      const dir = await guardedRepo({ write: ['secrets/**'] });
      const r = await hookOnOpenInput(dir, '{"session_id":"s1","tool_name":"Write",', through);
      expect(r.ms).toBeLessThan(7000);
      expect(r.code, r.stderr).toBe(2);
      expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny' });

      writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
      const allowed = await hookOnOpenInput(dir, '{', through);
      expect(allowed.ms).toBeLessThan(7000);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'allow' });
    },
    40_000,
  );
});

describe('agents guard hook, a bound below a second', () => {
  it('names the bound as set, in milliseconds, not rounded to 0 s', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    // In this process: standard input left open, so the 1 ms bound ends the read.
    const stdin = new PassThrough();
    stdin.write('{"session_id":"s1",');
    let stderr = '';
    const code = await main(['guard', 'hook', '--client', 'claude'], {
      stdout: { write: () => true },
      stderr: { write: (c: string) => (stderr += c) },
      stdin,
      env: { ...process.env, ...GIT_ENV, AGENTS_GUARD_TIMEOUT_MS: '1' },
      cwd: dir,
    });
    stdin.destroy();
    expect(code, stderr).toBe(2);
    // Whichever part the bound cut (the store's modules or the input), the bound is named as set.
    expect(stderr).toMatch(/within 1 ms \(AGENTS_GUARD_TIMEOUT_MS\)/);
  });
});

describe('agents guard hook, a bound above the time the clients give it', () => {
  it('takes an AGENTS_GUARD_TIMEOUT_MS above 20 s as 20 s, naming the cap, so the client never cuts the hook off first', () => {
    expect(hookTimeout({ AGENTS_GUARD_TIMEOUT_MS: '60000' })).toMatchObject({ ms: 20_000, source: expect.stringContaining('60000') });
    expect(hookTimeout({ AGENTS_GUARD_TIMEOUT_MS: '20000' })).toEqual({ ms: 20_000, source: 'AGENTS_GUARD_TIMEOUT_MS' });
    expect(hookTimeout({ AGENTS_GUARD_TIMEOUT_MS: '1500' })).toEqual({ ms: 1500, source: 'AGENTS_GUARD_TIMEOUT_MS' });
    expect(hookTimeout({}).ms).toBe(20_000);
    // A whole number of ten digits or more is capped too, not answered by guard.on_error as no number.
    const long = hookTimeout({ AGENTS_GUARD_TIMEOUT_MS: '9'.repeat(40) });
    expect(long.ms).toBe(20_000);
    expect(long.problem).toBeUndefined();
  });
});

describe('agents guard hook, one pattern run longer than its bound', () => {
  /** A Write of about 2 MB of prose ending in `end`. */
  const write = (dir: string, end: string) =>
    JSON.stringify({
      session_id: 's1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: 'notes.txt', content: `${'lorem ipsum dolor sit amet consectetur adipiscing\n'.repeat(40_000)}${end}` },
    });

  it('is stopped at the bound in its thread and answered by guard.on_error, logged, not left to the client', async () => {
    // About two minutes in one thread over this text (docs/adr/0607-one-pattern-run-bounded-by-a-worker.md): before,
    // the run held the hook's only thread, and its timer, until the client had let the call through.
    const dir = await guardedRepo({ content: ['((\\w+\\s*){1,30}\\d*){1,30}[xq]{2}'] });
    // The bound need only outlast the hook's start (a few hundred ms): the thread spins until it, twice.
    const env = { AGENTS_GUARD_TIMEOUT_MS: '2000' };
    const denied = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input: write(dir, 'done'), env });
    expect([denied.code, denied.stdout], denied.stderr).toEqual([2, '']);
    expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny', tool: 'Write', threadRuns: 1 });

    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
    const allowed = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input: write(dir, 'done'), env });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'allow', tool: 'Write' });
  }, 60_000);

  it('decides by the thread answer when the run ends in time: a match denies, no match says nothing', async () => {
    // A program of thousands of instructions over 2 MB goes to the thread; its literal start makes the run itself short.
    // The audit line counts the runs made there (`threadRuns`), so the answer is known to be the thread's.
    const dir = await guardedRepo({ content: ['zq(\\w+\\s*){1,300}!'] });
    const denied = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input: write(dir, 'zqabc def!') });
    expect(denied.code, denied.stderr).toBe(0);
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(lastAudit(dir)).toMatchObject({ decision: 'deny', tool: 'Write', threadRuns: 1 });
    const passed = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input: write(dir, 'zqabc def') });
    expect([passed.code, passed.stdout], passed.stderr).toEqual([0, '']);
    expect(lastAudit(dir)).toMatchObject({ decision: 'none', tool: 'Write', threadRuns: 1 });
  }, 60_000);

  it("runs the pattern over a short text in the hook's own thread: a small write starts none", async () => {
    const dir = await guardedRepo({ content: ['zq(\\w+\\s*){1,300}!'] });
    const small = (content: string) =>
      JSON.stringify({
        session_id: 's1',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: 'notes.txt', content },
      });
    const denied = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input: small('lorem zqabc def!') });
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, denied.stderr).toBe('deny');
    expect(lastAudit(dir)).toMatchObject({ decision: 'deny', tool: 'Write' });
    expect(lastAudit(dir)).not.toHaveProperty('threadRuns');
    const passed = await agentsAsync(['guard', 'hook', '--client', 'claude'], { cwd: dir, input: small('lorem zqabc def') });
    expect([passed.code, passed.stdout], passed.stderr).toEqual([0, '']);
    expect(lastAudit(dir)).not.toHaveProperty('threadRuns');
  }, 60_000);
});
