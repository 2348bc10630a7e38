// The export's front matter found below the owner's text (frontMatterBelowText, docs/export.md "The managed block"):
// the same answer as the search it replaced, which hashed the block once per `---` line above it, and a bounded count
// of hashed characters however many `---` lines a file holds.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BlockScan, beginMarker, END_MARKER, hashedText, leadingFrontMatter, scanBlock } from '../../src/core/export.ts';
import { frontMatterBelowText, mergeBlock } from '../../src/core/export-merge.ts';
import { lf } from '../../src/core/file-style.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

type Scan = Extract<BlockScan, { kind: 'block' }>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The search as it was: every `---` line's front matter, the block hashed with each. */
function reference(current: string, scan: Scan, hash: (s: string) => string): { start: number; text: string } | undefined {
  const head = current.slice(0, scan.start);
  for (const m of head.matchAll(/(?<=\n)---\r?\n/g)) {
    const text = leadingFrontMatter(current.slice(m.index));
    if (text !== undefined && m.index + text.length <= scan.start && hash(hashedText(lf(text), lf(scan.inner))) === scan.hash)
      return { start: m.index, text };
  }
  return undefined;
}

/** A hash that counts the characters it is given. */
function counted(): { hash: (s: string) => string; chars: () => number } {
  let chars = 0;
  return {
    hash: (s) => {
      chars += s.length;
      return sha256(s);
    },
    chars: () => chars,
  };
}

const INNER = '\n## Invariants\n\n- Never delete production data\n';
const block = (front: string, inner: string) => `${beginMarker(sha256(hashedText(front, inner)))}\n${inner}${END_MARKER}\n`;
const scanOf = (text: string) => scanBlock(text) as Scan;

describe('frontMatterBelowText', () => {
  it('answers as the search over every `---` line did, on random files', () => {
    const line = fc.constantFrom('---', '---', '---', '---\r', 'a: 1', 'b: "x"', '', '', 'text', '--- ', '  - "p/**"');
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 24 }),
        fc.boolean(),
        fc.nat(30),
        fc.constantFrom('none', 'candidate', 'candidate', 'candidate', 'other'),
        (lines, crlf, pick, named) => {
          const eol = crlf ? '\r\n' : '\n';
          const head = `Owner text${eol}${lines.map((l) => `${l}${eol}`).join('')}`;
          // The hash names one of the file's own candidates, or a front matter the file does not hold, or none.
          const probe = `${head}${block('', INNER)}`;
          const candidates = [...probe.matchAll(/(?<=\n)---\r?\n/g)]
            .map((m) => leadingFrontMatter(probe.slice(m.index)))
            .filter((t): t is string => t !== undefined);
          const front =
            named === 'candidate' && candidates.length > 0
              ? lf(candidates[pick % candidates.length]!)
              : named === 'other'
                ? '---\na: 1\n---\n\n'
                : '';
          const current = `${head}${block(front, INNER)}`;
          const scan = scanOf(current);
          const want = reference(current, scan, sha256);
          expect(frontMatterBelowText(current, scan, sha256)).toEqual(want);
          // What the export would write now, named by the hash or not, gives the same answer.
          expect(frontMatterBelowText(current, scan, sha256, front)).toEqual(want);
          expect(frontMatterBelowText(current, scan, sha256, '---\nz: 9\n---\n\n')).toEqual(want);
        },
      ),
      { numRuns: fcRuns(400) },
    );
  });

  // A block of this size hashed once per `---` line was hundreds of millions of characters for a thousand lines.
  const big = `\n${'- Rule of the block\n'.repeat(20_000)}`;
  const front = '---\ndescription: Global\nalwaysApply: true\n---\n\n';

  it('hashes a bounded multiple of the file for thousands of `---` lines above a large block', () => {
    const written = (mergeBlock(undefined, front, big, sha256, false) as { text: string }).text;
    for (const k of [2_000, 20_000]) {
      const current = `Owner text\n${'---\n'.repeat(k)}${written}`;
      const { hash, chars } = counted();
      const r = mergeBlock(current, front, big, hash, false);
      expect(r).toMatchObject({ kind: 'refuse', reason: 'text-above-front-matter' });
      expect(chars()).toBeLessThan(8 * current.length);
    }
  });

  it('hashes a bounded multiple of the file for thousands of distinct front-matter-like texts, the store changed or not', () => {
    const decoys = Array.from({ length: 5_000 }, (_, i) => `---\nglobs: d${i}/**\n---\n\n`).join('');
    // The front matter the export would write now: its text is looked for, the block hashed once.
    const written = (mergeBlock(undefined, front, big, sha256, false) as { text: string }).text;
    const current = `Owner text\n${decoys}${written}`;
    const now = counted();
    expect(frontMatterBelowText(current, scanOf(current), now.hash, front)?.start).toBe(current.indexOf(front));
    expect(now.chars()).toBeLessThan(2 * current.length);
    // The store changed since: the texts are hashed from the block up, within a bound of the file's length.
    const changed = counted();
    expect(frontMatterBelowText(current, scanOf(current), changed.hash, '---\nalwaysApply: false\n---\n\n')?.start).toBe(
      current.indexOf(front),
    );
    const far = `Owner text\n${front}${decoys}${written.slice(front.length)}`;
    const bounded = counted();
    frontMatterBelowText(far, scanOf(far), bounded.hash, '---\nalwaysApply: false\n---\n\n');
    // The bound, and the one hash of the front matter the export would write now.
    expect(bounded.chars()).toBeLessThanOrEqual(5 * far.length + 65_536);
  });
});
