import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitInstructions } from '../../src/core/import-rules.ts';

/**
 * The quality of the splitter on real instruction files (fixtures/import/,
 * sources and licences in SOURCES.md): of the list items a person calls a
 * rule, at least 90% become invariants (recall); of what becomes an
 * invariant, at most 5% is not a rule. The labels name the exceptions, so a
 * change to the splitter that turns a labelled line around fails here.
 */

const ROOT = 'fixtures/import/corpus';
const labels = JSON.parse(readFileSync('fixtures/import/corpus-labels.json', 'utf8')).files as Record<
  string,
  { not_rules: number[]; missed: number[] }
>;
const ITEM = /^\s*([-*+]|\d{1,9}[.)])\s+\S/;

function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(ROOT, p));
    }
  };
  walk(ROOT);
  return out.sort();
}

/** As the import splits the file: a CLAUDE.md's and GEMINI.md's `@path` is a file its agent reads in. */
const split = (file: string, text: string) => splitInstructions(text, { references: /(?:^|\/)(?:CLAUDE|GEMINI)\.md$/.test(file) });

interface Counts {
  ruleItems: number;
  rulesTaken: number;
  candidates: number;
  notRules: number;
}

function measure(file: string): Counts {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const lines = text.split('\n');
  const r = split(file, text);
  const label = labels[file]!;
  const opaque = r.leftOut.filter((l) => ['code-block', 'export-block', 'comment', 'table'].includes(l.reason));
  const inOpaque = (n: number) => opaque.some((l) => n >= l.line && n <= l.end_line);
  const covering = (n: number) => r.candidates.find((c) => n >= c.line && n <= c.end_line);
  const counts: Counts = { ruleItems: 0, rulesTaken: 0, candidates: r.candidates.length, notRules: 0 };
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    if (n < r.bodyLine || !ITEM.test(l) || inOpaque(n)) continue;
    const c = covering(n);
    const taken = c !== undefined && !label.not_rules.includes(c.line);
    if (taken) {
      counts.ruleItems++;
      counts.rulesTaken++;
    } else if (c === undefined && label.missed.includes(n)) counts.ruleItems++;
  }
  counts.notRules = r.candidates.filter((c) => label.not_rules.includes(c.line)).length;
  return counts;
}

describe('the import corpus', () => {
  const files = corpusFiles();

  it('holds at least 15 real files, each labelled, of at least five kinds', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(labels).sort()).toEqual(files);
    const kinds = new Set(files.map((f) => f.replace(/^[^/]+\//, '').replace(/^.*\//, '')).map((b) => (b.endsWith('.mdc') ? '.mdc' : b)));
    expect(kinds.size).toBeGreaterThanOrEqual(5);
  });

  it('every label names a line the splitter decided on (a candidate, or a list item left out)', () => {
    for (const f of files) {
      const r = split(f, readFileSync(join(ROOT, f), 'utf8'));
      for (const n of labels[f]!.not_rules)
        expect(
          r.candidates.map((c) => c.line),
          `${f}:${n}`,
        ).toContain(n);
      for (const n of labels[f]!.missed)
        expect(
          r.candidates.some((c) => n >= c.line && n <= c.end_line),
          `${f}:${n}`,
        ).toBe(false);
    }
  });

  it('finds at least 90% of the list items that are rules, and at most 5% of what it takes is not a rule', () => {
    const total = files.map(measure).reduce((a, b) => ({
      ruleItems: a.ruleItems + b.ruleItems,
      rulesTaken: a.rulesTaken + b.rulesTaken,
      candidates: a.candidates + b.candidates,
      notRules: a.notRules + b.notRules,
    }));
    expect(total.rulesTaken / total.ruleItems).toBeGreaterThanOrEqual(0.9);
    expect(total.notRules / total.candidates).toBeLessThanOrEqual(0.05);
    // The figures of docs/adr/0900-import-splits-markdown-by-hand.md: a change that moves them shows here.
    expect(total).toEqual({ ruleItems: 349, rulesTaken: 346, candidates: 381, notRules: 9 });
  });
});
