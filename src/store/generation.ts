// The store's write generation (docs/adr/0121-a-move-seen-by-the-write-generation.md): a token in `.git/agents/`
// that a writer replaces before it takes a file out of the working tree, so that a reader that compares it before and
// after its read knows a move may have passed between two of its listings. Readers only read it.
import { join } from 'node:path';
import { gitDirFor } from './git-dir.ts';
import { readRegularFile } from './read-file.ts';

/** The generation's file of the store at `storeRoot`: in its working tree's git folder; undefined outside git. */
export function generationFile(storeRoot: string): string | undefined {
  const git = gitDirFor(storeRoot);
  return git === undefined ? undefined : join(git, 'agents', 'generation');
}

/**
 * The generation in `file` now: '' when there is none (no writer has taken a file away yet, outside git, unreadable).
 * Read as every file the tool did not just write is: a regular file only, bounded, so a FIFO put there never holds a reader.
 */
export function readGeneration(file: string | undefined): string {
  if (file === undefined) return '';
  const read = readRegularFile(file, 256);
  return read.ok ? read.bytes.toString('latin1') : '';
}
