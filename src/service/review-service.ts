/**
 * Git-native review (docs/review.md): effective-set diffs between two trees
 * of the store, and the history of one invariant. The work is split by job
 * under `review/`: ranges (what each side is), revision trees (reading the
 * store at a revision, in the index or the working tree), diff and log.
 */
import { diffRevisions, type DiffResult } from './review/diff.ts';
import { invariantLog, type LogResult } from './review/log.ts';
import type { DiffRequest } from './review/ranges.ts';

export type { DiffResult } from './review/diff.ts';
export type { LogEvent, LogResult } from './review/log.ts';
export type { DiffRequest, SideInfo } from './review/ranges.ts';

export class ReviewService {
  constructor(readonly root: string) {}

  /** The effective-set diff between two trees of the store. */
  diff(request: DiffRequest = {}): Promise<DiffResult> {
    return diffRevisions(this.root, request);
  }

  /** The history of one invariant (an id or a unique prefix), newest first, following moves between scopes. */
  log(idOrPrefix: string): Promise<LogResult> {
    return invariantLog(this.root, idOrPrefix);
  }
}
