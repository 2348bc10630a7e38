import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { hasUnsafe } from '../../src/core/plain-text.ts';
import { gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

const INV = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';

/** A repository whose store has one global error invariant with `guard` (YAML lines under `guard:`). */
async function repo(guard: string[], config?: string): Promise<string> {
  const dir = tempDir();
  gitInit(dir);
  expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
  writeFileSync(
    join(dir, '.agents/global', `${INV}.yaml`),
    [`id: ${INV}`, 'text: A guarded rule', 'severity: error', 'guard:', ...guard.map((l) => `  ${l}`), ''].join('\n'),
  );
  if (config !== undefined) writeFileSync(join(dir, '.agents/config.yaml'), config);
  return dir;
}

const claude = (dir: string, tool: string, input: unknown) =>
  JSON.stringify({ session_id: 's1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });

/** The hook's decision for one input: deny, ask, or none (no answer). */
async function decision(dir: string, input: string): Promise<string> {
  const r = await runAgents(['guard', 'hook'], { cwd: dir, input });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
}

const MiB = 1 << 20;

describe('agents guard hook, content over 1 MiB', () => {
  it('is matched as one text: no false block at a MiB edge, and a key across it is seen', async () => {
    const dir = await repo(['content: ["exit 1$", "(?s)-----BEGIN PRIVATE KEY-----.*-----END PRIVATE KEY-----"]']);
    const write = (content: string) => claude(dir, 'Write', { file_path: 'gen.sh', content });
    expect(await decision(dir, write(`${'#'.repeat(MiB - 6)}exit 1\necho done\n`))).toBe('none');
    const key = `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(6000)}\n-----END PRIVATE KEY-----\n`;
    expect(await decision(dir, write(`${'#'.repeat(MiB - 5000)}${key}`))).toBe('deny');
  });
});

describe("agents guard hook, the MCP filesystem server's edit_file", () => {
  it('meets the content guards with its new text, as a write of the same text does', async () => {
    const dir = await repo(['content: ["AKIA[0-9A-Z]{16}"]']);
    const edit = { path: 'notes.md', edits: [{ oldText: 'x', newText: 'aws_key=AKIAABCDEFGHIJKLMNOP' }] };
    expect(await decision(dir, claude(dir, 'mcp__filesystem__edit_file', edit))).toBe('deny');
    expect(
      await decision(
        dir,
        claude(dir, 'mcp__filesystem__edit_file', { path: 'notes.md', edits: [{ oldText: 'AKIAABCDEFGHIJKLMNOP', newText: '' }] }),
      ),
    ).toBe('none');
  });
});

describe('agents guard hook, a command as an argv array', () => {
  it('meets the command guards as the same command in a string does', async () => {
    const dir = await repo(['command: ["\\\\bterraform\\\\s+apply\\\\b"]']);
    for (const tool of ['shell', 'local_shell', 'Bash']) {
      const input = JSON.stringify({
        session_id: 's1',
        turn_id: 't1',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: tool,
        tool_input: { command: ['bash', '-lc', 'terraform apply'] },
      });
      expect(await decision(dir, input), tool).toBe('deny');
    }
    expect(await decision(dir, claude(dir, 'shell', { command: ['bash', '-lc', 'terraform plan'] }))).toBe('none');
  });
});

/** The audit log's entries. */
function audit(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('agents guard hook, calls answered by guard.on_error', () => {
  it('are logged too, with the answer and the reason: an unknown active plan, input that is not JSON, a broken store', async () => {
    const dir = await repo(['write: ["secrets/**"]'], 'version: 1\nguard:\n  on_error: allow\n');
    const bash = claude(dir, 'Bash', { command: 'ls' });
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input: bash })).code).toBe(0);
    const unknownPlan = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: claude(dir, 'Bash', { command: 'rm -rf secrets' }),
      env: { AGENTS_PLAN: 'NOPE' },
    });
    expect(unknownPlan.code).toBe(0);
    expect(unknownPlan.stderr).not.toBe('');
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input: 'garbage\n' })).code).toBe(0);
    const log = audit(dir);
    expect(log).toHaveLength(3);
    expect(log[0]).toMatchObject({ decision: 'none', tool: 'Bash' });
    expect(log[1]).toMatchObject({ decision: 'error', answer: 'allow', client: 'claude', tool: 'Bash', session: 's1' });
    expect(log[1]!.reason).toEqual(expect.stringContaining('NOPE'));
    expect(log[2]).toMatchObject({ decision: 'error', answer: 'allow' });
    expect(log[2]!.tool).toBeUndefined();
    // Under deny (the default), a store that cannot be read.
    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\n');
    writeFileSync(join(dir, '.agents/global/01JGGEBWJTQ6P08NTXZQ7TKM3R.yaml'), 'id: [unclosed\n');
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input: bash })).code).toBe(2);
    expect(audit(dir)[3]).toMatchObject({ decision: 'error', answer: 'deny', tool: 'Bash' });
  });
});

describe('agents guard hook, empty input', () => {
  it('is answered by guard.on_error in every client, as any unreadable input is, and logged', async () => {
    const dir = await repo(['write: ["secrets/**"]']);
    for (const client of ['claude', 'codex', 'gemini', 'cursor']) {
      for (const input of ['', '\n']) {
        const r = await runAgents(['guard', 'hook', '--client', client], { cwd: dir, input });
        expect(r.code, client).toBe(2);
        expect(r.stdout, client).toBe('');
        expect(r.stderr.trimEnd().split('\n'), client).toHaveLength(1);
        // Said as empty, not by the JSON parser's words for a text cut short.
        expect(r.stderr, client).toContain('the hook input is empty');
      }
    }
    expect(audit(dir).map((e) => [e.decision, e.answer])).toEqual(Array(8).fill(['error', 'deny']));
    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
    for (const client of ['claude', 'codex', 'gemini', 'cursor']) {
      const r = await runAgents(['guard', 'hook', '--client', client], { cwd: dir, input: '' });
      expect([r.code, r.stdout], client).toEqual([0, '']);
    }
    expect(
      audit(dir)
        .slice(8)
        .map((e) => e.answer),
    ).toEqual(Array(4).fill('allow'));
  });
});

describe('agents guard hook, the reason when it cannot decide', () => {
  it('is one line that keeps what is wrong, not the first line of a longer message', async () => {
    const dir = await repo(['write: ["secrets/**"]'], 'version: 1\nguard:\n  on_error: maybe\n');
    const r = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Bash', { command: 'ls' }) });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    // The problem's own words (the key and the value refused), not only its place.
    expect(r.stderr).toContain('on_error');
    expect(r.stderr).toContain('config.yaml:3:13');
    const json = await runAgents(['guard', 'hook'], { cwd: dir, input: 'garbage\n' });
    expect(json.code).toBe(2);
    expect(json.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(json.stderr).toMatch(/"garbage\s*"/);
    // The input the message quotes is escaped: its escape sequences do not reach the person's terminal.
    const hostile = await runAgents(['guard', 'hook'], { cwd: dir, input: '\u001b[2J\u001b]0;x\u0007garbage' });
    expect(hostile.code).toBe(2);
    expect(hasUnsafe(hostile.stderr.trimEnd()), hostile.stderr).toBe(false);
  });

  it('names the first problem of a store file by place, and counts the files, not the problems', async () => {
    const dir = await repo(['command: ["(?=rm)rm"]', 'write: ["ok/**"]', 'content: ["(?=x)"]']);
    const r = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Bash', { command: 'ls' }) });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`global/${INV}.yaml:5:`);
    expect(r.stderr).not.toMatch(/2 store files/);
  });
});

describe('agents guard hook, arguments nested deeply', () => {
  it('are judged, not left to on_error: under allow, a tool guard and a content guard still deny', async () => {
    const dir = await repo(['content: ["AKIA[0-9A-Z]{16}"]', 'tool: ["mcp__db__drop_table"]'], 'version: 1\nguard:\n  on_error: allow\n');
    const n = 200_000;
    const nested = (tool: string, inner: string) =>
      `{"hook_event_name":"PreToolUse","session_id":"s","cwd":${JSON.stringify(dir)},"tool_name":"${tool}","tool_input":{"a":${'['.repeat(n)}${inner}${']'.repeat(n)}}}`;
    expect(await decision(dir, nested('mcp__db__drop_table', ''))).toBe('deny');
    expect(await decision(dir, nested('mcp__x__y', '"AKIAABCDEFGHIJKLMNOP"'))).toBe('deny');
    expect(await decision(dir, nested('mcp__x__y', '"fine"'))).toBe('none');
    expect(audit(dir).at(-1)).toMatchObject({ decision: 'none' });
  });
});

describe('agents guard hook run at a terminal', () => {
  it('answers at once by guard.on_error, saying its input is a terminal, instead of waiting for JSON until its bound', async () => {
    const dir = await repo(['write: ["secrets/**"]']);
    // A terminal that never ends its input, and a bound far past the test's: only the terminal check ends the wait.
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    let stdout = '';
    let stderr = '';
    const code = await main(['guard', 'hook', '--client', 'claude'], {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: { write: (c: string) => (stderr += c) },
      stdin,
      env: { ...process.env, NO_COLOR: '1', AGENTS_GUARD_TIMEOUT_MS: '600000' },
      cwd: dir,
    });
    // An answer that is no decision of the guards is the client's blocking exit (2), its reason on stderr.
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain('terminal');
    expect(readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8')).toContain('terminal');
  });
});

describe('agents guard hook, a warning guard where the client cannot ask', () => {
  it('is a deny for Codex CLI and Gemini CLI: recorded in the active plan and logged as the deny it was, an ask for Claude Code', async () => {
    const dir = tempDir();
    gitInit(dir);
    expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
    writeFileSync(
      join(dir, '.agents/global', `${INV}.yaml`),
      [`id: ${INV}`, 'text: Ask before touching docs', 'severity: warning', 'guard:', '  write: ["docs/**"]', ''].join('\n'),
    );
    const plan = '01JH5G411EVHG9XHQ43X20SSN4';
    mkdirSync(join(dir, '.agents/plans', plan), { recursive: true });
    writeFileSync(join(dir, '.agents/plans', plan, 'plan.yaml'), `id: ${plan}\n`);
    const env = { AGENTS_PLAN: plan };
    const asked = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Write', { file_path: 'docs/a.md' }), env });
    expect(JSON.parse(asked.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    const codex = JSON.stringify({
      session_id: 's2',
      turn_id: 't1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\n' },
    });
    const denied = await runAgents(['guard', 'hook'], { cwd: dir, input: codex, env });
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const gemini = JSON.stringify({
      session_id: 's3',
      cwd: dir,
      hook_event_name: 'BeforeTool',
      tool_name: 'write_file',
      tool_input: { file_path: 'docs/a.md', content: 'x' },
    });
    expect(JSON.parse((await runAgents(['guard', 'hook'], { cwd: dir, input: gemini, env })).stdout).decision).toBe('deny');
    const listed = await runAgents(['--format', 'json', 'invariant', 'violation', 'list', '--plan', plan], { cwd: dir });
    const violations: { invariant_id: string; severity: string; details: string }[] = JSON.parse(listed.stdout);
    expect(violations.map((v) => [v.invariant_id, v.severity])).toEqual([
      [INV, 'warning'],
      [INV, 'warning'],
    ]);
    expect(violations.map((v) => v.details.split('\n')[0])).toEqual(
      expect.arrayContaining([expect.stringContaining('codex apply_patch'), expect.stringContaining('gemini write_file')]),
    );
    expect(audit(dir).map((l) => [l.client, l.decision, l.violation === undefined])).toEqual([
      ['claude', 'ask', true],
      ['codex', 'deny', false],
      ['gemini', 'deny', false],
    ]);
  });
});

describe('agents guard hook, a call whose paths take longer to judge than its bound', () => {
  it('stops at the deadline between paths (GuardTimeout), which the hook answers by guard.on_error, not after the client gave up', async () => {
    const dir = await repo(['write: ["secrets/**"]']);
    const { GuardService } = await import('../../src/service/guard-service.ts');
    const action = { tool: 'Write', paths: ['notes.txt', 'secrets/k'], texts: [], cwd: dir };
    const { GuardTimeout } = await import('../../src/core/guard-clients.ts');
    const late = new GuardService(join(dir, '.agents'), {}, undefined, { deadline: Date.now() - 1 });
    expect(() => late.toAction(action)).toThrow(GuardTimeout);
    const inTime = new GuardService(join(dir, '.agents'), {}, undefined, { deadline: Date.now() + 60_000 });
    expect(inTime.toAction(action).files).toEqual(['notes.txt', 'secrets/k']);
  });

  it('stops at the deadline between runs of the patterns (GuardTimeout): a long text meeting many is answered by guard.on_error', async () => {
    const dir = await repo(['content: ["(?i)password=x", "(?i)token=x"]']);
    const { GuardService } = await import('../../src/service/guard-service.ts');
    const { GuardTimeout } = await import('../../src/core/guard-clients.ts');
    const action = { tool: 'Write', files: ['notes.txt'], texts: ['password=x token=x'] };
    const late = new GuardService(join(dir, '.agents'), {}, undefined, { deadline: Date.now() - 1 });
    await expect(late.evaluate(action)).rejects.toThrow(GuardTimeout);
    const inTime = new GuardService(join(dir, '.agents'), {}, undefined, { deadline: Date.now() + 60_000 });
    expect((await inTime.evaluate(action)).verdict.decision).toBe('deny');
  });

  it('judges a path longer than any system takes by its `..` folded, as the client writes it, and the rest as named', async () => {
    const dir = await repo(['write: ["secrets/**"]']);
    const write = (file_path: string) => claude(dir, 'Write', { file_path, content: 'x' });
    expect(await decision(dir, write(`${'a/'.repeat(3000)}${'../'.repeat(3000)}secrets/k`))).toBe('deny');
    expect(await decision(dir, write(`${'a/'.repeat(3000)}k`))).toBe('none');
  });

  it('refuses a command of more than 1,000 changes of folder: the hook by guard.on_error (exit 2), guard try as a usage error', async () => {
    const dir = await repo(['command: ["make"]']);
    const command = `${'cd a; '.repeat(1001)}make`;
    const hook = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Bash', { command }) });
    expect([hook.code, hook.stdout]).toEqual([2, '']);
    expect(audit(dir).at(-1)).toMatchObject({ decision: 'error', answer: 'deny' });
    const tried = await runAgents(['--format', 'json', 'guard', 'try', '--command', command], { cwd: dir });
    expect(errorOf(tried)).toEqual({ code: 'usage', exit_code: 2, detail: null });
  });
});
