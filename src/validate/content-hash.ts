/**
 * A 128-bit hash of a file's bytes (MurmurHash3, x86 128-bit variant, seed 0)
 * as 32 hexadecimal digits: the key of a working-tree file in the validation
 * cache. Not a cryptographic hash: it tells the bytes of a file checked
 * before from other bytes at the same path, as a content hash in a build
 * cache does. In JavaScript over a small file it costs a tenth of a
 * `node:crypto` digest, whose per-call object was the largest cost of a run
 * answered from the cache.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
let lastBuffer: ArrayBufferLike | undefined;
let lastWords: Int32Array | undefined;

export function contentHash(bytes: Uint8Array, length = bytes.byteLength): string {
  const c1 = 0x239b961b;
  const c2 = 0xab0e9789;
  const c3 = 0x38b34ae5;
  const c4 = 0xa1e38b93;
  const len = length;
  const blocks = len >>> 4;
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  // Whole blocks as 32-bit words where the bytes are aligned (on little-endian machines), through one
  // view of the whole buffer kept between calls: files are read into one shared buffer.
  let words: Int32Array | undefined;
  let base = 0;
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0 && blocks > 0) {
    if (lastBuffer !== bytes.buffer) {
      lastBuffer = bytes.buffer;
      lastWords = new Int32Array(bytes.buffer, 0, bytes.buffer.byteLength >>> 2);
    }
    words = lastWords;
    base = bytes.byteOffset >>> 2;
  }
  let i = 0;
  for (let b = 0; b < blocks; b++, i += 16) {
    let k1: number;
    let k2: number;
    let k3: number;
    let k4: number;
    if (words) {
      const w = base + b * 4;
      k1 = words[w]!;
      k2 = words[w + 1]!;
      k3 = words[w + 2]!;
      k4 = words[w + 3]!;
    } else {
      k1 = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
      k2 = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
      k3 = bytes[i + 8]! | (bytes[i + 9]! << 8) | (bytes[i + 10]! << 16) | (bytes[i + 11]! << 24);
      k4 = bytes[i + 12]! | (bytes[i + 13]! << 8) | (bytes[i + 14]! << 16) | (bytes[i + 15]! << 24);
    }

    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 19) | (h1 >>> 13);
    h1 = (h1 + h2) | 0;
    h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;

    k2 = Math.imul(k2, c2);
    k2 = (k2 << 16) | (k2 >>> 16);
    k2 = Math.imul(k2, c3);
    h2 ^= k2;
    h2 = (h2 << 17) | (h2 >>> 15);
    h2 = (h2 + h3) | 0;
    h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;

    k3 = Math.imul(k3, c3);
    k3 = (k3 << 17) | (k3 >>> 15);
    k3 = Math.imul(k3, c4);
    h3 ^= k3;
    h3 = (h3 << 15) | (h3 >>> 17);
    h3 = (h3 + h4) | 0;
    h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;

    k4 = Math.imul(k4, c4);
    k4 = (k4 << 18) | (k4 >>> 14);
    k4 = Math.imul(k4, c1);
    h4 ^= k4;
    h4 = (h4 << 13) | (h4 >>> 19);
    h4 = (h4 + h1) | 0;
    h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
  }

  // The last 1 to 15 bytes.
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  switch (len & 15) {
    case 15: k4 ^= bytes[i + 14]! << 16; // falls through
    case 14: k4 ^= bytes[i + 13]! << 8; // falls through
    case 13:
      k4 ^= bytes[i + 12]!;
      k4 = Math.imul(k4, c4);
      k4 = (k4 << 18) | (k4 >>> 14);
      k4 = Math.imul(k4, c1);
      h4 ^= k4;
    // falls through
    case 12: k3 ^= bytes[i + 11]! << 24; // falls through
    case 11: k3 ^= bytes[i + 10]! << 16; // falls through
    case 10: k3 ^= bytes[i + 9]! << 8; // falls through
    case 9:
      k3 ^= bytes[i + 8]!;
      k3 = Math.imul(k3, c3);
      k3 = (k3 << 17) | (k3 >>> 15);
      k3 = Math.imul(k3, c4);
      h3 ^= k3;
    // falls through
    case 8: k2 ^= bytes[i + 7]! << 24; // falls through
    case 7: k2 ^= bytes[i + 6]! << 16; // falls through
    case 6: k2 ^= bytes[i + 5]! << 8; // falls through
    case 5:
      k2 ^= bytes[i + 4]!;
      k2 = Math.imul(k2, c2);
      k2 = (k2 << 16) | (k2 >>> 16);
      k2 = Math.imul(k2, c3);
      h2 ^= k2;
    // falls through
    case 4: k1 ^= bytes[i + 3]! << 24; // falls through
    case 3: k1 ^= bytes[i + 2]! << 16; // falls through
    case 2: k1 ^= bytes[i + 1]! << 8; // falls through
    case 1:
      k1 ^= bytes[i]!;
      k1 = Math.imul(k1, c1);
      k1 = (k1 << 15) | (k1 >>> 17);
      k1 = Math.imul(k1, c2);
      h1 ^= k1;
  }

  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return hex(h1, h2, h3, h4);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** The 32 digits of a hash, written in place and made into one string (no partial strings per word). */
const DIGITS = new Uint16Array(32);

function put(n: number, at: number): void {
  for (let shift = 28; shift >= 0; shift -= 4) DIGITS[at++] = HEX_CODES[(n >>> shift) & 15]!;
}

function hex(h1: number, h2: number, h3: number, h4: number): string {
  put(h1, 0);
  put(h2, 8);
  put(h3, 16);
  put(h4, 24);
  return String.fromCharCode.apply(null, DIGITS as unknown as number[]);
}
