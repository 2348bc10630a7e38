// The pages of a tool's answer, or of the reconcile_plan prompt, too long for one message (docs/mcp.md, "Limits"): a
// set of 10,000 invariants is 6 MB, over the 4 MiB a message may hold, and a pattern alone could not get an agent the
// whole of it. resources/list has cursors of its own (listingPage in ./resources.ts), which go on past a change: they
// list resources each read apart, not one set, as its comment says.
import { createHash } from 'node:crypto';
import { storeChanged, UsageError } from '../core/errors.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { MAX_MESSAGE_BYTES } from './line-limit.ts';
import { type JsonSchema, nullable } from '../present/schema.ts';
import type { ToolAnswer } from './tool.ts';
import { type PropertySchema, trimmed } from './args.ts';

/** Room kept in a page's message for what the server adds to the answer (the notes of the read, `_meta`). */
const NOTES_BYTES = 64 * 1024;

/** The argument that asks for the page after the one an answer gave: a cursor copied from it, white space dropped. */
export function cursorArg(description: string): PropertySchema {
  return trimmed({ type: 'string', description, minLength: 1, maxLength: 300 });
}

/** The entries `from` (0-based) to `to` (excluded) of a set, and the cursor of the page after them, or null. */
export interface Page {
  from: number;
  to: number;
  next: string | null;
}

/**
 * A cursor as pageOf gives it: the number of entries before the next page, a digest of their ids, so that any entry
 * added, moved or removed before the cursor since tells (one added and one removed would keep the number), and a
 * digest of the set it pages (the tool and the target and filters of the call), so that a cursor given to another
 * tool or target is told from one of a set that changed. A page holds at least one entry, so the number is never 0
 * and never written with a leading 0: such a cursor is none the server gave (`invalid-value`), not one of a set that
 * changed since (`store-changed`).
 */
const CURSOR = /^([1-9]\d{0,8}):([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]{11})$/;

/** What a page is of: the tool, and the target and filters of the call that select its entries (not their wording). */
export interface PagedSet {
  tool: string;
  /** The target and filters, as one string: a cursor is taken only by a call that gives the same. */
  of: string;
}

const digestOf = (text: string, length: number) => createHash('sha256').update(text).digest('base64url').slice(0, length);
/** The part of a cursor that names the call it pages. */
const callDigest = (set: PagedSet) => digestOf(`${set.tool}\n${set.of}`, 11);

/** The cursor of the page that starts after the first `to` of `ids`. */
function cursorAt(ids: readonly string[], to: number, set: PagedSet): string {
  return `${to}:${digestOf(ids.slice(0, to).join('\n'), 22)}:${callDigest(set)}`;
}

/**
 * Where the page a cursor names starts. A cursor this server never gives, or gave for another tool or target, is
 * refused as the wrong value it is (`invalid-value`); one whose entries before it are not those it was given after is
 * of a set that changed since (`store-changed`).
 */
function startOf(ids: readonly string[], cursor: string | undefined, set: PagedSet): number {
  if (cursor === undefined) return 0;
  const m = CURSOR.exec(cursor);
  const wrong = (why: string) =>
    new UsageError(
      `${set.tool}: cursor ${escapeUnsafe(JSON.stringify(cursor))} ${why}`,
      'Give the cursor the last page of the same call gave (the same tool or prompt, target and pattern), or no cursor for the first page.',
      { option: 'cursor', value: cursor, suggestions: [] },
      'invalid-value',
    );
  if (!m) throw wrong('is not one this server gave');
  if (m[3] !== callDigest(set)) throw wrong('was given for another call (another tool or prompt, another target or pattern)');
  const from = Number(m[1]);
  if (from > ids.length || cursorAt(ids, from, set) !== cursor)
    throw storeChanged(
      `${set.tool}: the set changed since the page before this cursor (an entry before it was added, moved or removed)`,
      'Ask again without a cursor, from the first page.',
      { cursor },
    );
  return from;
}

/**
 * The page of `ids` (the entries of an answer, in order) that starts at `cursor` (none: the first) and holds as many
 * entries as fit in one message with room for notes, as `render` makes it: the whole rest when it fits (the common
 * case, rendered once), else about as many as fit. Answers that must be read whole have no pages; these are lists an
 * agent may read a page at a time.
 */
export function pageOf(ids: readonly string[], cursor: string | undefined, set: PagedSet, render: (page: Page) => ToolAnswer): ToolAnswer {
  const from = startOf(ids, cursor, set);
  const limit = MAX_MESSAGE_BYTES - NOTES_BYTES;
  const answer = (to: number) => render({ from, to, next: to < ids.length ? cursorAt(ids, to, set) : null });
  const bytes = (a: ToolAnswer) =>
    Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: a.text }], structuredContent: a.data }));
  const whole = answer(ids.length);
  const wholeBytes = bytes(whole);
  if (wholeBytes <= limit) return whole;
  // Halving between one entry (a page holds at least one) and twice the share of entries the limit is of the whole:
  // each page rendered is then at most about two messages long, however long the whole (a store of 100,000). A page
  // at that bound that fits (its entries shorter than the rest) is taken as it is: shorter than it could be, still whole.
  let lo = Math.min(from + 1, ids.length);
  let hi = Math.min(ids.length, from + Math.ceil((2 * (ids.length - from) * limit) / wholeBytes));
  if (hi > lo && bytes(answer(hi)) <= limit) return answer(hi);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (bytes(answer(mid)) <= limit) lo = mid;
    else hi = mid;
  }
  return answer(lo);
}

/** A page's text, ending with a line saying which entries it holds and how to ask for the next ones (none for a whole set). */
export function pagedText(text: string, page: Page, total: number, tool: string): string {
  if (page.next === null && page.from === 0) return text;
  const held = page.to > page.from ? `entries ${page.from + 1} to ${page.to}` : 'no entries';
  const rest = page.next === null ? 'the last page.' : `call ${tool} again with cursor "${page.next}" for the rest.`;
  return `${text}\n\nPage: ${held} of ${total}; ${rest}`;
}

/**
 * A paged tool's output schema: its data, whose `count` is the whole set's and `invariants` the page's, with the
 * `next_cursor` of the page after it (null on the last page, and when the set fits in one).
 */
export function withNextCursor(schema: JsonSchema): JsonSchema {
  const { properties, required } = schema as { properties: Record<string, JsonSchema>; required: string[] };
  return { ...schema, properties: { ...properties, next_cursor: nullable('string') }, required: [...required, 'next_cursor'] };
}
