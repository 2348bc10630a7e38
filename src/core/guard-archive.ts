/**
 * The names of the files a tar or zip archive holds, read from its bytes as `tar -x` and `unzip` would extract them
 * (docs/guard.md, "Shell commands"). Pure: the hook reads the archive, and inflates a gzip one, at its edge.
 */

/** One decoder for every name read: a tar of 100,000 members is 100,000 headers. */
const utf8 = new TextDecoder();

/** What an archive's bytes are, by their first bytes: one this module reads, gzip (inflated first), or another. */
export function archiveKind(bytes: Uint8Array): 'tar' | 'zip' | 'gzip' | 'unknown' {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return 'zip';
  if (bytes.length >= 512 && isTarHeader(bytes, 0)) return 'tar';
  // An empty tar is two blocks of zeros.
  if (bytes.length >= 1024 && bytes.subarray(0, 1024).every((b) => b === 0)) return 'tar';
  return 'unknown';
}

/** Whether the block at `at` is a tar header: its checksum (the bytes summed with the checksum field as blanks) holds. */
function isTarHeader(bytes: Uint8Array, at: number): boolean {
  const stored = octal(bytes, at + 148, 8);
  if (stored === undefined) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : bytes[at + i]!;
  return sum === stored;
}

/** A header's number: octal digits, blank- or NUL-ended, or base 256 when its first byte's high bit is set (GNU). */
function octal(bytes: Uint8Array, at: number, length: number): number | undefined {
  if (bytes[at]! & 0x80) {
    let n = bytes[at]! & 0x7f;
    for (let i = 1; i < length; i++) n = n * 256 + bytes[at + i]!;
    return n;
  }
  let text = '';
  for (let i = at; i < at + length; i++) {
    const b = bytes[i]!;
    if (b === 0 || b === 0x20) {
      if (text !== '') break;
      continue;
    }
    if (b < 0x30 || b > 0x37) return undefined;
    text += String.fromCharCode(b);
  }
  return text === '' ? undefined : Number.parseInt(text, 8);
}

/** A header's text field: up to its first NUL. */
function field(bytes: Uint8Array, at: number, length: number): string {
  let end = at;
  while (end < at + length && bytes[end] !== 0) end++;
  return utf8.decode(bytes.subarray(at, end));
}

/** The `path` of a pax extended header's records (`LEN path=VALUE\n`, LEN counting bytes), if it gives one. */
function paxPath(data: Uint8Array): string | undefined {
  let path: string | undefined;
  for (let at = 0; at < data.length; ) {
    let space = at;
    let length = 0;
    for (; space < data.length && data[space]! >= 0x30 && data[space]! <= 0x39; space++) length = length * 10 + data[space]! - 0x30;
    if (data[space] !== 0x20 || length <= space - at || at + length > data.length) break;
    const record = utf8.decode(data.subarray(space + 1, at + length - 1));
    if (record.startsWith('path=')) path = record.slice(5);
    at += length;
  }
  return path;
}

/**
 * The names of the members of a tar archive, in their order; folders left out. A GNU long name (`L`) or a pax header's
 * `path` stands for the name of the member after it. Undefined when the bytes stop being an archive (a header whose
 * checksum fails, a member past the end): what it holds then, the hook cannot tell.
 */
export function tarNames(bytes: Uint8Array): string[] | undefined {
  const names: string[] = [];
  let longName: string | undefined;
  for (let at = 0; at + 512 <= bytes.length; ) {
    if (bytes.subarray(at, at + 512).every((b) => b === 0)) return names;
    if (!isTarHeader(bytes, at)) return undefined;
    const size = octal(bytes, at + 124, 12) ?? 0;
    const type = String.fromCharCode(bytes[at + 156]!);
    const headerAt = at;
    const dataAt = at + 512;
    if (dataAt + size > bytes.length) return undefined;
    const data = bytes.subarray(dataAt, dataAt + size);
    at = dataAt + Math.ceil(size / 512) * 512;
    if (type === 'L') longName = field(data, 0, data.length);
    else if (type === 'x') longName = paxPath(data) ?? longName;
    else if (type === 'g' || type === 'K') continue;
    else {
      // POSIX ustar (`ustar\0`) keeps a name's folders in a prefix; GNU's format (`ustar  `) keeps times there.
      const posix = field(bytes, headerAt + 257, 6) === 'ustar' && bytes[headerAt + 262] === 0;
      const prefix = posix ? field(bytes, headerAt + 345, 155) : '';
      const own = field(bytes, headerAt, 100);
      const name = longName ?? (prefix === '' ? own : `${prefix}/${own}`);
      longName = undefined;
      if (type !== '5' && !name.endsWith('/')) names.push(name);
    }
  }
  return names;
}

/** A zip member's name from its bytes: UTF-8 when flagged or valid as such, else one character per byte. */
function zipName(raw: Uint8Array, utf8: boolean): string {
  try {
    return new TextDecoder('utf-8', { fatal: !utf8 }).decode(raw);
  } catch {
    let name = '';
    for (const b of raw) name += String.fromCharCode(b);
    return name;
  }
}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;

/**
 * The names of the files a zip archive holds, from its central directory (ZIP64 too); folders left out. Undefined when
 * no central directory is found where its end record says.
 */
export function zipNames(bytes: Uint8Array): string[] | undefined {
  // The end record is in the last 22 bytes and a comment of up to 65,535.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--)
    if (u32(bytes, at) === 0x06054b50) {
      end = at;
      break;
    }
  if (end < 0) return undefined;
  let count = u16(bytes, end + 10);
  let offset = u32(bytes, end + 16);
  if ((count === 0xffff || offset === 0xffffffff) && end >= 20 && u32(bytes, end - 20) === 0x07064b50) {
    const record = u64(bytes, end - 20 + 8);
    if (record + 56 > bytes.length || u32(bytes, record) !== 0x06064b50) return undefined;
    count = u64(bytes, record + 32);
    offset = u64(bytes, record + 48);
  }
  const names: string[] = [];
  for (let n = 0, at = offset; n < count; n++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== 0x02014b50) return undefined;
    const [nameLength, extra, comment] = [u16(bytes, at + 28), u16(bytes, at + 30), u16(bytes, at + 32)];
    if (at + 46 + nameLength > bytes.length) return undefined;
    const raw = bytes.subarray(at + 46, at + 46 + nameLength);
    // Bit 11 says the name is UTF-8; without it, unzip on a Unix system writes its bytes as they are, which are
    // UTF-8 when zip ran there: read so when they are, else byte for byte.
    const name = zipName(raw, (u16(bytes, at + 8) & 0x800) !== 0);
    if (!name.endsWith('/')) names.push(name);
    at += 46 + nameLength + extra + comment;
  }
  return names;
}
