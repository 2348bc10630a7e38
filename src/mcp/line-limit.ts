// One JSON-RPC message per line on stdin, each at most MAX_MESSAGE_BYTES
// (docs/mcp.md, "Limits"). The SDK's stdio transport closes itself when its
// buffer overflows (10 MB), which ended the server with calls unanswered. This
// stream sits in front of it: a line over the limit is dropped as it comes
// (never held whole), refused with a JSON-RPC error naming its id when its
// first or last bytes show one, and the server goes on reading the next line.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { type CommandHint, UsageError } from '../core/errors.ts';
import { docsRef } from '../core/docs-link.ts';
import { escapeUnsafe } from '../core/plain-text.ts';

/** The largest message taken: room for any tool's arguments (the long ones are MAX_LONG_ARGUMENT), well below the SDK's buffer. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The most characters a long text argument takes (check_action's `content`, `command`, `tool`, `path` and `cwd`, which
 * the guard hook takes of any length, effective_invariants' `path`, as `agents which` takes it, and
 * record_reconciliation's `answer`), as their schemas publish it: what one message holds of such a text beside the
 * request's other members. A longer one could never arrive, so a schema allowing more would promise what is refused.
 */
export const MAX_LONG_ARGUMENT = 4_000_000;

/** Room left in a message for what the SDK wraps an answer in (`jsonrpc`, `id`). */
const ENVELOPE_BYTES = 1024;

/**
 * An answer (a tool's result, a resource's contents, a prompt) that would make a message over the limit, as the usage
 * error it is; undefined when it fits. The limit holds both ways: the SDK's client closes the connection on a message
 * over its buffer, so a whole store listed at once would end the session with every later call unanswered.
 */
export function oversizeAnswer(answer: unknown, hint: string | CommandHint, limit = MAX_MESSAGE_BYTES): UsageError | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  if (bytes + ENVELOPE_BYTES <= limit) return undefined;
  return new UsageError(
    `the answer is ${bytes} bytes, over the limit of ${limit} bytes per message`,
    hint,
    { bytes, limit },
    'answer-too-large',
  );
}

/**
 * What an answer over the limit tells the client to ask instead. The prompt's names a command: started by the server's
 * `agents`, with its --store (CommandHint), so that, run, it judges the plan of the same store.
 */
export const ASK_LESS: Readonly<Record<'tool' | 'resource', string> & { prompt: CommandHint }> = {
  tool: 'Ask for less: a narrower target, or a pattern where the tool takes one.',
  resource: 'Call effective_invariants for the same target instead: it answers a set this long in pages (next_cursor).',
  // A prompt's set is given in pages: a page over the limit is its context's, which every page holds whole.
  prompt: (agents) =>
    `Give a shorter context (every page of the prompt holds it whole), or judge the plan with \`${agents} plan strategize\`, whose agent and llm actors send its set in batches (${docsRef('actors.md')}).`,
};

/** An answer as it is sent, or, over the limit of a message, the error saying so with `hint` (one of ASK_LESS). */
export function bounded<T>(answer: T, hint: string | CommandHint): T {
  const tooLarge = oversizeAnswer(answer, hint);
  if (tooLarge) throw tooLarge;
  return answer;
}

/** How much of a refused line is kept to find its id. */
const HEAD_BYTES = 512;

// A number in JSON's grammar up to the member's end (`1.5` is never read as 1, nor 17 digits as their first 15): an id
// answered must be the one sent, so idOf then keeps only a number that reads back as written.
const ID_VALUE = '(-?\\d{1,20}(?:\\.\\d{1,20})?(?:[eE][-+]?\\d{1,3})?(?=\\s*[,}])|"(?:[^"\\\\]|\\\\.){0,200}")';
/** The top-level `id` among the first members (before `params`), as some clients write it. */
const HEAD_ID = new RegExp(`^\\s*\\{\\s*(?:"(?:jsonrpc|method)"\\s*:\\s*"[^"]{0,200}"\\s*,\\s*)*"id"\\s*:\\s*${ID_VALUE}`);
/** The top-level `id` as the last member (or before a last `jsonrpc`), as the MCP SDK writes it. */
const TAIL_ID = new RegExp(`"id"\\s*:\\s*${ID_VALUE}\\s*(?:,\\s*"jsonrpc"\\s*:\\s*"2\\.0"\\s*)?\\}\\s*$`);

/**
 * The `id` of a refused JSON-RPC request, from the first and last bytes of its
 * line: only where it can be the top-level member (never an `id` inside the
 * arguments). Null when neither shows one; the error then has `id: null`.
 */
export function idOf(head: string, tail: string): string | number | null {
  const m = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail);
  if (!m) return null;
  const raw = m[1]!;
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  // 12345678901234567 reads back as …568, 1e3 as 1000: the answer would carry an id the client never sent.
  return String(Number(raw)) === raw ? Number(raw) : null;
}

/**
 * The JSON-RPC answer to a line that is not a message: not JSON (-32700, parse error, `id: null` as the id is unknown)
 * or JSON that is no JSON-RPC message (-32600, invalid request). `line`, the line the SDK was reading (lineBeingRead),
 * gives the invalid request its id when it has one, as JSON-RPC 2.0 requires: a client waiting on that id hears back.
 * A batch (an array of messages) that ./batch.ts did not take, the version agreed on having none, is refused as JSON-RPC
 * answers one: an array with an error for each of its requests, under its id; its notifications get none.
 */
export function unreadableError(
  error: Error,
  line?: Buffer | string,
  /** The protocol version `initialize` agreed on (none before it is answered): it says why a batch is refused. */
  version?: string,
): { answer: string; message: string } | undefined {
  const code = error instanceof SyntaxError ? -32700 : error.name === 'ZodError' ? -32600 : undefined;
  if (code === undefined) return undefined;
  if (code === -32700) {
    // JSON.parse's message quotes the line: its ESC, RLO or BOM are escaped, as in every error answer and on stderr.
    const message = `parse error: the line is not JSON (${escapeUnsafe(error.message, { newlines: true })})`;
    return { answer: `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`, message };
  }
  const sent = parsedLine(line);
  if (Array.isArray(sent) && sent.length > 0) {
    const refused = batchRefusal(version);
    const message = `invalid request: ${refused}`;
    const errors = sent.filter((m) => !isNotification(m)).map((m) => ({ jsonrpc: '2.0', id: idIn(m), error: { code, message } }));
    const said = `invalid request: a batch of ${sent.length} message${sent.length === 1 ? '' : 's'} was refused: ${refused}`;
    if (errors.length === 0) return { answer: '', message: said };
    // An error per request would make a short batch an answer over the limit of a message, which the client's SDK
    // closes the connection on: such a batch gets one error, as one JSON-RPC cannot read.
    const fits = errors.length * (message.length + 40) <= MAX_MESSAGE_BYTES && oversizeAnswer(errors, '') === undefined;
    const answer = fits ? errors : { jsonrpc: '2.0', id: null, error: { code, message: said } };
    return { answer: `${JSON.stringify(answer)}\n`, message: said };
  }
  const message = 'invalid request: the line is not a JSON-RPC message';
  return { answer: `${JSON.stringify({ jsonrpc: '2.0', id: idIn(sent), error: { code, message } })}\n`, message };
}

/** The protocol version that has batches: they came with it and left with 2025-06-18 (./batch.ts takes them). */
export const BATCH_VERSION = '2025-03-26';

/** Why a batch is refused, by the version agreed on (none before `initialize` is answered). */
export function batchRefusal(version: string | undefined): string {
  return version === undefined
    ? `batches are taken only once initialize has agreed on protocol ${BATCH_VERSION}, the one that has them; send each message on its own line`
    : `batches are not supported under protocol ${version} (only ${BATCH_VERSION} has them); send each message on its own line`;
}

function parsedLine(line: Buffer | string | undefined): unknown {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line.toString());
  } catch {
    return undefined;
  }
}

/** The id of an invalid request: its top-level `id` when that is a string or a number, else null (JSON-RPC's "unknown"). */
export function idIn(message: unknown): string | number | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

const isNotification = (m: unknown): boolean =>
  typeof m === 'object' && m !== null && !Array.isArray(m) && typeof (m as { method?: unknown }).method === 'string' && !('id' in m);

/**
 * The line the SDK's transport is reading while it reads it, so that an error it reports can be answered under the
 * line's id: the listeners added here run just before and just after the transport's own, which must be added
 * already. Each chunk of `lines` is one line (LineLimit pushes them one by one).
 */
export function lineBeingRead(lines: Readable): () => Buffer | undefined {
  let reading: Buffer | undefined;
  lines.prependListener('data', (chunk: Buffer) => {
    reading = chunk;
  });
  lines.on('data', () => {
    reading = undefined;
  });
  return () => reading;
}

export function oversizeError(id: string | number | null, bytes: number, limit: number): string {
  const message = `a message of ${bytes} bytes or more was refused: the limit is ${limit} bytes per message`;
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`;
}

const NEWLINE = Buffer.from('\n');

export class LineLimit extends Transform {
  private parts: Buffer[] = [];
  private length = 0;
  private dropping = false;
  private dropped = 0;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly limit: number,
    /** Told once per refused line, when its end is read: its first and last bytes, and its size. */
    private readonly onRefused: (head: Buffer, tail: Buffer, bytes: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      if (this.dropping) {
        this.dropped += piece.length;
        this.keepTail(piece);
        if (nl >= 0) this.refuse();
        continue;
      }
      if (this.length + piece.length > this.limit) {
        this.head = Buffer.concat([...this.parts, piece.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
        this.dropped = this.length + piece.length;
        this.keepTail(Buffer.concat([...this.parts.slice(-1), piece]));
        this.parts = [];
        this.length = 0;
        if (nl >= 0) this.refuse();
        else this.dropping = true;
        continue;
      }
      this.parts.push(piece);
      this.length += piece.length;
      if (nl >= 0) {
        this.line(this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts));
        this.parts = [];
        this.length = 0;
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.dropping) this.refuse();
    // A last request without its line break (`printf` into a pipe) is a line still: the SDK reads only whole lines.
    else if (this.length > 0) this.line(Buffer.concat([...this.parts, NEWLINE]));
    done();
  }

  /**
   * Hands a whole line on, without the UTF-8 byte order mark some Windows tools and shell redirections write before
   * it (JSON allows a reader to ignore one): with it, the line was no JSON and its request, `initialize` among them,
   * went unanswered until the client's time-out.
   */
  private line(line: Buffer): void {
    this.push(line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? line.subarray(3) : line);
  }

  /** The last HEAD_BYTES of the refused line so far. */
  private keepTail(piece: Buffer): void {
    this.tail =
      piece.length >= HEAD_BYTES ? piece.subarray(piece.length - HEAD_BYTES) : Buffer.concat([this.tail, piece]).subarray(-HEAD_BYTES);
  }

  private refuse(): void {
    this.dropping = false;
    this.onRefused(this.head, this.tail, this.dropped);
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    this.dropped = 0;
  }
}
