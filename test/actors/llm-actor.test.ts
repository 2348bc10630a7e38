import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMPT_VERSION } from '../../src/core/reconcile-prompt.ts';
import { startConnectProxy } from '../helpers/connect-proxy.ts';
import { runAgents } from '../helpers/main.ts';
import { type ModelRequest, type ModelServer, type Reply, startModelServer } from '../helpers/model-server.ts';
import {
  EXAMPLE_PLAN,
  EXAMPLE_PLAN_GOAL,
  EXAMPLE_PLAN_SET,
  exampleStore,
  fileList,
  records,
  type DecisionFile,
  type EnforcementFile,
} from '../helpers/plans.ts';

// The `llm` actor against a scripted endpoint on 127.0.0.1, through the whole command:
// what the endpoint received, and the records written from its answers.

const SET = EXAMPLE_PLAN_SET;
const IDS = SET.map(([id]) => id);
const GOAL = EXAMPLE_PLAN_GOAL;
const CONTEXT = 'Step 1: bump the interpreter in pyproject.toml.\nStep 2: run the test suite and keep the 3.12 job.';
const KEY = 'sk-test-7f3c9a1e5b2d4f6a8c0e-SECRET';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An answer for `ids`: each enforced unless listed in `refused`. */
function answer(ids: readonly string[], refused: readonly string[] = []): string {
  return JSON.stringify({
    results: ids.map((id) => ({ invariant_id: id, enforced: !refused.includes(id), response: `judged ${id.slice(-4)}: step 2 covers it` })),
  });
}

/** A reply in the provider's structured form: the forced tool call (Anthropic) or JSON text (OpenAI). */
function reply(provider: 'openai' | 'anthropic', json: string): Reply {
  return provider === 'anthropic' ? { tool: 'record_results', input: JSON.parse(json) } : { text: json };
}

/** A store (a copy of the example) whose config.yaml runs the llm actor against the server. */
function llmStore(provider: 'openai' | 'anthropic', extra: string[] = []): { root: string; context: string } {
  const root = exampleStore();
  const base = provider === 'openai' ? `${server!.url}/v1` : server!.url;
  writeFileSync(
    join(root, 'config.yaml'),
    [
      'version: 1',
      'reconciliation:',
      '  actor: llm',
      `  provider: ${provider}`,
      '  model: judge-1',
      `  base_url: ${base}`,
      '  api_key_env: JUDGE_KEY',
      ...(extra.some((l) => l.startsWith('timeout_ms:')) ? [] : ['  timeout_ms: 20000']),
      ...extra.map((l) => `  ${l}`),
      '',
    ].join('\n'),
  );
  const context = join(dirname(root), 'context.md');
  writeFileSync(context, CONTEXT);
  return { root, context };
}

function strategize(root: string, context: string, ...extra: string[]) {
  return runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context, ...extra], { env: { JUDGE_KEY: KEY } });
}

function onlyRun(root: string): { run: EnforcementFile & { model?: string; prompt_version?: string }; node: DecisionFile } {
  const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
  const nodes = records<DecisionFile>(root, EXAMPLE_PLAN, 'decisions');
  expect(runs).toHaveLength(1);
  expect(nodes).toHaveLength(1);
  expect(nodes[0]!.enforcement_id).toBe(runs[0]!.id);
  expect(runs[0]!.records.map((r) => r.invariant_id)).toEqual(IDS);
  return { run: runs[0]!, node: nodes[0]! };
}

/** What a generation request asked: the invariants as listed in the prompt. */
function asked(r: ModelRequest): string[] {
  return [...r.text.matchAll(/"id": "([0-9A-Z]{26})"/g)].map((m) => m[1]!);
}

describe.each(['openai', 'anthropic'] as const)('the llm actor, %s', (provider) => {
  it('sends the goal, the context and every invariant (id and text), asks for the schema, and records the answers', async () => {
    server = await startModelServer([reply(provider, answer(IDS, [IDS[3]!]))]);
    const { root, context } = llmStore(provider);
    const r = await strategize(root, context);
    expect(r.code).toBe(1); // one invariant not enforced
    const [req] = server.generations();
    expect(server.generations()).toHaveLength(1);
    expect(req!.protocol).toBe(provider === 'openai' ? 'openai-chat' : 'anthropic');
    expect(req!.model).toBe('judge-1');
    for (const [id, text] of SET) {
      expect(req!.text).toContain(id);
      expect(req!.text).toContain(text);
    }
    expect(req!.text).toContain(GOAL);
    expect(req!.text).toContain(CONTEXT);
    const body = req!.body as Record<string, unknown>;
    if (provider === 'openai') {
      expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
      expect(body.max_tokens).toBe(4096);
    } else {
      expect(req!.headers['x-api-key']).toBe(KEY);
      expect(req!.headers['anthropic-version']).toBe('2023-06-01');
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'record_results' });
      expect(body.max_tokens).toBe(4096);
    }
    const { run, node } = onlyRun(root);
    expect(run).toMatchObject({ actor: 'llm', model: `${provider}/judge-1`, prompt_version: PROMPT_VERSION });
    expect(run.error).toBeUndefined();
    expect(run.records.map((x) => x.enforced)).toEqual([true, true, true, false]);
    expect(run.records[0]!.actor_response).toBe(`judged ${IDS[0]!.slice(-4)}: step 2 covers it`);
    expect(node).toMatchObject({ actor: 'llm', summary: '3 of 4 invariants enforced (llm actor)' });
  });

  it('one request per batch of batch_size invariants', async () => {
    server = await startModelServer((req) => reply(provider, answer(asked(req))));
    const { root, context } = llmStore(provider, ['batch_size: 3']);
    const r = await strategize(root, context);
    expect(r.code).toBe(0);
    expect(server.generations().map(asked)).toEqual([IDS.slice(0, 3), IDS.slice(3)]);
    expect(onlyRun(root).run.records.every((x) => x.enforced)).toBe(true);
  });

  it('asks once more after a malformed answer, saying what was wrong', async () => {
    server = await startModelServer([{ text: 'Sure! Everything looks fine to me.' }, reply(provider, answer(IDS))]);
    const { root, context } = llmStore(provider);
    expect((await strategize(root, context)).code).toBe(0);
    const [first, second] = server.generations();
    expect(server.generations()).toHaveLength(2);
    expect(first!.text).not.toContain('previous answer');
    expect(second!.text).toContain('Your previous answer could not be used');
    expect(onlyRun(root).run.error).toBeUndefined();
  });

  it('a second malformed answer fails the run (run-failed), every record not enforced with the reason', async () => {
    const bad = JSON.stringify({ results: [{ invariant_id: IDS[0], enforced: 'yes', response: 'x' }] });
    server = await startModelServer([reply(provider, bad), reply(provider, bad)].map((x) => ('tool' in x ? x : { text: bad })));
    const { root, context } = llmStore(provider);
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(2);
    const { run } = onlyRun(root);
    expect(run.error).toMatch(/does not match actor-response\.schema\.json: results\.0\.enforced must be boolean \(after one retry\)/);
    expect(run.records.every((x) => !x.enforced && x.actor_response.startsWith('not enforced: '))).toBe(true);
    const status = await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN, '--format', 'json']);
    expect(status.code).toBe(1);
    expect((JSON.parse(status.stdout) as { reasons: { code: string }[] }).reasons.map((x) => x.code)).toContain('run-failed');
  });

  it.each([
    ['leaves an invariant out', IDS.slice(0, 3), /leaves out 01M8KJT9G0XNWEM589ZS7FV0VT/],
    ['names one not asked about', [...IDS, '01M8KJT9G0XNWEM589ZS7FV0VA'], /names 01M8KJT9G0XNWEM589ZS7FV0VA, not asked about/],
  ])('an answer that %s fails the run without a retry', async (_, ids, reason) => {
    server = await startModelServer([reply(provider, answer(ids)), reply(provider, answer(IDS))]);
    const { root, context } = llmStore(provider);
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    const { run } = onlyRun(root);
    expect(run.error).toMatch(reason);
    expect(run.records.every((x) => !x.enforced)).toBe(true);
  });

  it.each([
    ['null', 'null', /the response holds no answer/],
    [
      'an error object sent with status 200',
      JSON.stringify({ error: { message: `quota gone for ${KEY}` } }),
      /no answer .*: quota gone for \[key\]/,
    ],
    [
      'an error without a message, nested too deep to write out',
      `{"error":{"code":1},"detail":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
      /no answer .*nested too deep/,
    ],
  ])('a response that is %s fails the run at once with what the endpoint said', async (_, body, reason) => {
    server = await startModelServer([{ raw: { status: 200, headers: { 'content-type': 'application/json' }, body } }]);
    const { root, context } = llmStore(provider);
    const r = await strategize(root, context);
    expect(r.code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    const { run } = onlyRun(root);
    expect(run.error).toMatch(reason);
    expect(run.error).not.toContain(KEY);
    expect(run.records.every((x) => !x.enforced)).toBe(true);
  });

  it('a response over 16 MiB is not read to its end: the run fails at once saying so', async () => {
    const huge = JSON.stringify({ choices: [{ message: { content: 'x'.repeat(17 * 1024 * 1024) } }] });
    server = await startModelServer(() => ({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body: huge } }));
    const { root, context } = llmStore(provider);
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    expect(onlyRun(root).run.error).toMatch(/the response is larger than 16777216 bytes/);
  });

  it('a redirect is not followed nor retried: the run fails at once naming where it pointed', async () => {
    const elsewhere = await startModelServer([]);
    try {
      server = await startModelServer(() => ({ raw: { status: 307, headers: { location: `${elsewhere.url}/v1` }, body: '' } }));
      const { root, context } = llmStore(provider);
      const r = await strategize(root, context);
      expect(r.code).toBe(1);
      expect(server.generations()).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
      expect(onlyRun(root).run.error).toMatch(/HTTP 307 from .*redirected to http:\/\/127\.0\.0\.1:\d+\/v1/);
    } finally {
      await elsewhere.close();
    }
  });

  it('a TLS failure (https:// to a plain-HTTP endpoint) is not retried: the run fails at once saying what to set', async () => {
    server = await startModelServer([]);
    const { root, context } = llmStore(provider);
    const config = join(root, 'config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('base_url: http://', 'base_url: https://'));
    expect((await strategize(root, context)).code).toBe(1);
    const { run } = onlyRun(root);
    expect(run.error).toMatch(/the TLS connection to https:\/\/127\.0\.0\.1:\d+\/.* failed: ERR_SSL_WRONG_VERSION_NUMBER; /);
    expect(run.error).not.toMatch(/retr(y|ies)\)/);
  });

  it('429, then success: retried after the Retry-After the endpoint gave', async () => {
    server = await startModelServer([{ status: 429, headers: { 'retry-after': '0' } }, reply(provider, answer(IDS))]);
    const { root, context } = llmStore(provider);
    expect((await strategize(root, context)).code).toBe(0);
    expect(server.generations()).toHaveLength(2);
    expect(onlyRun(root).run.records.every((x) => x.enforced)).toBe(true);
  });

  it('429 asking for a wait past timeout_ms: the run fails at once with the status, not a time-out', async () => {
    server = await startModelServer(() => ({ status: 429, message: 'rate limited', headers: { 'retry-after': '30' } }));
    const { root, context } = llmStore(provider, ['timeout_ms: 5000']);
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    expect(onlyRun(root).run.error).toMatch(/HTTP 429 from .*: rate limited \(the next retry, in 30 s, would pass timeout_ms\)/);
  });

  it('500 forever: max_retries retries, then the run fails with the status', async () => {
    server = await startModelServer(() => ({ status: 500, message: 'upstream exploded', headers: { 'retry-after': '0' } }));
    const { root, context } = llmStore(provider, ['max_retries: 2']);
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(3);
    expect(onlyRun(root).run.error).toMatch(/HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/.*: upstream exploded \(after 2 retries\)/);
  });

  it('an endpoint that never answers: stopped at timeout_ms, the run failed', async () => {
    server = await startModelServer([{ hang: true }]);
    const { root, context } = llmStore(provider, ['timeout_ms: 400']);
    expect((await strategize(root, context)).code).toBe(1);
    expect(onlyRun(root).run.error).toMatch(/did not answer within 400 ms \(timeout_ms\)/);
  });
});

describe('the llm actor, OpenAI-compatible content as a list of parts', () => {
  it('reads the text parts as the answer', async () => {
    const parts = (ids: readonly string[]) => ({
      raw: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: answer(ids) }] }, finish_reason: 'stop' }],
        }),
      },
    });
    server = await startModelServer((req) => parts(asked(req)));
    const { root, context } = llmStore('openai');
    const r = await strategize(root, context);
    expect(r.code, r.stderr).toBe(0);
    expect(onlyRun(root).run.records.every((x) => x.enforced)).toBe(true);
  });
});

describe('the llm actor, an OpenAI-compatible server without JSON-schema output', () => {
  it.each([
    // vLLM's refusal of a field it does not take, and Text Generation Inference's (its JSON body not deserialized).
    [400, 'response_format json_schema is not supported'],
    [422, 'Failed to deserialize the JSON body into the target type: response_format: unknown variant `json_schema`'],
  ])('HTTP %i naming response_format: asked once more for plain text, the fenced block recorded', async (status, message) => {
    server = await startModelServer((req) =>
      (req.body as { response_format?: unknown }).response_format !== undefined
        ? { status, message }
        : { text: `Here it is:\n\n\`\`\`json\n${answer(asked(req))}\n\`\`\`\n` },
    );
    const { root, context } = llmStore('openai');
    const r = await strategize(root, context);
    expect(r.code, r.stderr).toBe(0);
    expect(server.generations()).toHaveLength(2);
    expect(onlyRun(root).run.records.every((x) => x.enforced)).toBe(true);
  });
});

describe('the llm actor, an OpenAI-compatible response whose choices hold no message', () => {
  it.each([
    ['an empty choices list', [], /no answer \(an empty choices list\): upstream model unavailable/],
    ['a null choice', [null], /no answer \(its first choice has no message\): upstream model unavailable/],
    ['a choice without a message', [{ index: 0, finish_reason: 'stop' }], /no answer \(its first choice has no message\)/],
  ])('%s holds no answer: the run fails at once with what the endpoint said, the model not asked again', async (_, choices, error) => {
    const body = JSON.stringify({ choices, error: { message: 'upstream model unavailable' } });
    server = await startModelServer(() => ({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body } }));
    const { root, context } = llmStore('openai');
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    expect(onlyRun(root).run.error).toMatch(error);
  });
});

describe('the llm actor, a response with no body', () => {
  it.each([200, 204])('HTTP %i: the run fails at once saying the response is empty', async (status) => {
    server = await startModelServer(() => ({ raw: { status, body: '' } }));
    const { root, context } = llmStore('openai');
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    expect(onlyRun(root).run.error).toMatch(new RegExp(`HTTP ${status} from .*: the response is empty$`));
  });
});

describe('the llm actor, a response that is not UTF-8', () => {
  it('fails the run at once naming where, rather than record U+FFFD for the bytes', async () => {
    const [head, tail] = JSON.stringify({ choices: [{ message: { content: answer(IDS).replace('step 2', '@') } }] }).split('@');
    const body = Buffer.concat([Buffer.from(head!), Buffer.from([0xff]), Buffer.from(tail!)]);
    server = await startModelServer(() => ({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body } }));
    const { root, context } = llmStore('openai');
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    const { run } = onlyRun(root);
    expect(run.error).toMatch(/HTTP 200 .*: the response is not UTF-8 text \(line 1, column \d+\)/);
    expect(run.records.every((x) => !x.enforced)).toBe(true);
  });
});

describe('the llm actor, an OpenAI-compatible base_url without /v1', () => {
  it('fails the run on the 404 of /chat/completions naming the base_url to give instead', async () => {
    server = await startModelServer(() => ({ status: 404, message: '404 page not found' }));
    const root = exampleStore();
    const cfg = ['provider: openai', 'model: m', `base_url: ${server.url}`];
    writeFileSync(join(root, 'config.yaml'), ['version: 1', 'reconciliation:', '  actor: llm', ...cfg.map((l) => `  ${l}`), ''].join('\n'));
    expect((await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN])).code).toBe(1);
    expect(server.generations().map((g) => g.url)).toEqual(['/chat/completions']);
    expect(onlyRun(root).run.error).toContain(`(base_url ${server.url}/v1)`);
  });
});

describe('the llm actor, Anthropic with /v1 in base_url', () => {
  it('fails the run on the 404 of /v1/v1/messages naming the base_url to give instead', async () => {
    // Anthropic's API answers an unknown path with 404.
    const paths: string[] = [];
    const api = createServer((req, res) => {
      paths.push(req.url ?? '');
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}');
    });
    await new Promise<void>((res) => api.listen(0, '127.0.0.1', () => res()));
    try {
      const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      const root = exampleStore();
      const cfg = ['provider: anthropic', 'model: m', `base_url: ${base}/v1`];
      writeFileSync(
        join(root, 'config.yaml'),
        ['version: 1', 'reconciliation:', '  actor: llm', ...cfg.map((l) => `  ${l}`), ''].join('\n'),
      );
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
      expect(r.code).toBe(1);
      expect(paths).toEqual(['/v1/v1/messages']);
      const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
      expect(run!.error).toContain(`HTTP 404 from ${base}/v1/v1/messages`);
      expect(run!.error).toContain(`(${base})`);
    } finally {
      await new Promise((res) => api.close(res));
    }
  });
});

describe('the llm actor behind a proxy', () => {
  it('sends through the proxy HTTP_PROXY names, and straight to a host NO_PROXY lists', async () => {
    server = await startModelServer((req) => reply('openai', answer(asked(req))));
    const proxy = await startConnectProxy();
    const { tunnels } = proxy;
    try {
      const proxyUrl = proxy.url;
      const target = new URL(server.url).host;
      const { root, context } = llmStore('openai');
      const env = { JUDGE_KEY: KEY, HTTP_PROXY: proxyUrl, http_proxy: proxyUrl, NO_PROXY: 'example.invalid', no_proxy: 'example.invalid' };
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(tunnels).toEqual([target]);
      expect(server.requests).toHaveLength(1);
      // A host NO_PROXY lists is reached without the proxy.
      const direct = { ...env, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' };
      const again = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], { env: direct });
      expect(again.code, again.stderr).toBe(0);
      expect(tunnels).toEqual([target]);
      expect(server.requests).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });
});

describe('the llm actor behind a proxy that refuses the tunnel', () => {
  it('a 407 from the proxy fails the run with what the proxy said, not an internal error', async () => {
    server = await startModelServer([]);
    const proxy = await startConnectProxy({ refuse: 407 });
    try {
      const { root, context } = llmStore('openai', ['max_retries: 0']);
      const args = ['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context];
      const r = await runAgents(args, {
        env: { JUDGE_KEY: KEY, HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '' },
      });
      expect(r.code, r.stderr).toBe(1);
      expect(proxy.tunnels).toEqual([new URL(server.url).host]);
      expect(server.requests).toHaveLength(0);
      expect(onlyRun(root).run.error).toMatch(/no response from .*407/);
    } finally {
      await proxy.close();
    }
  });
});

describe('the llm actor behind a proxy that cannot be reached', () => {
  it('the run’s error names the proxy variable the request went through, never its value', async () => {
    server = await startModelServer([]);
    const { root, context } = llmStore('openai', ['max_retries: 0']);
    const args = ['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context];
    const proxy = 'http://me:hunter2@127.0.0.1:1';
    const r = await runAgents(args, { env: { JUDGE_KEY: KEY, HTTP_PROXY: proxy, http_proxy: undefined, NO_PROXY: '', no_proxy: '' } });
    expect(r.code, r.stderr).toBe(1);
    expect(server.requests).toHaveLength(0);
    const error = onlyRun(root).run.error;
    expect(error).toMatch(/no response from .*ECONNREFUSED.*HTTP_PROXY/);
    expect(`${error}${r.stderr}${r.stdout}`).not.toContain('hunter2');
  });
});

describe('the llm actor: proxy variables as curl reads them', () => {
  it('a proxy without a scheme is an HTTP proxy; one no request goes through (socks5://) is exit 2 naming the variable, nothing sent or written', async () => {
    server = await startModelServer((req) => reply('openai', answer(asked(req))));
    const proxy = await startConnectProxy();
    try {
      const { root, context } = llmStore('openai');
      const args = ['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context];
      const bare = new URL(proxy.url).host;
      const r = await runAgents(args, { env: { JUDGE_KEY: KEY, HTTP_PROXY: bare, http_proxy: bare, NO_PROXY: '', no_proxy: '' } });
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.tunnels).toEqual([new URL(server.url).host]);
      const before = fileList(root);
      const socks = 'socks5://me:hunter2@127.0.0.1:1';
      const refused = await runAgents(args, { env: { JUDGE_KEY: KEY, HTTP_PROXY: undefined, http_proxy: socks } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('http_proxy');
      expect(refused.stderr).not.toContain('hunter2');
      expect(server.requests).toHaveLength(1);
      expect(fileList(root)).toEqual(before);
    } finally {
      await proxy.close();
    }
  });
});

describe('the llm actor: the proxy for the scheme of the endpoint', () => {
  it('an https:// base_url goes through HTTPS_PROXY only, never HTTP_PROXY', async () => {
    server = await startModelServer([]);
    const proxy = await startConnectProxy();
    try {
      const host = new URL(server.url).host;
      // A plain-HTTP server at https://: the run fails at the TLS handshake, through the proxy or not.
      const { root, context } = llmStore('openai', ['max_retries: 0']);
      writeFileSync(
        join(root, 'config.yaml'),
        readFileSync(join(root, 'config.yaml'), 'utf8').replace(/base_url: .*/, `base_url: https://${host}/v1`),
      );
      const args = ['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context];
      const none = { HTTPS_PROXY: undefined, https_proxy: undefined, NO_PROXY: '', no_proxy: '' };
      const viaHttp = await runAgents(args, { env: { JUDGE_KEY: KEY, ...none, HTTP_PROXY: proxy.url, http_proxy: proxy.url } });
      expect(viaHttp.code, viaHttp.stderr).toBe(1);
      expect(proxy.tunnels).toEqual([]);
      const viaHttps = await runAgents(args, {
        env: { JUDGE_KEY: KEY, ...none, HTTPS_PROXY: proxy.url, HTTP_PROXY: undefined, http_proxy: undefined },
      });
      expect(viaHttps.code, viaHttps.stderr).toBe(1);
      expect(proxy.tunnels).toEqual([host]);
    } finally {
      await proxy.close();
    }
  });
});

describe('the llm actor: the longest model name config.yaml takes', () => {
  it('is recorded after its provider, the answers kept', async () => {
    server = await startModelServer((req) => reply('anthropic', answer(asked(req))));
    const model = 'm'.repeat(200);
    const { root, context } = llmStore('anthropic');
    writeFileSync(join(root, 'config.yaml'), readFileSync(join(root, 'config.yaml'), 'utf8').replace('model: judge-1', `model: ${model}`));
    const r = await strategize(root, context);
    expect(r.code, r.stderr).toBe(0);
    expect(onlyRun(root).run.model).toBe(`anthropic/${model}`);
  });
});

describe('the llm actor: a timeout_ms past fetch’s own 300 s', () => {
  it('is the only limit of a slow answer: its wait is not cut at the limit of fetch’s dispatcher', async () => {
    // fetch's global dispatcher, made to give up after 300 ms, stands in for its 300 s.
    const before = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ headersTimeout: 300, bodyTimeout: 300 }));
    try {
      server = await startModelServer((req) => ({ ...reply('openai', answer(asked(req))), delayMs: 1000 }));
      const { root, context } = llmStore('openai', ['timeout_ms: 400000', 'max_retries: 0']);
      const r = await strategize(root, context);
      expect(r.code, r.stderr).toBe(0);
      expect(onlyRun(root).run.error).toBeUndefined();
    } finally {
      setGlobalDispatcher(before);
    }
  });
});

describe('the llm actor: refusals', () => {
  it.each([
    ['openai', { choices: [{ finish_reason: 'stop', message: { content: null, refusal: 'I cannot help with that.' } }] }],
    ['anthropic', { type: 'message', role: 'assistant', content: [], stop_reason: 'refusal' }],
    ['openai', { choices: [{ finish_reason: 'content_filter', message: { content: null } }] }],
  ] as const)('%s: a refusal (or a content filter) fails the run at once, saying so: %j', async (provider, body) => {
    server = await startModelServer(() => ({
      raw: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    }));
    const { root, context } = llmStore(provider);
    expect((await strategize(root, context)).code).toBe(1);
    expect(server.generations()).toHaveLength(1);
    expect(onlyRun(root).run.error).toMatch(/the model refused|content filter stopped the answer/);
  });
});

describe('the llm actor: secrets and bad settings', () => {
  it('the key is never in a record, the output, an error or --show-prompt, even when the endpoint echoes it', async () => {
    server = await startModelServer(() => ({ status: 401, message: `Incorrect API key provided: ${KEY}` }));
    const { root, context } = llmStore('openai');
    const printed: string[] = [];
    for (const args of [[], ['--format', 'json'], ['--show-prompt'], ['--show-prompt', '--format', 'json']]) {
      const r = await strategize(root, context, ...args);
      printed.push(r.stdout, r.stderr);
    }
    const status = await runAgents(['--store', root, 'plan', 'show', EXAMPLE_PLAN, '--format', 'json']);
    printed.push(status.stdout, status.stderr);
    // The endpoint did get the key (in a header), and said it back.
    expect(server.generations()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    expect(runs).toHaveLength(2); // the two runs; --show-prompt wrote nothing
    expect(runs[0]!.error).toMatch(/HTTP 401 .*Incorrect API key provided: \[key\]/);
    const written = allFiles(dirname(root)).map((f) => readFileSync(f, 'utf8'));
    for (const text of [...printed, ...written]) expect(text).not.toContain(KEY);
    expect(written.join('\n')).toContain('JUDGE_KEY'); // the variable's name is in config.yaml, as meant
  });

  it('an answer that quotes the key (a gateway error given as the text) fails the run without the key in the reason', async () => {
    // Asked once more, it says the same: the reason quotes the start of the answer, which holds the key.
    server = await startModelServer([], { fallback: { text: `Gateway error: key ${KEY} may not use judge-1` } });
    const { root, context } = llmStore('openai');
    const r = await strategize(root, context);
    expect(r.code).toBe(1);
    const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    expect(run!.error).toMatch(/the answer is not one JSON object.*\[key\]/);
    expect(server.generations()[1]!.text).toContain('Your previous answer could not be used');
    const written = allFiles(dirname(root)).map((f) => readFileSync(f, 'utf8'));
    for (const text of [r.stdout, r.stderr, ...written]) expect(text).not.toContain(KEY);
  });

  it("a local server's dummy key (ollama) is sent but not taken out of what the endpoint says, which would no longer read", async () => {
    server = await startModelServer(() => ({
      status: 404,
      message: 'model "judge-1" not found, try pulling it first: ollama pull judge-1',
    }));
    const { root, context } = llmStore('openai');
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], {
      env: { JUDGE_KEY: 'ollama' },
    });
    expect(r.code).toBe(1);
    expect(server.generations()[0]!.headers.authorization).toBe('Bearer ollama');
    expect(onlyRun(root).run.error).toContain('try pulling it first: ollama pull judge-1');
  });

  it('no part of the key is kept when the endpoint echoes it where its message is cut short', async () => {
    // A message is shown up to its 300th character: the key starts before that and ends after it.
    const long = 'x'.repeat(290);
    server = await startModelServer([
      { status: 401, message: `${long} ${KEY}` },
      { raw: { status: 403, headers: { 'content-type': 'text/plain' }, body: `${long} ${KEY}` } },
    ]);
    const { root, context } = llmStore('openai');
    const printed: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await strategize(root, context);
      expect(r.code).toBe(1);
      printed.push(r.stdout, r.stderr);
    }
    const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    expect(runs.map((run) => run.error)).toEqual([expect.stringMatching(/HTTP 401 /), expect.stringMatching(/HTTP 403 /)]);
    const written = allFiles(dirname(root)).map((f) => readFileSync(f, 'utf8'));
    for (const text of [...printed, ...written]) expect(text).not.toContain(KEY.slice(0, 6));
  });

  it('a key exported with spaces around it is sent without them, and its echo is taken out of what is kept', async () => {
    server = await startModelServer((req) => ({
      status: 401,
      message: `Incorrect API key provided: ${String(req.headers.authorization)}.`,
    }));
    const { root, context } = llmStore('openai');
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], {
      env: { JUDGE_KEY: ` ${KEY}\t` },
    });
    expect(r.code).toBe(1);
    expect(server.generations()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(onlyRun(root).run.error).toMatch(/Incorrect API key provided: Bearer \[key\]\./);
    for (const text of [r.stdout, r.stderr, ...allFiles(dirname(root)).map((f) => readFileSync(f, 'utf8'))])
      expect(text).not.toContain(KEY);
  });

  it("a dummy key (a local server's `ollama`) is not taken out of the model's answer", async () => {
    server = await startModelServer(() => ({ text: answer(IDS).replaceAll('step 2', 'ollama') }));
    const { root, context } = llmStore('openai');
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], {
      env: { JUDGE_KEY: 'ollama' },
    });
    expect(r.code).toBe(0);
    expect(onlyRun(root).run.records.map((x) => x.actor_response)).toEqual(IDS.map((id) => `judged ${id.slice(-4)}: ollama covers it`));
  });

  it('--show-prompt prints the prompt of each request and sends nothing, writes nothing', async () => {
    server = await startModelServer([]);
    const { root, context } = llmStore('anthropic', ['batch_size: 2']);
    const before = fileList(root);
    const r = await strategize(root, context, '--show-prompt', '--format', 'json');
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(fileList(root)).toEqual(before);
    const shown = JSON.parse(r.stdout) as {
      prompt_version: string;
      model: string;
      requests: { ids: string[]; user: string; endpoint: string }[];
    };
    expect(shown).toMatchObject({ actor: 'llm', prompt_version: PROMPT_VERSION, model: 'anthropic/judge-1' });
    expect(shown.requests.map((x) => x.ids)).toEqual([IDS.slice(0, 2), IDS.slice(2)]);
    expect(shown.requests[0]!.endpoint).toBe(`${server.url}/v1/messages`);
    expect(shown.requests[0]!.user).toContain(GOAL);
    expect(shown.requests[0]!.user).toContain(CONTEXT);
    const text = await strategize(root, context, '--show-prompt');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`prompt ${PROMPT_VERSION}`);
    expect(text.stdout).toContain('the key from $JUDGE_KEY in a header (not shown)');
  });

  it.each([
    ['the key variable is unset', [], { JUDGE_KEY: undefined }, /JUDGE_KEY \(reconciliation\.api_key_env\) is not set/],
    [
      'the key holds a line break',
      [],
      { JUDGE_KEY: 'sk-part-one\nsk-part-two' },
      /JUDGE_KEY \(reconciliation\.api_key_env\) holds a line break/,
    ],
    [
      'the key ends in a carriage return (a file saved with CRLF)',
      [],
      { JUDGE_KEY: 'sk-part-one\r' },
      /JUDGE_KEY \(reconciliation\.api_key_env\) holds a line break/,
    ],
    [
      'the key holds a character no header carries',
      [],
      { JUDGE_KEY: 'sk-€-key' },
      /JUDGE_KEY \(reconciliation\.api_key_env\) holds a line break/,
    ],
  ])('%s: exit 2, nothing sent, nothing written', async (_, lines, env, message) => {
    server = await startModelServer([]);
    const root = exampleStore();
    const cfg = lines.length > 0 ? lines : ['provider: openai', 'model: m', `base_url: ${server.url}/v1`, 'api_key_env: JUDGE_KEY'];
    writeFileSync(join(root, 'config.yaml'), ['version: 1', 'reconciliation:', '  actor: llm', ...cfg.map((l) => `  ${l}`), ''].join('\n'));
    const before = fileList(root);
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('sk-');
    expect(server.requests).toHaveLength(0);
    expect(fileList(root)).toEqual(before);
  });
});

describe('a prompt over max_request_chars', () => {
  it('is exit 2 before anything is sent, nothing written, the run as --show-prompt', async () => {
    server = await startModelServer([]);
    const { root, context } = llmStore('openai', ['max_request_chars: 1000']);
    writeFileSync(context, 'x'.repeat(3000));
    const before = fileList(root);
    for (const extra of [[], ['--show-prompt']]) {
      const r = await strategize(root, context, ...extra);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/over max_request_chars \(1000\)/);
    }
    expect(server.requests).toHaveLength(0);
    expect(fileList(root)).toEqual(before);
  });
});

describe('an actor config.yaml names without a key it needs', () => {
  it("is config.yaml's error at the actor line (validate exit 1, strategize with that actor exit 3); strategize --actor with another still runs", async () => {
    const root = exampleStore();
    const config = ['version: 1', 'reconciliation:', '  command: [node, actors/example-actor.mjs]', '  actor: llm', '  model: m', ''];
    writeFileSync(join(root, 'config.yaml'), config.join('\n'));
    const before = fileList(root);
    const checked = await runAgents(['--store', root, '--format', 'json', 'validate']);
    expect(checked.code).toBe(1);
    const found = (JSON.parse(checked.stdout) as { diagnostics: { code: string; file: string; line: number; col: number }[] }).diagnostics;
    expect(found.filter((d) => d.file === 'config.yaml').map((d) => [d.code, d.line, d.col])).toEqual([['actor-incomplete', 4, 10]]);
    for (const args of [[], ['--actor', 'llm'], ['--show-prompt']]) {
      const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'strategize', EXAMPLE_PLAN, ...args]);
      expect(r.code).toBe(3);
      const error = (JSON.parse(r.stdout) as { error: { detail: { diagnostics: { code: string; line: number; col: number }[] } } }).error;
      expect(error.detail.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['actor-incomplete', 4, 10]]);
    }
    const other = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--actor', 'command', '--show-prompt']);
    expect(other.code).toBe(0);
    // A command that runs no actor reads the rest of the file; plan use does not name a run that would stop.
    expect((await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN])).code).not.toBe(3);
    // Listing the whole store reads config.yaml with every other file: it lists, as a listing of one scope does.
    const listed = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBeGreaterThan(0);
    expect(fileList(root)).toEqual(before);
    const used = await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage']);
    expect(used.code, used.stderr).toBe(0);
    expect(used.stdout).not.toContain('Next: agents plan strategize');
    // The next step names the key the actor lacks (provider), as validate's actor-incomplete does, not another actor to choose.
    const next = used.stdout.slice(used.stdout.indexOf('Next:'));
    expect(next).toContain('provider');
    expect(next).not.toContain('actor: agent');
  });

  it('--actor naming an actor config.yaml does not set up is exit 2, naming the keys to add', async () => {
    const root = exampleStore();
    writeFileSync(join(root, 'config.yaml'), 'version: 1\nreconciliation:\n  actor: agent\n  agent: claude\n');
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--actor', 'llm']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/reconciliation\.provider and reconciliation\.model/);
  });
});

describe('the llm actor: credentials in base_url', () => {
  it('are an error of config.yaml at their place (validate exit 1, strategize exit 3), never printed, nothing sent', async () => {
    server = await startModelServer([]);
    const root = exampleStore();
    const cfg = ['provider: openai', 'model: m', 'base_url: https://me:hunter2@llm.example/v1'];
    writeFileSync(join(root, 'config.yaml'), ['version: 1', 'reconciliation:', '  actor: llm', ...cfg.map((l) => `  ${l}`), ''].join('\n'));
    const before = fileList(root);
    const checked = await runAgents(['--store', root, '--format', 'json', 'validate']);
    expect(checked.code).toBe(1);
    const found = (JSON.parse(checked.stdout) as { diagnostics: { code: string; file: string; line: number; col: number }[] }).diagnostics;
    expect(found.filter((d) => d.file === 'config.yaml').map((d) => [d.code, d.line, d.col])).toEqual([['schema', 6, 13]]);
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
    expect(r.code).toBe(3);
    expect(`${r.stdout}${r.stderr}${checked.stdout}`).not.toContain('hunter2');
    expect(server.requests).toHaveLength(0);
    expect(fileList(root)).toEqual(before);
  });
});

/** Every file under a folder, absolute paths. */
function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}
