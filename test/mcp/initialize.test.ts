// `initialize` answered before the MCP SDK loads (src/mcp/initialize.ts): the
// answer is the SDK's own, for every version a client may ask for, and only a
// request in the protocol's shape is answered early.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
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

/**
 * What the SDK's server does with `line` read from stdin: 'unreadable' when its transport refuses the line (no
 * answer), 'silent' when no answer comes (a notification), else its answer's text.
 */
async function sdkReads(line: string): Promise<string> {
  let message: JSONRPCMessage;
  try {
    message = deserializeMessage(line);
  } catch {
    return 'unreadable';
  }
  if (!('id' in message)) return 'silent';
  return `${JSON.stringify(await sdkAnswer(message))}\n`;
}

const base = request('2025-06-18');
const withParams = (params: Record<string, unknown>) => ({ ...base, params: { ...base.params, ...params } });
const withCapabilities = (capabilities: Record<string, unknown>) => withParams({ capabilities });
const withClient = (info: Record<string, unknown>) => withParams({ clientInfo: { name: 'c', version: '1', ...info } });

describe('the early answer to initialize, against the SDK as it reads stdin', () => {
  it.each([
    // The request itself: its members, its id.
    { ...base, extra: 1 },
    { ...base, id: 2 ** 53 },
    { ...base, id: -(2 ** 53) + 1 },
    { ...base, id: -3 },
    { ...base, id: '' },
    { jsonrpc: '2.0', method: 'initialize', params: base.params },
    [base],
    withParams({ _meta: 5 }),
    withParams({ _meta: {} }),
    withParams({ _meta: { progressToken: 1.5 } }),
    withParams({ _meta: { progressToken: 'p', other: [] } }),
    withParams({ _meta: { 'io.modelcontextprotocol/related-task': { taskId: 1 } } }),
    withParams({ unknown: null }),
    withParams({ protocolVersion: null }),
    withParams({ capabilities: null }),
    // Each capability the SDK names, taken and refused.
    withCapabilities({ roots: 5 }),
    withCapabilities({ roots: { listChanged: 'yes' } }),
    withCapabilities({ roots: { listChanged: true, more: 1 } }),
    withCapabilities({ roots: null }),
    withCapabilities({ sampling: {} }),
    withCapabilities({ sampling: [] }),
    withCapabilities({ sampling: { context: {}, tools: [] } }),
    withCapabilities({ sampling: { context: true } }),
    withCapabilities({ elicitation: {} }),
    withCapabilities({ elicitation: [] }),
    withCapabilities({ elicitation: { form: { applyDefaults: true }, url: {} } }),
    withCapabilities({ elicitation: { form: { applyDefaults: 1 } } }),
    withCapabilities({ elicitation: { form: [] } }),
    withCapabilities({ elicitation: { url: 'x' } }),
    withCapabilities({ experimental: { a: {} } }),
    withCapabilities({ experimental: { a: 1 } }),
    withCapabilities({ experimental: [] }),
    withCapabilities({ extensions: { 'x/y': { v: 1 } } }),
    withCapabilities({ extensions: { 'x/y': null } }),
    withCapabilities({ tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } } }),
    withCapabilities({ tasks: { list: 1 } }),
    withCapabilities({ tasks: { requests: { sampling: { createMessage: 'x' } } } }),
    withCapabilities({ tasks: { requests: [] } }),
    withCapabilities({ unknown: 5 }),
    // The client's info.
    withClient({ title: 'T', websiteUrl: 'https://x', description: 'd' }),
    withClient({ title: 5 }),
    withClient({ version: 1 }),
    withClient({ icons: [{ src: 'data:', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }] }),
    withClient({ icons: [{ mimeType: 'image/png' }] }),
    withClient({ icons: [{ src: 'a', theme: 'blue' }] }),
    withClient({ icons: [{ src: 'a', sizes: [48] }] }),
    withClient({ icons: {} }),
  ])('is given exactly when the SDK takes the request, and is its answer: %j', async (message) => {
    const line = JSON.stringify(message);
    const sdk = await sdkReads(line);
    const early = initializeAnswer(line);
    const taken = sdk.startsWith('{') && 'result' in JSON.parse(sdk);
    expect(early?.text, sdk).toBe(taken ? sdk : undefined);
  });

  it('is given exactly when the SDK takes the request, for lines no object spells (`__proto__` members)', async () => {
    const params = JSON.stringify(base.params).slice(1, -1);
    for (const line of [
      `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{${params}},"__proto__":{}}`,
      `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{${params},"__proto__":{"x":1}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"c","version":"1"},"capabilities":{"__proto__":{"roots":5}}}}`,
    ]) {
      const sdk = await sdkReads(line);
      const taken = sdk.startsWith('{') && 'result' in JSON.parse(sdk);
      expect(initializeAnswer(line)?.text, `${line} ${sdk}`).toBe(taken ? sdk : undefined);
    }
  });

  it("is given to the SDK's own client's request, whatever capabilities it declares", async () => {
    for (const capabilities of [{}, { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } }]) {
      const client = new Client({ name: 'sdk-client', version: '9.9.9' }, { capabilities });
      const [mine, theirs] = InMemoryTransport.createLinkedPair();
      const sent = new Promise<JSONRPCMessage>((resolve) => (theirs.onmessage = resolve));
      await theirs.start();
      const connecting = client.connect(mine).catch(() => {});
      const line = JSON.stringify(await sent);
      const early = initializeAnswer(line);
      expect(early?.text).toBe(await sdkReads(line));
      await theirs.send(JSON.parse(early!.text));
      await connecting;
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      await client.close();
    }
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

  it('takes a line after the byte order mark some Windows tools write before it, split across writes or not', async () => {
    const { stdin, written, input } = piped();
    const lines: string[] = [];
    input.lines.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
    const init = `${JSON.stringify(request('2025-06-18', 7))}\r\n`;
    const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping', params: { _meta: { note: '\ufeff' } } })}\n`;
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    stdin.write(bom.subarray(0, 1));
    stdin.write(Buffer.concat([bom.subarray(1), Buffer.from(init)]));
    stdin.end(Buffer.concat([bom, Buffer.from(ping)]));
    await input.started;
    await new Promise((r) => input.lines.on('end', r));
    expect(input.answered).toEqual({ id: 7 });
    expect(written.map((w) => JSON.parse(w).id)).toEqual([7]);
    // Each line is then the message the SDK parses; a U+FEFF inside one is its own.
    expect(lines).toEqual([init, ping]);
    expect(lines.map((l) => (deserializeMessage(l.replace(/\r?\n$/, '')) as { id: number }).id)).toEqual([7, 8]);
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
