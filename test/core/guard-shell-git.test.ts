// What the hook asks git for a git command whose files only git can tell (docs/guard.md, "Shell commands"); git's
// answers in a real repository: test/service/guard-inputs.test.ts.
import { describe, expect, it } from 'vitest';
import { shellWrites } from '../../src/core/guard-shell-writes.ts';

const asked = (command: string) => shellWrites(command).inputs.flatMap((i) => (i.kind === 'git' ? [i.diff] : []));

describe('a git command whose files only git can tell', () => {
  it.each([
    ['reset --hard, to HEAD or a revision; --merge and --keep too', 'git reset --hard; git reset --keep HEAD~2', [['HEAD'], ['HEAD~2']]],
    [
      'a branch switched to, created from a base',
      'git checkout main; git switch -c new origin/main; git checkout -b x base; git checkout -',
      [
        ['HEAD', 'main'],
        ['HEAD', 'origin/main'],
        ['HEAD', 'base'],
        ['HEAD', '@{-1}'],
      ],
    ],
    [
      'a stash popped or applied',
      'git stash pop; git stash apply stash@{2}',
      [
        ['stash@{0}^1', 'stash@{0}'],
        ['stash@{2}^1', 'stash@{2}'],
      ],
    ],
    [
      'every change stashed: each changed file put back as HEAD has it',
      'git stash; git stash push -m wip; git stash save x',
      [['HEAD'], ['HEAD'], ['HEAD']],
    ],
    [
      'commits picked or reverted, each',
      'git cherry-pick a1 b2; git revert -m 1 c3',
      [
        ['a1^', 'a1'],
        ['b2^', 'b2'],
        ['c3^', 'c3'],
      ],
    ],
    [
      'merged, rebased, pulled',
      'git merge -m msg topic; git rebase main; git pull; git pull origin dev',
      [['HEAD...topic'], ['HEAD...main'], ['HEAD...@{upstream}'], ['HEAD...origin/dev']],
    ],
    [
      'nothing: a reset of the index, a new branch of HEAD, paths after --, a range, a word git takes for an option',
      'git reset HEAD~1; git reset --soft x; git switch -c new; git checkout -- a; git checkout x -- a; git cherry-pick a..b; git merge -- --output=x; git stash push -- a',
      [],
    ],
  ])('%s', (_name, command, expected) => {
    expect(asked(command)).toEqual(expected);
  });

  it('asks git for the untracked files git clean -f deletes with no path: the ignored ones too with -x, only them with -X', () => {
    const untracked = (command: string) => shellWrites(command).inputs.flatMap((i) => (i.kind === 'git' ? [i.untracked] : []));
    expect(untracked('git clean -fd; git clean -fdx; git clean -f -X')).toEqual(['standard', 'ignored', 'only-ignored']);
    expect(untracked('git clean -fn; git clean -f build; git clean -d')).toEqual([]);
  });

  it('reads the mailboxes git am applies as patches, from the top', () => {
    expect(shellWrites('git am -3 fix.mbox').inputs).toEqual([{ kind: 'patch', file: 'fix.mbox', strip: 1, fromTop: true }]);
    expect(shellWrites('git am --abort').inputs).toEqual([]);
  });
});
