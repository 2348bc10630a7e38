/**
 * Revision ranges of `agents invariant diff` (docs/review.md): what each side
 * of a diff is (a revision, a merge base, the index, the working tree), and
 * git failures turned into usage errors.
 */
import { relative, sep } from 'node:path';
import { conflictingOptions, UsageError } from '../../core/errors.ts';
import { inputObject, optionalBoolean, optionalString } from '../../core/input-shape.ts';
import { nameProblem, truncate } from '../../core/names.ts';
import { namedRepositoryHint } from '../../git/caller-env.ts';
import { commitTime, GitError, mergeBase, resolveCommit, resolveCommitTime, topLevel } from '../../git/repo.ts';
import { physicalPath } from '../link-paths.ts';
import { type OptionWords, optionWords } from '../option-words.ts';

/** What `agents invariant diff` compares, and for which targets. */
export interface DiffRequest {
  /** `A..B`, `A...B`, `A`, or undefined (HEAD against the working tree, or the index with `staged`). */
  range?: string;
  staged?: boolean;
  project?: string;
  /** A plan id or a unique prefix of one (among the plans of either side). */
  plan?: string;
  /** Report every project of either side, changed or not. */
  allProjects?: boolean;
}

/** One side of a diff, for people and for JSON. */
export interface SideInfo {
  /** `HEAD`, `main`, `merge base of main and HEAD`, `working tree`, `index`. */
  label: string;
  kind: 'revision' | 'index' | 'working tree';
  commit?: string;
  /** For `A...B`: the two revisions whose merge base this side is. */
  mergeBaseOf?: [string, string];
  /**
   * The store's folder (from the repository's top) when this side holds no file there: a revision from before the
   * store, or from when it was another folder (renamed since), or an index it was removed from. Its files are then all
   * added or all removed, which the reader is told is why.
   */
  missingStore?: string;
}

/** A side as the range names it, before it is opened. */
export type SideSpec =
  | { kind: 'empty' }
  | { kind: 'revision'; rev: string }
  | { kind: 'commit'; commit: string; label: string; mergeBaseOf?: [string, string] }
  | { kind: 'index' }
  | { kind: 'working tree' };

export function short(commit: string): string {
  return commit.slice(0, 12);
}

export function gitFailure(error: unknown): never {
  if (error instanceof GitError && error.kind === 'not-a-repo') {
    throw new UsageError(
      error.message,
      namedRepositoryHint() ?? 'Reviewing changes needs the store inside a git repository.',
      undefined,
      'not-a-repository',
    );
  }
  if (error instanceof GitError) {
    throw new UsageError(
      error.message,
      error.hint ??
        'Check the revision with `git log --oneline`; in a shallow clone fetch it first (`git fetch --depth=N origin REV` or `git fetch --unshallow`).',
    );
  }
  throw error;
}

/** The top folder of the repository holding the store at `root`. */
export async function repositoryTop(root: string): Promise<string> {
  try {
    return await topLevel(root);
  } catch (error) {
    return gitFailure(error);
  }
}

/** What a revision side says about itself. */
export function revisionInfo(spec: SideSpec & { kind: 'revision' | 'commit' }, commit: string): SideInfo {
  if (spec.kind === 'revision') return { label: spec.rev, kind: 'revision', commit };
  return { label: spec.label, kind: 'revision', commit, ...(spec.mergeBaseOf ? { mergeBaseOf: spec.mergeBaseOf } : {}) };
}

/** The two sides a request names, and the range as reported. */
/**
 * Refuses a range given empty (an unset variable: `invariant diff "$RANGE"`): read as none, it would compare HEAD with
 * the working tree, where CI changed nothing, and a check of the pull request would pass unseen. So is `..` or `...`
 * alone (`"$BASE..$HEAD"` with both unset): HEAD against itself, a check of nothing.
 */
export function refuseEmptyRange(range: string | undefined): void {
  const given = range?.trim();
  if (given === '')
    throw new UsageError(
      'the revision range is empty',
      'Name a range such as main...HEAD, or leave it out to compare HEAD with the working tree.',
      { argument: 'range' },
    );
  if (given === '..' || given === '...')
    throw new UsageError(
      `the revision range "${given}" names no revision on either side`,
      'Name a range such as main...HEAD (were the variables that should name its sides unset?).',
      { argument: 'range' },
    );
  // A third side (`A..B..C`) is no revision a clone could lack: said so, not as a revision to fetch.
  if (given !== undefined && (given.match(/\.\.\.?/g)?.length ?? 0) > 1)
    throw new UsageError(
      `the revision range "${truncate(given)}" names more than two sides`,
      'Give two: A..B compares the two trees, A...B compares B with its merge base with A.',
      { argument: 'range' },
    );
}

export async function parseRange(
  top: string,
  request: DiffRequest,
  known?: ReadonlyMap<string, string>,
): Promise<{ range: string; before: SideSpec; after: SideSpec }> {
  refuseEmptyRange(request.range);
  const range = parentRange(request.range?.trim() || undefined);
  if (range?.startsWith('-')) throw new UsageError(`revision range "${truncate(range)}" may not start with "-"`);
  const three = range?.indexOf('...') ?? -1;
  const two = range?.indexOf('..') ?? -1;
  if (range !== undefined && two >= 0) {
    if (three >= 0) {
      const a = range.slice(0, three) || 'HEAD';
      const b = range.slice(three + 3) || 'HEAD';
      try {
        const [ca, cb] = [await resolveCommit(top, a), await resolveCommit(top, b)];
        const base = await mergeBase(top, ca, cb, [a, b]);
        return {
          range,
          before: { kind: 'commit', commit: base, label: `merge base of ${a} and ${b}`, mergeBaseOf: [a, b] },
          after: { kind: 'commit', commit: cb, label: b },
        };
      } catch (error) {
        return gitFailure(error);
      }
    }
    const a = range.slice(0, two) || 'HEAD';
    const b = range.slice(two + 2) || 'HEAD';
    return { range, before: { kind: 'revision', rev: a }, after: { kind: 'revision', rev: b } };
  }
  const a = range ?? 'HEAD';
  const after: SideSpec = request.staged ? { kind: 'index' } : { kind: 'working tree' };
  // A commit the caller already resolved (`known`, revision → commit) is not asked of git again.
  const commit = known?.get(a);
  let before: SideSpec = commit ? { kind: 'commit', commit, label: a } : { kind: 'revision', rev: a };
  if (range === undefined && !commit) {
    // Before the first commit HEAD names no commit: compare with nothing, as `git diff --cached` does.
    try {
      await resolveCommit(top, 'HEAD');
    } catch {
      before = { kind: 'empty' };
    }
  }
  return { range: range ?? (request.staged ? 'HEAD (staged)' : 'HEAD'), before, after };
}

/**
 * Each revision a range names resolved, or the usage error `invariant diff` gives for the first that is not
 * here (in a shallow clone: how to fetch it). For commands that hand the range to git whole (`guard check`),
 * whose own failure names neither the revision nor the way out.
 */
export async function checkRange(top: string, range: string): Promise<void> {
  const { before, after } = await parseRange(top, { range });
  for (const side of [before, after]) {
    if (side.kind !== 'revision') continue;
    try {
      await resolveCommit(top, side.rev);
    } catch (error) {
      gitFailure(error);
    }
  }
}

/**
 * The request as a JavaScript caller may hand it, checked: `staged: "no"` is refused, not read by its truthiness
 * (which compared the index), and a field left null reads as left out; fields that cannot go together are refused,
 * named by `words` (the command line's flags, else the library's fields), before git runs.
 * @internal
 */
export function checkedRequest(given: DiffRequest | undefined, words?: OptionWords): DiffRequest {
  const request = inputObject(given, 'diff', { range: true, staged: true, project: true, plan: true, allProjects: true }, 'request');
  const fields = {
    range: optionalString(request.range, 'range'),
    staged: optionalBoolean(request.staged, 'staged'),
    project: optionalString(request.project, 'project'),
    plan: optionalString(request.plan, 'plan'),
    allProjects: optionalBoolean(request.allProjects, 'allProjects'),
  };
  const checked: DiffRequest = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  refuseConflicts(checked, optionWords(words));
  return checked;
}

/** The fields of a request that cannot go together, and a project name no project may have. */
function refuseConflicts(request: DiffRequest, w: OptionWords): void {
  if (request.project !== undefined && request.plan !== undefined)
    throw conflictingOptions(`give ${w.project} or ${w.plan}, not both`, undefined, ['project', 'plan']);
  if (request.allProjects && (request.project !== undefined || request.plan !== undefined)) {
    throw conflictingOptions(`${w.allProjects} cannot be combined with ${w.project} or ${w.plan}`, undefined, [
      'all-projects',
      request.project !== undefined ? 'project' : 'plan',
    ]);
  }
  // Before git runs: `A^!` is a range too (parentRange).
  if (request.staged && parentRange(request.range?.trim() || undefined)?.includes('..'))
    throw conflictingOptions(
      `${w.staged} compares HEAD (or one revision) with the index; it cannot be combined with a range A..B`,
      `Give one revision with ${w.staged}, or drop ${w.staged}.`,
      ['staged', 'range'],
    );
  if (request.project !== undefined) {
    const problem = nameProblem(request.project, 'project');
    if (problem) throw new UsageError(problem, 'Project names match ^[a-z0-9][a-z0-9._-]{0,63}$.');
  }
}

/**
 * The commit a range ends at (`B` of `A..B` and `A...B`, `A^!`'s `A`) and its committer date, or undefined for one
 * that ends at the working tree (`A` alone). A revision that is not here is the usage error `invariant diff` gives.
 */
export async function rangeEnd(top: string, range: string): Promise<{ commit: string; label: string; time: Date } | undefined> {
  const { after } = await parseRange(top, { range });
  if (after.kind !== 'commit' && after.kind !== 'revision') return undefined;
  try {
    if (after.kind === 'commit') return { commit: after.commit, label: after.label, time: await commitTime(top, after.commit) };
    return { ...(await resolveCommitTime(top, after.rev)), label: after.rev };
  } catch (error) {
    return gitFailure(error);
  }
}

/**
 * git's forms for one commit against a parent, `A^!` and `A^-N` (`A^-` is `A^-1`), as `git diff` reads them:
 * `A^N..A`, and `A^1..A` for `A^!` (a merge against its first parent). Any other range is kept.
 */
export function parentRange(range: string | undefined): string | undefined {
  const m = range === undefined || range.includes('..') ? null : /^(.+)\^(?:!|-(\d*))$/.exec(range);
  return m ? `${m[1]}^${m[2] || '1'}..${m[1]}` : range;
}

/**
 * `range` with each side of its `..` or `...` peeled to a commit (`A^{commit}..B^{commit}`), for `git diff`: git
 * diffs a tree named on either side (`REV:sub..HEAD`, `HEAD^{tree}..HEAD`), every file then taken as changed, where
 * peeled it fails and checkRange names the side. Undefined when a side is a message search (`:/fix`), whose suffix
 * git would read as part of its text: checkRange must look at that range first.
 */
export function peeledRange(range: string): string | undefined {
  const dots = range.includes('...') ? '...' : range.includes('..') ? '..' : undefined;
  if (dots === undefined) return range;
  const sides = range.split(dots);
  if (sides.length !== 2 || sides.some((s) => s.startsWith(':/'))) return undefined;
  return sides.map((s) => (s === '' ? s : `${s}^{commit}`)).join(dots);
}

/** For `A..B`: the two revisions, else undefined. */
export function twoDot(request: DiffRequest): [string, string] | undefined {
  const range = parentRange(request.range?.trim());
  if (!range || request.staged || range.includes('...')) return undefined;
  const two = range.indexOf('..');
  return two < 0 ? undefined : [range.slice(0, two) || 'HEAD', range.slice(two + 2) || 'HEAD'];
}

/**
 * The store's path inside the repository ('' at its top). git gives the top as its real path, so the store's is
 * made real too: named through a link (`--store`, AGENTS_STORE), it would otherwise seem outside.
 */
export function storePrefix(root: string, top: string): string {
  const prefix = relative(top, physicalPath(root)).split(sep).join('/');
  if (prefix.startsWith('..')) throw new UsageError(`the store ${root} is outside the git repository ${top}`);
  return prefix;
}
