import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellPath, shellQuote, shellWord } from '../../src/core/shell-word.ts';

describe('shellWord', () => {
  it.each([
    ['docs/rules.md', 'docs/rules.md'],
    ['a-b_c@1+2=3:4,5.md', 'a-b_c@1+2=3:4,5.md'],
    ['my rules.md', `'my rules.md'`],
    ['$HOME.md', `'$HOME.md'`],
    ['a&b;c|d>e<f.md', `'a&b;c|d>e<f.md'`],
    ['~/x', `'~/x'`],
    ["it's.md", `'it'\\''s.md'`],
    ['', `''`],
  ])('%j → %s', (word, shown) => expect(shellWord(word)).toBe(shown));

  it('quotes always with shellQuote', () => expect(shellQuote('plain')).toBe(`'plain'`));

  it("writes a word holding a control character as $'…', which bash reads back as the same text, on one line", () => {
    for (const word of ['notes\nhint: run this', "it's\ta\\b", 'bell\u0007x', 'c1\u0085y', 'nul-free\u001b[31m']) {
      const shown = shellWord(word);
      expect(shown.startsWith("$'")).toBe(true);
      expect(shown).not.toMatch(/\p{Cc}/u);
      const read = spawnSync('bash', ['-c', `printf %s ${shown}`], { encoding: 'utf8' });
      expect(read.stdout).toBe(word);
    }
    // A script's word stays POSIX: every sh reads single quotes, not every sh reads $'…'.
    expect(shellQuote('a\nb')).toBe("'a\nb'");
  });

  it('writes a path that starts with - as ./-…, so a command does not read it as an option', () => {
    expect(shellPath('-notes/style.md')).toBe('./-notes/style.md');
    expect(shellPath('-my notes.md')).toBe(`'./-my notes.md'`);
    expect(shellPath('docs/a-b.md')).toBe('docs/a-b.md');
  });
});
