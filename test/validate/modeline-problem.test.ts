import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyPath } from '../../src/core/layout.ts';
import { checkFile, MODELINE_RE, modelineProblem, modelineTarget } from '../../src/validate/check-file.ts';
import type { ContentKind } from '../../src/validate/file-facts.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

/** The modeline rule read line by line, with no shortcut: what modelineProblem must answer for any bytes. */
function reference(b: Uint8Array, target?: string): { text: string; at?: number } | undefined {
  if (b.byteLength === 0) return undefined;
  const prefix = `# yaml-language-server: $schema=${target ?? ''}`;
  const head = new TextDecoder().decode(b.subarray(0, 8192));
  if (target === undefined ? head.startsWith(prefix) : /^(?:\r|\n|$)/.test(head.slice(prefix.length)) && head.startsWith(prefix))
    return undefined;
  const lines = head.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    if (!line.startsWith('#')) break;
    const m = MODELINE_RE.exec(line);
    if (m) return target === undefined || m[1] === target ? undefined : { text: line, at: i + 1 };
  }
  return { text: lines[0]!.replace(/\r$/, '') };
}

const encoder = new TextEncoder();
/** Pieces that meet every branch: modelines, comments, blank and CRLF lines, YAML, multi-byte and cut characters. */
const piece = fc.oneof(
  fc.constantFrom(
    '# yaml-language-server: $schema=../schemas/invariant.schema.json',
    '# yaml-language-server: $schema=../../schemas/invariant.schema.json',
    '#yaml-language-server:$schema=other.json',
    '# a comment',
    'id: 01JGFKZNYMPQ9MTS6ZV7T6F60G',
    'text: "Déjà vu — ☃"',
    '\n',
    '\r\n',
    '\r',
    ' ',
    '\t',
    '\uFEFF',
    '#',
    'x'.repeat(9000),
  ),
  fc.string({ maxLength: 12 }),
);
const bytesOf = fc
  .tuple(fc.array(piece, { maxLength: 8 }), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }))
  .map(([parts, raw]) => {
    const text = encoder.encode(parts.join(''));
    // A few raw bytes at a random place: cut or invalid UTF-8 sequences.
    const at = Math.min(text.length, parts.length * 7);
    return Uint8Array.from([...text.subarray(0, at), ...raw, ...text.subarray(at)]);
  });

describe('modelineProblem', () => {
  it('answers as the line-by-line rule does, for any bytes and target', () => {
    fc.assert(
      fc.property(
        bytesOf,
        fc.constantFrom(undefined, '../schemas/invariant.schema.json', '../../schemas/invariant.schema.json'),
        (b, target) => {
          expect(modelineProblem(b, target)).toEqual(reference(b, target));
        },
      ),
      { numRuns: fcRuns(2000) },
    );
  });

  it("a checked file's facts hold its modeline problem against its own kind's target, at every folder depth", async () => {
    const paths = [
      'global/01JGFKZNYMPQ9MTS6ZV7T6F60G.yaml',
      'projects/web/01JGFKZNYMPQ9MTS6ZV7T6F60G.yaml',
      'projects/web/project.yaml',
      'plans/01JGFKZNYMPQ9MTS6ZV7T6F60G/plan.yaml',
      'config.yaml',
    ];
    await fc.assert(
      fc.asyncProperty(bytesOf, fc.constantFrom(...paths), async (b, path) => {
        const kind = classifyPath(path) as ContentKind;
        const f = await checkFile(path, kind, b);
        const expected = reference(b, modelineTarget(path, kind));
        expect(f.m === undefined ? undefined : f.l === undefined ? { text: f.m } : { text: f.m, at: f.l }).toEqual(expected);
      }),
      { numRuns: fcRuns(1000) },
    );
  });
});
