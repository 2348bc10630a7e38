import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model endpoint on 127.0.0.1 for tests of code that talks to a
 * model: the `llm` actor's providers and real agent CLIs run headless.
 *
 * It speaks four wire formats, each the way the real endpoint does:
 * - Anthropic Messages: `POST …/v1/messages` (JSON, or SSE when `stream: true`), `…/count_tokens`;
 * - OpenAI Responses: `POST …/responses` (SSE when `stream: true`, else JSON), with
 *   `function_call` items, or `custom_tool_call` items when the offered tool is a custom
 *   (freeform) one, as Codex's `apply_patch`;
 * - OpenAI Chat Completions: `POST …/chat/completions` (JSON or SSE);
 * - Gemini: `POST …/models/<m>:generateContent` and `:streamGenerateContent` (SSE), `:countTokens`.
 *
 * Every generation request takes the next reply of the script: a queue of replies
 * (an empty queue answers `fallback`, by default the text "ok"), or a function of the
 * request. Token counts and model lists are answered without touching the script.
 * Every request is kept, parsed, in `requests`, for assertions on what was sent.
 *
 * The server runs in the test's own process: start the program under test with an
 * asynchronous spawn (`spawn`, `execFile`), never `spawnSync`, which would block the
 * event loop that answers it.
 */

export type Protocol = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini' | 'count-tokens' | 'models' | 'unknown';

export interface ModelRequest {
  /** 1-based, in arrival order. */
  n: number;
  method: string;
  /** The path and query, as sent. */
  url: string;
  protocol: Protocol;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or `undefined` when it is not JSON (see `raw`). */
  body: unknown;
  raw: string;
  /** Whether the client asked for a streamed (SSE) answer. */
  stream: boolean;
  /** The model named in the body (or, for Gemini, the URL). */
  model: string | undefined;
  /** Names of the tools the request offers. */
  tools: string[];
  /** The tool results the conversation carries back, oldest first, in each format's own shape. */
  toolResults: unknown[];
  /** Every string in the body joined by newlines: the prompt, for `toContain` assertions. */
  text: string;
}

/** One scripted answer. `delayMs` waits before answering (or before the status, for errors). */
export type Reply = (
  | { text: string }
  /**
   * A tool call: `input` is the arguments object, or for a custom tool its raw string. `namespace`
   * (Responses only) calls a tool of a namespace the client offered, as Codex offers an MCP server's.
   */
  | { tool: string; input: unknown; namespace?: string }
  /** An HTTP error in the protocol's own error shape; `headers` such as `retry-after`. */
  | { status: number; message?: string; headers?: Record<string, string> }
  /** Never answer: the connection stays open until the client gives up or the server closes. */
  | { hang: true }
  /** Any response, as is (`body` as bytes for one that is not UTF-8). */
  | { raw: { status: number; headers?: Record<string, string>; body: string | Uint8Array } }
) & { delayMs?: number };

export type Script = Reply[] | ((request: ModelRequest) => Reply | Promise<Reply>);

export interface ModelServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  port: number;
  /** Every request received, in order (token counts and model lists included). */
  requests: ModelRequest[];
  /** The generation requests only (what took a reply of the script). */
  generations(): ModelRequest[];
  /** Appends replies to the queue (a queue script only). */
  push(...replies: Reply[]): void;
  /** Stops listening and cuts every open connection, hanging ones included. */
  close(): Promise<void>;
}

export interface ModelServerOptions {
  /** The reply when a queue script is empty; the text "ok" by default. */
  fallback?: Reply;
}

/** Starts a model server on 127.0.0.1 at a free port. */
export async function startModelServer(script: Script = [], options: ModelServerOptions = {}): Promise<ModelServer> {
  const queue = Array.isArray(script) ? [...script] : null;
  const fallback = options.fallback ?? { text: 'ok' };
  const requests: ModelRequest[] = [];
  const generations: ModelRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let ids = 0;
  const id = (prefix: string) => `${prefix}_${(++ids).toString(36).padStart(6, '0')}`;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = parse(req, Buffer.concat(chunks).toString('utf8'), requests.length + 1);
      requests.push(request);
      void answer(request, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `model server: ${String(e)}` } }));
      });
    });
  });

  async function answer(request: ModelRequest, res: ServerResponse): Promise<void> {
    if (request.protocol === 'count-tokens')
      return json(res, 200, request.url.includes(':countTokens') ? { totalTokens: 10 } : { input_tokens: 10 });
    if (request.protocol === 'models') {
      return json(res, 200, { object: 'list', data: [{ id: 'stub-model', object: 'model', created: 0, owned_by: 'test' }], models: [] });
    }
    if (request.protocol === 'unknown')
      return json(res, 404, { error: { type: 'not_found', message: `no such endpoint: ${request.method} ${request.url}` } });
    generations.push(request);
    const reply = queue ? (queue.shift() ?? fallback) : await (script as Exclude<Script, Reply[]>)(request);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if ('hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('raw' in reply) {
      res.writeHead(reply.raw.status, reply.raw.headers ?? {});
      res.end(reply.raw.body);
      return;
    }
    if ('status' in reply) return json(res, reply.status, errorBody(request.protocol, reply.status, reply.message), reply.headers);
    const turn: Turn =
      'text' in reply
        ? { kind: 'text', text: reply.text }
        : { kind: 'tool', name: reply.tool, input: reply.input, ...(reply.namespace ? { namespace: reply.namespace } : {}) };
    if (request.protocol === 'anthropic') return anthropic(res, request, turn, id);
    if (request.protocol === 'openai-responses') return responses(res, request, turn, id);
    if (request.protocol === 'openai-chat') return chat(res, request, turn, id);
    return gemini(res, request, turn);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    generations: () => [...generations],
    push(...replies) {
      if (!queue) throw new Error('push() needs a queue script');
      queue.push(...replies);
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A script that makes an agent call one tool, then finish, as one stateless rule per
 * request (so side requests an agent CLI makes, for titles or quota, do no harm):
 * a conversation that already carries a tool result gets `finalText`; a request that
 * offers the tool `name` gets the call; any other gets "ok".
 */
export function callToolOnce(name: string, input: unknown, finalText = 'done'): (request: ModelRequest) => Reply {
  return (request) => {
    if (request.toolResults.length > 0) return { text: finalText };
    if (request.tools.includes(name)) return { tool: name, input };
    return { text: 'ok' };
  };
}

type Turn = { kind: 'text'; text: string } | { kind: 'tool'; name: string; input: unknown; namespace?: string };
type Json = Record<string, unknown>;

function parse(req: IncomingMessage, raw: string, n: number): ModelRequest {
  const url = req.url ?? '/';
  const method = req.method ?? 'GET';
  let body: unknown;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    body = undefined;
  }
  const b = (body && typeof body === 'object' ? body : {}) as Json;
  const protocol = protocolOf(method, url);
  const tools = toolNames(b.tools);
  return {
    n,
    method,
    url,
    protocol,
    headers: req.headers,
    body,
    raw,
    stream: protocol === 'gemini' ? url.includes(':streamGenerateContent') : b.stream === true,
    model: typeof b.model === 'string' ? b.model : /\/models\/([^/:?]+)/.exec(url)?.[1],
    tools,
    toolResults: toolResults(protocol, b),
    text: strings(body).join('\n'),
  };
}

function protocolOf(method: string, url: string): Protocol {
  const path = url.split('?')[0] ?? '';
  if (method === 'GET' && /\/models\/?$/.test(path)) return 'models';
  if (method !== 'POST') return 'unknown';
  if (/\/messages\/count_tokens$/.test(path) || /:countTokens$/.test(path)) return 'count-tokens';
  if (/\/messages$/.test(path)) return 'anthropic';
  if (/\/responses$/.test(path)) return 'openai-responses';
  if (/\/chat\/completions$/.test(path)) return 'openai-chat';
  if (/:(stream)?[gG]enerateContent$/.test(path)) return 'gemini';
  return 'unknown';
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const t of tools as Json[]) {
    if (typeof t?.name === 'string') names.push(t.name);
    else if (typeof (t?.function as Json | undefined)?.name === 'string') names.push((t.function as Json).name as string);
    else if (Array.isArray(t?.functionDeclarations)) for (const f of t.functionDeclarations as Json[]) names.push(String(f.name));
    else if (typeof t?.type === 'string') names.push(t.type);
  }
  return names;
}

function toolResults(protocol: Protocol, b: Json): unknown[] {
  const list = (v: unknown) => (Array.isArray(v) ? (v as Json[]) : []);
  if (protocol === 'anthropic') return list(b.messages).flatMap((m) => list(m.content).filter((c) => c?.type === 'tool_result'));
  if (protocol === 'openai-responses') return list(b.input).filter((i) => typeof i?.type === 'string' && /_output$/.test(i.type as string));
  if (protocol === 'openai-chat') return list(b.messages).filter((m) => m?.role === 'tool');
  if (protocol === 'gemini') return list(b.contents).flatMap((c) => list(c.parts).filter((p) => p?.functionResponse));
  return [];
}

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function errorBody(protocol: Protocol, status: number, message = `scripted status ${status}`): unknown {
  if (protocol === 'anthropic') {
    const type =
      status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return { type: 'error', error: { type, message } };
  }
  if (protocol === 'gemini') return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null, param: null } };
}

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function anthropic(res: ServerResponse, request: ModelRequest, turn: Turn, id: (p: string) => string) {
  const block =
    turn.kind === 'tool' ? { type: 'tool_use', id: id('toolu'), name: turn.name, input: turn.input } : { type: 'text', text: turn.text };
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model: request.model ?? 'stub-model',
    content: [block],
    stop_reason: turn.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage,
  };
  if (!request.stream) return json(res, 200, message);
  sseHead(res);
  const ev = (event: string, data: Json) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  ev('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  if (block.type === 'text') {
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: (block as { text: string }).text } });
  } else {
    ev('content_block_start', { index: 0, content_block: { ...block, input: {} } });
    ev('content_block_delta', {
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify((block as { input: unknown }).input) },
    });
  }
  ev('content_block_stop', { index: 0 });
  ev('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
  ev('message_stop', {});
  res.end();
}

function responses(res: ServerResponse, request: ModelRequest, turn: Turn, id: (p: string) => string) {
  const offered = ((request.body as Json | undefined)?.tools as Json[] | undefined)?.find(
    (t) => t?.name === (turn.kind === 'tool' ? turn.name : ''),
  );
  let item: Json;
  if (turn.kind === 'tool' && offered?.type === 'custom') {
    const input = typeof turn.input === 'string' ? turn.input : JSON.stringify(turn.input);
    item = { type: 'custom_tool_call', id: id('ctc'), call_id: id('call'), name: turn.name, input, status: 'completed' };
  } else if (turn.kind === 'tool') {
    item = {
      type: 'function_call',
      id: id('fc'),
      call_id: id('call'),
      name: turn.name,
      ...(turn.namespace ? { namespace: turn.namespace } : {}),
      arguments: JSON.stringify(turn.input),
      status: 'completed',
    };
  } else {
    item = {
      type: 'message',
      id: id('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    };
  }
  const base = {
    id: id('resp'),
    object: 'response',
    created_at: 1_764_633_600,
    model: request.model ?? 'stub-model',
    status: 'in_progress',
    output: [],
  };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const done = { ...base, status: 'completed', output: [item], usage };
  if (!request.stream) return json(res, 200, done);
  sseHead(res);
  let seq = 0;
  const ev = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  ev('response.created', { response: base });
  ev('response.in_progress', { response: base });
  const at = { output_index: 0, item_id: item.id };
  if (item.type === 'custom_tool_call') {
    ev('response.output_item.added', { output_index: 0, item: { ...item, input: '', status: 'in_progress' } });
    ev('response.custom_tool_call_input.delta', { ...at, delta: item.input });
    ev('response.custom_tool_call_input.done', { ...at, input: item.input });
  } else if (item.type === 'function_call') {
    ev('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    ev('response.function_call_arguments.delta', { ...at, delta: item.arguments });
    ev('response.function_call_arguments.done', { ...at, arguments: item.arguments });
  } else {
    const part = (item.content as Json[])[0]!;
    ev('response.output_item.added', { output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
    ev('response.content_part.added', { ...at, content_index: 0, part: { ...part, text: '' } });
    ev('response.output_text.delta', { ...at, content_index: 0, delta: part.text });
    ev('response.output_text.done', { ...at, content_index: 0, text: part.text });
    ev('response.content_part.done', { ...at, content_index: 0, part });
  }
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', { response: done });
  res.end();
}

function chat(res: ServerResponse, request: ModelRequest, turn: Turn, id: (p: string) => string) {
  const call =
    turn.kind === 'tool'
      ? { id: id('call'), type: 'function', function: { name: turn.name, arguments: JSON.stringify(turn.input) } }
      : null;
  const content = turn.kind === 'text' ? turn.text : null;
  const finish = call ? 'tool_calls' : 'stop';
  const head = { id: id('chatcmpl'), created: 1_764_633_600, model: request.model ?? 'stub-model' };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!request.stream) {
    const message = { role: 'assistant', content, refusal: null, ...(call ? { tool_calls: [call] } : {}) };
    return json(res, 200, {
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
      usage,
    });
  }
  sseHead(res);
  const w = (d: Json) => res.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...d })}\n\n`);
  const delta = { role: 'assistant', content, ...(call ? { tool_calls: [{ index: 0, ...call }] } : {}) };
  w({ choices: [{ index: 0, delta, finish_reason: null }] });
  w({ choices: [{ index: 0, delta: {}, finish_reason: finish }], usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

function gemini(res: ServerResponse, request: ModelRequest, turn: Turn) {
  const part = turn.kind === 'tool' ? { functionCall: { name: turn.name, args: turn.input } } : { text: turn.text };
  const payload = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: request.model ?? 'stub-model',
  };
  if (!request.stream) return json(res, 200, payload);
  sseHead(res);
  res.write(`data: ${JSON.stringify(payload)}\n\n`);
  res.end();
}
