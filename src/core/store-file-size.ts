// The size every reader of the store refuses a file over, as writers check it (pure).
import { UsageError } from './errors.ts';
import { MAX_FILE_BYTES } from './limits.ts';

/**
 * The text of a store file as it would be written, refused when it is over the size every reader refuses
 * (`file-too-large`): a file of many values (110,000 tags written in a flow list take less than 1 MiB; one to a
 * line, as writers write them, more) would otherwise be written, and every command after stop on it (exit 3).
 */
export function assertFitsStoreFile(rel: string, text: string): void {
  // Most text is ASCII: its length is its size, and only a text that may be too long is encoded.
  if (text.length * 3 <= MAX_FILE_BYTES) return;
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes <= MAX_FILE_BYTES) return;
  throw new UsageError(
    `${rel} would be ${bytes} bytes; a store file holds at most ${MAX_FILE_BYTES} (1 MiB), and every reader refuses a larger one`,
    'Shorten its values (fewer or shorter tags, guard entries or text). Nothing was written.',
    { file: rel, bytes, limit: MAX_FILE_BYTES },
    'file-too-large',
  );
}
