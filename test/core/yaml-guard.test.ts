import { describe, expect, test } from 'vitest';
import { MAX_NESTING, MAX_YAML_TOKENS, yamlShapeProblem } from '../../src/core/yaml-guard.ts';

const deep = (n: number, offset: number) => ({ kind: 'too-deep', offset, message: `file nests more than ${n} levels deep` });

describe('yamlShapeProblem: nesting, lines, flow and multi-line tokens', () => {
  // [source, levels allowed, expected problem or null]
  const cases: [string, string, number, ReturnType<typeof deep> | null][] = [
    ['a plain map', 'a: b\n', 1, null],
    ['dashes on one line open a level each', '- - - x\n', 2, deep(2, 2)],
    ['one level more than the dashes need', '- - - x\n', 3, deep(3, 4)],
    ['question marks open a level each', '? ? ? x\n', 3, deep(3, 4)],
    ['question marks within the limit', '? ? ? x\n', 4, null],
    ['a value indicator first on its line opens a level', '? a\n: - - x\n', 3, deep(3, 8)],
    ['and fits one level more', '? a\n: - - x\n', 4, null],
    ['flow brackets open a level each', '[[[x]]]\n', 3, deep(3, 2)],
    ['flow brackets within the limit', '[[[x]]]\n', 4, null],
    ['closed brackets give their levels back', 'a: [[x]]\nb: [[y]]\n', 3, null],
    ['stray closing brackets give no level back', ']]]\n- - - x\n', 3, deep(3, 8)],
    ['keys at one indentation are one level', 'a: x\nb: y\nc: z\n', 1, null],
    ['indentation opens levels', 'a:\n  b:\n    c: x\nd: y\n', 2, deep(2, 12)],
    ['and going back out closes them', 'a:\n  b:\n    c: x\nd: y\n', 3, null],
    ['CRLF line breaks end lines too', 'a:\r\n  b: c\r\nd: e\r\n', 1, deep(1, 6)],
    ['a tab after a key is no line start', 'a:\t- - x\n', 2, deep(2, 5)],
    ['an indented comment opens no level', 'a: x\n      # c\nb: y\n', 1, null],
    ['dashes inside a block scalar are text', 'a: |\n  - - - -\n  x\nb: y\n', 1, null],
    ['dashes inside a quoted scalar over two lines are text', 'a: "x\n  - - y"\n', 1, null],
    ['a blank CRLF line keeps the levels open', 'a:\r\n  b:\r\n\r\n    c: x\r\n', 2, deep(2, 16)],
    ['an unclosed quote at the end of the file counts its line', "a:\n  b:\n    'x ", 2, deep(2, 12)],
    ['braces open a level each', '{{{x}}}\n', 3, deep(3, 2)],
    ['braces within the limit', '{{{x}}}\n', 4, null],
    ['closed braces give their levels back', 'a: {b: {c: x}}\nd: {e: {f: y}}\n', 3, null],
    ['items inside brackets close no level', 'a: [b, [c, [d]]]\n', 3, deep(3, 11)],
    ['indentation inside brackets opens no level', 'a: [\n      b,\n      c]\n', 2, null],
    ['a line after a block scalar starts a line', '? |\n  x\n: - y\n', 2, deep(2, 10)],
    ['a quoted scalar on one line keeps the indicators before it', '- - "ab": - x\n', 3, deep(3, 10)],
    ['text after a quoted scalar over two lines is no line start', '"a\n b": - - x\n', 3, null],
  ];
  test.each(cases)('%s', (_name, source, levels, problem) => {
    expect(yamlShapeProblem(source, levels, 100)).toEqual(problem);
  });
});

describe('yamlShapeProblem: size', () => {
  test('a token past the limit is refused at its offset; exactly the limit passes', () => {
    // a, ":", " ", b, "\n": five tokens (the lexer's markers take no room and do not count).
    expect(yamlShapeProblem('a: b\n', 64, 5)).toBeNull();
    expect(yamlShapeProblem('a: b\n', 64, 4)).toEqual({ kind: 'too-many-nodes', offset: 4, message: 'file holds more than 4 YAML tokens' });
    expect(yamlShapeProblem('a: b\n', 64, 3)).toEqual({ kind: 'too-many-nodes', offset: 3, message: 'file holds more than 3 YAML tokens' });
  });

  test('the default limits', () => {
    expect([MAX_NESTING, MAX_YAML_TOKENS]).toEqual([64, 50_000]);
    expect(yamlShapeProblem(`${'- '.repeat(63)}x\n`)).toBeNull();
    expect(yamlShapeProblem(`${'- '.repeat(64)}x\n`)?.kind).toBe('too-deep');
    expect(yamlShapeProblem('a: b\n'.repeat(10_000))).toBeNull();
    expect(yamlShapeProblem('a: b\n'.repeat(10_001))?.kind).toBe('too-many-nodes');
  });
});
