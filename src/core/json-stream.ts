/**
 * Pretty JSON written in pieces (docs/json-output.md, "Large outputs are
 * streamed"): the same text as `JSON.stringify(doc, null, 2)` with the one
 * array marked by `STREAM` holding `items`, but built an item at a time, so
 * that a document of 100,000 entries is never one string, nor one array of
 * objects, in memory.
 */

/** Put `STREAM` (this very array) where the streamed items go; exactly one per document. */
export const STREAM: readonly unknown[] = Object.freeze(['\u0000agents-json-stream\u0000']);
const MARK = JSON.stringify(STREAM[0]);

/** Pieces of about this many characters. */
const PIECE = 1 << 16;

export function* jsonPieces(doc: unknown, items: Iterable<unknown>): Generator<string> {
  // STREAM is an array holding the marker: stringified in place, it leaves the marker where the items go.
  const text = JSON.stringify(doc, null, 2);
  const at = text.indexOf(MARK);
  if (at < 0) throw new Error('jsonPieces: the document has no STREAM marker');
  const open = text.lastIndexOf('[', at);
  const close = text.indexOf(']', at + MARK.length);
  const indent = text.slice(text.lastIndexOf('\n', at) + 1, at);
  let piece = text.slice(0, open + 1);
  let first = true;
  for (const item of items) {
    piece += `${first ? '\n' : ',\n'}${indent}${JSON.stringify(item, null, 2).replace(/\n/g, `\n${indent}`)}`;
    first = false;
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  piece += first ? ']' : `\n${indent.slice(2)}]`;
  yield piece + text.slice(close + 1);
}

/** Entries of a top-level array stringified at once by `jsonSlices`. */
const SLICE = 64;

/**
 * The same text as `JSON.stringify(doc, null, 2)` for an object, in pieces:
 * each top-level array is stringified `slice` entries at a time (the caller
 * gives fewer than 64 when each entry is a long list itself), each slice
 * under the array's own key so that it comes out at its own depth, and the
 * pieces are handed on as they are made. A document of many megabytes is
 * never one string: each piece is written and gone before the next is made,
 * so the garbage collector never copies the whole text from place to place.
 */
export function* jsonSlices(doc: Readonly<Record<string, unknown>>, slice = SLICE): Generator<string> {
  let first = true;
  yield '{';
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    const lead = first ? '\n' : ',\n';
    if (!Array.isArray(value) || value.length <= slice) {
      // `{ "key": value }` stringified is the entry as the document holds it, between `{\n` and `\n}`; nothing when the value has no JSON.
      const one = JSON.stringify({ [key]: value }, null, 2);
      if (one === '{}') continue;
      yield lead + one.slice(2, -2);
    } else {
      const head = `  ${JSON.stringify(key)}: [`;
      yield lead + head;
      for (let at = 0; at < value.length; at += slice) {
        // `{\n<head>` … `\n  ]\n}` around the slice's entries, which stand at the array's depth.
        const part = JSON.stringify({ [key]: value.slice(at, at + slice) }, null, 2);
        yield (at === 0 ? '' : ',') + part.slice(2 + head.length, -6);
      }
      yield '\n  ]';
    }
    first = false;
  }
  yield first ? '}' : '\n}';
}
