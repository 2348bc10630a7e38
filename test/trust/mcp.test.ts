// MCP (issue 30, F): an oversized message is refused and the server keeps
// serving; blank details are refused; errors never echo control characters raw.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { idOf, LineLimit, oversizeError } from '../../src/mcp/line-limit.ts';
import { startMcp } from '../helpers/mcp.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';

const NEVER_DELETE = '01M8KJT9G0XNWEM589ZS7FV0VT';

describe('agents mcp: limits and hostile arguments', () => {
  it('a 20 MB message is refused with a JSON-RPC error naming its id, and the next call is answered', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    const huge = 'x'.repeat(20 * 1024 * 1024);
    await expect(s.client.callTool({ name: 'list_invariants', arguments: { tag: huge } })).rejects.toThrow(/limit is 4194304 bytes/);
    const after = (await s.client.callTool({ name: 'plan_status', arguments: { plan: EXAMPLE_PLAN } })) as CallToolResult;
    expect(after.isError).toBeFalsy();
  }, 120_000);

  it('record_violation with blank details is refused and writes nothing', async () => {
    const root = exampleStore();
    const before = fileList(root);
    const s = await startMcp(root, ['--allow-write']);
    const r = (await s.client.callTool({
      name: 'record_violation',
      arguments: { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: '   ' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('argument \\"details\\" is empty');
    expect(fileList(root)).toEqual(before);
  });

  it('errors escape ESC, BEL and RLO from the arguments, as the CLI does', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    for (const args of [{ plan: 'ab\u001b[2K\u0007\u202ecd' }, { plan: EXAMPLE_PLAN, 'pl\u001b]52;c;eA==\u0007an': 'x' }]) {
      const r = (await s.client.callTool({ name: 'plan_status', arguments: args })) as CallToolResult;
      expect(r.isError).toBe(true);
      const text = (r.content as { text: string }[]).map((c) => c.text).join('\n') + JSON.stringify(r._meta);
      expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/.test((r.content as { text: string }[]).map((c) => c.text).join(''))).toBe(
        false,
      );
      expect(text).toContain('\\u001b');
    }
  });
});

describe('LineLimit', () => {
  it('passes lines under the limit whole, refuses longer ones as they come, and goes on', async () => {
    const refused: [string, string, number][] = [];
    const limit = new LineLimit(16, (head, tail, bytes) => refused.push([head.toString('utf8'), tail.toString('utf8'), bytes]));
    const out: string[] = [];
    limit.on('data', (c: Buffer) => out.push(c.toString('utf8')));
    for (const chunk of ['{"id":1}\n{"id":', '2,"x":"', 'a'.repeat(40), '"}\n{"id":3}', '\n']) limit.write(Buffer.from(chunk));
    limit.end();
    await new Promise((r) => limit.on('end', r));
    expect(out).toEqual(['{"id":1}\n', '{"id":3}\n']);
    expect(refused.map(([h, t, n]) => [idOf(h, t), n])).toEqual([[2, 56]]);
    expect(JSON.parse(oversizeError(2, 55, 16))).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32600 } });
    expect(idOf('{"jsonrpc":"2.0","id":"abc","method"', '')).toBe('abc');
    // The SDK writes the id last; an id inside the arguments is never taken for it.
    expect(idOf('{"method":"tools/call","params":{"arguments":{"id":"01J","t":"', 'xxx"}},"jsonrpc":"2.0","id":7}\n')).toBe(7);
    expect(idOf('{"method":"x","params":{"id":1,"a":"', 'aaa"}}')).toBeNull();
  });
});
