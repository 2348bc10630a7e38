// docs/adr/README.md is the index of the design decisions: a record missing
// from it is one no reader finds, and a status there that is not the
// record's own misleads about which decision holds.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const ADR = join(REPO, 'docs/adr');

/** Each record's file name and its status line's first word (`Accepted`, `Superseded`…). */
function records(): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const name of readdirSync(ADR).filter((f) => /^\d{4}-.*\.md$/.test(f))) {
    out.set(name, /^- Status: (\w+)/m.exec(readFileSync(join(ADR, name), 'utf8'))?.[1]);
  }
  return out;
}

/** The index's rows: file name → the first word of its status cell. */
function indexed(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of readFileSync(join(ADR, 'README.md'), 'utf8').matchAll(/^\| \[\d{4}\]\(([^)]+)\) \| [^|]+ \| (\w+)/gm))
    out.set(m[1]!, m[2]!);
  return out;
}

describe('docs/adr/README.md', () => {
  it('lists every record, with the status the record gives itself', () => {
    const index = indexed();
    expect(records().size).toBeGreaterThan(100);
    const wrong = [...records()]
      .filter(([name, status]) => status === undefined || index.get(name) !== status)
      .map(([name, status]) => `${name}: ${status} (index: ${index.get(name)})`);
    expect(wrong).toEqual([]);
  });

  it('lists no record that is not there', () => {
    const all = records();
    expect([...indexed().keys()].filter((name) => !all.has(name))).toEqual([]);
  });
});
