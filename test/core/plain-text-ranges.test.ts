import { describe, expect, test } from 'vitest';
import {
  describeCharacter,
  escapeUnsafe,
  findUnsafe,
  findUnsafeText,
  hasUnsafe,
  markdownCode,
  markdownText,
  unsafeTextMessage,
} from '../../src/core/plain-text.ts';

// The edges of every range of refused characters, and the characters just outside them.
const UNSAFE = [
  0x00, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x85, 0x9f, 0x061c, 0x200b, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2060,
  0x2064, 0x2066, 0x2069, 0xfeff,
];
const SAFE = [0x09, 0x20, 0x7e, 0xa0, 0x061b, 0x061d, 0x200a, 0x2010, 0x2027, 0x202f, 0x205f, 0x2065, 0x206a, 0xfefe, 0xe9];

const hex = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;

describe('which characters are unsafe', () => {
  test.each(UNSAFE)('U+%s is refused and escaped', (c) => {
    const s = `a${String.fromCharCode(c)}b`;
    expect(hasUnsafe(s)).toBe(true);
    expect(findUnsafe(s, true)).toEqual({ codePoint: c, index: 1 });
    expect(findUnsafe(s, false)).toEqual({ codePoint: c, index: 1 });
    expect(escapeUnsafe(s)).toBe(`a${hex(c)}b`);
    expect(escapeUnsafe(s, { newlines: true })).toBe(`a${hex(c)}b`);
  });

  test.each(SAFE)('U+%s is kept', (c) => {
    const s = `a${String.fromCharCode(c)}b`;
    expect(hasUnsafe(s)).toBe(false);
    expect(findUnsafe(s, true)).toBeUndefined();
    expect(findUnsafe(s, false)).toBeUndefined();
    expect(escapeUnsafe(s)).toBe(s);
    expect(escapeUnsafe(s, { newlines: true })).toBe(s);
  });

  test('a newline: not unsafe in itself, escaped on one line, kept when lines are allowed', () => {
    expect(hasUnsafe('a\nb')).toBe(false);
    expect(escapeUnsafe('a\nb')).toBe('a\\nb');
    expect(escapeUnsafe('a\nb', { newlines: true })).toBe('a\nb');
    expect(escapeUnsafe('a\r\nb', { newlines: true })).toBe('a\\r\nb');
  });

  test('a newline at either end of a one-line field is layout; inside it is refused', () => {
    expect(findUnsafe('x\n', false)).toBeUndefined();
    expect(findUnsafe('\nx', false)).toBeUndefined();
    expect(findUnsafe('  \nx', false)).toBeUndefined();
    expect(findUnsafe('x \n  ', false)).toBeUndefined();
    expect(findUnsafe('a\n b', false)).toEqual({ codePoint: 0x0a, index: 1 });
    // The position counts code points, not UTF-16 units.
    expect(findUnsafe('😀😀\nz', false)).toEqual({ codePoint: 0x0a, index: 2 });
  });

  test('the search starts afresh on each call', () => {
    expect(findUnsafe('ab\u001b', true)).toEqual({ codePoint: 0x1b, index: 2 });
    expect(findUnsafe('\u001bb', true)).toEqual({ codePoint: 0x1b, index: 0 });
    expect(escapeUnsafe('\u001b')).toBe('\\u001b');
    expect(escapeUnsafe('\u001b')).toBe('\\u001b');
  });
});

describe('describeCharacter', () => {
  test.each([
    [0x1b, 'U+001B (ESC, which starts terminal control sequences)'],
    [0x0d, 'U+000D (CR, a carriage return)'],
    [0x0a, 'U+000A (LF, a newline)'],
    [0x01, 'U+0001 (a control character)'],
    [0x1f, 'U+001F (a control character)'],
    [0x80, 'U+0080 (a control character)'],
    [0x9f, 'U+009F (a control character)'],
    [0x202e, 'U+202E (RIGHT-TO-LEFT OVERRIDE)'],
    [0x2069, 'U+2069 (POP DIRECTIONAL ISOLATE)'],
    [0xa0, 'U+00A0 (an invisible character)'],
    [0xe0049, 'U+E0049 (a tag character, invisible, spelling "I")'],
    [0xe0001, 'U+E0001 (a tag character, invisible)'],
  ])('U+%s', (c, text) => {
    expect(describeCharacter(c)).toBe(text);
  });
});

describe('describeCharacter: every name', () => {
  test('each named character, and the unnamed controls of C0 and C1', () => {
    const named = [
      0x00, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x7f, 0x85, 0x9b, 0x9d, 0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b,
      0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ];
    expect(named.map(describeCharacter)).toEqual([
      'U+0000 (NUL)',
      'U+0007 (BEL)',
      'U+0008 (BS)',
      'U+000A (LF, a newline)',
      'U+000B (VT)',
      'U+000C (FF)',
      'U+000D (CR, a carriage return)',
      'U+001B (ESC, which starts terminal control sequences)',
      'U+007F (DEL)',
      'U+0085 (NEL)',
      'U+009B (CSI)',
      'U+009D (OSC)',
      'U+061C (ARABIC LETTER MARK)',
      'U+200E (LEFT-TO-RIGHT MARK)',
      'U+200F (RIGHT-TO-LEFT MARK)',
      'U+2028 (LINE SEPARATOR)',
      'U+2029 (PARAGRAPH SEPARATOR)',
      'U+202A (LEFT-TO-RIGHT EMBEDDING)',
      'U+202B (RIGHT-TO-LEFT EMBEDDING)',
      'U+202C (POP DIRECTIONAL FORMATTING)',
      'U+202D (LEFT-TO-RIGHT OVERRIDE)',
      'U+202E (RIGHT-TO-LEFT OVERRIDE)',
      'U+2066 (LEFT-TO-RIGHT ISOLATE)',
      'U+2067 (RIGHT-TO-LEFT ISOLATE)',
      'U+2068 (FIRST STRONG ISOLATE)',
      'U+2069 (POP DIRECTIONAL ISOLATE)',
    ]);
    // Every other character findUnsafe can report is a control.
    expect([0x0e, 0x1f, 0x80, 0x9a, 0x9f].map(describeCharacter)).toEqual([
      'U+000E (a control character)',
      'U+001F (a control character)',
      'U+0080 (a control character)',
      'U+009A (a control character)',
      'U+009F (a control character)',
    ]);
  });
});

describe('findUnsafe at the ends of a value', () => {
  test('only a newline at either end is layout: any other character there is refused', () => {
    expect(findUnsafe('\u001bx', false)).toEqual({ codePoint: 0x1b, index: 0 });
    expect(findUnsafe('x\u001b', false)).toEqual({ codePoint: 0x1b, index: 1 });
    expect(findUnsafe('\u202e', false)).toEqual({ codePoint: 0x202e, index: 0 });
    expect(findUnsafe(' \r\n', false)).toEqual({ codePoint: 0x0d, index: 1 });
  });
});

describe('findUnsafeText and its message', () => {
  test('keys are checked too, as one line, wherever they are', () => {
    expect(findUnsafeText('plan.schema.json', { meta: { 'k\u001b': 'v', 'a\nb': 'v' } })).toEqual([
      { path: ['meta', 'k\u001b'], codePoint: 0x1b, index: 1 },
      { path: ['meta', 'a\nb'], codePoint: 0x0a, index: 1 },
    ]);
  });

  test('the multi-line fields of each document, and none of an unknown one', () => {
    const two = 'a\nb';
    expect(findUnsafeText('plan.schema.json', { goal: two })).toEqual([]);
    expect(findUnsafeText('violation.schema.json', { details: two })).toEqual([]);
    expect(findUnsafeText('action.schema.json', { description: two })).toEqual([]);
    expect(findUnsafeText('project.schema.json', { description: two })).toEqual([]);
    expect(findUnsafeText('invariant.schema.json', { rationale: two })).toEqual([]);
    expect(findUnsafeText('decision.schema.json', { summary: two })).toEqual([]);
    expect(findUnsafeText('enforcement.schema.json', { error: two })).toEqual([]);
    expect(findUnsafeText('invariant.schema.json', { text: two })).toEqual([{ path: ['text'], codePoint: 0x0a, index: 1 }]);
    expect(findUnsafeText('other.schema.json', { goal: two })).toEqual([{ path: ['goal'], codePoint: 0x0a, index: 1 }]);
    // Only an index stands for "*": a key that merely holds a digit does not.
    expect(findUnsafeText('enforcement.schema.json', { records: { x1: { actor_response: two } } })).toEqual([
      { path: ['records', 'x1', 'actor_response'], codePoint: 0x0a, index: 1 },
    ]);
    expect(findUnsafeText('enforcement.schema.json', { records: [{ invariant_id: two }] })).toEqual([
      { path: ['records', '0', 'invariant_id'], codePoint: 0x0a, index: 1 },
    ]);
    expect(findUnsafeText('enforcement.schema.json', { records: { '1x': { actor_response: two } } })).toEqual([
      { path: ['records', '1x', 'actor_response'], codePoint: 0x0a, index: 1 },
    ]);
    // Indexes of two digits stand for "*" too.
    const records = Array.from({ length: 12 }, () => ({ actor_response: two, invariant_id: 'x' }));
    records[11]!.invariant_id = two;
    expect(findUnsafeText('enforcement.schema.json', { records })).toEqual([
      { path: ['records', '11', 'invariant_id'], codePoint: 0x0a, index: 1 },
    ]);
  });

  test('null, numbers and booleans hold no text', () => {
    expect(findUnsafeText('plan.schema.json', { a: null, b: 1, c: true, d: [null] })).toEqual([]);
    // An absent value (a field left undefined in an object) is no text either.
    expect(findUnsafeText('plan.schema.json', { a: undefined, d: [undefined, 'x\u001b'] })).toEqual([
      { path: ['d', '1'], codePoint: 0x1b, index: 1 },
    ]);
  });

  test('the message names the field, the character and its position from 1', () => {
    expect(unsafeTextMessage({ path: ['tags', '1'], codePoint: 0x1b, index: 3 })).toBe(
      'tags.1 holds U+001B (ESC, which starts terminal control sequences) at character 4; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file',
    );
    expect(unsafeTextMessage({ path: [], codePoint: 0x07, index: 0 })).toMatch(/^the document holds U\+0007 \(BEL\) at character 1;/);
  });
});

describe('markdown', () => {
  test('every markup character is escaped; CRLF and LF become one space', () => {
    expect(markdownText('\\`*_{}[]<>()#+!|~-')).toBe('\\\\\\`\\*\\_\\{\\}\\[\\]\\<\\>\\(\\)\\#\\+\\!\\|\\~\\-');
    expect(markdownText('a\r\nb\nc')).toBe('a b c');
    expect(markdownText('plain words.')).toBe('plain words.');
  });

  test('a code span: fence longer than any run of backticks inside, padded only when needed', () => {
    expect(markdownCode('plain')).toBe('`plain`');
    expect(markdownCode('a``b')).toBe('```a``b```');
    expect(markdownCode('edge`')).toBe('`` edge` ``');
    expect(markdownCode('a\u001b')).toBe('`a\\u001b`');
  });
});
