import { createHash, hash } from 'node:crypto';

/**
 * The key of a working-tree file in the validation cache: the SHA-256 of its
 * bytes, in base64 (43 characters, padding dropped). A cryptographic digest,
 * so that no file can be made to pass for another one checked before (see
 * docs/adr/0043-validation-cache-keyed-with-sha-256.md).
 * `crypto.hash` is one call with no Hash object, the cheap way to hash many
 * small files.
 */
export function contentHash(bytes: Uint8Array, length = bytes.byteLength): string {
  return hash('sha256', length === bytes.byteLength ? bytes : bytes.subarray(0, length), 'base64').slice(0, 43);
}

/**
 * A digest of a text key (docs/resolution.md): 66 bits, as 11 base64 digits. Equal keys give equal
 * digests; files whose digests are equal are parsed again and compared by
 * their real keys (src/validate/checks/), so a collision costs a parse,
 * never a wrong report: SHA-1, the cheapest digest of `node:crypto`, is
 * enough here.
 */
export function keyDigest(key: string): string {
  return hash('sha1', key, 'base64').slice(0, 11);
}

/** A digest of a tree's listing (each entry's type and path), which the memo of the whole-store checks is kept for. */
export function listingDigest(entries: readonly { type: string; path: string; deleted?: true }[]): string {
  const h = createHash('sha1');
  let chunk = '';
  for (const e of entries) {
    // A path both sides of a merge deleted uses no id: the same listing without it is another for the id check.
    chunk += `${e.type}${e.deleted ? '-' : ''}\t${e.path}\n`;
    if (chunk.length > 1 << 16) {
      h.update(chunk);
      chunk = '';
    }
  }
  return h.update(chunk).digest('base64');
}
