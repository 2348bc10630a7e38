import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS, type McpInput } from './initialize.ts';
import { ASK_LESS, bounded, lineBeingRead, MAX_MESSAGE_BYTES, oversizeAnswer, unreadableError } from './line-limit.ts';
import { Batches } from './batch.ts';
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { setFlagsFromString } from 'node:v8';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { escapeUnsafe } from '../core/plain-text.ts';
import { EXIT_CODES } from '../core/errors.ts';
import type { InvariantService } from '../service/invariant-service.ts';
import { readingStore, requireStoreHere } from './store-here.ts';
import { WorkingIds } from './working-ids.ts';
import { type Parts, serveResources } from './resource-handlers.ts';
import { errorNote, errorResult, readableError, resourceError } from './error-answers.ts';
import { toolListing, writeOffError } from './write-off.ts';
import { runEnv } from '../git/run-environment.ts';

export interface McpOptions {
  /** The store's folder (found before the server starts). */
  root: string;
  /** stdin's lines, read from before the SDK was loaded (./initialize.ts `mcpInput`). */
  input: McpInput;
  /**
   * Opens the service for `root`: called on the first request that reads the store, after `initialize` is answered.
   * Its notices (a policy source left out of a listing) go to stderr and to `notice`, which adds them to the answer.
   */
  service: (notice: (message: string) => void) => InvariantService | Promise<InvariantService>;
  /** `--allow-write` (true) or `--no-allow-write` (false) decides; not given, `mcp.allow_write` in config.yaml does. */
  allowWrite: boolean | undefined;
  stderr: { write(chunk: string): unknown };
  /** The start of a command its answers tell to run (`agents --store DIR` when the server was given one). */
  agents?: string;
  /** Debounce of the store watcher (tests and benchmarks shorten it). */
  settleMs?: number;
  /**
   * Aborted by a stop signal (SIGTERM, SIGINT, SIGHUP): the server reads no more, the calls under way are told to
   * give up (one waiting for a lock writes nothing) and the writes under way finish; then it ends with the reason.
   */
  stop?: AbortSignal;
}

/** The SDK's own JSON Schema validator, made when first asked for. */
function lazyValidator(): jsonSchemaValidator {
  let made: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (made ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

/** How many requests are worked on, or wait for their answer to be written, at once. */
const TAKEN_LIMIT = 16;
/** How many messages are read on and held while TAKEN_LIMIT requests are taken: a cancellation sent after them is heard. */
const HELD_LIMIT = 16;

/**
 * `agents mcp` (docs/mcp.md): an MCP server on stdin/stdout until the client
 * closes stdin. Tools answer through the same services as the CLI; resources
 * are the effective sets of the store's projects and plans, kept fresh by a
 * watcher of the store folder. Resolves with the exit code.
 */
export async function serveMcp(options: McpOptions): Promise<number> {
  // A server lives as long as an agent's session: its young generation stays
  // at its starting size instead of growing with each burst of calls and
  // being kept for the life of the process
  // (docs/adr/0061-mcp-official-sdk-loaded-lazily.md). Read when V8 would grow
  // it, so it takes effect now.
  setFlagsFromString('--semi-space-growth-factor=1');
  const { stderr } = options;
  // The start of the commands an error answer names: the run's, with its --store (CliContext.agentsCommand).
  const agents = options.agents ?? 'agents';
  // Read now, inside the run: the handlers run from stdin's events, which need not carry the run's context.
  const env = runEnv();
  // The tools, the resources and the services they use (the store reader,
  // the validators, YAML, plans) load on the first request that needs them,
  // not before `initialize` is answered (docs/performance.md).
  let loading: Promise<Parts> | undefined;
  // The notices of the service while a tool runs: its answer carries them, so the model learns what stderr says.
  // Each once: a call may read the set twice (record_reconciliation checks the answer, then records under the lock),
  // and each read says its notices. A read made again because the store moved during it starts them afresh (readingStore).
  const callNotices = new AsyncLocalStorage<string[]>();
  const notice = (message: string) => {
    const noticed = callNotices.getStore();
    if (noticed !== undefined && !noticed.includes(message)) noticed.push(message);
  };
  const parts = () =>
    (loading ??= (async () => {
      const [tools, resources, service] = await Promise.all([import('./tools.ts'), import('./resources.ts'), options.service(notice)]);
      const ctx = tools.newToolContext(service, env, options.agents);
      ctx.client = () => {
        const c = server.getClientVersion();
        return c ? `${c.name}/${c.version}` : undefined;
      };
      return { tools, resources, service, ctx };
    })());
  let writeOn: Promise<boolean> | undefined;
  // Why writing is off when config.yaml could not be read: a writing call answers with it (file:line:col), not with
  // "set allow_write: true" to a user whose config.yaml says so in a form it does not take.
  let configError: unknown;
  const writeOffBy = options.allowWrite === false ? 'option' : 'config';
  // The config is read on the first tools request, not before `initialize` is answered.
  const writeAllowed = () =>
    (writeOn ??=
      options.allowWrite !== undefined
        ? Promise.resolve(options.allowWrite)
        : parts()
            .then(({ ctx }) => ctx.plans.config())
            .then(
              (c) => c.mcp.allow_write,
              (error: unknown) => {
                configError = error;
                stderr.write(`agents mcp: config.yaml could not be read, so writing tools are off: ${(error as Error).message}\n`);
                return false;
              },
            ));

  const server = new Server(SERVER_INFO, {
    // The SDK builds a validator (an Ajv instance with its formats) in its constructor, for answers to
    // elicitation requests, which this server never makes: built on first use instead.
    jsonSchemaValidator: lazyValidator(),
    // As ./initialize.ts answers `initialize` (the same constants).
    capabilities: SERVER_CAPABILITIES,
    instructions: SERVER_INSTRUCTIONS,
  });

  // Requests received and not yet answered: a client may send its last requests and close stdin at once
  // (a script piped in); each of them is answered before the server ends.
  const unanswered = new Set<string | number>();
  const working = new WorkingIds(unanswered);
  working.watch(server);

  const inFlight = new Set<Promise<unknown>>();
  /** The writes of batches' answers under way (see `end`). */
  const sending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  // A call's or a prompt's arguments as the client sent them: the SDK's parse of a request drops a `__proto__` key,
  // which the argument check must see to refuse it as the unknown argument it is, never answer as if it were not there.
  const sentArguments = new Map<string | number, unknown>();

  // The reconcile_plan prompt (src/mcp/reconcile.ts): the agent judges a plan, then records it with a tool.
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [(await import('./reconcile.ts')).RECONCILE_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { ctx } = await parts();
    const reconcile = await import('./reconcile.ts');
    try {
      requireStoreHere(options.root);
    } catch (error) {
      throw resourceError(error, agents);
    }
    if (request.params.name !== reconcile.RECONCILE_PROMPT.name) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown prompt ${escapeUnsafe(request.params.name)}; the prompt is ${reconcile.RECONCILE_PROMPT.name}`,
      );
    }
    try {
      const args = sentArguments.has(extra.requestId) ? sentArguments.get(extra.requestId) : request.params.arguments;
      // The notices of the read (a plan whose project is gone: the set to judge lacks its invariants) end the message.
      const noticed: string[] = [];
      const prompt = await readingStore(
        options.root,
        () => callNotices.run(noticed, () => reconcile.reconcilePlanPrompt(ctx, args)),
        noticed,
      );
      const content = prompt.messages[0]!.content;
      if (noticed.length > 0) content.text += `\n\n${noticed.map((n) => `Note: ${escapeUnsafe(n)}`).join('\n')}`;
      return bounded(prompt, ASK_LESS.prompt);
    } catch (error) {
      throw resourceError(error, agents);
    }
  });

  let prepared = false;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const on = await writeAllowed();
    const { tools } = await parts();
    // Once the listing is sent, while the client reads it, the argument validators are compiled (ajv): off the first call's path.
    if (!prepared) {
      prepared = true;
      setImmediate(() => void tools.prepareTools().catch(() => {}));
    }
    return { tools: tools.TOOLS.map((t) => toolListing(t, on, writeOffBy)) };
  });

  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    track(
      (async (): Promise<CallToolResult> => {
        const { tools, ctx } = await parts();
        const tool = tools.TOOLS.find((t) => t.name === request.params.name);
        if (!tool)
          throw new McpError(
            ErrorCode.InvalidParams,
            `unknown tool ${escapeUnsafe(request.params.name)}; the tools are ${tools.TOOLS.map((t) => t.name).join(', ')}`,
          );
        try {
          if (tool.writes && !(await writeAllowed())) {
            if (configError !== undefined) throw configError;
            throw writeOffError(tool, writeOffBy, join(ctx.service.root, 'config.yaml'));
          }
          const noticed: string[] = [];
          const args = sentArguments.has(extra.requestId) ? sentArguments.get(extra.requestId) : request.params.arguments;
          const signal = options.stop ? AbortSignal.any([extra.signal, options.stop]) : extra.signal;
          const call = () => callNotices.run(noticed, () => tools.callTool(tool, args, { ...ctx, signal }));
          // A write's answer says what it wrote, whatever became of the folder since: only a read is checked after.
          let answer: Awaited<ReturnType<typeof call>>;
          if (tool.writes) {
            requireStoreHere(options.root);
            answer = await call();
          } else answer = await readingStore(options.root, call, noticed);
          // A note the answer's text already says (a warning its data carries too) is not said twice.
          const notes = noticed
            .filter((n) => !answer.said?.includes(n))
            .map((n) => escapeUnsafe(n))
            .filter((n) => !answer.text.includes(n));
          if (notes.length === 0) return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data };
          const text = `${answer.text}\n\n${notes.map((n) => `Note: ${n}`).join('\n')}`;
          return { content: [{ type: 'text', text }], structuredContent: answer.data, _meta: { 'agents/notices': notes } };
        } catch (error) {
          const answer = await tool.answerError?.(error, request.params.arguments, ctx);
          if (answer) return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data };
          return errorResult(error, stderr, agents);
        }
      })().then((result) => {
        const tooLarge = oversizeAnswer(result, ASK_LESS.tool);
        return tooLarge ? errorResult(tooLarge, stderr, agents) : result;
      }),
    ),
  );

  const { watcher, currentList } = serveResources(server, {
    root: options.root,
    agents,
    stderr,
    ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
    parts,
    track,
  });

  // stdin's lines, a line over the limit refused and a first `initialize` already answered (./initialize.ts).
  const { lines: input, answered } = options.input;
  const transport = new StdioServerTransport(input, process.stdout);
  let drained: (() => void) | undefined;
  let stopped = false;
  const done = new Promise<number>((resolve, reject) => {
    let ending = false;
    const end = (answerFirst: boolean, stop?: unknown) => {
      if (ending) return;
      ending = true;
      watcher.close();
      const answered = answerFirst && unanswered.size > 0 ? new Promise<void>((r) => (drained = r)) : Promise.resolve();
      // Answers already being worked on (a write under way) finish before the process ends. A batch's answers being
      // sent are waited for too, but not after a stop: a client that leaves them unread would hold the server, which
      // then drops them and ends with the signal's code (the command's dropUnreadOnStop), as for a single answer.
      void answered
        .then(() => Promise.allSettled([...inFlight, ...(stop === undefined ? sending : [])]))
        .then(async () => {
          await server.close().catch(() => {});
          if (stop === undefined) resolve(EXIT_CODES.ok);
          else reject(stop);
        });
    };
    // A stop signal: no request is taken from then on, and the ones under way end as told above (McpOptions.stop).
    const stopNow = () => {
      stopped = true;
      input.pause();
      end(false, options.stop?.reason);
    };
    if (options.stop?.aborted) stopNow();
    else options.stop?.addEventListener('abort', stopNow, { once: true });
    // The end of the lines, not of stdin: every line has then reached the transport.
    input.once('end', () => end(true));
    // stdin closed without an end (destroyed): what was read is answered, briefly.
    process.stdin.once('close', () => setTimeout(() => end(true), 1000).unref());
    // The client went away: nothing more can be answered.
    process.stdout.on('error', () => end(false));
    server.onclose = () => end(false);
  });
  // A batch's answers, written once its last request is answered; the server ends once they are.
  const batches = new Batches(MAX_MESSAGE_BYTES, (answers) => {
    const sent = writing.then(() => send(answers as unknown as JSONRPCMessage));
    sending.add(sent);
    sent.finally(() => sending.delete(sent)).catch(() => {});
    writing = sent.catch(() => {});
  });
  // The line the transport reads, once it reads (lineBeingRead): an invalid request's error answer carries its id.
  let reading: () => Buffer | undefined = () => undefined;
  server.onerror = (error) => {
    // A line that is no message gets the JSON-RPC error the protocol requires (the client may be waiting on it).
    // A batch, under the version that has them, is taken message by message (./batch.ts); else it is refused.
    if (error.name === 'ZodError' && batches.open(reading(), (m) => transport.onmessage?.(m))) return;
    const unreadable = unreadableError(error, reading(), batches.version);
    if (unreadable?.answer) process.stdout.write(unreadable.answer);
    stderr.write(`agents mcp: ${unreadable?.message ?? errorNote(error.message)}\n`);
  };
  await server.connect(transport);
  reading = lineBeingRead(input);
  const deliver = transport.onmessage;
  // Messages read while TAKEN_LIMIT requests are worked on or wait for their answer to be written, taken in order as
  // answers leave: a client that leaves its answers unread is read no further (stdin paused), and no request of it is
  // worked on and held meanwhile, so the server's memory stays bounded.
  const held: JSONRPCMessage[] = [];
  let releasing = false;
  const settle = (id: string | number | undefined) => {
    if (id !== undefined) sentArguments.delete(id);
    if (id === undefined || !unanswered.delete(id)) return;
    // Not again from within: a held cancellation settles its request as it is taken, and the messages after it wait.
    if (!releasing) {
      releasing = true;
      while (held.length > 0 && unanswered.size < TAKEN_LIMIT) take(held.shift()!);
      releasing = false;
      if (held.length < HELD_LIMIT && !stopped) input.resume();
    }
    if (unanswered.size === 0 && held.length === 0) drained?.();
  };
  transport.onmessage = (message) => {
    if (stopped) return;
    // A cancellation is heard at once, past the held messages: a call waiting for a lock gives up instead of writing
    // after the client was told nothing came of it. A held request it names is dropped (a cancelled one gets no answer).
    if ('method' in message && !('id' in message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      const at = held.findIndex((m) => 'method' in m && 'id' in m && m.id === id);
      if (at >= 0) batches.cancelled(held.splice(at, 1)[0]!);
      else take(message);
    } else if (held.length > 0 || unanswered.size >= TAKEN_LIMIT) {
      held.push(message);
      if (held.length >= HELD_LIMIT) input.pause();
    } else take(message);
  };
  const take = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) {
      // The SDK and the state above know a request by its id: a second request under the id of one not yet answered,
      // or cancelled but still worked on, would be answered with the other's arguments or result, so it is refused
      // and the first one goes on. The `initialize` answered early is answered for the client, which may use its id
      // again.
      if ((unanswered.has(message.id) || working.has(message.id)) && (dropped || message.id !== answered.id)) {
        const refusal: JSONRPCMessage = {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: ErrorCode.InvalidRequest,
            message: `invalid request: id ${escapeUnsafe(JSON.stringify(message.id))} is the id of a request not yet answered or still worked on; give each request an id of its own`,
          },
        };
        if (!batches.refused(message, refusal)) writing = writing.then(() => send(refusal)).catch(() => {});
        return;
      }
      batches.taken(message);
      batches.asked(message);
      unanswered.add(message.id);
      working.taken(message.id);
      if (message.method === 'tools/call' || message.method === 'prompts/get') {
        const params = message.params as { arguments?: unknown } | undefined;
        sentArguments.set(message.id, params?.arguments);
        // The SDK takes a prompt's arguments as strings only, and would refuse a null one before the handler checks it:
        // null is "not given" there too (checkArgs, which reads the arguments as sent), so it is not handed to the SDK.
        const args = params?.arguments;
        if (message.method === 'prompts/get' && typeof args === 'object' && args !== null && !Array.isArray(args))
          params!.arguments = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
      }
    }
    // A request the client cancels gets no answer.
    else if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      settle(id);
      if (id !== undefined) {
        working.cancelled(id);
        batches.cancelled(id);
      }
    }
    deliver?.(message);
  };
  const send = transport.send.bind(transport);
  // The first line is seen (and `answered.id` set) before the transport reads it, so before the SDK answers it.
  let dropped = false;
  // One write at a time: the SDK waits for a full pipe's 'drain' with a listener per write, and a burst of answers
  // to a client that reads slowly would pile them up.
  let writing: Promise<unknown> = Promise.resolve();
  transport.send = (message) => {
    const id = !('method' in message) && 'id' in message ? message.id : undefined;
    const written = writing.then(async () => {
      try {
        // The SDK's answer to the `initialize` answered before it loaded: the client has it already.
        if (!dropped && answered.id !== undefined && id === answered.id) dropped = true;
        else {
          // An answer to a request of a batch goes into the batch's array (./batch.ts), written once it is whole.
          const readable = readableError(message);
          if (!batches.answered(id, readable)) await send(readable);
        }
      } finally {
        settle(id);
        if (id !== undefined) working.answered(id);
      }
    });
    writing = written.catch(() => {});
    return written;
  };
  server.oninitialized = () => {
    watcher.start();
    void currentList().catch(() => {});
  };
  return done;
}
