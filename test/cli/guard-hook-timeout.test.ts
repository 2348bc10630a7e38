// A client gives its hook a time (`guard install` writes 30 s) and lets the call through, unlogged, when the hook
// runs past it: the hook bounds its own time and answers by guard.on_error when the store or git is too slow.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsAsync } from '../helpers/cli.ts';
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
