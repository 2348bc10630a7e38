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

  it('writes a path that starts with - as ./-…, so a command does not read it as an option', () => {
    expect(shellPath('-notes/style.md')).toBe('./-notes/style.md');
    expect(shellPath('-my notes.md')).toBe(`'./-my notes.md'`);
    expect(shellPath('docs/a-b.md')).toBe('docs/a-b.md');
  });
});
