import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { docsRef } from '../../src/core/docs-link.ts';
import { SCHEMAS, type SchemaName, schemaCopy } from '../../src/core/schema-docs.ts';
import { REPO } from '../helpers/cli.ts';

function sources(dir: string, kept = /\.tsx?$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path, kept);
    return kept.test(name) ? [path] : [];
  });
}

/** A docs/ page named as a path (not as part of an address), which a user's repository does not have. */
const BARE_PAGE = /(?<![\w/.-])docs\/[a-z0-9-]+\.md/;

describe('references to the documentation in messages', () => {
  it("are the package's documentation online, at this version's tag, with a section when given", () => {
    const home = pkg.homepage.replace(/#.*$/, '');
    expect(docsRef('actors.md')).toBe(`${home}/blob/v${pkg.version}/docs/actors.md`);
    expect(docsRef('guard.md', 'installing-the-hook')).toBe(`${home}/blob/v${pkg.version}/docs/guard.md#installing-the-hook`);
  });

  it('no string of src/ names a docs/ page as a path, which a user repository does not have (docsRef makes the reference)', () => {
    const found: string[] = [];
    for (const file of sources(join(REPO, 'src'))) {
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        const code = line.trim();
        if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) continue;
        // A page path inside a string literal; `agents import docs/rules.md` is a user's file, not ours.
        if (/['"`][^'"`]*\bdocs\/(?!rules\.md)[a-z0-9-]+\.md/.test(code)) found.push(`${relative(REPO, file)}:${i + 1}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("no schema's copy (what init writes into a store) and no file of the example store names a docs/ page as a path", () => {
    for (const name of Object.keys(SCHEMAS) as SchemaName[]) {
      const copy = schemaCopy(name);
      expect(copy, name).not.toMatch(BARE_PAGE);
      // The schema is the same but for those references.
      expect(JSON.parse(copy.replace(/https:\/\/[^ "]*?\/blob\/v[^/]+\/(docs\/)/g, '$1'))).toEqual(SCHEMAS[name]);
    }
    expect(schemaCopy('config.schema.json')).toContain(docsRef('actors.md'));
    const example = sources(join(REPO, '.agents.example'), /./).filter((f) => !f.includes(`${join(REPO, '.agents.example')}/.`));
    expect(example.length).toBeGreaterThan(10);
    expect(example.filter((f) => BARE_PAGE.test(readFileSync(f, 'utf8'))).map((f) => relative(REPO, f))).toEqual([]);
  });
});
