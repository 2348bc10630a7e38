import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agents } from '../helpers/cli.ts';
import { initializedRepo } from '../helpers/guard.ts';
import { runAgents } from '../helpers/main.ts';
import { startMcp } from '../helpers/mcp.ts';

const INV = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';

describe('MCP check_action', () => {
  it('answers as the guard hook would, and sees a change of the store on the next call', async () => {
    const dir = await initializedRepo();
    mkdirSync(join(dir, '.agents/projects/app'), { recursive: true });
    writeFileSync(join(dir, '.agents/projects/app/project.yaml'), 'paths: ["app/**"]\n');
    writeFileSync(
      join(dir, '.agents/projects/app', `${INV}.yaml`),
      `id: ${INV}\ntext: Migrations are generated\nseverity: warning\nguard:\n  write: ["app/migrations/**"]\n  tool: ["mcp__db__drop_table"]\n`,
    );
    const s = await startMcp(join(dir, '.agents'));
    const call = async (args: Record<string, unknown>) =>
      (await s.client.callTool({ name: 'check_action', arguments: args })) as {
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
    expect((await call({ path: 'app/migrations/001.sql' })).structuredContent).toMatchObject({
      decision: 'ask',
      hits: [{ invariant: INV, kind: 'write', subject: 'app/migrations/001.sql' }],
    });
    // A relative path is the repository top's, as the tool says, whatever folder the action runs in.
    expect((await call({ path: 'app/migrations/001.sql', cwd: 'lib' })).structuredContent).toMatchObject({
      decision: 'ask',
      hits: [{ subject: 'app/migrations/001.sql' }],
    });
    // A folder a deleting tool names stands for each file below it, as in the hook.
    mkdirSync(join(dir, 'app/migrations'), { recursive: true });
    writeFileSync(join(dir, 'app/migrations/001.sql'), 'x');
    expect((await call({ tool: 'mcp__fs__delete_directory', path: 'app/migrations' })).structuredContent).toMatchObject({
      decision: 'ask',
      hits: [{ subject: 'app/migrations/001.sql' }],
    });
    rmSync(join(dir, 'app'), { recursive: true });
    // The same data `agents guard try --format json` prints, hit by hit, given the server's --store (which the waiver it
    // names carries).
    const cli = await runAgents(['--store', join(dir, '.agents'), 'guard', 'try', '--path', 'app/migrations/001.sql', '--format', 'json'], {
      cwd: dir,
    });
    expect((await call({ path: 'app/migrations/001.sql' })).structuredContent).toEqual(JSON.parse(cli.stdout));
    expect((await call({ tool: 'mcp__db__drop_table', cwd: 'app' })).structuredContent).toMatchObject({ decision: 'ask' });
    expect((await call({ tool: 'mcp__db__drop_table' })).structuredContent).toMatchObject({ decision: 'none', hits: [] });
    expect((await call({ path: 'lib/migrations/001.sql' })).structuredContent).toMatchObject({ decision: 'none' });
    expect((await call({})).isError).toBe(true);
    // In a client's protocol, for Claude Code's mcp_tool hook: the text is the hook's answer.
    const asClaude = (await s.client.callTool({ name: 'check_action', arguments: { path: 'app/migrations/2.sql', client: 'claude' } })) as {
      content: { type: string; text: string }[];
    };
    expect(JSON.parse(asClaude.content[0]!.text).hookSpecificOutput.permissionDecision).toBe('ask');
    writeFileSync(
      join(dir, '.agents/global/01JGGEBWJTQ6P08NTXZQ7TKM3R.yaml'),
      'id: 01JGGEBWJTQ6P08NTXZQ7TKM3R\ntext: No lock files by hand\nguard:\n  write: ["**/*.lock"]\n',
    );
    expect((await call({ path: 'lib/yarn.lock' })).structuredContent).toMatchObject({ decision: 'deny' });
    // Edited in place, at once after a call that watched the folders: a guard the file gains, in global and in a project.
    for (const [folder, path] of [
      ['global', 'docs/a.md'],
      ['projects/app', 'app/docs/a.md'],
    ] as const) {
      const file = join(dir, '.agents', folder, '01JGGEBWJTQ6P08NTXZQ7TKM4S.yaml');
      writeFileSync(file, 'id: 01JGGEBWJTQ6P08NTXZQ7TKM4S\ntext: Docs are generated\n');
      expect((await call({ path })).structuredContent, folder).toMatchObject({ decision: 'none' });
      expect((await call({ path })).structuredContent, folder).toMatchObject({ decision: 'none' });
      const fd = openSync(file, 'r+');
      writeSync(fd, 'id: 01JGGEBWJTQ6P08NTXZQ7TKM4S\ntext: Docs are generated\nguard:\n  write: ["**/docs/**", "docs/**"]\n', 0);
      closeSync(fd);
      expect((await call({ path })).structuredContent, folder).toMatchObject({ decision: 'deny' });
      rmSync(file);
    }
    // A project.yaml edited in place, at once after a call: the web project now holds lib/, and its guard applies there.
    mkdirSync(join(dir, '.agents/projects/web'), { recursive: true });
    writeFileSync(join(dir, '.agents/projects/web/project.yaml'), 'paths: ["web/**"]\n');
    writeFileSync(
      join(dir, '.agents/projects/web/01JGGEBWJTQ6P08NTXZQ7TKM6V.yaml'),
      'id: 01JGGEBWJTQ6P08NTXZQ7TKM6V\ntext: Generated files are never edited\nguard:\n  write: ["**/generated/**"]\n',
    );
    expect((await call({ path: 'lib/generated/a.ts' })).structuredContent).toMatchObject({ decision: 'none' });
    expect((await call({ path: 'lib/generated/a.ts' })).structuredContent).toMatchObject({ decision: 'none' });
    const meta = openSync(join(dir, '.agents/projects/web/project.yaml'), 'r+');
    writeSync(meta, 'paths: ["web/**", "lib/**"]\n', 0);
    closeSync(meta);
    expect((await call({ path: 'lib/generated/a.ts' })).structuredContent).toMatchObject({
      decision: 'deny',
      hits: [{ invariant: '01JGGEBWJTQ6P08NTXZQ7TKM6V' }],
    });
  });

  // A hook that calls the tool (Claude Code's mcp_tool) lets the action through on an error result: in a client's
  // protocol, a call that cannot be decided is answered by guard.on_error, as `agents guard hook` answers it.
  it("in a client's protocol, an invalid store is answered by guard.on_error as the hook answers it, never an error result", async () => {
    const dir = await initializedRepo();
    writeFileSync(join(dir, '.agents/global', `${INV}.yaml`), `id: ${INV}\ntext: [unclosed\n`);
    const hook = agents(['guard', 'hook', '--client', 'claude'], {
      cwd: dir,
      input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: 'a.ts' }, cwd: dir }),
    });
    expect(hook.code).toBe(2);
    const s = await startMcp(join(dir, '.agents'));
    const call = async (args: Record<string, unknown>) =>
      (await s.client.callTool({ name: 'check_action', arguments: args })) as {
        content: { text: string }[];
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
    const claude = await call({ path: 'a.ts', client: 'claude' });
    expect(claude.isError).toBeFalsy();
    expect(JSON.parse(claude.content[0]!.text).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(claude.structuredContent).toMatchObject({ decision: 'deny', hits: [] });
    // Without a client the caller reads an error result, with the file named.
    expect((await call({ path: 'a.ts' })).isError).toBe(true);
    // guard.on_error: allow answers nothing decided ("{}"), leaving the client's permissions to decide.
    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
    const other = await startMcp(join(dir, '.agents'));
    const allowed = (await other.client.callTool({ name: 'check_action', arguments: { path: 'a.ts', client: 'claude' } })) as {
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
    };
    expect(allowed.content[0]!.text).toBe('{}');
    expect(allowed.structuredContent).toMatchObject({ decision: 'allow' });
  });

  it('judges a command, a path or a tool name of any length a message holds, as the hook does, never by guard.on_error', async () => {
    const dir = await initializedRepo();
    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
    writeFileSync(
      join(dir, '.agents/global', `${INV}.yaml`),
      `id: ${INV}\ntext: Never remove the tree\nseverity: error\nguard:\n  command: ["rm -rf"]\n  write: ["secrets/**"]\n`,
    );
    const hook = (input: Record<string, unknown>) =>
      JSON.parse(
        agents(['guard', 'hook', '--client', 'claude'], {
          cwd: dir,
          input: JSON.stringify({ hook_event_name: 'PreToolUse', cwd: dir, ...input }),
        }).stdout || '{}',
      ) as { hookSpecificOutput?: { permissionDecision: string } };
    const s = await startMcp(join(dir, '.agents'));
    const check = async (args: Record<string, unknown>) =>
      (await s.client.callTool({ name: 'check_action', arguments: { ...args, client: 'claude' } })) as {
        content: { text: string }[];
        structuredContent?: Record<string, unknown>;
      };
    // Padded past 100,000 characters, a command the hook denies: denied, not let through by guard.on_error: allow.
    const command = `rm -rf / ; echo ${'y'.repeat(120_000)}`;
    expect(hook({ tool_name: 'Bash', tool_input: { command } }).hookSpecificOutput?.permissionDecision).toBe('deny');
    const denied = await check({ command });
    expect(denied.structuredContent).toMatchObject({ decision: 'deny', hits: [{ invariant: INV }] });
    expect(JSON.parse(denied.content[0]!.text).hookSpecificOutput.permissionDecision).toBe('deny');
    // A path padded with `./` past 4,096 characters, which the hook reads as the file it names.
    const path = `${'./'.repeat(2100)}secrets/key.pem`;
    const write = { tool_name: 'Write', tool_input: { file_path: join(dir, path), content: 'x' } };
    expect(hook(write).hookSpecificOutput?.permissionDecision).toBe('deny');
    expect((await check({ path })).structuredContent).toMatchObject({ decision: 'deny', hits: [{ invariant: INV }] });
    // A tool of a server with a long name, which no guard names: nothing decided, as the hook answers, not an error.
    const tool = `mcp__${'x'.repeat(300)}__drop_table`;
    expect(hook({ tool_name: tool, tool_input: {} })).toEqual({});
    expect((await check({ tool })).structuredContent).toMatchObject({ decision: 'none', hits: [] });
  });

  // The agent waits on check_action as a client on its hook, and the server's one thread answers nothing else while a
  // pattern runs there: a heavy pattern over a long text is stopped at the hook's bound, by the same bounded matcher.
  it("stops a pattern run past the bound: guard-timeout, or guard.on_error in a client's protocol; the server answers on", async () => {
    const dir = await initializedRepo();
    writeFileSync(
      join(dir, '.agents/global', `${INV}.yaml`),
      `id: ${INV}\ntext: No such text\nguard:\n  content: ['((\\w+\\s*){1,30}\\d*){1,30}[xq]{2}']\n`,
    );
    // Each call's bound starts with the call, in a server already up: the thread spins until it, twice.
    const s = await startMcp(join(dir, '.agents'), [], { AGENTS_GUARD_TIMEOUT_MS: '1500' });
    const content = `${'lorem ipsum dolor sit amet consectetur adipiscing\n'.repeat(40_000)}done`;
    const call = async (args: Record<string, unknown>) =>
      (await s.client.callTool({ name: 'check_action', arguments: args })) as {
        content: { text: string }[];
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
        _meta?: Record<string, { code?: string; exit_code?: number }>;
      };
    const plain = await call({ path: 'notes.txt', content });
    expect(plain.isError).toBe(true);
    expect(plain._meta?.['agents/error']).toMatchObject({ code: 'guard-timeout', exit_code: 2 });
    const claude = await call({ path: 'notes.txt', content, client: 'claude' });
    expect(claude.isError).toBeFalsy();
    expect(JSON.parse(claude.content[0]!.text).hookSpecificOutput.permissionDecision).toBe('deny');
    // A short text is judged in time, by the same server.
    expect((await call({ path: 'notes.txt', content: 'ab xq' })).structuredContent).toMatchObject({ decision: 'deny' });
  }, 60_000);
  // As the hook refuses to judge under a bound that is no number, rather than judge under one it was not given.
  it("refuses an AGENTS_GUARD_TIMEOUT_MS that is no number (exit 2), or in a client's protocol answers by guard.on_error", async () => {
    const dir = await initializedRepo();
    const s = await startMcp(join(dir, '.agents'), [], { AGENTS_GUARD_TIMEOUT_MS: 'soon' });
    const call = async (args: Record<string, unknown>) =>
      (await s.client.callTool({ name: 'check_action', arguments: args })) as {
        content: { text: string }[];
        isError?: boolean;
        _meta?: Record<string, { code?: string; exit_code?: number }>;
      };
    const plain = await call({ path: 'notes.txt' });
    expect([plain.isError, plain._meta?.['agents/error']?.exit_code]).toEqual([true, 2]);
    const claude = await call({ path: 'notes.txt', client: 'claude' });
    expect(claude.isError).toBeFalsy();
    expect(JSON.parse(claude.content[0]!.text).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
