import { createHash } from 'node:crypto';

/**
 * The id git gives a blob with these bytes (`git hash-object`), so a file on
 * disk can be compared with a tree entry without a git process. `length` is
 * the length of the ids the repository uses (40: SHA-1, 64: SHA-256).
 */
export function gitBlobId(bytes: Uint8Array, length = 40): string {
  const h = createHash(length === 64 ? 'sha256' : 'sha1');
  h.update(`blob ${bytes.byteLength}\0`);
  h.update(bytes);
  return h.digest('hex');
}
