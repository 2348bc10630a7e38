// `@path` in a CLAUDE.md or GEMINI.md (src/core/import-references.ts): the
// files its agent reads too, found outside code, resolved inside the repository.
import { describe, expect, it } from 'vitest';
import { fileReferences, resolveReference } from '../../src/core/import-references.ts';

describe('fileReferences', () => {
  it('finds each @path in prose, with its line, and none in code, e-mail addresses or URLs', () => {
    const text = [
      '# Project', // 1
      'See @docs/rules.md for the rules.', // 2
      '@AGENTS.md', // 3
      'Mail team@example.com, or read `@not/this.md` inline.', // 4
      '```sh', // 5
      'cat @not/a/reference.md', // 6
      '```', // 7
      '- Follow @./style/guide.md, and @../shared/base.md.', // 8
      'Docs: @https://example.com/x', // 9
    ].join('\n');
    expect(fileReferences(text)).toEqual([
      { line: 2, ref: 'docs/rules.md' },
      { line: 3, ref: 'AGENTS.md' },
      { line: 8, ref: './style/guide.md' },
      { line: 8, ref: '../shared/base.md' },
    ]);
  });
});

describe('fileReferences on a line made to be slow', () => {
  it('reads a path with a long run of punctuation inside it in one pass, its trailing marks cut', async () => {
    // The trailing marks were cut by an expression that tried each mark of the run against the rest of the path.
    await new Promise((resolve) => setImmediate(resolve));
    const ref = `a${'.'.repeat(300_000)}x`;
    expect(fileReferences(`See @${ref}!?.`)).toEqual([{ line: 1, ref }]);
  });
});

describe('resolveReference', () => {
  it.each([
    ['docs/rules.md', 'CLAUDE.md', 'docs/rules.md'],
    ['./guide.md', 'apps/web/CLAUDE.md', 'apps/web/guide.md'],
    ['../shared/base.md', 'apps/web/CLAUDE.md', 'apps/shared/base.md'],
    ['/repo/docs/x.md', 'apps/CLAUDE.md', 'docs/x.md'],
    ['../../etc/passwd', 'apps/CLAUDE.md', undefined],
    ['/etc/passwd', 'CLAUDE.md', undefined],
    ['~/.claude/mine.md', 'CLAUDE.md', undefined],
  ])('%s from %s is %s', (ref, from, want) => {
    expect(resolveReference(ref, from, '/repo')).toBe(want);
  });
});
