/**
 * MurmurHash3 x86 128-bit (seed 0), and a forger of collisions with it: the
 * validation cache was once keyed with this hash, and a test proves that a
 * file forged this way cannot pass for a file checked before.
 *
 * The hash mixes 16-byte blocks into four 32-bit words, and every step of a
 * block (multiplication by an odd constant, rotation, xor, addition) can be
 * undone. So for any state before a block and any state wanted after it, one
 * block of 16 bytes leads from the first to the second: put it anywhere in a
 * file, follow it with the bytes of the file to imitate, and both have the
 * same hash.
 */
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;
const ADD = [0x561ccd1b, 0x0bcaa747, 0x96cd1c35, 0x32ac3b17] as const;

type State = [number, number, number, number];

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
const rotr = (x: number, r: number) => (x >>> r) | (x << (32 - r));

/** The inverse of an odd number modulo 2^32 (Newton's iteration). */
function inverse(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x;
}
const INV5 = inverse(5);

function word(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
}

/** The state after the first `blocks` blocks of `b`. */
function stateAfter(b: Uint8Array, blocks: number): State {
  let [h1, h2, h3, h4] = [0, 0, 0, 0];
  for (let n = 0; n < blocks; n++) {
    const i = n * 16;
    h1 ^= Math.imul(rotl(Math.imul(word(b, i), C1), 15), C2);
    h1 = (Math.imul((rotl(h1, 19) + h2) | 0, 5) + ADD[0]) | 0;
    h2 ^= Math.imul(rotl(Math.imul(word(b, i + 4), C2), 16), C3);
    h2 = (Math.imul((rotl(h2, 17) + h3) | 0, 5) + ADD[1]) | 0;
    h3 ^= Math.imul(rotl(Math.imul(word(b, i + 8), C3), 17), C4);
    h3 = (Math.imul((rotl(h3, 15) + h4) | 0, 5) + ADD[2]) | 0;
    h4 ^= Math.imul(rotl(Math.imul(word(b, i + 12), C4), 18), C1);
    h4 = (Math.imul((rotl(h4, 13) + h1) | 0, 5) + ADD[3]) | 0;
  }
  return [h1, h2, h3, h4];
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** MurmurHash3_x86_128 with seed 0, as four big-endian 32-bit words in hexadecimal. */
export function murmur3x86128(b: Uint8Array): string {
  const len = b.byteLength;
  const blocks = len >>> 4;
  let [h1, h2, h3, h4] = stateAfter(b, blocks);
  const tail = new Uint8Array(16);
  tail.set(b.subarray(blocks * 16));
  const rest = len & 15;
  if (rest > 12) h4 ^= Math.imul(rotl(Math.imul(word(tail, 12), C4), 18), C1);
  if (rest > 8) h3 ^= Math.imul(rotl(Math.imul(word(tail, 8), C3), 17), C4);
  if (rest > 4) h2 ^= Math.imul(rotl(Math.imul(word(tail, 4), C2), 16), C3);
  if (rest > 0) h1 ^= Math.imul(rotl(Math.imul(word(tail, 0), C1), 15), C2);
  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  [h1, h2, h3, h4] = [fmix(h1), fmix(h2), fmix(h3), fmix(h4)];
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}

/** The one block that takes the hash from state `from` to state `to`. */
function bridge(from: State, to: State): Uint8Array {
  const [a1, a2, a3, a4] = from;
  const [t1, t2, t3, t4] = to;
  // Each word: undo "·5 + c", the addition of the neighbour, the rotation, then the key mixing.
  const unmix = (t: number, add: number, neighbour: number, rot: number, h: number, ca: number, cb: number, kr: number) => {
    const mixed = rotr((Math.imul((t - add) | 0, INV5) - neighbour) | 0, rot) ^ h;
    return Math.imul(rotr(Math.imul(mixed, inverse(cb)), kr), inverse(ca));
  };
  const k1 = unmix(t1, ADD[0], a2, 19, a1, C1, C2, 15);
  const k2 = unmix(t2, ADD[1], a3, 17, a2, C2, C3, 16);
  const k3 = unmix(t3, ADD[2], a4, 15, a3, C3, C4, 17);
  const k4 = unmix(t4, ADD[3], t1, 13, a4, C4, C1, 18);
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  [k1, k2, k3, k4].forEach((k, i) => view.setInt32(i * 4, k, true));
  return out;
}

/**
 * A file of the length and MurmurHash3 of `good` that starts with `prefix`
 * (a whole number of 16-byte blocks, shorter than `good` by at least one
 * block): `prefix`, one forged block, then the rest of `good`.
 */
export function forgeCollision(good: Uint8Array, prefix: Uint8Array): Uint8Array {
  if (prefix.byteLength % 16 !== 0 || prefix.byteLength + 16 > good.byteLength)
    throw new Error('the prefix must be whole blocks, at least one block shorter than the file');
  const blocks = prefix.byteLength / 16;
  const forged = new Uint8Array(good.byteLength);
  forged.set(prefix);
  forged.set(bridge(stateAfter(prefix, blocks), stateAfter(good, blocks + 1)), prefix.byteLength);
  forged.set(good.subarray(prefix.byteLength + 16), prefix.byteLength + 16);
  return forged;
}
