import { describe, expect, it } from 'vitest';
import { jsonPieces, jsonSlices, STREAM } from '../../src/core/json-stream.ts';

/** The document with the items in place of the marker, as JSON.stringify writes it. */
function expected(doc: unknown, items: unknown[]): string {
  return JSON.stringify(doc, (_k, v: unknown) => (v === STREAM ? items : v), 2);
}

const joined = (doc: unknown, items: Iterable<unknown>) => [...jsonPieces(doc, items)].join('');

describe('jsonPieces (docs/json-output.md, "Large outputs are streamed")', () => {
  it.each([
    ['the marker alone', () => STREAM],
    ['the marker in an object', () => ({ version: 1, items: STREAM, after: 'x' })],
    ['the marker two levels down', () => ({ a: { b: STREAM, c: [1, 2] }, d: null })],
    ['the marker after another array', () => ({ before: [1, [2]], items: STREAM })],
    ['the marker after empty strings and arrays', () => ({ a: '', b: [], c: [''], items: STREAM })],
  ])('writes what JSON.stringify writes: %s', (_name, make) => {
    const items = [{ id: 'a', tags: ['x', 'y'], n: 1 }, 'two', 3, [4, { five: 5 }], null];
    for (const n of [0, 1, 2, items.length]) expect(joined(make(), items.slice(0, n))).toBe(expected(make(), items.slice(0, n)));
  });

  it('writes an empty array as []', () => {
    expect(joined({ items: STREAM }, [])).toBe('{\n  "items": []\n}');
    expect(joined(STREAM, [])).toBe('[]');
  });

  it('takes the items one at a time from any iterable', () => {
    function* items() {
      yield { a: 1 };
      yield { b: 2 };
    }
    expect(joined({ items: STREAM }, items())).toBe(expected({ items: STREAM }, [{ a: 1 }, { b: 2 }]));
  });

  it('yields pieces of at least 64 KiB before the last, never one string for a long list', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: i, text: 'x'.repeat(60) }));
    const pieces = [...jsonPieces({ items: STREAM }, items)];
    expect(pieces.join('')).toBe(expected({ items: STREAM }, items));
    expect(pieces.length).toBeGreaterThan(2);
    for (const p of pieces.slice(0, -1)) expect(p.length).toBeGreaterThanOrEqual(1 << 16);
    // A piece is yielded as soon as it reaches the size: each stays under the size plus one item.
    for (const p of pieces) expect(p.length).toBeLessThan((1 << 16) + 200);
    const small = [...jsonPieces({ items: STREAM }, items.slice(0, 3))];
    expect(small).toHaveLength(1);
  });

  it('refuses a document without the marker', () => {
    expect(() => [...jsonPieces({ items: [] }, [])]).toThrow('jsonPieces: the document has no STREAM marker');
  });
});

describe('jsonSlices (a document whose top-level arrays are written a slice at a time)', () => {
  const slices = (doc: Record<string, unknown>) => [...jsonSlices(doc)];
  const long = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ n: i, text: `rule ${i} \u2026 "quoted"`, tags: i % 3 ? ['a'] : [], left_out: [{ line: i }] }));

  it.each([
    ['an empty object', {}],
    ['scalars and nulls', { a: 1, b: 'two', c: null, d: true }],
    ['values JSON leaves out', { a: undefined, b: 1, c: undefined, d: () => 1 }],
    ['only values JSON leaves out', { a: undefined }],
    ['short and empty arrays, nested objects', { files: [], candidates: [{ a: [1, { b: [] }] }], projects: { x: [1, 2] } }],
    ['arrays of every length around a slice', { a: long(63), b: long(64), c: long(65), d: long(128), e: long(129), f: 'end' }],
    ['a long array first and last', { a: long(200), b: null, c: long(300) }],
    [
      'a long array of scalars, nulls and arrays',
      { a: Array.from({ length: 150 }, (_, i) => (i % 4 === 0 ? null : i % 4 === 1 ? [i] : i)) },
    ],
    ['keys JSON escapes', { 'a"b': long(70), 'c\nd': 1 }],
  ])('writes what JSON.stringify writes: %s', (_name, doc) => {
    expect(slices(doc as Record<string, unknown>).join('')).toBe(JSON.stringify(doc, null, 2));
  });

  it('never holds a long array in one piece', () => {
    const doc = { files: long(1000), candidates: long(1000) };
    const pieces = slices(doc);
    expect(pieces.join('')).toBe(JSON.stringify(doc, null, 2));
    expect(pieces.length).toBeGreaterThan(30);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(JSON.stringify(doc, null, 2).length / 10);
  });
});
