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
