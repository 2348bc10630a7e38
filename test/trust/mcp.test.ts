// MCP (issue 30, F): an oversized message is refused and the server keeps
// serving; blank details are refused; errors never echo control characters raw.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { idOf, LineLimit, oversizeError, unreadableError } from '../../src/mcp/line-limit.ts';
import { BIN } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { errorOf, startMcp } from '../helpers/mcp.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';

const NEVER_DELETE = '01M8KJT9G0XNWEM589ZS7FV0VT';
const LOG_CHANGES = '01M8KJW430VF8WCABSB8RTQ8RY';

describe('agents mcp: limits and hostile arguments', () => {
  it('a 20 MB message is refused with a JSON-RPC error naming its id, and the next call is answered', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    const huge = 'x'.repeat(20 * 1024 * 1024);
    await expect(s.client.callTool({ name: 'list_invariants', arguments: { tag: huge } })).rejects.toThrow(/limit is 4194304 bytes/);
    const after = (await s.client.callTool({ name: 'plan_status', arguments: { plan: EXAMPLE_PLAN } })) as CallToolResult;
    expect(after.isError).toBeFalsy();
  }, 120_000);

  // ajv's maxLength counts code points: the message and the regex limit count the same characters.
  it('a pattern of 1,000 emoji is taken, one of 1,001 is refused as 1,001 characters long', async () => {
    const s = await startMcp(exampleStore());
    const at = (n: number) =>
      s.client.callTool({ name: 'list_invariants', arguments: { pattern: '😀'.repeat(n) } }) as Promise<CallToolResult>;
    const ok = await at(1000);
    expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
    expect((ok.structuredContent as { count: number }).count).toBe(0);
    const over = await at(1001);
    expect(over.isError).toBe(true);
    expect(errorOf(over).message).toBe('list_invariants: argument "pattern" is 1001 characters long; the limit is 1000');
  });

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

describe('agents mcp: a client that closes stdin right after its requests', () => {
  const line = (m: object) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`;
  const INIT = line({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const CHECK = line({ id: 3, method: 'tools/call', params: { name: 'check_action', arguments: { path: 'secrets/prod.env' } } });
  it.each([
    ['one tool call', INIT + CHECK, [1, 3]],
    [
      'every kind of request, an unknown method among them',
      INIT +
        line({ method: 'notifications/initialized' }) +
        line({ id: 4, method: 'resources/list' }) +
        line({ id: 5, method: 'tools/list' }) +
        line({ id: 6, method: 'no/such/method' }) +
        line({ id: 2, method: 'tools/call', params: { name: 'plan_status', arguments: { plan: EXAMPLE_PLAN } } }) +
        CHECK,
      [1, 2, 3, 4, 5, 6],
    ],
  ] as const)(
    '%s: every request is answered, then the server ends with exit 0',
    (_name, input, ids) => {
      const root = exampleStore();
      // In a git repository, with a guard: check_action builds the guard index (in .git/agents/) before it answers.
      gitInit(dirname(root));
      writeFileSync(
        join(root, 'global/01M8XXA0000000000000000000.yaml'),
        'id: 01M8XXA0000000000000000000\ntext: Agents never touch production credentials\nseverity: error\nactive: true\nguard:\n  write: ["secrets/**"]\n',
      );
      const r = pipedToServer(root, input);
      expect(r.status, r.stderr).toBe(0);
      const answers = r.answers as { id: number; result?: { content?: { text: string }[] }; error?: unknown }[];
      expect(answers.map((a) => a.id).sort()).toEqual(ids);
      expect(answers.filter((a) => a.error !== undefined).map((a) => a.id)).toEqual((ids as readonly number[]).includes(6) ? [6] : []);
      expect(answers.find((a) => a.id === 3)?.result?.content?.[0]?.text).toMatch(/^deny/);
    },
    60_000,
  );

  // JSON-RPC 2.0: a line that is not JSON is answered with a parse error, JSON that is no message with an invalid
  // request, both with id null; the requests around them are answered as ever.
  // An invalid request whose id can be read is answered under it: its client waits on that id.
  it('a line that is not JSON, and one that is no JSON-RPC message, get their errors (id null, or its readable id); the rest is answered', () => {
    const invalid = line({ id: 8, method: 'ping', params: [] });
    const batch = `[${line({ id: 9, method: 'ping' }).trim()}]\n`;
    const r = pipedToServer(exampleStore(), `${INIT}not json\n{"foo":1}\n${invalid}${batch}${line({ id: 5, method: 'tools/list' })}`);
    expect(r.status, r.stderr).toBe(0);
    const answers = r.answers as { id: number | null; error?: { code: number } }[];
    expect(answers.filter((a) => a.id === null).map((a) => a.error?.code)).toEqual([-32700, -32600]);
    expect(answers.filter((a) => a.id === 8).map((a) => a.error?.code)).toEqual([-32600]);
    // A batch is refused as JSON-RPC answers one: an array, its request's error under its id.
    expect(answers.filter(Array.isArray)).toMatchObject([[{ id: 9, error: { code: -32600 } }]]);
    expect(answers.filter((a) => a.id !== null && a.error === undefined && !Array.isArray(a)).map((a) => a.id)).toEqual([1, 5]);
    expect(r.stderr).toContain('parse error: the line is not JSON');
  }, 60_000);

  // A client runs the commands a hint names in its own folder: `agents --store ../.agents` would name another store.
  it('a hint names the store given as a relative --store by its absolute path', () => {
    const root = exampleStore();
    const sub = join(dirname(root), 'sub');
    mkdirSync(sub);
    const call = line({ id: 2, method: 'tools/call', params: { name: 'plan_status', arguments: { plan: '01M8XXA0000000000000000000' } } });
    const r = pipedToServer(root, INIT + call, { store: '../.agents', cwd: sub });
    expect(r.status, r.stderr).toBe(0);
    const answer = (r.answers as { id: number; result: CallToolResult }[]).find((a) => a.id === 2)!;
    expect(errorOf(answer.result).hint).toContain(`agents --store ${root} plan list`);
    expect(JSON.stringify(answer.result)).not.toContain('../.agents');
  }, 60_000);

  // Protocol 2025-03-26 has batches, 2025-06-18 removed them: the version initialize agreed on decides.
  it('a batch under 2025-03-26 is answered as one array, notifications unanswered; under 2025-06-18 it is refused, nothing done', () => {
    const root = exampleStore();
    const members = [
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'plan_status', arguments: { plan: EXAMPLE_PLAN } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'show_invariant', arguments: {} } },
    ];
    const batch = `${JSON.stringify(members)}\n`;
    const taken = pipedToServer(root, INIT.replace('2025-06-18', '2025-03-26') + batch + line({ id: 5, method: 'ping' }));
    expect(taken.status, taken.stderr).toBe(0);
    const arrays = taken.answers.filter(Array.isArray) as { id: number; result?: CallToolResult; error?: unknown }[][];
    expect(arrays).toHaveLength(1);
    expect(arrays[0]!.map((a) => a.id)).toEqual([2, 3, 4]);
    expect(arrays[0]![1]!.result?.structuredContent).toMatchObject({ plan: { id: EXAMPLE_PLAN } });
    expect(errorOf(arrays[0]![2]!.result!).code).toBe('missing-argument');
    expect((taken.answers as { id?: number }[]).filter((a) => !Array.isArray(a)).map((a) => a.id)).toEqual([1, 5]);

    const refused = pipedToServer(root, INIT + batch);
    const [answers] = refused.answers.filter(Array.isArray) as { id: number; error: { code: number; message: string } }[][];
    expect(answers!.map((a) => [a.id, a.error.code])).toEqual([
      [2, -32600],
      [3, -32600],
      [4, -32600],
    ]);
    expect(answers![0]!.error.message).toContain('not supported under protocol 2025-06-18');
  }, 60_000);

  it('a last request without its line break is answered too', () => {
    const r = pipedToServer(exampleStore(), INIT + CHECK.trimEnd());
    expect(r.status, r.stderr).toBe(0);
    expect((r.answers as { id: number }[]).map((a) => a.id)).toEqual([1, 3]);
  }, 60_000);

  it("request errors escape what the request brought in, and a request that fails the protocol's schema is invalid params in one line", () => {
    const evil = 'x\u001b[2J\u202e';
    const r = pipedToServer(
      exampleStore(),
      INIT +
        line({ method: 'notifications/initialized' }) +
        line({ id: 2, method: 'resources/read', params: { uri: `agents://projects/${evil}/effective.md` } }) +
        line({ id: 3, method: 'prompts/get', params: { name: evil } }) +
        line({ id: 4, method: 'tools/call', params: { name: evil, arguments: {} } }) +
        line({ id: 5, method: 'tools/call', params: { name: 'list_invariants', arguments: 'all' } }) +
        line({ id: 6, method: 'resources/read', params: {} }) +
        // The id of the `initialize` answered before the SDK loaded is free again: its call is answered.
        line({ id: 1, method: 'tools/call', params: { name: 'show_invariant', arguments: { id: LOG_CHANGES } } }) +
        // Two calls under one id, the first not yet answered when the second arrives: the second is refused, and the
        // first is answered with its own invariant, never the second's.
        line({ id: 7, method: 'tools/call', params: { name: 'show_invariant', arguments: { id: NEVER_DELETE } } }) +
        line({ id: 7, method: 'tools/call', params: { name: 'show_invariant', arguments: { id: LOG_CHANGES } } }),
    );
    expect(r.status, r.stderr).toBe(0);
    const sevens = (r.answers as { id: number; result?: CallToolResult; error?: { code: number } }[]).filter((a) => a.id === 7);
    expect(
      sevens.map((a) => a.error?.code ?? (a.result?.structuredContent as { invariant?: { id: string } } | undefined)?.invariant?.id).sort(),
    ).toEqual([-32600, NEVER_DELETE]);
    const ones = (r.answers as { id: number; result?: CallToolResult }[]).filter((a) => a.id === 1 && a.result?.structuredContent);
    expect(ones.map((a) => (a.result?.structuredContent as { invariant?: { id: string } } | undefined)?.invariant?.id)).toEqual([
      LOG_CHANGES,
    ]);
    const errors = new Map((r.answers as { id: number; error?: { code: number; message: string } }[]).map((a) => [a.id, a.error]));
    for (const id of [2, 3, 4]) {
      expect(errors.get(id)?.message).not.toMatch(/[\u001b\u202e]/);
      expect(errors.get(id)?.message).toContain('\\u001b[2J\\u202e');
    }
    expect(errors.get(5)).toEqual({
      code: -32602,
      message: 'invalid request: params.arguments: Invalid input: expected record, received string',
    });
    expect(errors.get(6)?.code).toBe(-32602);
    expect(errors.get(6)?.message).toMatch(/^invalid request: params\.uri: /);
  }, 60_000);

  it("a request under the id of a call cancelled while it still runs is refused, never answered with the cancelled call's result", () => {
    const r = pipedToServer(
      exampleStore(),
      INIT +
        line({ id: 8, method: 'tools/call', params: { name: 'plan_status', arguments: { plan: EXAMPLE_PLAN } } }) +
        line({ method: 'notifications/cancelled', params: { requestId: 8 } }) +
        line({ id: 8, method: 'tools/call', params: { name: 'list_invariants', arguments: {} } }),
    );
    expect(r.status, r.stderr).toBe(0);
    const eights = (r.answers as { id: number; result?: CallToolResult; error?: { code: number } }[]).filter((a) => a.id === 8);
    // The second call is answered once: refused while the cancelled one runs, or its own list once that has ended.
    expect(eights).toHaveLength(1);
    expect(eights[0]?.error?.code ?? (eights[0]?.result?.structuredContent as { count?: number } | undefined)?.count).toEqual(
      eights[0]?.error ? -32600 : expect.any(Number),
    );
  }, 60_000);

  it('the id of a cancelled request that reached no tool (a ping, params that fail the schema) is free again once it is over', async () => {
    const server = spawn(process.execPath, [BIN, '--store', exampleStore(), 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const answered = async (id: number) => {
      for (let i = 0; i < 100 && !out.split('\n').some((l) => l.includes(`"id":${id}`)); i++) await pause(100);
    };
    server.stdin.write(INIT + line({ method: 'notifications/initialized' }));
    await answered(1);
    // Each request and its cancellation in one write: the SDK hears the cancellation before it answers.
    server.stdin.write(line({ id: 5, method: 'ping' }) + line({ method: 'notifications/cancelled', params: { requestId: 5 } }));
    server.stdin.write(
      line({ id: 6, method: 'tools/call', params: { name: 'list_invariants', arguments: 'all' } }) +
        line({ method: 'notifications/cancelled', params: { requestId: 6 } }),
    );
    await pause(500);
    server.stdin.write(line({ id: 5, method: 'ping' }) + line({ id: 6, method: 'ping' }));
    await answered(5);
    await answered(6);
    server.stdin.end();
    await new Promise((resolve) => server.once('close', resolve));
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: unknown; error?: unknown });
    expect(answers.filter((a) => a.id === 5 || a.id === 6)).toEqual([
      { jsonrpc: '2.0', id: 5, result: {} },
      { jsonrpc: '2.0', id: 6, result: {} },
    ]);
  }, 60_000);

  // JSON.parse keeps "__proto__" as a key; the SDK's parse of a call drops it, so the check must see the sent arguments.
  it('a __proto__ argument is refused as unknown, with or without the right ones beside it, and nothing is written', () => {
    const root = exampleStore();
    appendFileSync(join(root, 'config.yaml'), 'mcp:\n  allow_write: true\n');
    const before = fileList(root);
    const call = (id: number, name: string, args: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}\n`;
    const r = pipedToServer(
      root,
      INIT +
        line({ method: 'notifications/initialized' }) +
        call(2, 'plan_status', `{"plan":"${EXAMPLE_PLAN}","__proto__":"x"}`) +
        call(3, 'plan_status', `{"__proto__":{"plan":"${EXAMPLE_PLAN}"}}`) +
        call(4, 'record_violation', `{"plan":"${EXAMPLE_PLAN}","invariant":"${NEVER_DELETE}","details":"d","__proto__":{}}`) +
        call(5, 'plan_status', `{"plan":"${EXAMPLE_PLAN}"}`) +
        `{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"reconcile_plan","arguments":{"plan":"${EXAMPLE_PLAN}","__proto__":"x"}}}\n`,
    );
    expect(r.status, r.stderr).toBe(0);
    const results = new Map(
      (r.answers as { id: number; result?: CallToolResult }[]).map((a) => [
        a.id,
        { isError: a.result?.isError === true, error: a.result?._meta?.['agents/error'] as { message: string; exit_code: number } },
      ]),
    );
    for (const id of [2, 3, 4]) {
      expect(results.get(id)?.isError).toBe(true);
      expect(results.get(id)?.error.exit_code).toBe(2);
    }
    // With the plan only under __proto__, __proto__ is the unknown argument behind the missing plan: the check never
    // reads an argument through the prototype.
    expect([results.get(2)?.error.message, results.get(3)?.error.message, results.get(4)?.error.message]).toEqual([
      'plan_status: unknown argument "__proto__"',
      'plan_status: unknown argument "__proto__"',
      'record_violation: unknown argument "__proto__"',
    ]);
    expect(results.get(5)?.isError).toBe(false);
    const prompt = (r.answers as { id: number; error?: { code: number; message: string } }[]).find((a) => a.id === 6);
    expect(prompt?.error?.code).toBe(-32602);
    expect(prompt?.error?.message).toContain('unknown argument "__proto__"');
    expect(fileList(root)).toEqual(before);
  }, 60_000);

  // `initialize` is answered before the SDK loads when it is the first line (src/mcp/initialize.ts), and by the SDK
  // otherwise: either way once, in order, with the version the client asked for.
  it('answers initialize once, whether it comes first, after a ping, or after a refused line', () => {
    const big = `${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } })}\n`;
    for (const [before, ids] of [
      ['', [1, 5]],
      [line({ id: 0, method: 'ping' }), [0, 1, 5]],
      [big, [9, 1, 5]],
    ] as const) {
      const r = pipedToServer(
        exampleStore(),
        `${before}${INIT}${line({ method: 'notifications/initialized' })}${line({ id: 5, method: 'tools/list' })}`,
      );
      expect(r.status, r.stderr).toBe(0);
      const answers = r.answers as { id: number; result?: { protocolVersion?: string }; error?: unknown }[];
      expect(answers.map((a) => a.id)).toEqual(ids);
      expect(answers.find((a) => a.id === 1)?.result?.protocolVersion).toBe('2025-06-18');
    }
  }, 60_000);
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
    expect(JSON.parse(unreadableError(new SyntaxError('x'))!.answer)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(unreadableError(new Error('the store changed'))).toBeUndefined();
    expect(idOf('{"jsonrpc":"2.0","id":"abc","method"', '')).toBe('abc');
    // The SDK writes the id last; an id inside the arguments is never taken for it.
    expect(idOf('{"method":"tools/call","params":{"arguments":{"id":"01J","t":"', 'xxx"}},"jsonrpc":"2.0","id":7}\n')).toBe(7);
    expect(idOf('{"method":"x","params":{"id":1,"a":"', 'aaa"}}')).toBeNull();
  });
});

/**
 * `input` piped into `agents mcp` all at once, through a pipe(2) closed behind it, as a shell pipes a script into
 * the server (Node's own spawn would give a socket pair, whose end comes later); its answers, a line each.
 */
function pipedToServer(
  root: string,
  input: string,
  /** The --store given, and the folder the server starts in: the store's path and the test's folder unless given. */
  at: { store?: string; cwd?: string } = {},
): { status: number | null; stderr: string; answers: unknown[] } {
  const file = join(dirname(root), 'requests.jsonl');
  writeFileSync(file, input);
  const r = spawnSync('sh', ['-c', 'cat "$1" | "$2" "$3" --store "$4" mcp', 'sh', file, process.execPath, BIN, at.store ?? root], {
    encoding: 'utf8',
    timeout: 30_000,
    ...(at.cwd !== undefined ? { cwd: at.cwd } : {}),
  });
  const answers = r.stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
  return { status: r.status, stderr: r.stderr, answers };
}
