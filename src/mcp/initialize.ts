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

/**
 * The answer to `line` when it is an `initialize` request in the shape the
 * protocol gives it, exactly as the SDK's server answers it: the version the
 * client asked for when the SDK speaks it, else the newest. Undefined for any
 * other line, which the SDK then answers itself.
 */
export function initializeAnswer(line: string): { id: string | number; text: string } | undefined {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(m) || m.jsonrpc !== '2.0' || m.method !== 'initialize') return undefined;
  const id = m.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  const p = m.params;
  if (!isObject(p) || typeof p.protocolVersion !== 'string' || !isObject(p.capabilities) || !isObject(p.clientInfo)) return undefined;
  if (typeof p.clientInfo.name !== 'string' || typeof p.clientInfo.version !== 'string') return undefined;
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(p.protocolVersion) ? p.protocolVersion : SUPPORTED_PROTOCOL_VERSIONS[0];
  const result = { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions: SERVER_INSTRUCTIONS };
  // The members in the order the SDK writes them.
  return { id, text: `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n` };
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
