import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { safeDiffText } from '../../src/cli/safe-output.ts';
import {
  escapeUnsafe,
  findUnsafe,
  findUnsafeText,
  markdownCode,
  githubMarkdownText,
  markdownText,
  DOLLAR,
  NO_REFERENCE,
  quoteText,
} from '../../src/core/plain-text.ts';

describe('plain text (docs/store-format.md, "Plain text only")', () => {
  it.each<[string, boolean, { codePoint: number; index: number } | undefined]>([
    ['plain words, tab\tok', false, undefined],
    ['a\u001b[2Kb', false, { codePoint: 0x1b, index: 1 }],
    ['😀\u202e', false, { codePoint: 0x202e, index: 1 }],
    ['one\ntwo', false, { codePoint: 0x0a, index: 3 }],
    ['one\ntwo', true, undefined],
    ['folded scalar\n', false, undefined],
    ['x\r\n', true, { codePoint: 0x0d, index: 1 }],
    ['\u0085', true, { codePoint: 0x85, index: 0 }],
    ['\u200e \u200f \u061c', true, { codePoint: 0x200e, index: 0 }],
  ])('findUnsafe(%j, multiline %s)', (text, multiline, expected) => {
    expect(findUnsafe(text, multiline)).toEqual(expected);
  });

  it('escapes each character visibly, naming its code point, and keeps tabs (and newlines when asked)', () => {
    expect(escapeUnsafe('Harmless\u001b[2K\rNever\u202e\u2066x\u2069\u0085\u007f\tend\n')).toBe(
      'Harmless\\u001b[2K\\rNever\\u202e\\u2066x\\u2069\\u0085\\u007f\tend\\n',
    );
    expect(escapeUnsafe('a\nb\u001b', { newlines: true })).toBe('a\nb\\u001b');
    expect(escapeUnsafe('plain')).toBe('plain');
  });

  it('quoteText is JSON quoting plus what JSON leaves raw', () => {
    expect(quoteText('say "hi"\u001b\u202e')).toBe('"say \\"hi\\"\\u001b\\u202e"');
  });

  it('markdown: one line, no markup; a code span survives backticks and pipes', () => {
    expect(markdownText('a|b\n`c`\u001b')).toBe('a\\|b \\`c\\`\\\\u001b');
    expect(markdownCode('projects/x|y`z')).toBe('``projects/x\\|y`z``');
    expect(markdownCode('`edge')).toBe('`` `edge ``');
  });

  it('GitHub markdown: an @mention or #123 is broken by an empty comment, so GitHub neither notifies nor links, and shows the text as written', () => {
    const text = 'Ping @octocat and @org/team about #123 (see owner/repo#45), mail a@b.c, tag #v1';
    const md = githubMarkdownText(text);
    const html = marked.parse(md, { async: false });
    expect(html).not.toMatch(/@[A-Za-z0-9]/);
    expect(html).not.toMatch(/#[0-9]/);
    // What is seen: the text itself.
    expect(html.replaceAll(NO_REFERENCE, '').replace(/<\/?p>|\n/g, '')).toBe(text);
  });

  it('GitHub markdown: no `$` is left to open a math expression, and the text shows as written', () => {
    for (const text of ['Use $HOME/$PATH', '$$ is the PID$$', 'a $x^2$ b', 'costs $5|$6']) {
      const md = githubMarkdownText(text);
      // GitHub reads `$…$` and `$$…$$` as TeX wherever two dollars share a line; each one is held in a span.
      expect(md.replaceAll(DOLLAR, '')).not.toContain('$');
      const html = marked.parse(md, { async: false });
      expect(html.replace(/<\/?(p|span)>|\n/g, '')).toBe(text);
    }
  });

  it('markdown: no character reference survives, so none renders as a hidden character', () => {
    for (const text of ['a &rlm;b', 'x&ZeroWidthSpace;y', '&#x202E;evil', '&#8203;', '&amp;lt;details&amp;gt;']) {
      const html = marked.parse(markdownText(text), { async: false });
      // Every entity left in the HTML is one the renderer wrote for a literal character.
      expect(html.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
    }
  });

  it('findUnsafeText walks a document: one-line fields refuse newlines, multi-line fields allow them', () => {
    expect(
      findUnsafeText('invariant.schema.json', {
        id: 'X',
        text: 'T',
        rationale: 'a\nb',
        tags: ['ok', 'b\u202e'],
        created_by: 'Eve\u001b[8m',
      }),
    ).toEqual([
      { path: ['tags', '1'], codePoint: 0x202e, index: 1 },
      { path: ['created_by'], codePoint: 0x1b, index: 3 },
    ]);
    expect(findUnsafeText('enforcement.schema.json', { records: [{ actor_response: 'line\nline' }], error: 'a\nb' })).toEqual([]);
    expect(findUnsafeText('decision.schema.json', { summary: 'a\u0085' })).toEqual([{ path: ['summary'], codePoint: 0x85, index: 1 }]);
  });
});

describe('safeDiffText (export --dry-run)', () => {
  it("keeps a CRLF file's carriage returns for git apply, a lone one only off a terminal, and escapes the rest", () => {
    const diff = '+a\r\n+b\rc\u001b[2J\n';
    expect(safeDiffText(diff, false)).toBe('+a\r\n+b\rc\\u001b[2J\n');
    expect(safeDiffText(diff, true)).toBe('+a\r\n+b\\rc\\u001b[2J\n');
    // A byte order mark opening a file's line stays; elsewhere it is escaped like every invisible character.
    expect(safeDiffText(' \ufeffx\n+a\ufeffb\n', false)).toBe(' \ufeffx\n+a\\ufeffb\n');
  });
});
