import type { ReadResult } from './tree-source.ts';

/** What reading a path a merge left unresolved in the index gives: none of its stages is what is staged. */
export const UNMERGED_READ: ReadResult = Object.freeze({
  ok: false,
  code: 'merge-conflict',
  message: 'is an unresolved merge conflict in the index (git holds its base and both sides)',
});
