import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { docsRef } from '../../src/core/docs-link.ts';
import { REPO } from '../helpers/cli.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

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
});
