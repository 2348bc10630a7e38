// Ways a client, a proxy or an agent may spell what a tool is given, each judged as the plain spelling, or answered
// by guard.on_error: a tool_input sent as JSON text, a path given as a `file:` URL (docs/guard.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { guardedRepo } from '../helpers/guard.ts';

const claude = (dir: string, tool: string, input: unknown) =>
  JSON.stringify({ session_id: 's1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });

/** The hook's answer to one input: its exit code and decision (deny, ask, or none). */
async function hook(dir: string, input: string): Promise<{ code: number; decision: string }> {
  const r = await runAgents(['guard', 'hook'], { cwd: dir, input });
  return { code: r.code, decision: r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision };
}

const lastAudit = (dir: string) => JSON.parse(readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8').trim().split('\n').at(-1)!);

describe('agents guard hook, a tool_input given as JSON text', () => {
  it('is judged as its arguments: a guarded write or command is denied, another says nothing', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'], command: ['\\bterraform\\s+apply\\b'], content: ['AKIA[0-9A-Z]{16}'] });
    for (const [tool, input] of [
      ['Write', { file_path: 'secrets/k.pem', content: 'x' }],
      ['Bash', { command: 'terraform apply' }],
      ['Write', { file_path: 'notes.md', content: 'AKIAABCDEFGHIJKLMNOP' }],
    ] as const)
      expect(await hook(dir, claude(dir, tool, JSON.stringify(input))), JSON.stringify(input)).toEqual({ code: 0, decision: 'deny' });
    expect(await hook(dir, claude(dir, 'Write', JSON.stringify({ file_path: 'notes.md', content: 'x' })))).toEqual({
      code: 0,
      decision: 'none',
    });
  });

  it('a text that is not the JSON of an object is answered by guard.on_error and logged', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    expect(await hook(dir, claude(dir, 'Write', 'file_path=secrets/k.pem'))).toEqual({ code: 2, decision: 'none' });
    expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny' });
  });
});

describe('agents guard hook, a path given as a file: URL', () => {
  it('is judged as the path it names, escapes decoded, in the file tools and the MCP tools that name a path', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    const calls: [string, Record<string, unknown>][] = [
      ['Write', { file_path: `file://${dir}/secrets/k.pem`, content: 'x' }],
      ['Edit', { file_path: `FILE://localhost${dir}/secr%65ts/k.pem`, old_string: 'a', new_string: 'b' }],
      ['mcp__filesystem__write_file', { path: `file://${dir}/secrets/k.pem`, content: 'x' }],
      ['mcp__github__create_or_update_file', { path: `file://${dir}/secrets/k.pem`, content: 'x', message: 'm' }],
      ['mcp__filesystem__move_file', { source: `file://${dir}/notes.md`, destination: `file://${dir}/secrets/k.pem` }],
    ];
    for (const [tool, input] of calls)
      expect(await hook(dir, claude(dir, tool, input)), `${tool} ${JSON.stringify(input)}`).toEqual({ code: 0, decision: 'deny' });
    // git's folder, which the hook keeps by itself, named by a URL.
    expect(await hook(dir, claude(dir, 'Write', { file_path: `file://${dir}/.git/config`, content: 'x' }))).toEqual({
      code: 0,
      decision: 'deny',
    });
    expect(await hook(dir, claude(dir, 'Write', { file_path: `file://${dir}/notes.md`, content: 'x' }))).toEqual({
      code: 0,
      decision: 'none',
    });
    // guard try judges the path as the hook does.
    expect((await runAgents(['guard', 'try', '--path', `file://${dir}/secr%65ts/k.pem`], { cwd: dir })).code).toBe(1);
  });

  it('one that names no path of this machine (another host, an escaped /) is answered by guard.on_error; guard try refuses it', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    for (const url of [`file://elsewhere${dir}/secrets/k.pem`, `file://${dir}/secrets%2Fk.pem`]) {
      expect(await hook(dir, claude(dir, 'Write', { file_path: url, content: 'x' })), url).toEqual({ code: 2, decision: 'none' });
      expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny' });
      expect((await runAgents(['guard', 'try', '--path', url], { cwd: dir })).code, url).toBe(2);
    }
  });

  it('one holding a control character, escaped or written, and a path holding a NUL, are answered by guard.on_error', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    // `secr%00ets` is no file the guard can name: a tool in C writes `secr`, another refuses it; `%0A` and a tab are
    // kept by one URL reader and dropped by another.
    for (const path of [
      `file://${dir}/secr%00ets/k.pem`,
      `file://${dir}/secrets%0A/k.pem`,
      `file://${dir}/secr\tets/k.pem`,
      `file://${dir}/secrets/k.pem%7F`,
      'secr\u0000ets/k.pem',
    ]) {
      for (const [tool, input] of [
        ['Write', { file_path: path, content: 'x' }],
        ['mcp__filesystem__write_file', { path, content: 'x' }],
        ['mcp__filesystem__move_file', { source: 'notes.md', destination: path }],
      ] as const) {
        expect(await hook(dir, claude(dir, tool, input)), `${tool} ${JSON.stringify(input)}`).toEqual({ code: 2, decision: 'none' });
        expect(lastAudit(dir)).toMatchObject({ decision: 'error', answer: 'deny' });
      }
    }
    // guard try cannot be given a NUL in an argument; the URL's escape it refuses as the hook does.
    expect((await runAgents(['guard', 'try', '--path', `file://${dir}/secr%00ets/k.pem`], { cwd: dir })).code).toBe(2);
  });
});

describe('agents guard hook, a file named under a key the hook has no list of', () => {
  /** Each client's call of an MCP tool, and whether its answer denies. */
  const clients: Record<string, { input: (dir: string, ti: unknown) => unknown; denied: (stdout: string) => boolean }> = {
    claude: {
      input: (dir, ti) => ({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'mcp__fs__put', tool_input: ti }),
      denied: (out) => JSON.parse(out).hookSpecificOutput.permissionDecision === 'deny',
    },
    codex: {
      input: (dir, ti) => ({
        session_id: 's',
        turn_id: 't',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'mcp__fs__put',
        tool_input: ti,
      }),
      denied: (out) => JSON.parse(out).hookSpecificOutput.permissionDecision === 'deny',
    },
    gemini: {
      input: (dir, ti) => ({ session_id: 's', cwd: dir, hook_event_name: 'BeforeTool', tool_name: 'mcp_fs_put', tool_input: ti }),
      denied: (out) => JSON.parse(out).decision === 'deny',
    },
    cursor: {
      input: (dir, ti) => ({
        conversation_id: 'c',
        workspace_roots: [dir],
        hook_event_name: 'beforeMCPExecution',
        tool_name: 'put',
        tool_input: ti,
      }),
      denied: (out) => JSON.parse(out).permission === 'deny',
    },
  };

  it("denies a guarded file, or git's folder, named in a list, a list of files, an edit or a target, from every client", async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    const calls: unknown[] = [
      { paths: ['notes.md', 'secrets/k.pem'] },
      { files: [{ path: 'secrets/k.pem', content: 'x' }] },
      { edits: [{ file_path: `${dir}/secrets/k.pem`, new_string: 'x' }] },
      { target: 'secrets/k.pem' },
      { old_path: 'notes.md', new_path: 'secrets/k.pem' },
      { files: ['.git/hooks/pre-commit'] },
    ];
    for (const [client, { input, denied }] of Object.entries(clients))
      for (const ti of calls) {
        const r = await runAgents(['guard', 'hook'], { cwd: dir, input: JSON.stringify(input(dir, ti)) });
        expect([r.code, r.stdout !== '' && denied(r.stdout)], `${client} ${JSON.stringify(ti)}`).toEqual([0, true]);
      }
    // Elsewhere, and a URL of another scheme, say nothing.
    const r = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: JSON.stringify(clients.claude!.input(dir, { paths: ['notes.md'], url: 'https://example.com/secrets/k.pem' })),
    });
    expect([r.code, r.stdout]).toEqual([0, '']);
  });
});
