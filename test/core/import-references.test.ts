// `@path` in a CLAUDE.md or GEMINI.md (src/core/import-references.ts): the
// files its agent reads too, found outside code, resolved inside the repository.
import { describe, expect, it } from 'vitest';
import {
  fileReferences,
  onlyReferences,
  pointsAtReference,
  referencesLeftOut,
  resolveReference,
} from '../../src/core/import-references.ts';

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

describe('a line or sentence that only reads another file in', () => {
  it.each([
    ['Read @docs/style.md before editing.', true],
    ['See @README.md for the overview.', true],
    ['See @README for project overview', true],
    ['Follow the conventions in @docs/style.md', true],
    ['When writing tests, follow the conventions in @docs/testing.md.', true],
    ['Read @docs/a.md and @docs/b.md first.', true],
    ['See @README for project overview and @package.json for available npm commands for this project.', true],
    ['Read @a.md, @b.md, or @c.md.', true],
    ['Read @a.md, then delete @b.md.', false],
    ['Always read @docs/security.md before touching auth code.', true],
    ['Read and follow @./rules.md', true],
    ['Git workflow @docs/git-instructions.md', true],
    ['Style guide: @docs/style.md', true],
    // A rule beside the pointer, or about the file itself, or a package or person named with @: rules.
    ['Run tests before pushing, see @docs/testing.md.', false],
    ['Read @docs/style.md before editing, and never push to main.', false],
    ['Never edit @src/generated.ts by hand', false],
    ['Use @types/node for typings', false],
    ['Use @docs/pr-template.md for pull request descriptions.', false],
    ['Apply @patches/fix.diff before building.', false],
    ['Ping @octocat for reviews', false],
    ['Read the style guide before editing.', false],
  ])('%s: %s', (text, want) => {
    expect(pointsAtReference(text)).toBe(want);
  });

  it('a line of nothing but @paths is one, wherever it stands; a reference in code is none', () => {
    expect(onlyReferences('@docs/style.md')).toBe(true);
    expect(onlyReferences('@./header.md @./content.md @./footer.md')).toBe(true);
    expect(onlyReferences('See @docs/style.md')).toBe(false);
    expect(onlyReferences('`@docs/style.md`')).toBe(false);
    expect(referencesLeftOut('Run it, see @docs/t.md.', '')).toBe(true);
    expect(referencesLeftOut('Run `cat @docs/t.md`, mail a@b.c.', '')).toBe(false);
    expect(referencesLeftOut('Use @tanstack/query, ask @octocat.', '')).toBe(false);
    // A rule that says its file itself leaves none out; one whose pointer sentence went from its text does.
    expect(referencesLeftOut('- Run the tests, see @docs/t.md.', 'Run the tests, see @docs/t.md.')).toBe(false);
    expect(referencesLeftOut('- Never force-push. See @docs/git.md for why.', 'Never force-push.')).toBe(true);
  });
});
