import { describe, expect, it } from 'vitest';
import { inStyleOf } from '../../src/core/file-style.ts';

describe('inStyleOf: a rewritten file keeps the BOM and the line ends of the one it replaces', () => {
  const text = 'id: X\ntext: |-\n  a\n  b\n';
  it.each([
    ['no file before', undefined, text],
    ['LF', 'id: X\ntext: old\n', text],
    ['CRLF', 'id: X\r\ntext: old\r\n', 'id: X\r\ntext: |-\r\n  a\r\n  b\r\n'],
    ['a BOM and LF', '\uFEFFid: X\n', `\uFEFF${text}`],
    ['a BOM and CRLF', '\uFEFFid: X\r\n', '\uFEFFid: X\r\ntext: |-\r\n  a\r\n  b\r\n'],
  ])('%s', (_name, previous, expected) => {
    expect(inStyleOf(previous, text)).toBe(expected);
  });
});
