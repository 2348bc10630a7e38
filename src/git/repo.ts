// The repository as git names it: its top folder, the commits revisions name, merge bases, shallowness, settings.
import { resolve as resolvePath } from 'node:path';
import { truncate } from '../core/names.ts';
import { passOn, runGit } from './runner.ts';

/** A git failure the user can act on (not a repository, an unknown revision). */
export class GitError extends Error {
  constructor(
    message: string,
    readonly kind: 'not-a-repo' | 'bad-revision' | 'failed',
    /** What to do, when it is not what every failure of its kind is told. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** One git process in `cwd` (src/git/runner.ts), its output as text. */
async function git(cwd: string, args: readonly string[]): Promise<string> {
  return (await runGit(cwd, args)).toString('utf8');
}

/** What a failed git run said, for a GitError's message: the one wording of it for this folder's readers. */
export function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim();
}

/**
 * A path git printed on a line of its own, without the line end: a folder's name may end in spaces, which `trim`
 * would cut, naming a folder that does not exist.
 */
export function pathLine(out: string): string {
  return out.replace(/\r?\n$/, '');
}

/** The working tree's top folder, or a GitError when `cwd` is not in a repository. */
export async function topLevel(cwd: string): Promise<string> {
  try {
    return pathLine(await git(cwd, ['rev-parse', '--show-toplevel']));
  } catch (error) {
    passOn(error);
    throw new GitError(`not a git repository: ${cwd} (${message(error)})`, 'not-a-repo');
  }
}

/** When a commit (a full id this repository holds) was made: its committer date, as git records it. */
export async function commitTime(cwd: string, commit: string): Promise<Date> {
  return new Date(Number((await git(cwd, ['show', '-s', '--format=%ct', commit])).trim()) * 1000);
}

/**
 * The commit a revision names and its committer date, from one git process: `cat-file --batch` reads one object name,
 * as rev-parse --verify does (never a range), and answers with the commit's id and its text, whose committer line
 * holds the date. A revision it does not answer for (a message search, a tree, a missing one) is resolved, or refused,
 * by resolveCommit, and its date asked then.
 */
export async function resolveCommitTime(cwd: string, rev: string): Promise<{ commit: string; time: Date }> {
  // A line break would end the object name and start another; a leading "-" is refused by resolveCommit.
  if (!rev.startsWith('-') && !/[\r\n]/.test(rev)) {
    let out: string;
    try {
      out = (await runGit(cwd, ['cat-file', '--batch'], `${rev}^{commit}\n`)).toString('utf8');
    } catch (error) {
      passOn(error);
      out = '';
    }
    const head = /^([0-9a-f]{40,64}) commit \d+\n/.exec(out);
    const headers = head ? out.slice(head[0].length).split('\n\n', 1)[0]! : '';
    const date = /^committer .* (\d+) [+-]\d{4}$/m.exec(headers);
    if (head && date) return { commit: head[1]!, time: new Date(Number(date[1]) * 1000) };
  }
  const commit = await resolveCommit(cwd, rev);
  return { commit, time: await commitTime(cwd, commit) };
}

/** The commit a revision names, or a GitError saying it is missing. */
export async function resolveCommit(cwd: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new GitError(`revision "${rev}" may not start with "-"`, 'bad-revision');
  // git reads `^X` as the commits to leave out, and rev-parse answers it with `^<id>`, which no reader takes for a commit.
  if (rev.startsWith('^'))
    throw new GitError(
      `revision "${truncate(rev)}" names the commits to leave out (^), not a commit to compare`,
      'bad-revision',
      'Name the commit without the ^, or a range such as main...HEAD.',
    );
  // `C^@` is every parent of C, which rev-parse lists one by one: no one commit to compare, nor one a fetch would bring.
  const parents = /^(.+)\^@$/.exec(rev);
  if (parents)
    throw new GitError(
      `revision "${truncate(rev)}" names every parent of ${truncate(parents[1]!)}, not one commit to compare`,
      'bad-revision',
      `Compare with one parent: ${truncate(parents[1]!)}^! against the first, ${truncate(parents[1]!)}^-2 against the second.`,
    );
  // git's null id, which CI gives as the commit before a push that created the branch: no fetch brings it.
  if (/^(?:0{40}|0{64})$/.test(rev))
    throw new GitError(
      `revision ${rev} is git's null id, which names no commit (a push that created its branch has no commit before it)`,
      'bad-revision',
      'Compare with the branch it left instead, such as origin/main...HEAD (in a shallow clone, fetch that branch first).',
    );
  const verify = async (name: string) => {
    try {
      return (await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', name])).trim();
    } catch {
      return '';
    }
  };
  const commit = await verify(`${rev}^{commit}`);
  if (commit !== '') return commit;
  // Asked again only when that failed: a message search (`:/fix`) takes a suffix for part of its text, and a
  // revision that names a tree or a blob is no missing one.
  const object = await verify(rev);
  if (object === '') {
    // On a branch with no commit yet HEAD names nothing: no fetch brings it, as "missing" would suggest.
    if (/^(?:HEAD|@)/.test(rev) && (await verify('HEAD')) === '')
      throw new GitError(
        `revision ${truncate(rev)} names no commit: the current branch has no commit yet`,
        'bad-revision',
        'Make a first commit on this branch, or name a revision of another branch.',
      );
    // An upstream or reflog form (`@{u}`, `main@{1}`) git cannot answer has a reason no fetch changes (no upstream
    // configured, HEAD detached, a reflog too short): git's own words say it, never "missing".
    if (rev.includes('@{')) {
      const why = await refusal(cwd, rev);
      if (why !== '')
        throw new GitError(
          `revision ${truncate(rev)} names no commit: ${why}`,
          'bad-revision',
          'Name the branch to compare with instead, such as origin/main...HEAD (in a shallow clone, fetch that branch first).',
        );
    }
    const beyond = await beyondHistory(cwd, rev, verify);
    if (beyond) throw beyond;
    return missing(rev);
  }
  const peeled = await verify(`${object}^{commit}`);
  if (peeled !== '') return peeled;
  // A full id is taken by rev-parse whether or not the object is here (a shallow clone): missing then.
  let type: string;
  try {
    type = (await git(cwd, ['cat-file', '-t', object])).trim();
  } catch {
    return missing(rev);
  }
  throw new GitError(`revision ${truncate(rev)} names a ${type}, not a commit`, 'bad-revision');
}

/** What git says, in its last line without `fatal: `, when it cannot resolve `rev`; '' when it can. */
async function refusal(cwd: string, rev: string): Promise<string> {
  try {
    await git(cwd, ['rev-parse', '--verify', '--end-of-options', rev]);
    return '';
  } catch (error) {
    passOn(error);
    const last = message(error).split('\n').at(-1) ?? '';
    return truncate(last.replace(/^fatal: /, '').trim());
  }
}

/**
 * Why `rev`, a parent step (`C^`, `C^2`, `C~3`) of a commit this repository holds, names none: the history records
 * fewer parents than the step asks for (the first commit of a history has none, and no fetch brings one, as "missing"
 * would suggest), or a shallow clone's history stops before it (a fetch that deepens it does). Undefined when `rev` is
 * no such step.
 */
async function beyondHistory(
  cwd: string,
  rev: string,
  verify: (name: string) => Promise<string>,
  /** The revision as the user gave it, which the message names (`C^^` when the history ends at `C`). */
  asked = rev,
): Promise<GitError | undefined> {
  const step = /^(.+?)(?:\^(\d*)|~(\d*))$/.exec(rev);
  if (!step) return undefined;
  const base = step[1]!;
  const nth = step[2] !== undefined ? Number(step[2] || '1') : 1;
  const back = step[3] !== undefined ? Number(step[3] || '1') : 1;
  if (nth === 0 || back === 0) return undefined;
  const commit = await verify(`${base}^{commit}`);
  if (commit === '') return /[\^~]\d*$/.test(base) ? beyondHistory(cwd, base, verify, asked) : undefined;
  let last = commit;
  let depth = 0;
  let parents: number;
  try {
    // `C~N` walks first parents: one rev-list finds where that walk stops, however long it is.
    if (back > 1) {
      const walk = (await git(cwd, ['rev-list', '--first-parent', `--max-count=${back + 1}`, commit])).trim().split('\n');
      last = walk.at(-1)!;
      depth = walk.length - 1;
    }
    const text = await git(cwd, ['cat-file', 'commit', last]);
    parents = (text.split('\n\n', 1)[0]!.match(/^parent /gm) ?? []).length;
  } catch (error) {
    passOn(error);
    return undefined;
  }
  const name = truncate(depth > 0 ? `${base}~${depth}` : base);
  const at = `${name} (${last.slice(0, 12)})`;
  if (parents >= nth) {
    // Recorded, not here: the clone's history was cut at `last`. `C~N` needs the commits the walk did not reach; a
    // chain of steps (`C^^^`) found the cut at its first missing one, so how many more it needs is not counted.
    const more = asked !== rev ? undefined : back > 1 ? back - depth : 1;
    return new GitError(
      `revision ${truncate(asked)} is not in this shallow clone: its history stops at ${at}`,
      'bad-revision',
      more === undefined
        ? 'Fetch more of its history with `git fetch --deepen=N` (N: how many commits further back the revision is), or all of it with `git fetch --unshallow`.'
        : `Fetch ${more === 1 ? 'one more commit' : `${more} more commits`} of history with \`git fetch --deepen=${more}\`, or all of it with \`git fetch --unshallow\`.`,
    );
  }
  return new GitError(
    parents === 0
      ? `revision ${truncate(asked)} names no commit: ${at} is the first commit of its history, with no parent`
      : `revision ${truncate(asked)} names no commit: ${at} has ${parents} parent${parents === 1 ? '' : 's'}, not ${nth}`,
    'bad-revision',
    parents === 0
      ? `Nothing comes before ${name}: compare a range that starts there or later, or \`${name}\` alone with the working tree.`
      : `Name a parent it has: ${name}^1${parents > 1 ? ` to ${name}^${parents}` : ''}.`,
  );
}

function missing(rev: string): never {
  // Cut as every value a message echoes is: a revision pasted whole from elsewhere must not flood the terminal.
  throw new GitError(`revision ${truncate(rev)} is not in this repository (a shallow clone may lack it; fetch it first)`, 'bad-revision');
}

const HEX_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The repository's top folder and the commits `revs` name, from ONE
 * `git rev-parse`; undefined when git does not answer all of them (not a
 * repository, a revision missing or not a commit, an unusual name): then
 * `topLevel` and `resolveCommit`, one by one, say what is wrong.
 */
export async function topLevelAndCommits(cwd: string, revs: readonly string[]): Promise<{ top: string; commits: string[] } | undefined> {
  if (revs.some((r) => r === '' || r.startsWith('-'))) return undefined;
  let out: string;
  try {
    out = (await runGit(cwd, ['rev-parse', '--show-toplevel', ...revs.map((r) => `${r}^{commit}`)])).toString('utf8');
  } catch {
    return undefined;
  }
  const lines = out.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const [top, ...commits] = lines;
  if (!top || commits.length !== revs.length || !commits.every((c) => HEX_ID.test(c))) return undefined;
  return { top, commits };
}

/**
 * The best common ancestor of two commits, for `A...B`; a GitError when there is none. `names` are the
 * revisions as the user gave them: the message names those, not the commit ids. Only a shallow clone is
 * told to fetch more; in a whole history the two are unrelated, and `A..B` compares them.
 */
export async function mergeBase(cwd: string, a: string, b: string, names: readonly [string, string] = [a, b]): Promise<string> {
  try {
    const out = (await git(cwd, ['merge-base', '--end-of-options', a, b])).trim();
    if (out) return out;
  } catch {
    // fall through
  }
  const [x, y] = names;
  if (await isShallow(cwd))
    throw new GitError(
      `${x} and ${y} have no common ancestor here (a shallow clone may lack the history between them; fetch more with \`git fetch --deepen\` or \`--unshallow\`)`,
      'bad-revision',
    );
  throw new GitError(
    `${x} and ${y} have no common ancestor: their histories are unrelated`,
    'bad-revision',
    `Compare the two trees directly with \`${x}..${y}\`, which needs no merge base.`,
  );
}

/**
 * The working tree's top folder and whether the repository is a shallow
 * clone, from ONE `git rev-parse`; when git cannot answer both (not a
 * repository), `topLevel` says what is wrong.
 */
export async function topLevelAndShallow(cwd: string): Promise<{ top: string; shallow: boolean }> {
  try {
    const [top, shallow] = (await git(cwd, ['rev-parse', '--show-toplevel', '--is-shallow-repository'])).split('\n');
    if (top && (shallow === 'true' || shallow === 'false')) return { top, shallow: shallow === 'true' };
  } catch {
    // Said by topLevel below.
  }
  return { top: await topLevel(cwd), shallow: await isShallow(cwd) };
}

/** Whether the repository is a shallow clone. */
export async function isShallow(cwd: string): Promise<boolean> {
  try {
    return (await git(cwd, ['rev-parse', '--is-shallow-repository'])).trim() === 'true';
  } catch {
    return false;
  }
}

/** Absolute path of the repository's hooks folder (honours core.hooksPath). */
export async function hooksDir(cwd: string): Promise<string> {
  const top = await topLevel(cwd);
  const out = pathLine(await git(top, ['rev-parse', '--git-path', 'hooks']));
  return resolvePath(top, out);
}

/**
 * Whether git compares paths without case in the repository holding `dir`
 * (`core.ignorecase`, which git sets when it makes a repository on a
 * case-insensitive file system). One `git config`; false when unset or
 * outside a repository.
 */
export async function ignoresCase(dir: string): Promise<boolean> {
  try {
    return (await git(dir, ['config', '--type=bool', '--get', 'core.ignorecase'])).trim() === 'true';
  } catch {
    return false;
  }
}
