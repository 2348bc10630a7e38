import { describe, expect, it } from 'vitest';
import { readUtf8 } from '../../src/core/utf8.ts';

const bytes = (...b: number[]) => new Uint8Array(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('readUtf8', () => {
  it('reads UTF-8 text whole', () => {
    expect(readUtf8(utf8('héllo\nwörld 🙂\n'))).toEqual({ ok: true, text: 'héllo\nwörld 🙂\n' });
    expect(readUtf8(bytes())).toEqual({ ok: true, text: '' });
  });

  it('places the first byte that is not UTF-8: a Latin-1 é on line 2, after a character of two bytes', () => {
    // "a\nbéc" then Latin-1 é (0xe9) then "d".
    expect(readUtf8(bytes(0x61, 0x0a, 0x62, 0xc3, 0xa9, 0x63, 0xe9, 0x64))).toEqual({ ok: false, offset: 6, line: 2, col: 4 });
  });

  it('places a UTF-16 file at its first byte, a stray continuation byte where it stands', () => {
    expect(readUtf8(bytes(0xff, 0xfe, 0x23, 0x00))).toEqual({ ok: false, offset: 0, line: 1, col: 1 });
    expect(readUtf8(bytes(0xc3, 0xa9, 0x80))).toEqual({ ok: false, offset: 2, line: 1, col: 2 });
  });

  it('places a first byte that is not UTF-8 on line 1 of a file of several lines, not on its last line', () => {
    // A UTF-16 file of two lines ("#\nx\n"), and a Latin-1 "É" at the start of a file of three.
    expect(readUtf8(bytes(0xff, 0xfe, 0x23, 0x00, 0x0a, 0x00, 0x78, 0x00, 0x0a, 0x00))).toEqual({ ok: false, offset: 0, line: 1, col: 1 });
    expect(readUtf8(bytes(0xc9, 0x0a, 0x61, 0x0a, 0x62, 0x0a))).toEqual({ ok: false, offset: 0, line: 1, col: 1 });
  });

  it('places a sequence cut short at its lead byte, inside the text or at its end', () => {
    expect(readUtf8(bytes(0x61, 0xe2, 0x82, 0x41))).toEqual({ ok: false, offset: 1, line: 1, col: 2 });
    expect(readUtf8(bytes(0x0a, 0x61, 0xe2, 0x82))).toEqual({ ok: false, offset: 2, line: 2, col: 2 });
  });

  it('counts the column in UTF-16 code units: a character beyond the BMP counts two', () => {
    // "🙂 " then 0xff: the column of the byte after a 4-byte character and a space.
    expect(readUtf8(bytes(0xf0, 0x9f, 0x99, 0x82, 0x20, 0xff))).toEqual({ ok: false, offset: 5, line: 1, col: 4 });
  });

  it('finds the same byte as a scan from the start, on random bytes', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed >>> 24;
    };
    for (let n = 0; n < 300; n++) {
      // Mostly valid text with one byte set to something else somewhere.
      const text = utf8(`line one\nzwei é ${'ü'.repeat(n % 7)} ∑ 🙂 end\n`);
      const i = next() % text.length;
      text[i] = next();
      const r = readUtf8(text);
      let ok = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(text);
      } catch {
        ok = false;
      }
      expect(r.ok).toBe(ok);
      if (!r.ok) {
        // Everything before the byte found decodes; the text up to the end of its sequence does not.
        expect(() => new TextDecoder('utf-8', { fatal: true }).decode(text.subarray(0, r.offset))).not.toThrow();
        expect(() => new TextDecoder('utf-8', { fatal: true }).decode(text.subarray(r.offset))).toThrow();
      }
    }
  });
});
