// JSON-RPC batches (docs/adr/0120-mcp-batches-by-negotiated-version.md): protocol 2025-03-26 has them, 2025-06-18
// removed them, and the SDK's transport reads none (a line holding an array is its parse error). So a batch is taken
// here, by the version `initialize` agreed on: under 2025-03-26 each of its messages is taken as if it came on its
// own line, and their answers are written as one array once the last is in; under any other it is refused.
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { EXIT_CODES } from '../core/errors.ts';
import { agreedVersion } from './initialize.ts';
import { BATCH_VERSION, idIn } from './line-limit.ts';

/** The most requests one batch may hold: their answers, or an error in place of each, must fit in one message. */
export const MAX_BATCH_REQUESTS = 1000;

/** Room held for each request's error in place of its answer (without its id): its message and the envelope. */
const SLOT_BYTES = 400;

interface Open {
  /** The answers, in the order of the batch's requests; undefined while one is worked on, null when it was cancelled. */
  slots: unknown[];
  waiting: number;
  /** Bytes of the answers in, and held for those still worked on (each its error's room): never over the limit. */
  bytes: number;
}

interface Member {
  batch: Open;
  slot: number;
  /** The room held for its error in place of its answer. */
  room: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const invalid = (id: string | number | null, message: string) => ({
  jsonrpc: '2.0',
  id,
  error: { code: ErrorCode.InvalidRequest, message: `invalid request: ${message}` },
});

/**
 * The batches of a session: the version agreed on, the batches whose requests are worked on, and where each answer
 * goes. `write` sends a batch's answers, once each of its requests is answered (or cancelled: none for it).
 */
export class Batches {
  #version: string | undefined;
  /** The requests of open batches not yet taken (held behind busy ones), by their message. */
  readonly #held = new WeakMap<object, Member>();
  /** The requests of open batches taken, by their id: their answers go into the batch. */
  readonly #taken = new Map<string | number, Member>();

  constructor(
    private readonly limit: number,
    private readonly write: (answers: unknown[]) => void,
  ) {}

  get version(): string | undefined {
    return this.#version;
  }

  /**
   * Notes the version an `initialize` request agrees on, as it is taken: before its answer is written, since a client
   * may send its batch right behind it.
   */
  asked(message: JSONRPCMessage): void {
    if ('method' in message && message.method === 'initialize') this.#version = agreedVersion(message) ?? this.#version;
  }

  /**
   * Takes the batch `line` holds when the version agreed on has batches: each message is given to `deliver`, in order,
   * and each member that is no message answered in the batch at once. False when the line is no batch, or the version
   * has none: then it is refused as before.
   */
  open(line: Buffer | string | undefined, deliver: (message: JSONRPCMessage) => void): boolean {
    if (this.#version !== BATCH_VERSION || line === undefined) return false;
    let members: unknown;
    try {
      members = JSON.parse(line.toString());
    } catch {
      return false;
    }
    if (!Array.isArray(members) || members.length === 0) return false;
    const batch: Open = { slots: [], waiting: 0, bytes: 2 };
    const messages: JSONRPCMessage[] = [];
    const requests = members.filter((m) => isObject(m) && Object.hasOwn(m, 'id')).length;
    if (requests > MAX_BATCH_REQUESTS) {
      const said = `a batch of ${requests} requests was refused: at most ${MAX_BATCH_REQUESTS} fit in one answer; send the rest in another batch`;
      this.write([invalid(null, said)]);
      return true;
    }
    for (const member of members) {
      const parsed = JSONRPCMessageSchema.safeParse(member);
      if (!parsed.success) this.#put(batch, invalid(idIn(member), 'not a JSON-RPC message'));
      // The protocol's own rule: initialize is never part of a batch.
      else if ('method' in parsed.data && parsed.data.method === 'initialize')
        this.#put(batch, invalid(idIn(member), 'initialize may not be sent in a batch'));
      else {
        const message = parsed.data;
        if ('method' in message && 'id' in message) {
          const room = SLOT_BYTES + Buffer.byteLength(JSON.stringify(message.id));
          this.#held.set(message, { batch, slot: batch.slots.push(undefined) - 1, room });
          batch.waiting++;
          batch.bytes += room;
        }
        messages.push(message);
      }
    }
    // Ids so long that the room held for each request's error is over the limit (a batch of a few requests with ids
    // of a megabyte): one error for all, as for a batch of too many requests, before any is worked on.
    if (batch.bytes > this.limit) {
      for (const m of messages) this.#held.delete(m);
      this.write([invalid(null, `a batch of ${requests} requests was refused: their ids leave no room for their answers in one message`)]);
      return true;
    }
    if (batch.waiting === 0) this.#flush(batch);
    for (const m of messages) deliver(m);
    return true;
  }

  /** A request of a batch is taken (worked on): its answer, sent under its id, goes into the batch. */
  taken(message: JSONRPCMessage): void {
    const member = this.#held.get(message);
    const id = 'id' in message ? message.id : undefined;
    if (member === undefined || id === undefined) return;
    this.#held.delete(message);
    this.#taken.set(id, member);
  }

  /**
   * The answer under `id`, into its batch when it is one's (true: the batch writes it once complete), or false: it is
   * no batch's, and sent on its own.
   */
  answered(id: string | number | undefined, answer: JSONRPCMessage): boolean {
    const member = id === undefined ? undefined : this.#taken.get(id);
    if (id === undefined || member === undefined) return false;
    this.#taken.delete(id);
    this.#fill(member, answer);
    return true;
  }

  /** A request of a batch refused as it was taken (an id already in use): `answer` in its place. */
  refused(message: JSONRPCMessage, answer: JSONRPCMessage): boolean {
    const member = this.#held.get(message);
    if (member === undefined) return false;
    this.#held.delete(message);
    this.#fill(member, answer);
    return true;
  }

  /** A request of a batch cancelled, held (by its message) or taken (by its id): it gets no answer. */
  cancelled(request: JSONRPCMessage | string | number): void {
    const member = typeof request === 'object' ? this.#held.get(request) : this.#taken.get(request);
    if (member === undefined) return;
    if (typeof request === 'object') this.#held.delete(request);
    else this.#taken.delete(request);
    this.#fill(member, null);
  }

  /** A member's answer (null: none) in its slot; one that would take the batch's answer over the limit, an error. */
  #fill(member: Member, answer: unknown): void {
    const { batch, slot, room } = member;
    batch.bytes -= room;
    let put = answer;
    if (answer !== null) {
      const bytes = Buffer.byteLength(JSON.stringify(answer)) + 1;
      if (batch.bytes + bytes > this.limit) put = this.#tooLarge(answer as { id?: string | number }, bytes);
    }
    batch.slots[slot] = put;
    if (put !== null) batch.bytes += Buffer.byteLength(JSON.stringify(put)) + 1;
    if (--batch.waiting === 0) this.#flush(batch);
  }

  /** An answer that members before it left no room for: said, under its id, with what was done. */
  #tooLarge(answer: { id?: string | number }, bytes: number) {
    return {
      jsonrpc: '2.0',
      id: answer.id ?? null,
      error: {
        code: ErrorCode.InvalidParams,
        message: `the answer is ${bytes} bytes, over what the batch's answer of at most ${this.limit} bytes has left: it was worked on (a write was made), so ask again on its own line for what it read`,
        data: { code: 'answer-too-large', exit_code: EXIT_CODES.usage, detail: { bytes, limit: this.limit }, diagnostics: [] },
      },
    };
  }

  #put(batch: Open, answer: unknown): void {
    batch.slots.push(answer);
    batch.bytes += Buffer.byteLength(JSON.stringify(answer)) + 1;
  }

  /** The batch's answers, in the order of its requests; none at all when it held notifications only (JSON-RPC 2.0). */
  #flush(batch: Open): void {
    const answers = batch.slots.filter((a) => a !== null && a !== undefined);
    if (answers.length > 0) this.write(answers);
  }
}
