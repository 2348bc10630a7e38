// The server's side of `initialize`, and the way stdin reaches the SDK. A
// client waits for the answer to `initialize` before anything else, and the
// MCP SDK takes longer to load than the rest of the start (its schemas are
// built as it loads): so the first line is answered here, as the SDK would
// answer it, before the SDK is loaded; the SDK still reads that line (it
// keeps the client's version and capabilities) and its own answer is
// dropped (docs/adr/0113-mcp-initialize-answered-before-the-sdk-loads.md).
import { Transform, type TransformCallback, type Readable, type Writable } from 'node:stream';
import { VERSION } from '../present/version.ts';
import { idOf, LineLimit, MAX_MESSAGE_BYTES, oversizeError } from './line-limit.ts';

export const SERVER_INFO = Object.freeze({ name: 'agents', title: 'agents: invariants for AI-agent plans', version: VERSION });

export const SERVER_CAPABILITIES = Object.freeze({ tools: {}, resources: { subscribe: true, listChanged: true }, prompts: {} });

export const SERVER_INSTRUCTIONS =
  'Invariants are constraints on your work, kept by the team in the repository. Before you change a project, call effective_invariants ' +
  'with its name (or with your plan id) and follow every invariant it returns; re-read it when the project changes. ' +
  'If you notice work under a plan broke one, record it with record_violation (when this server allows writing).';

/** The protocol versions the SDK speaks, newest first, as its `SUPPORTED_PROTOCOL_VERSIONS` (a test holds the two equal). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// The checks below hold a request to what the SDK's schemas take (types.js: JSONRPCRequestSchema,
// InitializeRequestParamsSchema and the schemas they are made of), member by member: an early answer to a request
// the SDK would refuse would tell the client it was taken. A member they do not name is taken, as they take it.
// A test holds the two equal on each shape, so an SDK that grows stricter fails it, not a client.

/** An absent member, or one `check` takes (the SDK's `.optional()`, which takes no null). */
const opt = <T>(v: T | undefined, check: (v: T) => boolean): boolean => v === undefined || check(v);
/** The SDK's AssertObjectSchema, for a capability's flags: any object, an array too. */
const isFlag = (v: unknown): boolean => typeof v === 'object' && v !== null;
/** A request id or progress token: a string, or an integer zod's `.int()` takes (a safe one). */
const isId = (v: unknown): v is string | number => typeof v === 'string' || Number.isSafeInteger(v);
const isString = (v: unknown): v is string => typeof v === 'string';
/** An object of `check`ed members (`z.object({…})`, whose other members are taken). */
const shaped = (v: unknown, checks: Record<string, (m: unknown) => boolean>): boolean =>
  isObject(v) && Object.entries(checks).every(([key, check]) => opt(Object.hasOwn(v, key) ? v[key] : undefined, check));
const flags = (v: unknown): boolean => isObject(v) && Object.values(v).every(isFlag);

const CAPABILITIES = {
  experimental: flags,
  extensions: flags,
  sampling: (v: unknown) => shaped(v, { context: isFlag, tools: isFlag }),
  elicitation: (v: unknown) => shaped(v, { form: (f) => shaped(f, { applyDefaults: (b) => typeof b === 'boolean' }), url: isFlag }),
  roots: (v: unknown) => shaped(v, { listChanged: (b) => typeof b === 'boolean' }),
  tasks: (v: unknown) =>
    shaped(v, {
      list: isFlag,
      cancel: isFlag,
      requests: (r) =>
        shaped(r, { sampling: (x) => shaped(x, { createMessage: isFlag }), elicitation: (x) => shaped(x, { create: isFlag }) }),
    }),
};

const icon = (v: unknown) =>
  shaped(v, { mimeType: isString, sizes: (s) => Array.isArray(s) && s.every(isString), theme: (t) => t === 'light' || t === 'dark' }) &&
  isString((v as Record<string, unknown>).src);

const IMPLEMENTATION = {
  title: isString,
  websiteUrl: isString,
  description: isString,
  icons: (v: unknown) => Array.isArray(v) && v.every(icon),
};

const META = {
  progressToken: isId,
  'io.modelcontextprotocol/related-task': (v: unknown) => isObject(v) && isString(v.taskId),
};

/** The only members a JSON-RPC request may have: the SDK refuses a line with any other (its schema is strict). */
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** Whether the SDK's server takes `m` as an `initialize` request and answers it with a result. */
function sdkTakes(m: unknown): m is { id: string | number; params: { protocolVersion: string } } {
  if (!isObject(m) || m.jsonrpc !== '2.0' || m.method !== 'initialize' || !isId(m.id)) return false;
  if (Object.keys(m).some((key) => !REQUEST_MEMBERS.has(key))) return false;
  const p = m.params;
  if (!isObject(p) || !isString(p.protocolVersion) || !shaped(p, { _meta: (v) => shaped(v, META) })) return false;
  if (!shaped(p.capabilities, CAPABILITIES)) return false;
  const info = p.clientInfo;
  return isObject(info) && shaped(info, IMPLEMENTATION) && isString(info.name) && isString(info.version);
}

/**
 * The answer to `line` when it is an `initialize` request the SDK's server
 * takes, exactly as it answers it: the version the client asked for when the
 * SDK speaks it, else the newest. Undefined for any other line, which the SDK
 * then answers itself (with its error, when it refuses it).
 */
export function initializeAnswer(line: string): { id: string | number; text: string } | undefined {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return undefined;
  }
  const protocolVersion = agreedVersion(m);
  if (protocolVersion === undefined || !sdkTakes(m)) return undefined;
  const { id } = m;
  const result = { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions: SERVER_INSTRUCTIONS };
  // The members in the order the SDK writes them.
  return { id, text: `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n` };
}

/**
 * The protocol version the SDK's answer to the `initialize` request `m` gives: the one asked for when it speaks it,
 * else the newest; undefined when it refuses the request (./batch.ts takes batches by it).
 */
export function agreedVersion(m: unknown): string | undefined {
  if (!sdkTakes(m)) return undefined;
  const asked = m.params.protocolVersion;
  return SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : SUPPORTED_PROTOCOL_VERSIONS[0];
}

/** Hands each line on, and the first one to `first` before that. */
class FirstLine extends Transform {
  #seen = false;
  constructor(private readonly first: (line: Buffer) => void) {
    super();
  }
  override _transform(line: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.#seen) {
      this.#seen = true;
      this.first(line);
    }
    done(null, line);
  }
}

/** The lines the SDK's transport reads, and the id of the `initialize` answered before it (its own answer is then dropped). */
export interface McpInput {
  lines: Readable;
  answered: { id?: string | number };
  /** Settles once the first line is seen (and answered, when it is `initialize`), or stdin ends without one. */
  started: Promise<void>;
}

/**
 * stdin as the SDK reads it: one message per line, a line over the limit
 * refused with a JSON-RPC error (./line-limit.ts), and a first line that is
 * `initialize` answered at once on `stdout`.
 */
export function mcpInput(stdin: Readable, stdout: Writable): McpInput {
  const answered: McpInput['answered'] = {};
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const limit = new LineLimit(MAX_MESSAGE_BYTES, (head, tail, bytes) => {
    stdout.write(oversizeError(idOf(head.toString('utf8'), tail.toString('utf8')), bytes, MAX_MESSAGE_BYTES));
  });
  const first = new FirstLine((line) => {
    start();
    const answer = initializeAnswer(line.toString('utf8'));
    if (answer === undefined) return;
    answered.id = answer.id;
    stdout.write(answer.text);
  });
  const lines = stdin.pipe(limit).pipe(first);
  // No line at all: the SDK is loaded to end the session as it does.
  for (const stream of [stdin, limit]) {
    stream.once('end', start);
    stream.once('error', start);
    stream.once('close', start);
  }
  return { lines, answered, started };
}
