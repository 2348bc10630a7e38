import { describe, expect, test, vi } from 'vitest';
import {
  codePointLength,
  isName,
  isProjectName,
  isUlid,
  nameProblem,
  parseActionRef,
  truncate,
  ulidProblem,
} from '../../src/core/names.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';

describe('names', () => {
  // [value, valid name]
  const names: [string, boolean][] = [
    ['myapp', true],
    ['0day', true],
    ['a', true],
    ['a.b_c-d', true],
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['', false],
    ['.', false],
    ['..', false],
    ['.hidden', false],
    ['-dash', false],
    ['_under', false],
    ['myApp', false],
    ['MYAPP', false],
    ['my app', false],
    ['my/app', false],
    ['app!', false],
  ];
  test.each(names)('isName(%j) is %s', (value, valid) => {
    expect(isName(value)).toBe(valid);
    expect(nameProblem(value, 'project') === null).toBe(valid);
    expect(isProjectName(value)).toBe(valid);
  });

  test('a reserved word is a name, but no project', () => {
    for (const word of ['global', 'plans', 'inherited']) {
      expect(isName(word)).toBe(true);
      expect(isProjectName(word)).toBe(false);
      expect(nameProblem(word, 'project')).not.toBeNull();
    }
  });

  test('a name Windows keeps for a device, or one ending with a dot, is refused: git cannot check it out there', () => {
    for (const value of ['con', 'aux', 'nul', 'prn', 'com1', 'lpt9', 'aux.d', 'web.']) {
      expect(nameProblem(value, 'project'), value).not.toBeNull();
      expect(isName(value), value).toBe(false);
      expect(parseActionRef(`local/${value}`), value).toEqual(expect.any(String));
    }
    for (const value of ['console', 'auxiliary', 'com0', 'com10', 'nul-checks', 'web.app'])
      expect(nameProblem(value, 'project'), value).toBeNull();
  });

  test('the 64-character limit: 64 is accepted, 65 is refused as too long', () => {
    expect(nameProblem('a'.repeat(64), 'project')).toBeNull();
    expect(nameProblem('a'.repeat(65), 'project')).toBe(`project "${'a'.repeat(59)}…" is longer than 64 characters`);
  });

  test('each problem names what is wrong', () => {
    expect(nameProblem('', 'project')).toBe('project is empty');
    expect(nameProblem('.', 'project')).toBe('project "." is not allowed');
    expect(nameProblem('..', 'action name')).toBe('action name ".." is not allowed');
    expect(nameProblem('myApp', 'project')).toBe(
      'project "myApp" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"',
    );
  });
});

describe('ULIDs', () => {
  // [value, valid id]
  const ids: [string, boolean][] = [
    [ID, true],
    ['7ZZZZZZZZZZZZZZZZZZZZZZZZZ', true],
    ['8ZZZZZZZZZZZZZZZZZZZZZZZZZ', false],
    [`x${ID}`, false],
    [`${ID}x`, false],
    [ID.slice(1), false],
    [ID.toLowerCase(), false],
    ['01M8KJT9G0XNWEM589ZS7FV0VI', false],
    ['01M8KJT9G0XNWEM589ZS7FV0VL', false],
    ['01M8KJT9G0XNWEM589ZS7FV0VO', false],
    ['01M8KJT9G0XNWEM589ZS7FV0VU', false],
  ];
  test.each(ids)('isUlid(%j) is %s', (value, valid) => {
    expect(isUlid(value)).toBe(valid);
    expect(ulidProblem(value, 'plan id') === null).toBe(valid);
  });

  test('a lower-case ULID is told to be upper case; anything else is not a ULID', () => {
    expect(ulidProblem(ID.toLowerCase(), 'plan id')).toBe(`plan id "${ID.toLowerCase()}" must be upper case`);
    expect(ulidProblem('nope', 'plan id')).toBe(
      'plan id "nope" is not a ULID (26 characters of Crockford base32, e.g. 01JDQ6X5Z8W4N3B2C1D0E9F8G7)',
    );
  });
});

describe('parseActionRef', () => {
  test('NS/NAME with valid names', () => {
    expect(parseActionRef('local/code-coverage')).toEqual({ ns: 'local', name: 'code-coverage' });
  });
  test.each([
    ['local', `action "local" must be NS/NAME (or SOURCE:NS/NAME, a policy source's template), e.g. local/code-coverage`],
    ['a/b/c', `action "a/b/c" must be NS/NAME (or SOURCE:NS/NAME, a policy source's template), e.g. local/code-coverage`],
    ['Local/x', 'action namespace "Local" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"'],
    ['local/X', 'action name "X" must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"'],
    [
      '/x',
      `action "/x" has an empty namespace: it must be NS/NAME (or SOURCE:NS/NAME, a policy source's template), e.g. local/code-coverage`,
    ],
    ['x/', `action "x/" has an empty name: it must be NS/NAME (or SOURCE:NS/NAME, a policy source's template), e.g. local/code-coverage`],
  ])('%j: %s', (value, problem) => {
    expect(parseActionRef(value)).toBe(problem);
  });
  test('after a policy source (SOURCE:NS/NAME), a malformed name is said with the source, as it was given', () => {
    expect(parseActionRef('', 'policy')).toBe(
      `action "policy:" names no template after the policy source's name: write SOURCE:NS/NAME, e.g. policy:local/code-coverage`,
    );
    expect(parseActionRef('local', 'policy')).toBe('action "policy:local" must be SOURCE:NS/NAME, e.g. policy:local/code-coverage');
    expect(parseActionRef('/x', 'policy')).toBe(
      'action "policy:/x" has an empty namespace: it must be SOURCE:NS/NAME, e.g. policy:local/code-coverage',
    );
  });
});

describe('truncate and codePointLength', () => {
  test('truncate keeps up to max characters and marks a cut with …', () => {
    expect(truncate('a'.repeat(60))).toBe('a'.repeat(60));
    expect(truncate('a'.repeat(61))).toBe(`${'a'.repeat(59)}…`);
    expect(truncate('abcdef', 4)).toBe('abc…');
  });
  test('truncate never cuts a character outside the BMP in half', () => {
    expect(truncate('😀'.repeat(40))).toBe(`${'😀'.repeat(29)}…`);
    expect(truncate(`a${'😀'.repeat(40)}`)).toBe(`a${'😀'.repeat(29)}…`);
  });
  test('truncate cuts between characters as a reader sees them: a flag, a skin tone, a combining accent stay whole', () => {
    expect(truncate('🇯🇵'.repeat(40))).toBe(`${'🇯🇵'.repeat(14)}…`);
    expect(truncate('👍🏽'.repeat(40))).toBe(`${'👍🏽'.repeat(14)}…`);
    expect(truncate('e\u0301'.repeat(40))).toBe(`${'e\u0301'.repeat(29)}…`);
    expect(truncate(`${'a'.repeat(58)}e\u0301\u0301`)).toBe(`${'a'.repeat(58)}…`);
  });
  test("truncate reads the head of a long text only: a hook's megabyte command is cut without segmenting it whole", () => {
    const segment = Intl.Segmenter.prototype.segment;
    const read: number[] = [];
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, text: string) {
      read.push(text.length);
      return segment.call(this, text);
    });
    try {
      const tail = 'x'.repeat(1_000_000);
      expect(truncate(`${'a'.repeat(298)}👍🏽${tail}`, 300)).toBe(`${'a'.repeat(298)}…`);
      expect(truncate(`${'a'.repeat(295)}🇯🇵${tail}`, 300)).toBe(`${'a'.repeat(295)}🇯🇵…`);
      // The accent after the last character that fits joins it, and takes it past the cut.
      expect(truncate(`${'a'.repeat(298)}e\u0301${tail}`, 300)).toBe(`${'a'.repeat(298)}…`);
    } finally {
      spy.mockRestore();
    }
    expect(Math.max(...read)).toBeLessThan(1000);
  });
  test('codePointLength counts an astral character once', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('a😀b')).toBe(3);
  });
});

describe('a name or file name holding a line break or a hidden character', () => {
  // A file named so is reported on one line of validate's text output: the name cannot start a line of its own.
  test.each([
    ['ulidProblem', ulidProblem(`${ID}\n::warning::fake`, 'invariant file name')],
    ['ulidProblem, lower case', ulidProblem(`${ID.toLowerCase()}\r`, 'invariant file name')],
    ['nameProblem', nameProblem('web\nfake', 'project')],
    ['nameProblem, Windows device', nameProblem('aux\u202e', 'project')],
    ['parseActionRef', parseActionRef('a\nb/c/d') as string],
  ])('%s: quoted with the character escaped', (_name, problem) => {
    expect(problem).not.toMatch(/[\n\r\u202e]/);
    expect(problem).toMatch(/\\[nru]/);
  });
});
