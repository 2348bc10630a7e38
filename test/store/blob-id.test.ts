import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gitBlobId } from '../../src/store/blob-id.ts';

/** What git hashes for a blob: its header, then its bytes (gitformat-object). */
function reference(bytes: Uint8Array, algorithm: 'sha1' | 'sha256'): string {
  return createHash(algorithm).update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

describe('gitBlobId', () => {
  it('gives the ids `git hash-object` gives', () => {
    expect(gitBlobId(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(gitBlobId(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('hashes with SHA-256 for a repository whose ids are 64 characters long', () => {
    const bytes = Buffer.from('id: 01M8KJT9\ntext: Never delete production data\n');
    expect(gitBlobId(bytes, 64)).toBe(reference(bytes, 'sha256'));
    expect(gitBlobId(bytes, 64)).toHaveLength(64);
  });

  it('stays right across files of every size, longer ones first and shorter ones after', () => {
    // Past the 64 KiB it starts with, past the 1 MiB it keeps, then small again: nothing of a longer file leaks in.
    const sizes = [0, 1, 400, 64 * 1024 - 20, 64 * 1024, 200_000, 1024 * 1024 + 5, 3, 70_000, 17];
    for (const [i, size] of sizes.entries()) {
      const bytes = Buffer.alloc(size, (i * 37) % 251);
      if (size > 0) bytes[size - 1] = 10;
      expect(gitBlobId(bytes), `${size} bytes`).toBe(reference(bytes, 'sha1'));
      expect(gitBlobId(bytes, 64), `${size} bytes`).toBe(reference(bytes, 'sha256'));
    }
  });

  it('reads a view into a larger buffer from its own offset', () => {
    const whole = Buffer.from('xxxxhello\nyyyy');
    expect(gitBlobId(whole.subarray(4, 10))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});
