// The MCP server's arguments through the SDK's own client (docs/mcp.md, "Tools"): each tool takes an argument as its
// siblings and the CLI take the same one, and each schema publishes the limit the server holds to.
import { dirname, join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MAX_LONG_ARGUMENT, MAX_MESSAGE_BYTES } from '../../src/mcp/line-limit.ts';
import { gitInit } from '../helpers/git.ts';
import { errorOf, type McpSession, startMcp } from '../helpers/mcp.ts';
import { EXAMPLE_PLAN, EXAMPLE_PLAN_SET, exampleStore } from '../helpers/plans.ts';

const NEVER_DELETE = '01M8KJT9G0XNWEM589ZS7FV0VT';

const call = async (s: McpSession, name: string, args: Record<string, unknown>) =>
  (await s.client.callTool({ name, arguments: args })) as CallToolResult;

async function server(): Promise<{ root: string; s: McpSession }> {
  const root = exampleStore();
  gitInit(dirname(root));
  return { root, s: await startMcp(root, ['--allow-write']) };
}

describe('ids with white space around them', () => {
  it('a full id or plan id pasted with its line break is taken by every tool and the prompt, as the CLI takes it', async () => {
    const { s } = await server();
    const plan = `  ${EXAMPLE_PLAN}\n`;
    const id = `\t${NEVER_DELETE} \n`;
    const answers: [string, CallToolResult][] = [
      ['effective_invariants', await call(s, 'effective_invariants', { plan })],
      ['list_invariants', await call(s, 'list_invariants', { plan })],
      ['show_invariant', await call(s, 'show_invariant', { id })],
      ['plan_status', await call(s, 'plan_status', { plan })],
      ['record_violation', await call(s, 'record_violation', { plan, invariant: id, details: 'dropped the users table' })],
    ];
    const answer = JSON.stringify({ results: EXAMPLE_PLAN_SET.map(([i]) => ({ invariant_id: i, enforced: true, response: 'ok' })) });
    answers.push(['record_reconciliation', await call(s, 'record_reconciliation', { plan, answer })]);
    for (const [tool, r] of answers) expect(r.isError ?? false, `${tool}: ${JSON.stringify(r.content)}`).toBe(false);
    expect(answers.find(([t]) => t === 'show_invariant')![1].structuredContent).toMatchObject({ invariant: { id: NEVER_DELETE } });
    expect(answers.find(([t]) => t === 'plan_status')![1].structuredContent).toMatchObject({ plan: { id: EXAMPLE_PLAN } });
    expect(answers.find(([t]) => t === 'record_reconciliation')![1].structuredContent).toMatchObject({ plan: EXAMPLE_PLAN, ok: true });
    const prompt = await s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan } });
    expect(prompt._meta?.['agents/set_digest']).toMatch(/^sha256:/);

    // The white space is dropped, not the length check: 27 characters of an id are still too many.
    const long = await call(s, 'show_invariant', { id: ` ${NEVER_DELETE}X ` });
    expect(errorOf(long)).toMatchObject({ code: 'usage', exit_code: 2 });
    expect(errorOf(long).message).toContain('27 characters');
    // White space alone is no id.
    expect(errorOf(await call(s, 'plan_status', { plan: ' \n ' }))).toMatchObject({ code: 'usage', exit_code: 2 });
  });
});

describe('null as not given', () => {
  it("a prompt's null argument counts as not given, as a tool's does, not refused by the protocol's check", async () => {
    const { s } = await server();
    const plain = await s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN } });
    const nulls = await s.client.getPrompt({
      name: 'reconcile_plan',
      arguments: { plan: EXAMPLE_PLAN, cursor: null, context: null } as unknown as Record<string, string>,
    });
    expect(nulls).toEqual(plain);
    // The tools take a null cursor alike.
    const listed = await call(s, 'list_invariants', { cursor: null });
    expect(listed.isError ?? false).toBe(false);
    // A null plan is a missing plan, as for a tool: the prompt's usage error, under invalid params.
    const missing = await s.client
      .getPrompt({ name: 'reconcile_plan', arguments: { plan: null } as unknown as Record<string, string> })
      .then(
        () => undefined,
        (e: unknown) => e as { code: number; data: { code: string } },
      );
    expect(missing).toMatchObject({ code: -32602, data: { code: 'missing-argument' } });
  });
});

describe('published limits', () => {
  it("the long text arguments' schemas say what one message holds, alike for both", async () => {
    const { s } = await server();
    const { tools } = await s.client.listTools();
    const property = (tool: string, name: string) =>
      (tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, { maxLength?: number }>)[name]!;
    expect(property('record_reconciliation', 'answer').maxLength).toBe(MAX_LONG_ARGUMENT);
    expect(property('check_action', 'content').maxLength).toBe(MAX_LONG_ARGUMENT);
    expect(MAX_LONG_ARGUMENT).toBeLessThan(MAX_MESSAGE_BYTES);
    // A path is one length for every tool that takes one.
    expect(property('effective_invariants', 'path').maxLength).toBe(property('check_action', 'path').maxLength);
  });

  it('a long path effective_invariants maps to its project, as check_action takes it and `agents which` does', async () => {
    const { root, s } = await server();
    writeFileSync(join(root, 'projects', 'myapp', 'project.yaml'), 'paths: [services/myapp/**]\n');
    const path = `services/myapp/${'a/'.repeat(2500)}x.ts`;
    const r = await call(s, 'effective_invariants', { path });
    expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
    expect(r.structuredContent).toMatchObject({ target: { project: 'myapp', path } });
    expect((await call(s, 'check_action', { path })).isError ?? false).toBe(false);
  });
});
