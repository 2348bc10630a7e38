/**
 * A fast 53-bit string hash (two 32-bit lanes, mixed at the end), for
 * telling whether something the tool itself wrote down earlier (a folder's
 * file stamps, a listing of paths) is still the same. Not for anything an
 * adversary chooses to collide: those use SHA-256 (validate/content-hash.ts).
 */
export class Hash53 {
  #h1 = 0xdeadbeef;
  #h2 = 0x41c6ce57;

  update(text: string): this {
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.#h1 = h1;
    this.#h2 = h2;
    return this;
  }

  /** The hash so far, in base 36. */
  digest(): string {
    let h1 = this.#h1;
    let h2 = this.#h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  }
}
