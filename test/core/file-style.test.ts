import { describe, expect, it } from 'vitest';
import { inStyleOf } from '../../src/core/file-style.ts';
import { withModeline } from '../../src/validate/modeline-text.ts';

describe('inStyleOf: a rewritten file keeps the BOM and the line ends of the one it replaces', () => {
  const text = 'id: X\ntext: |-\n  a\n  b\n';
  it.each([
    ['no file before', undefined, text],
    ['LF', 'id: X\ntext: old\n', text],
    ['CRLF', 'id: X\r\ntext: old\r\n', 'id: X\r\ntext: |-\r\n  a\r\n  b\r\n'],
    ['a BOM and LF', '\uFEFFid: X\n', `\uFEFF${text}`],
    ['a BOM and CRLF', '\uFEFFid: X\r\n', '\uFEFFid: X\r\ntext: |-\r\n  a\r\n  b\r\n'],
    // One line an editor pasted with CRLF into an LF file: the file stays LF, not every line of it changed.
    ['LF with one CRLF line', 'id: X\ntext: old\r\nseverity: error\n', text],
    ['CRLF with one LF line', 'id: X\r\ntext: old\nseverity: error\r\n', 'id: X\r\ntext: |-\r\n  a\r\n  b\r\n'],
  ])('%s', (_name, previous, expected) => {
    expect(inStyleOf(previous, text)).toBe(expected);
  });
});

describe("validate --fix's modeline takes the line ends most of the file's lines have", () => {
  it('LF in an LF file one CRLF line is in, CRLF in a CRLF file', () => {
    const file = 'global/01ARZ3NDEKTSV4RRFFQ69G5FAV.yaml';
    const lfFile = 'id: 01ARZ3NDEKTSV4RRFFQ69G5FAV\ntext: Keep it small\r\nseverity: error\n';
    expect(withModeline(file, Buffer.from(lfFile)).split('\n')[0]!.endsWith('\r')).toBe(false);
    const crlfFile = lfFile.replace(/\r?\n/g, '\r\n');
    expect(withModeline(file, Buffer.from(crlfFile)).split('\n')[0]!.endsWith('\r')).toBe(true);
  });
});
