import { type Document, LineCounter, parseDocument } from 'yaml';
import { expect } from 'vitest';
import { canonicalPositions } from '../../src/core/canonical-yaml.ts';
import { lineStartsOf } from '../../src/core/yaml-file.ts';
import { nodeAt } from '../../src/core/yaml-syntax.ts';

/** Every path of `data`, and beside each a child that is not there (a diagnostic may name a missing key or item). */
function pathsOf(data: unknown, path: string[] = []): string[][] {
  const out = [path, [...path, 'absent'], [...path, '99']];
  if (data !== null && typeof data === 'object') for (const [k, v] of Object.entries(data)) out.push(...pathsOf(v, [...path, k]));
  return out;
}

/** canonicalPositions gives (`parsed`: yaml's reading of `source`, when the caller has it), for every path, the offset the full parse gives (`offsetAt`: the node's, or its nearest ancestor's). */
export function positionsAgree(source: string, data: unknown, parsed?: { doc: Document.Parsed; lines: LineCounter }): void {
  const at = canonicalPositions(source);
  expect(at).toBeDefined();
  const counter = parsed?.lines ?? new LineCounter();
  const doc = parsed?.doc ?? parseDocument(source, { lineCounter: counter, uniqueKeys: true, schema: 'core', version: '1.2' });
  // Differences are gathered and compared once: an assertion per path would cost more than the parses.
  const wrong: unknown[] = [];
  const expected: number[] = [];
  for (const path of pathsOf(data)) {
    let offset = 0;
    for (let n = path.length; n >= 0; n--) {
      const node = nodeAt(doc, path.slice(0, n));
      if (node?.range) {
        offset = node.range[0];
        break;
      }
    }
    if (at!(path) !== offset) wrong.push({ path, offset, fast: at!(path) });
    expected.push(offset);
  }
  // A file the fast path reads (no `yaml` loaded) places lines and columns as yaml's LineCounter does: at each
  // line's start, either side of it, and at every node.
  const lines = lineStartsOf(source);
  if (lines.lineStarts.join() !== counter.lineStarts.join()) wrong.push({ lineStarts: lines.lineStarts, full: counter.lineStarts });
  const offsets = [...counter.lineStarts.flatMap((s) => [s - 1, s, s + 1]), ...expected];
  for (const offset of offsets.filter((o) => o >= 0 && o <= source.length)) {
    const [fast, full] = [lines.linePos(offset), counter.linePos(offset)];
    if (fast.line !== full.line || fast.col !== full.col) wrong.push({ offset, fast, full });
  }
  expect({ source, wrong }).toStrictEqual({ source, wrong: [] });
}
