// The JSON-RPC error answers of the MCP server (src/mcp/error-answers.ts, src/mcp/line-limit.ts), as they are written to the client.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InvalidStoreError, UsageError } from '../../src/core/errors.ts';
import { errorNote, errorResult, readableError, resourceError } from '../../src/mcp/error-answers.ts';
import { ASK_LESS, lineBeingRead, MAX_MESSAGE_BYTES, oversizeAnswer, unreadableError } from '../../src/mcp/line-limit.ts';

/** The answer the SDK writes for an error a request handler throws: its code, message and data. */
function answered(error: { code: number; message: string; data?: unknown }) {
  const sent = readableError({ jsonrpc: '2.0', id: 7, error: { code: error.code, message: error.message, data: error.data } });
  return (sent as { error: { code: number; message: string; data?: unknown } }).error;
}

describe('readableError', () => {
  it("sends a resource's error as the CLI's message, without the SDK's code prefix the client adds again", () => {
    const error = answered(resourceError(new UsageError('no plan with id 01M8XXA0000000000000000000', 'Run `agents plan list`.')));
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/^error: no plan with id 01M8XXA0000000000000000000\nhint: /);
    expect(error.message).not.toContain('MCP error');
    expect(error.data).toEqual({ code: 'usage', exit_code: 2, detail: null, diagnostics: [] });
  });

  it("gives a resource's or a prompt's error its code and detail in data, as a tool's error result has them", () => {
    const gone = answered(resourceError(new UsageError('no store at /r/.agents', 'Put it back.', { store: '/r/.agents' }, 'no-store')));
    expect(gone.code).toBe(-32602);
    expect(gone.data).toEqual({ code: 'no-store', exit_code: 2, detail: { store: '/r/.agents' }, diagnostics: [] });
    const unknown = answered(
      resourceError(new UsageError('unknown project wbe', 'Known: web.', { project: 'wbe', suggestions: ['web'] }, 'unknown-project')),
    );
    expect(unknown.code).toBe(-32002);
    expect(unknown.data).toMatchObject({ code: 'unknown-project', detail: { suggestions: ['web'] } });
  });

  it('keeps a message that holds no prefix, or the prefix of another code, as it is', () => {
    expect(answered({ code: -32601, message: 'Method not found' }).message).toBe('Method not found');
    expect(answered({ code: -32602, message: 'MCP error -32002: x' }).message).toBe('MCP error -32002: x');
  });
});

describe("the hint of an invalid store's error", () => {
  const invalid = () => new InvalidStoreError('projects/web/x.yaml:1:5 is invalid', []);
  const agents = 'agents --store /repo/.agents';

  it('names the validate of the store the server was given, in the text and in _meta', () => {
    const result = errorResult(invalid(), { write: () => true }, agents);
    const meta = (result._meta as { 'agents/error': { hint: string } })['agents/error'];
    expect(meta.hint).toBe('Fix the file, then run `agents --store /repo/.agents validate` to check the store.');
    expect((result.content[0] as { text: string }).text).toContain(`hint: ${meta.hint}`);
    expect(answered(resourceError(invalid(), agents)).message).toContain(meta.hint);
  });

  it("names the server's --store in the command an answer over the limit asks for instead (a prompt's)", () => {
    const tooLarge = oversizeAnswer({ text: 'x'.repeat(100) }, ASK_LESS.prompt, 64)!;
    expect(tooLarge.code).toBe('answer-too-large');
    const meta = (errorResult(tooLarge, { write: () => true }, agents)._meta as { 'agents/error': { hint: string } })['agents/error'];
    expect(meta.hint).toContain('`agents --store /repo/.agents plan strategize`');
    expect(answered(resourceError(tooLarge, agents)).message).toContain('`agents --store /repo/.agents plan strategize`');
    expect(tooLarge.hintFor('agents')).toContain('`agents plan strategize`');
  });

  it('keeps a hint of its own, and the plain command without a store given', () => {
    expect(new InvalidStoreError('x', [], 'Remove the copy.').hintFor(agents)).toBe('Remove the copy.');
    expect(invalid().hintFor('agents')).toBe('Fix the file, then run `agents validate` to check the store.');
  });
});

describe('unreadableError', () => {
  it("escapes the ESC, RLO and BOM of a line that is not JSON, which JSON.parse's message quotes", () => {
    let thrown: Error | undefined;
    try {
      JSON.parse('\ufeff{"a":\u001b[31m\u202e}');
    } catch (error) {
      thrown = error as Error;
    }
    const refused = unreadableError(thrown!)!;
    const answer = JSON.parse(refused.answer) as { id: null; error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32700);
    for (const message of [refused.message, answer.error.message]) {
      expect(message).not.toMatch(/[\u001b\u202e\ufeff]/);
      expect(message).toContain('\\u001b');
    }
  });
});

describe('unreadableError: the id of an invalid request', () => {
  const invalid = Object.assign(new Error('[]'), { name: 'ZodError' });
  const answerTo = (line: string | undefined) => JSON.parse(unreadableError(invalid, line)!.answer) as unknown;

  it('answers an invalid request under its own id when the line shows one, as JSON-RPC 2.0 requires', () => {
    expect(answerTo('{"jsonrpc":"2.0","id":8,"method":"ping","params":[]}')).toMatchObject({ id: 8, error: { code: -32600 } });
    expect(answerTo('{"jsonrpc":"1.0","id":"eight","method":"ping"}')).toMatchObject({ id: 'eight', error: { code: -32600 } });
  });

  it('answers with id null when the id cannot be read: none, an object, or no line', () => {
    expect(answerTo('{"foo":1}')).toMatchObject({ id: null });
    expect(answerTo('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}')).toMatchObject({ id: null });
    expect(answerTo(undefined)).toMatchObject({ id: null });
    expect(answerTo('[]')).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('unreadableError: a batch', () => {
  const invalid = Object.assign(new Error('[]'), { name: 'ZodError' });

  it("is refused as JSON-RPC answers a batch: an array with an error under each request's id, none for a notification", () => {
    const batch =
      '[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"ping"},5]';
    const answer = JSON.parse(unreadableError(invalid, batch)!.answer) as { id: unknown; error: { code: number } }[];
    expect(answer.map((a) => [a.id, a.error.code])).toEqual([
      [11, -32600],
      ['b', -32600],
      [null, -32600],
    ]);
    expect(answer[0]!.error).toHaveProperty('message', expect.stringContaining('2025-03-26'));
  });

  it('whose errors would make an answer over the limit of a message gets one error with id null', () => {
    const batch = JSON.stringify(Array.from({ length: 40_000 }, (_, id) => ({ id })));
    const answer = unreadableError(invalid, batch)!.answer;
    expect(Buffer.byteLength(answer)).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(JSON.parse(answer)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('40000 messages') } });
  });

  it('of notifications only is answered by nothing, and said', () => {
    const refused = unreadableError(invalid, '[{"jsonrpc":"2.0","method":"notifications/x"}]')!;
    expect(refused.answer).toBe('');
    expect(refused.message).toMatch(/batch/);
  });
});

describe('lineBeingRead', () => {
  it('gives the line a data listener added before it is reading, and nothing once it is done', () => {
    const lines = new PassThrough();
    const seen: (string | undefined)[] = [];
    let reading: () => Buffer | undefined = () => undefined;
    lines.on('data', () => seen.push(reading()?.toString()));
    reading = lineBeingRead(lines);
    lines.write('{"id":1}\n');
    lines.write('{"id":2}\n');
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(seen).toEqual(['{"id":1}\n', '{"id":2}\n']);
        expect(reading()).toBeUndefined();
        resolve();
      }),
    );
  });
});

describe('errorNote', () => {
  it("says a notification's schema failure in one line naming the field, not the SDK's dump over many", () => {
    const dump = JSON.stringify(
      [{ expected: 'object', code: 'invalid_type', path: ['params'], message: 'Invalid input: expected object, received undefined' }],
      null,
      2,
    );
    const note = errorNote(`Uncaught error in notification handler: ${dump}`);
    expect(note).not.toContain('\n');
    expect(note).toBe(
      'Uncaught error in notification handler: invalid request: params: Invalid input: expected object, received undefined',
    );
  });

  it('keeps another message as it is, its control characters escaped', () => {
    expect(errorNote('Received a response for an unknown message ID: 5')).toBe('Received a response for an unknown message ID: 5');
    expect(errorNote('odd \u001b[31m')).toBe('odd \\u001b[31m');
  });
});
