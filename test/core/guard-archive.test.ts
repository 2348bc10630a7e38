// The names a tar or zip archive holds, read from its bytes (docs/guard.md, "Shell commands"). Archives written by
// the real programs are read in test/service/guard-inputs.test.ts; here each format's corners, built byte by byte.
import { describe, expect, it } from 'vitest';
import { archiveKind, tarNames, zipNames } from '../../src/core/guard-archive.ts';

const ascii = (text: string) => new TextEncoder().encode(text);

/** One tar header block: `name` (with a ustar `prefix`, or GNU's magic), `size` bytes of data after it, of `type`. */
function tarHeader(name: string, size: number, type: string, options: { prefix?: string; gnu?: boolean; base256?: boolean } = {}) {
  const block = new Uint8Array(512);
  block.set(ascii(name).subarray(0, 100), 0);
  block.set(ascii('0000644\0'), 100);
  if (options.base256) {
    block[124] = 0x80;
    let n = size;
    for (let i = 135; i > 124; i--, n = Math.floor(n / 256)) block[i] = n % 256;
  } else block.set(ascii(`${size.toString(8).padStart(11, '0')}\0`), 124);
  block[156] = type.charCodeAt(0);
  block.set(options.gnu ? ascii('ustar  \0') : ascii('ustar\x0000'), 257);
  if (options.prefix !== undefined) block.set(ascii(options.prefix), 345);
  block.set(ascii('        '), 148);
  const sum = block.reduce((a, b) => a + b, 0);
  block.set(ascii(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
  return block;
}

/** A tar archive of `members`: each a header and its data padded to blocks, then two blocks of zeros. */
function tar(members: Array<{ header: Uint8Array; data?: Uint8Array }>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const { header, data } of members) {
    parts.push(header);
    if (data !== undefined) {
      const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
      padded.set(data);
      parts.push(padded);
    }
  }
  parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const file = (name: string, text = 'x', options = {}) => ({ header: tarHeader(name, text.length, '0', options), data: ascii(text) });

describe('tarNames', () => {
  it("reads each member's name: ustar's prefix, GNU's long names, pax paths, base-256 sizes; folders left out", () => {
    const long = `${'d/'.repeat(60)}secrets/key`;
    const paxRecord = (path: string) => {
      const body = ` path=${path}\n`;
      let length = body.length + 2;
      if (`${length}${body}`.length !== length) length++;
      return ascii(`${length}${body}`);
    };
    const pax = paxRecord('pax/secrets/k');
    const bytes = tar([
      file('plain.txt'),
      { header: tarHeader('dir/', 0, '5') },
      file('key', 'k', { prefix: 'secrets/deep' }),
      // GNU's format keeps times where ustar keeps the prefix: no prefix is read there.
      file('gnu.txt', 'g', { gnu: true, prefix: '\x31\x32' }),
      { header: tarHeader('././@LongLink', long.length + 1, 'L', { gnu: true }), data: ascii(`${long}\0`) },
      file(long.slice(0, 100), 'l', { gnu: true }),
      { header: tarHeader('PaxHeaders/x', pax.length, 'x'), data: pax },
      file('short-name-the-pax-path-replaces'),
      { header: tarHeader('link', 0, '2') },
      file('big', 'b', { base256: true }),
    ]);
    expect(archiveKind(bytes)).toBe('tar');
    expect(tarNames(bytes)).toEqual(['plain.txt', 'secrets/deep/key', 'gnu.txt', long, 'pax/secrets/k', 'link', 'big']);
  });

  it('stops at a header whose checksum fails or a member past the end: undefined, not a shorter list', () => {
    const bytes = tar([file('a'), file('b')]);
    const broken = bytes.slice();
    broken[1024] = 0x41;
    expect(tarNames(broken)).toBeUndefined();
    expect(tarNames(bytes.subarray(0, 512 + 100))).toEqual(['a']);
    expect(tarNames(tar([{ header: tarHeader('a', 5000, '0') }]).subarray(0, 1024))).toBeUndefined();
    expect(tarNames(tar([]))).toEqual([]);
    expect(archiveKind(tar([]))).toBe('tar');
  });
});

/** A zip archive's central directory entries and end record (the local headers are not read). */
function zip(names: Array<{ name: string; utf8?: boolean }>, options: { comment?: string; zip64?: boolean } = {}): Uint8Array {
  const out: number[] = [0x50, 0x4b, 3, 4, ...new Array(26).fill(0)];
  const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
  const u32 = (n: number) => [...u16(n & 0xffff), ...u16(Math.floor(n / 65536))];
  const offset = out.length;
  for (const { name, utf8 } of names) {
    const raw = utf8 ? [...new TextEncoder().encode(name)] : [...name].map((c) => c.charCodeAt(0));
    out.push(0x50, 0x4b, 1, 2, ...u16(20), ...u16(20), ...u16(utf8 ? 0x800 : 0), ...new Array(18).fill(0));
    out.push(...u16(raw.length), ...u16(0), ...u16(0), ...new Array(12).fill(0), ...raw);
  }
  const size = out.length - offset;
  if (options.zip64) {
    const record = out.length;
    out.push(0x50, 0x4b, 6, 6, ...u32(44), 0, 0, 0, 0, ...u16(45), ...u16(45), ...u32(0), ...u32(0));
    out.push(...u32(names.length), 0, 0, 0, 0, ...u32(names.length), 0, 0, 0, 0, ...u32(size), 0, 0, 0, 0, ...u32(offset), 0, 0, 0, 0);
    out.push(0x50, 0x4b, 6, 7, ...u32(0), ...u32(record), 0, 0, 0, 0, ...u32(1));
  }
  const comment = options.comment ?? '';
  const [count, at] = options.zip64 ? [0xffff, 0xffffffff] : [names.length, offset];
  out.push(0x50, 0x4b, 5, 6, 0, 0, 0, 0, ...u16(count), ...u16(count), ...u32(size), ...u32(at), ...u16(comment.length));
  out.push(...[...comment].map((c) => c.charCodeAt(0)));
  return new Uint8Array(out);
}

describe('zipNames', () => {
  it('reads the central directory: names in UTF-8 or code page 437, past a comment, ZIP64 too; folders left out', () => {
    const names = [{ name: 'secrets/k.pem' }, { name: 'dir/' }, { name: 'docs/ü.md', utf8: true }, { name: '../up' }];
    expect(archiveKind(zip(names))).toBe('zip');
    expect(zipNames(zip(names))).toEqual(['secrets/k.pem', 'docs/ü.md', '../up']);
    expect(zipNames(zip(names, { comment: 'PK\x05\x06 in a comment' }))).toEqual(['secrets/k.pem', 'docs/ü.md', '../up']);
    expect(zipNames(zip(names, { zip64: true }))).toEqual(['secrets/k.pem', 'docs/ü.md', '../up']);
  });

  it('is undefined with no end record, or a directory that is not where it says', () => {
    const bytes = zip([{ name: 'a' }]);
    expect(zipNames(bytes.subarray(0, bytes.length - 10))).toBeUndefined();
    const moved = bytes.slice();
    moved[30] = 0;
    expect(zipNames(moved)).toBeUndefined();
    expect(archiveKind(ascii('not an archive'))).toBe('unknown');
    expect(archiveKind(new Uint8Array([0x1f, 0x8b, 8]))).toBe('gzip');
  });
});
