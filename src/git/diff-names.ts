/**
 * The names of the files two revisions (or a revision and the working tree) differ in, as `git diff --name-only`
 * lists them, and of the untracked files, from the repository's top: what the guard hook asks git for a command
 * whose files only git can tell (`git reset --hard`, a branch switched to, `git clean -f`). No program a config
 * names is run: no fsmonitor, external diff or textconv.
 */
import { NO_FSMONITOR } from './hidden-edits.ts';
import { runGitSyncBounded } from './runner.ts';

/** The most bytes of names read: past it, a diff too large to judge in the hook's time. */
const MAX_NAMES_BYTES = 64 * 1024 * 1024;

/**
 * The files `git diff --name-only REVS…` lists in `top` (renames as the two names); `unknown` when git fails (a
 * revision it does not know: the command would fail as well, or git is missing); `timeout` past `timeoutMs`, and
 * `too-large` past 64 MiB of names: a diff the caller cannot judge in its time.
 */
export function diffNames(top: string, revs: readonly string[], timeoutMs: number): string[] | 'unknown' | 'timeout' | 'too-large' {
  const out = runGitSyncBounded(
    top,
    [
      ...NO_FSMONITOR,
      '-c',
      'core.quotePath=false',
      'diff',
      '--name-only',
      '-z',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      '--end-of-options',
      ...revs,
    ],
    MAX_NAMES_BYTES,
    timeoutMs,
  );
  if (out === 'failed') return 'unknown';
  if (out === 'timeout' || out === 'too-large') return out;
  return out.split('\0').filter((name) => name !== '');
}

/**
 * The untracked files `git ls-files --others` lists in `top`: those git does not ignore (`standard`), with the
 * ignored ones too (`ignored`), or the ignored ones only (`only-ignored`), as `git clean -f`, `-fx`, `-fX` delete
 * them; answered as {@link diffNames} answers.
 */
export function untrackedNames(
  top: string,
  which: 'standard' | 'ignored' | 'only-ignored',
  timeoutMs: number,
): string[] | 'unknown' | 'timeout' | 'too-large' {
  const select = which === 'standard' ? ['--exclude-standard'] : which === 'only-ignored' ? ['--ignored', '--exclude-standard'] : [];
  const out = runGitSyncBounded(top, [...NO_FSMONITOR, 'ls-files', '--others', '-z', ...select], MAX_NAMES_BYTES, timeoutMs);
  if (out === 'failed') return 'unknown';
  if (out === 'timeout' || out === 'too-large') return out;
  return out.split('\0').filter((name) => name !== '');
}
