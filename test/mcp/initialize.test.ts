// `initialize` answered before the MCP SDK loads (src/mcp/initialize.ts): the
// answer is the SDK's own, for every version a client may ask for, and only a
// request in the protocol's shape is answered early.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  initializeAnswer,
  mcpInput,
  SERVER_CAPABILITIES,
  SERVER_INFO,
  SERVER_INSTRUCTIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/mcp/initialize.ts';

/** What the SDK's server answers to `request`, over its in-memory transport. */
async function sdkAnswer(request: JSONRPCMessage): Promise<JSONRPCMessage> {
  const server = new Server(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS });
  const [client, end] = InMemoryTransport.createLinkedPair();
  const answer = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve));
  await server.connect(end);
  await client.start();
  await client.send(request);
  const got = await answer;
  await server.close();
  return got;
}

const request = (protocolVersion: string, id: string | number = 1) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'client', version: '1.2.3' } },
});

describe('the early answer to initialize', () => {
  it("speaks the SDK's protocol versions", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  it.each([...SDK_VERSIONS, '1999-01-01', ''])('is the answer the SDK gives to a client asking for version %j', async (version) => {
    for (const id of [1, 'a-string-id']) {
      const req = request(version, id);
      const early = initializeAnswer(JSON.stringify(req));
      expect(early?.id).toBe(id);
      expect(early!.text.endsWith('\n')).toBe(true);
      // The same message, member for member and in the same order.
      expect(early!.text).toBe(`${JSON.stringify(await sdkAnswer(req))}\n`);
    }
  });

  it('is given only to a request in the shape of the protocol; the SDK answers any other line itself', () => {
    const good = request('2025-06-18');
    for (const line of [
      'not json',
      '[]',
      JSON.stringify({ ...good, jsonrpc: '1.0' }),
      JSON.stringify({ ...good, method: 'ping' }),
      JSON.stringify({ ...good, id: 1.5 }),
      JSON.stringify({ ...good, id: null }),
      JSON.stringify({ jsonrpc: '2.0', method: 'initialize', params: good.params }),
      JSON.stringify({ ...good, params: { ...good.params, protocolVersion: 5 } }),
      JSON.stringify({ ...good, params: { ...good.params, capabilities: [] } }),
      JSON.stringify({ ...good, params: { ...good.params, clientInfo: { name: 'x' } } }),
    ])
      expect(initializeAnswer(line), line).toBeUndefined();
  });
});

/** mcpInput over in-memory streams: what it writes on stdout, and the lines it hands on. */
function piped() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: string[] = [];
  stdout.on('data', (c: Buffer) => written.push(c.toString('utf8')));
  return { stdin, written, input: mcpInput(stdin, stdout) };
}

describe('mcpInput', () => {
  it('answers a first initialize at once, hands every line on whole, and settles `started` on the first line', async () => {
    const { stdin, written, input } = piped();
    const lines: string[] = [];
    input.lines.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
    const init = `${JSON.stringify(request('2025-06-18', 7))}\n`;
    const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' })}\n`;
    stdin.write(init.slice(0, 20));
    stdin.end(init.slice(20) + ping + init);
    await input.started;
    await new Promise((r) => input.lines.on('end', r));
    expect(input.answered).toEqual({ id: 7 });
    // One answer, to the first line only: a second initialize is the SDK's to answer.
    expect(written.map((w) => JSON.parse(w).id)).toEqual([7]);
    expect(lines).toEqual([init, ping, init]);
  });

  it('answers nothing when the first line is not initialize, and settles `started` when stdin ends without a line', async () => {
    const { stdin, written, input } = piped();
    input.lines.resume();
    stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n${JSON.stringify(request('2025-06-18', 2))}\n`);
    await input.started;
    await new Promise((r) => input.lines.on('end', r));
    expect(input.answered).toEqual({});
    expect(written).toEqual([]);
    const silent = piped();
    silent.input.lines.resume();
    silent.stdin.end();
    await silent.input.started;
    expect(silent.input.answered).toEqual({});
  });
});
