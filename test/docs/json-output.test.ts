// docs/json-output.md shows what `--format json` prints: its examples must be
// what the tool prints, field for field, or a reader codes against fields that
// are not there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVARIANT_SCHEMA } from '../../src/present/invariant.ts';
import { REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');

/** The first ```json block after `lead` on the page, parsed. */
function exampleAfter(lead: string): unknown {
  const at = page.indexOf(lead);
  if (at < 0) throw new Error(`docs/json-output.md: no "${lead}"`);
  const m = /```json\n([\s\S]*?)```/.exec(page.slice(at));
  if (!m) throw new Error(`docs/json-output.md: no json block after "${lead}"`);
  return JSON.parse(m[1]!);
}

/** The keys of a document and of every object within it, as paths (`[]` for the items of a list). */
function keyPaths(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => keyPaths(v, `${at}[]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...keyPaths(v, `${at}.${k}`)]);
}

describe('docs/json-output.md', () => {
  it("shows, field for field, the example store's entry of invariant list --effective", async () => {
    const r = await runAgents(
      ['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json'],
      {
        cwd: REPO,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const shown = exampleAfter('`invariant list` prints an array of') as { id: string };
    const printed = (JSON.parse(r.stdout) as { id: string }[]).find((e) => e.id === shown.id);
    expect(printed).toEqual(shown);
  });
});

/** The text of the page that describes an invariant's JSON: the section it opens with, and the paragraph on inherited ones. */
function invariantShapeText(): string {
  const start = page.indexOf('`invariant list` prints an array of');
  const inherited = page.indexOf('An inherited invariant ([policy sources]');
  if (start < 0 || inherited < 0) throw new Error("docs/json-output.md: no invariant's shape");
  return page.slice(start, page.indexOf('`invariant add` prints', start)) + page.slice(inherited, page.indexOf('\n\n', inherited));
}

describe("docs/json-output.md's invariant", () => {
  it('names every key an invariant can have, optional ones included (guard, inherited_from, locked)', () => {
    const text = invariantShapeText();
    const keys = Object.keys((INVARIANT_SCHEMA as { properties: Record<string, unknown> }).properties);
    expect(keys).toContain('guard');
    // A key as code (`guard`, `locked: true`) or as the example's JSON ("imported_from").
    expect(keys.filter((k) => !new RegExp(`[\`"]${k}[\`":]`).test(text))).toEqual([]);
  });
});

describe('docs/validation.md', () => {
  it('names the fields validate --format json prints: no more, no fewer', async () => {
    const validation = readFileSync(join(REPO, 'docs/validation.md'), 'utf8');
    const m = /`validate --format json` prints:\n\n```json\n([\s\S]*?)```/.exec(validation);
    if (!m) throw new Error('docs/validation.md: no "`validate --format json` prints:" followed by a json block');
    const shown = JSON.parse(m[1]!) as unknown;
    // The example store holds one warning (a shadowed copy), with a hint and a related location, as the example shows.
    const r = await runAgents(['--store', '.agents.example', 'validate', '--no-cache', '--format', 'json'], { cwd: REPO });
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout) as { diagnostics: unknown[] };
    expect(printed.diagnostics.length).toBeGreaterThan(0);
    expect(new Set(keyPaths(printed))).toEqual(new Set(keyPaths(shown)));
  });
});

describe("docs/json-output.md's error document", () => {
  it('is what an unknown project prints, in a store of the projects its hint names', async () => {
    const shown = exampleAfter('## Errors') as { error: { hint: string; detail: { known: string[] } } };
    const root = testStore(Object.fromEntries(shown.error.detail.known.map((p) => [`projects/${p}/.gitkeep`, ''])));
    const project = (shown.error.detail as unknown as { project: string }).project;
    const r = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--project', project]);
    const printed = JSON.parse(r.stdout) as { error: { hint: string } };
    // The hint is shown up to the command it goes on to name (`…`).
    const [lead] = shown.error.hint.split('…');
    expect(printed.error.hint.startsWith(lead!)).toBe(true);
    expect({ ...printed, error: { ...printed.error, hint: shown.error.hint } }).toEqual(shown);
    expect(r.code).toBe(2);
  });
});
