import { ANSWER_SCHEMA, type ReconcilePrompt } from '../core/reconcile-prompt.ts';
import { readUtf8 } from '../core/utf8.ts';
import type { Actor } from './actors.ts';
import { MAX_ANSWER_BYTES } from './command-actor.ts';
import { keyCleaner } from './credentials.ts';
import { modelActor, type ModelTransport, type SendOutcome } from './model-actor.ts';
import { loadUndici } from './proxy-loader.ts';

/** The `llm` actor's settings, defaults applied (config.yaml `reconciliation`, docs/actors.md). */
export interface LlmActorConfig {
  provider: 'openai' | 'anthropic';
  model: string;
  /** Without a trailing slash. */
  baseUrl: string;
  /** The key itself, read from the variable `api_key_env` names; sent only in a header. */
  apiKey: string | undefined;
  timeoutMs: number;
  batchSize: number;
  maxRequestChars: number;
  maxOutputTokens: number;
  maxRetries: number;
  /**
   * The proxy for baseUrl's scheme (HTTPS_PROXY or HTTP_PROXY of the run's environment), when one is set: the
   * variable that names it, as spelt there (its value may hold a password); NO_PROXY's hosts.
   */
  proxy?: { url: string; variable: string; noProxy: string };
  signal?: AbortSignal;
}

export const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

/** The first wait before a retry; doubled each time, unless the endpoint says how long (Retry-After). */
const BACKOFF_MS = 1000;
const MAX_WAIT_MS = 60_000;
const TOOL = 'record_results';
const RETRIED = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/**
 * The `llm` actor: one HTTP request per batch of invariants to an OpenAI-compatible
 * Chat Completions endpoint or to Anthropic's Messages API, asking for the answer's JSON
 * schema (OpenAI's `response_format`, a forced tool call for Anthropic). Plain `fetch`:
 * two small JSON APIs, and the retries, time-out and key handling are ours to test
 * (docs/adr/0700-model-actors.md).
 */
export function llmActor(config: LlmActorConfig): Actor {
  return modelActor({
    kind: 'llm',
    description: `the llm actor (${config.provider} ${config.model} at ${config.baseUrl})`,
    transport: llmTransport(config),
    timeoutMs: config.timeoutMs,
    batchSize: config.batchSize,
    maxRequestChars: config.maxRequestChars,
    ...(config.signal ? { signal: config.signal } : {}),
  });
}

/** The endpoint a provider's requests go to. */
export function endpointOf(config: Pick<LlmActorConfig, 'provider' | 'baseUrl'>): string {
  return config.provider === 'openai' ? `${config.baseUrl}/chat/completions` : `${config.baseUrl}/v1/messages`;
}

/** The request body for one prompt (what `--show-prompt` prints, less the headers). */
export function requestBody(config: LlmActorConfig, prompt: ReconcilePrompt, structured = true): Record<string, unknown> {
  if (config.provider === 'anthropic') {
    return {
      model: config.model,
      max_tokens: config.maxOutputTokens,
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
      tools: [{ name: TOOL, description: 'Record the judgement of every invariant asked about.', input_schema: ANSWER_SCHEMA }],
      tool_choice: { type: 'tool', name: TOOL },
    };
  }
  const body: Record<string, unknown> = {
    model: config.model,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
  };
  // OpenAI's own API takes only the newer name; compatible servers (Ollama, vLLM) know the older one.
  body[config.baseUrl === DEFAULT_BASE_URL.openai ? 'max_completion_tokens' : 'max_tokens'] = config.maxOutputTokens;
  if (structured)
    body.response_format = { type: 'json_schema', json_schema: { name: 'reconciliation', strict: true, schema: ANSWER_SCHEMA } };
  return body;
}

function llmTransport(config: LlmActorConfig): ModelTransport {
  const url = endpointOf(config);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.provider === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (config.apiKey !== undefined) headers['x-api-key'] = config.apiKey;
  } else if (config.apiKey !== undefined) {
    headers.authorization = `Bearer ${config.apiKey}`;
  }
  // Whatever an endpoint or a network error says is shown without the key (some echo it back).
  const clean = keyCleaner([config.apiKey]);
  let structured = true;
  // Anthropic's path holds its version: a base_url that ends in it asks for /v1/v1/messages.
  const doubled = config.provider === 'anthropic' && /\/v1$/.test(config.baseUrl);
  // OpenAI-compatible servers (Ollama, vLLM, LM Studio) serve /v1/chat/completions: a base_url of the host alone gets a 404.
  const bare = config.provider === 'openai' && URL.canParse(config.baseUrl) && new URL(config.baseUrl).pathname === '/';
  const on404 = doubled
    ? `; Anthropic's base_url is given without /v1 (${config.baseUrl.slice(0, -3)}): /v1/messages is appended to it`
    : bare
      ? `; an OpenAI-compatible server serves it under /v1 (base_url ${config.baseUrl}/v1): /chat/completions is appended to base_url`
      : '';
  // A proxy's failure reads as the endpoint's (connect ECONNREFUSED at the proxy's address): name the variable it came from.
  const via = config.proxy
    ? `; the request goes through the proxy in ${config.proxy.variable}${config.proxy.noProxy ? ' unless NO_PROXY lists its host' : ''}`
    : '';
  // Node's own fetch takes no proxy from the environment, and gives up on a response slower than undici's
  // 300 s whatever timeout_ms says: behind a proxy or for a longer run, requests go through undici's own agent.
  const send = config.proxy || config.timeoutMs > UNDICI_TIMEOUT_MS ? viaUndici(config.proxy) : fetch;

  return {
    model: `${config.provider}/${config.model}`,
    clean,
    async send(prompt, signal, timeLeftMs) {
      const started = Date.now();
      for (let attempt = 0; ; attempt++) {
        const r = await post(send, url, headers, requestBody(config, prompt, structured), signal, clean);
        if (signal.aborted) return { ok: false, reason: 'stopped' };
        if (r.kind === 'ok') {
          const got = answerOf(config.provider, r.body, config.maxOutputTokens, clean);
          return got.ok ? got : { ok: false, reason: clean(got.reason) };
        }
        // A compatible server without JSON-schema output: ask once more for plain text, read as a fenced block.
        // It refuses with a 400 (vLLM) or, when the field does not fit its own type, a 422 (Text Generation Inference).
        if (
          r.kind === 'status' &&
          (r.status === 400 || r.status === 422) &&
          structured &&
          config.provider === 'openai' &&
          /response_format|json_schema/i.test(r.text)
        ) {
          structured = false;
          attempt--;
          continue;
        }
        const why =
          r.kind === 'tls'
            ? `the TLS connection to ${url} failed: ${clean(r.message)}${via}; a private CA goes in NODE_EXTRA_CA_CERTS, a plain-HTTP endpoint needs an http:// base_url`
            : r.kind === 'network'
              ? `no response from ${url}: ${clean(r.message)}${via}`
              : r.status >= 300 && r.status < 400
                ? `HTTP ${r.status} from ${url}: redirected to ${clean(r.headers.get('location') ?? '(no location)')}; set reconciliation.base_url to where the endpoint is (a redirect is not followed: the key would go along)`
                : `HTTP ${r.status} from ${url}: ${clean(errorMessage(r.text, clean))}${r.status === 404 ? on404 : ''}`;
        const retryable = r.kind === 'network' || (r.kind === 'status' && RETRIED.has(r.status));
        if (!retryable || attempt >= config.maxRetries) {
          return { ok: false, reason: retryable && attempt > 0 ? `${why} (after ${attempt} ${attempt === 1 ? 'retry' : 'retries'})` : why };
        }
        const wait = Math.min(MAX_WAIT_MS, (r.kind === 'status' ? retryAfter(r.headers) : undefined) ?? BACKOFF_MS * 2 ** attempt);
        // A wait the run's time-out would cut short ends the run now, with the endpoint's status, not a bare time-out.
        if (wait >= timeLeftMs - (Date.now() - started)) {
          const tries = attempt > 0 ? `after ${attempt} ${attempt === 1 ? 'retry' : 'retries'}; ` : '';
          return { ok: false, reason: `${why} (${tries}the next retry, in ${Math.ceil(wait / 1000)} s, would pass timeout_ms)` };
        }
        if (!(await sleep(wait, signal))) return { ok: false, reason: 'stopped' };
      }
    },
  };
}

type Posted =
  | { kind: 'ok'; body: unknown }
  | { kind: 'status'; status: number; text: string; headers: Headers }
  | { kind: 'network'; message: string }
  /** A certificate or TLS protocol failure: the same on every attempt, so never retried. */
  | { kind: 'tls'; message: string };

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** How long undici (Node's fetch) waits for a response's headers, and between two parts of its body, by default. */
const UNDICI_TIMEOUT_MS = 300_000;

/**
 * A fetch through undici's own agent, loaded on first use: through the proxy the environment names for
 * the endpoint (bypassing the hosts NO_PROXY lists) when `proxy` is given, and without undici's waiting limits, as the
 * run's time-out (timeout_ms, its signal) bounds every request.
 */
function viaUndici(proxy: LlmActorConfig['proxy']): Fetch {
  let loaded: Promise<Fetch> | undefined;
  return async (url, init) => {
    loaded ??= loadUndici().then(({ Agent, EnvHttpProxyAgent, fetch: undiciFetch }) => {
      const unlimited = { headersTimeout: 0, bodyTimeout: 0 };
      const dispatcher = proxy
        ? // One endpoint, so one proxy for both schemes; every value given, so that undici reads none of process.env.
          new EnvHttpProxyAgent({ ...unlimited, httpProxy: proxy.url, httpsProxy: proxy.url, noProxy: proxy.noProxy })
        : new Agent(unlimited);
      return (u, i) => undiciFetch(u, { ...(i as object), dispatcher }) as unknown as Promise<Response>;
    });
    return (await loaded)(url, init);
  };
}

/**
 * One request. `clean` takes the key out of an error's whole text before it is cut to its start: a key
 * echoed across that cut would no longer be found whole. A model's answer is kept as it is: a dummy key
 * (`ollama`, `EMPTY`) would be taken out of its words.
 */
async function post(
  send: Fetch,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
  clean: (text: string) => string,
): Promise<Posted> {
  try {
    // Not followed, and not 'error' either: that throws as a network failure would, which is retried.
    const res = await send(url, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'manual' });
    const bytes = await readCapped(res, MAX_ANSWER_BYTES);
    if (bytes === undefined) {
      const over = `the response is larger than ${MAX_ANSWER_BYTES} bytes; it was not read further`;
      return { kind: 'status', status: res.ok ? 200 : res.status, text: over, headers: new Headers() };
    }
    if (!res.ok) return { kind: 'status', status: res.status, text: clean(bytes.toString('utf8')), headers: res.headers };
    // Read leniently, a byte that is not UTF-8 would reach the record as U+FFFD: reasoning the model never gave.
    const read = readUtf8(bytes);
    if (!read.ok) {
      const where = `line ${read.line}, column ${read.col}`;
      return { kind: 'status', status: res.status, text: `the response is not UTF-8 text (${where})`, headers: res.headers };
    }
    const text = read.text;
    try {
      return { kind: 'ok', body: JSON.parse(text) };
    } catch {
      const said = text.trim() === '' ? 'the response is empty' : `the response is not JSON: ${clean(text).slice(0, 200)}`;
      return { kind: 'status', status: res.status, text: said, headers: res.headers };
    }
  } catch (error) {
    const { code, said } = failureOf(error);
    if (code !== undefined && /CERT|SSL|TLS/.test(code)) {
      // A certificate's failure reads well ("self-signed certificate"); OpenSSL's own lines do not.
      return { kind: 'tls', message: said && !said.includes(':error:') ? `${said} (${code})` : code };
    }
    const message =
      said === undefined ? (code ?? (error as Error).message) : code === undefined || said.includes(code) ? said : `${said} (${code})`;
    return { kind: 'network', message };
  }
}

/**
 * What a failed fetch says, from the chain of causes undici nests: fetch's TypeError, at times a
 * DOMException ("Request was cancelled.", a numeric code), then the failure itself (a proxy's refusal,
 * a socket's error). The innermost message, and the innermost code that is a name (ECONNREFUSED).
 */
function failureOf(error: unknown): { code: string | undefined; said: string | undefined } {
  let code: string | undefined;
  let said: string | undefined;
  let c = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; c !== null && typeof c === 'object' && depth < 5; depth++) {
    const { code: k, message: m, cause } = c as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof k === 'string') code = k;
    if (typeof m === 'string' && m !== '') said = m;
    c = cause;
  }
  return { code, said };
}

/** A response's body, or `undefined` past `max` bytes: an endpoint must not fill the memory, as an actor's output may not. */
async function readCapped(res: Response, max: number): Promise<Buffer | undefined> {
  if (res.body === null) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}

/** The model's answer in a provider's response: the forced tool call's input, or the message text. */
function answerOf(provider: LlmActorConfig['provider'], body: unknown, maxTokens: number, clean: (text: string) => string): SendOutcome {
  const cut = {
    ok: false as const,
    reason: `the answer was cut at max_output_tokens (${maxTokens}): raise it or lower batch_size in config.yaml`,
  };
  // A response without the provider's answer in it (a proxy's error sent with status 200, a null) is
  // the endpoint's failure, not a malformed answer of the model's: asking the model again would not help.
  const shape = provider === 'anthropic' ? 'content' : 'choices';
  const found = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const said = found && found.error !== undefined ? `: ${errorOf(found, clean) ?? bodyStart(found, clean)}` : '';
  if (!Array.isArray(found?.[shape])) return { ok: false, reason: `the response holds no answer (no ${shape} list)${said}` };
  // No choice at all is the endpoint's failure too (a gateway whose upstream failed), not an empty answer of the model's.
  if (provider === 'openai' && (found[shape] as unknown[]).length === 0) {
    return { ok: false, reason: `the response holds no answer (an empty choices list)${said}` };
  }
  if (provider === 'anthropic') {
    const b = body as { content: { type?: string; name?: string; input?: unknown; text?: string }[]; stop_reason?: string };
    if (b.stop_reason === 'max_tokens') return cut;
    const content = b.content;
    const call = content.find((c) => c?.type === 'tool_use' && c.name === TOOL);
    if (call) return { ok: true, answer: call.input };
    const text = content
      .filter((c) => c?.type === 'text' && typeof c.text === 'string')
      .map((c) => c.text)
      .join('');
    // Stopped by Anthropic's safety classifiers: the same prompt would be refused again, as OpenAI's refusal is.
    if (b.stop_reason === 'refusal')
      return { ok: false, reason: `the model refused (stop_reason refusal)${text.trim() ? `: ${clean(text.trim()).slice(0, 300)}` : ''}` };
    return { ok: true, answer: text };
  }
  const choice = (body as { choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: string }[] }).choices?.[0];
  if (choice?.finish_reason === 'length') return cut;
  if (typeof choice?.message?.refusal === 'string' && choice.message.refusal !== '') {
    return { ok: false, reason: `the model refused: ${clean(choice.message.refusal).slice(0, 300)}` };
  }
  // The endpoint's content filter cut the answer (Azure OpenAI): the same prompt would be cut again.
  if (choice?.finish_reason === 'content_filter') {
    return { ok: false, reason: "the endpoint's content filter stopped the answer (finish_reason content_filter)" };
  }
  // A choice that is no object, or has no message, holds no answer of the model's either: the endpoint failed.
  const message = choice?.message as unknown;
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return { ok: false, reason: `the response holds no answer (its first choice has no message)${said}` };
  }
  const content = choice?.message?.content;
  // Some compatible servers give the content as a list of parts ({type: 'text', text}), as Anthropic does.
  const parts = Array.isArray(content)
    ? content
        .filter((c: { type?: unknown; text?: unknown } | null) => c?.type === 'text' && typeof c.text === 'string')
        .map((c: { text: string }) => c.text)
        .join('')
    : undefined;
  return { ok: true, answer: typeof content === 'string' ? content : (parts ?? '') };
}

/** An error body's message (each provider nests it under `error`), else the start of the body. */
function errorMessage(text: string, clean: (text: string) => string): string {
  try {
    const m = errorOf(JSON.parse(text), clean);
    if (m !== undefined) return m;
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim().slice(0, 300) || '(no body)';
}

/** The start of a parsed body as JSON, for an error without a message; a value nested too deep to write out is said to be one. */
function bodyStart(body: unknown, clean: (text: string) => string): string {
  try {
    return clean(JSON.stringify(body)).slice(0, 300);
  } catch {
    return '(a body nested too deep to show)';
  }
}

/** The message of a parsed body's `error` (a string, or an object's `message`), read without writing the body out again. */
function errorOf(body: unknown, clean: (text: string) => string): string | undefined {
  const e = (body as { error?: { message?: unknown } | string } | null)?.error;
  const m = typeof e === 'string' ? e : e?.message;
  return typeof m === 'string' ? clean(m).slice(0, 300) : undefined;
}

/** Retry-After (seconds or an HTTP date) or OpenAI's retry-after-ms, in ms. */
function retryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const v = headers.get('retry-after');
  if (v === null) return undefined;
  const s = Number(v);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Waits, unless aborted first: true when the wait ran out. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
