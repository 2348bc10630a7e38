// JSON-RPC batches (src/mcp/batch.ts): taken under protocol 2025-03-26, which has them, and answered as one array.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Batches, MAX_BATCH_REQUESTS } from '../../src/mcp/batch.ts';
import { unreadableError } from '../../src/mcp/line-limit.ts';

const initialize = (protocolVersion: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const result = (id: number | string, value: unknown = {}): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: value as never });

/** A session's batches after an `initialize` asking `version`, and what they write and deliver. */
function session(version: string | undefined, limit = 4 * 1024 * 1024) {
  const written: unknown[][] = [];
  const delivered: JSONRPCMessage[] = [];
  const batches = new Batches(limit, (answers) => written.push(answers));
  if (version !== undefined) batches.asked(initialize(version));
  const open = (members: unknown[]) => batches.open(JSON.stringify(members), (m) => delivered.push(m));
  /** Takes each delivered request, as the server does, and answers it. */
  const answerAll = (value: (id: string | number) => unknown = () => ({})) => {
    for (const m of delivered.splice(0)) {
      if (!('id' in m) || !('method' in m)) continue;
      batches.taken(m);
      expect(batches.answered(m.id, result(m.id, value(m.id)))).toBe(true);
    }
  };
  return { batches, written, delivered, open, answerAll };
}

describe('a batch under protocol 2025-03-26', () => {
  it("is taken message by message, and answered as one array once its last request is, in the requests' order", () => {
    const s = session('2025-03-26');
    expect(s.open([ping(2), { jsonrpc: '2.0', method: 'notifications/x' }, ping('b')])).toBe(true);
    expect(s.delivered.map((m) => ('id' in m ? m.id : 'note'))).toEqual([2, 'note', 'b']);
    const [first, , last] = s.delivered.splice(0);
    s.batches.taken(last!);
    s.batches.answered('b', result('b'));
    expect(s.written).toEqual([]);
    s.batches.taken(first!);
    s.batches.answered(2, result(2));
    expect(s.written).toEqual([[result(2), result('b')]]);
  });

  it('answers a member that is no message, or an initialize, in place, and notifications alone with nothing', () => {
    const s = session('2025-03-26');
    s.open([5, { jsonrpc: '2.0', id: 6, method: 'initialize', params: {} }, ping(7)]);
    s.answerAll();
    expect(s.written).toMatchObject([
      [
        { id: null, error: { code: -32600 } },
        { id: 6, error: { code: -32600, message: 'invalid request: initialize may not be sent in a batch' } },
        { id: 7, result: {} },
      ],
    ]);
    const quiet = session('2025-03-26');
    quiet.open([{ jsonrpc: '2.0', method: 'notifications/x' }]);
    expect(quiet.delivered).toHaveLength(1);
    expect(quiet.written).toEqual([]);
  });

  it('leaves a cancelled request out, held or taken, and one refused as it was taken has its refusal', () => {
    const s = session('2025-03-26');
    s.open([ping(1), ping(2), ping(3)]);
    const [a, b, c] = s.delivered.splice(0);
    s.batches.cancelled(a!);
    s.batches.taken(b!);
    s.batches.cancelled(2);
    const refusal: JSONRPCMessage = { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'id in use' } };
    expect(s.batches.refused(c!, refusal)).toBe(true);
    expect(s.written).toEqual([[refusal]]);
  });

  it('an answer not of a batch is sent on its own', () => {
    const s = session('2025-03-26');
    expect(s.batches.answered(9, result(9))).toBe(false);
  });

  it('keeps its answer within the limit of a message: an answer the others left no room for is an error under its id', () => {
    const s = session('2025-03-26', 20_000);
    s.open([ping(1), ping(2), ping(3)]);
    s.answerAll((id) => ({ text: 'x'.repeat(id === 2 ? 19_500 : 100) }));
    const [answers] = s.written;
    expect(Buffer.byteLength(JSON.stringify(answers))).toBeLessThanOrEqual(20_000);
    expect(answers).toMatchObject([
      { id: 1, result: {} },
      { id: 2, error: { code: -32602, data: { code: 'answer-too-large' } } },
      { id: 3 },
    ]);
  });

  // The room held for each request's error is what keeps the array within the limit however large the answers.
  it('with no room but what is held for the errors, each answer an error, the whole within the limit', () => {
    const ids = [1, 'a-longer-id', 3];
    const limit = 2 + ids.reduce<number>((n, id) => n + 400 + JSON.stringify(id).length, 0);
    const s = session('2025-03-26', limit);
    s.open(ids.map(ping));
    s.answerAll(() => ({ text: 'x'.repeat(5000) }));
    const [answers] = s.written;
    expect(answers).toMatchObject(ids.map((id) => ({ id, error: { data: { code: 'answer-too-large' } } })));
    expect(Buffer.byteLength(JSON.stringify(answers))).toBeLessThanOrEqual(limit);
  });

  it(`of more than ${MAX_BATCH_REQUESTS} requests is refused whole, none of them worked on`, () => {
    const s = session('2025-03-26');
    s.open(Array.from({ length: MAX_BATCH_REQUESTS + 1 }, (_, i) => ping(i)));
    expect(s.delivered).toEqual([]);
    expect(s.written).toMatchObject([[{ id: null, error: { code: -32600 } }]]);
  });
});

describe('a batch under any other version', () => {
  it.each([['2025-06-18'], ['2025-11-25'], ['2024-11-05'], [undefined]])('%s: is not taken, and its refusal says why', (version) => {
    const s = session(version);
    const line = JSON.stringify([ping(2)]);
    expect(s.batches.open(line, () => {})).toBe(false);
    const refused = unreadableError(Object.assign(new Error('x'), { name: 'ZodError' }), line, s.batches.version)!;
    const [answer] = JSON.parse(refused.answer) as { id: number; error: { code: number; message: string } }[];
    expect(answer).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(answer!.error.message).toContain(
      version === undefined ? 'only once initialize has agreed on protocol 2025-03-26' : `under protocol ${version}`,
    );
  });

  it('an initialize asking a version the server does not speak agrees on the newest, which has none', () => {
    const s = session('2099-01-01');
    expect(s.batches.version).toBe('2025-11-25');
  });
});
