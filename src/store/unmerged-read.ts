import type { ReadResult } from './tree-source.ts';

const RESOLVE = 'Resolve the conflict in the file, then `git add` it.';
const KEEP_OR_DROP = 'Keep the file as you want it with `git add`, or drop it with `git rm`.';

/**
 * What reading a path a merge left unresolved in the index gives: none of its stages is what is staged. `stages` are
 * those the index holds (GitEntry.stages: 1 base, 2 ours, 3 theirs); what git holds decides what to run, as `git
 * status` names it: `git rm` for a file both sides deleted, which is not in the working tree to resolve.
 */
export function unmergedRead(stages: string | undefined): ReadResult {
  const [held, hint] = STAGES[stages ?? '123'] ?? STAGES['123']!;
  return { ok: false, code: 'merge-conflict', message: `is an unresolved merge conflict in the index (${held})`, hint };
}

const STAGES: Record<string, readonly [held: string, hint: string]> = {
  '123': ['both modified: git holds its base and both sides', RESOLVE],
  '23': ['both added: git holds both sides, no base', RESOLVE],
  '12': ['deleted by them: git holds its base and our side', KEEP_OR_DROP],
  '13': ['deleted by us: git holds its base and their side', KEEP_OR_DROP],
  '2': ['added by us: git holds our side only, as a rename on both sides to two names leaves each', KEEP_OR_DROP],
  '3': ['added by them: git holds their side only, as a rename on both sides to two names leaves each', KEEP_OR_DROP],
  '1': [
    'both deleted: git holds only its base, and no file stands in the working tree',
    'Remove it from the index with `git rm` (no file is left to resolve).',
  ],
};
