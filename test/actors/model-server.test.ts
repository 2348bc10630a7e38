import { afterEach, describe, expect, it } from 'vitest';
import { callToolOnce, type ModelServer, startModelServer } from '../helpers/model-server.ts';

// The scripted model endpoint the actor tests (and the agent-CLI tests) stand on: each wire
// format answers as the real one does, so a test that passes against it means something.

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (path: string, body: unknown) =>
  fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The `data:` payloads of an SSE body, parsed (the `[DONE]` marker left out). */
async function events(res: Response): Promise<Record<string, unknown>[]> {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

describe('model server', () => {
  it('Anthropic messages: JSON text, then a streamed tool call, logging each request', async () => {
    server = await startModelServer([{ text: 'hello' }, { tool: 'Write', input: { file_path: '/x', content: 'y' } }]);
    const a = await (
      await post('/v1/messages', { model: 'm1', system: 'be brief', messages: [{ role: 'user', content: 'hi there' }] })
    ).json();
    expect(a).toMatchObject({ type: 'message', model: 'm1', stop_reason: 'end_turn', content: [{ type: 'text', text: 'hello' }] });
    const b = await events(await post('/v1/messages', { model: 'm1', stream: true, tools: [{ name: 'Write' }], messages: [] }));
    expect(b.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(b[2]).toMatchObject({ delta: { type: 'input_json_delta', partial_json: '{"file_path":"/x","content":"y"}' } });
    expect(server.requests.map((r) => [r.protocol, r.stream, r.model, r.tools])).toEqual([
      ['anthropic', false, 'm1', []],
      ['anthropic', true, 'm1', ['Write']],
    ]);
    expect(server.requests[0]!.text).toContain('be brief');
    expect(server.requests[0]!.text).toContain('hi there');
  });

  it('OpenAI responses: function_call and custom_tool_call streamed, JSON text, tool results seen', async () => {
    server = await startModelServer([
      { tool: 'exec_command', input: { cmd: 'ls' } },
      { tool: 'apply_patch', input: '*** Begin Patch' },
      { text: '{"ok":true}' },
    ]);
    const tools = [
      { type: 'function', name: 'exec_command' },
      { type: 'custom', name: 'apply_patch' },
    ];
    const fc = await events(await post('/v1/responses', { model: 'm', stream: true, tools, input: [] }));
    expect(fc.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { output: [{ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' }] },
    });
    const ctc = await events(await post('/v1/responses', { model: 'm', stream: true, tools, input: [] }));
    expect(ctc.at(-1)).toMatchObject({
      response: { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch' }] },
    });
    const input = [{ type: 'function_call_output', call_id: 'c1', output: 'denied by hook' }];
    const text = await (await post('/v1/responses', { model: 'm', input })).json();
    expect(text).toMatchObject({
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text: '{"ok":true}' }] }],
    });
    expect(server.requests[2]!.toolResults).toEqual(input);
  });

  it('OpenAI chat completions, JSON and streamed', async () => {
    server = await startModelServer([{ text: 'one' }, { text: 'two' }]);
    const a = await (await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'q' }] })).json();
    expect(a).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'one' }, finish_reason: 'stop' }],
    });
    const b = await events(await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] }));
    expect(b[0]).toMatchObject({ object: 'chat.completion.chunk', choices: [{ delta: { content: 'two' } }] });
    expect(b[1]).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  });

  it('Gemini generateContent and streamGenerateContent, the model from the URL', async () => {
    server = await startModelServer(callToolOnce('write_file', { file_path: '/p' }, 'finished'));
    const tools = [{ functionDeclarations: [{ name: 'read_file' }, { name: 'write_file' }] }];
    const call = await events(await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [], tools }));
    expect(call[0]).toMatchObject({
      candidates: [{ content: { parts: [{ functionCall: { name: 'write_file', args: { file_path: '/p' } } }] } }],
    });
    const contents = [{ role: 'user', parts: [{ functionResponse: { name: 'write_file', response: { error: 'denied' } } }] }];
    const done = await (await post('/v1beta/models/gemini-2.5-flash:generateContent', { contents, tools })).json();
    expect(done).toMatchObject({ candidates: [{ content: { parts: [{ text: 'finished' }] } }] });
    expect(server.requests.map((r) => [r.protocol, r.stream, r.model, r.tools])).toEqual([
      ['gemini', true, 'gemini-2.5-flash', ['read_file', 'write_file']],
      ['gemini', false, 'gemini-2.5-flash', ['read_file', 'write_file']],
    ]);
    expect(server.requests[1]!.toolResults).toEqual([{ functionResponse: { name: 'write_file', response: { error: 'denied' } } }]);
  });

  it('scripted status codes in each protocol’s error shape; token counts bypass the script', async () => {
    server = await startModelServer([{ status: 429, headers: { 'retry-after': '0' } }, { status: 500 }, { status: 503 }]);
    const count = await post('/v1/messages/count_tokens', { messages: [] });
    expect(await count.json()).toEqual({ input_tokens: 10 });
    const a = await post('/v1/messages', { messages: [] });
    expect([a.status, a.headers.get('retry-after'), ((await a.json()) as { error: { type: string } }).error.type]).toEqual([
      429,
      '0',
      'rate_limit_error',
    ]);
    const o = await post('/v1/responses', { input: [] });
    expect([o.status, ((await o.json()) as { error: { type: string } }).error.type]).toEqual([500, 'server_error']);
    const g = await post('/v1beta/models/x:generateContent', {});
    expect([g.status, ((await g.json()) as { error: { code: number } }).error.code]).toEqual([503, 503]);
    expect(server.generations()).toHaveLength(3);
    expect((await post('/v1/messages', { messages: [] })).status).toBe(200); // the fallback, "ok"
    expect((await post('/nowhere', {})).status).toBe(404);
  });

  it('a hanging reply holds the connection until the client aborts, or close() cuts it', async () => {
    server = await startModelServer([{ hang: true }, { hang: true }]);
    const aborted = fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(200) });
    await expect(aborted).rejects.toMatchObject({ name: 'TimeoutError' });
    const open = post('/v1/messages', {});
    while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
    await server.close();
    await expect(open).rejects.toThrow();
    server = undefined;
  });
});
