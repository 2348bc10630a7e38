// The git side of policy sources (docs/extends.md): asking a remote what a ref
// names, fetching exactly one commit into the cache, and checking the cache.
// Every process goes through runner.ts.
import { resolve } from 'node:path';
import { hideCredentials } from '../core/plain-text.ts';
import { type ConfigPair, configMatching, passOn, runGit } from './runner.ts';
import { GitError, pathLine } from './repo.ts';

/** What `git ls-remote` says a ref names. */
export interface RemoteRef {
  kind: 'tag' | 'branch';
  /** The commit (an annotated tag peeled). */
  commit: string;
  /** An annotated tag's own object id. */
  tagObject?: string;
}

function failure(error: unknown): string {
  // ssh ends its lines with CR LF: the CR would be shown as an escape in the message.
  return (error instanceof Error ? error.message : String(error)).replace(/\r\n?/g, '\n').trim();
}

/** A message about a remote: its URL, and what git said (which may repeat it), without credentials. */
function remoteError(message: string): GitError {
  return new GitError(hideCredentials(message), 'failed');
}

/** The repository's common git folder (shared by its worktrees), absolute. */
export async function gitCommonDir(cwd: string): Promise<string> {
  try {
    const out = pathLine((await runGit(cwd, ['rev-parse', '--git-common-dir'])).toString('utf8'));
    return resolve(cwd, out);
  } catch (error) {
    passOn(error);
    throw new GitError(`not a git repository: ${cwd} (${failure(error)})`, 'not-a-repo');
  }
}

/**
 * What `ref` names at `url` now: a tag (preferred, as git does) or a branch.
 * Undefined when the remote has neither. One `git ls-remote`.
 */
export async function lsRemote(cwd: string, url: string, ref: string, signal?: AbortSignal): Promise<RemoteRef | undefined> {
  let out: string;
  try {
    // `ref^{}` too: a pattern matches the end of a ref's name, and the peeled line of an annotated tag ends in `^{}`.
    out = (
      await runGit(cwd, ['-c', 'protocol.version=2', 'ls-remote', '--end-of-options', url, ref, `${ref}^{}`], undefined, signal)
    ).toString('utf8');
  } catch (error) {
    if (signal?.aborted) throw error;
    // git's own refusal (a source's repository owned by another user, git missing) says what to do: passed on whole.
    passOn(error);
    throw remoteError(`cannot reach ${url}: ${failure(error)}`);
  }
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) refs.set(line.slice(tab + 1), line.slice(0, tab));
  }
  const short = ref.replace(/^refs\/(tags|heads)\//, '');
  const tag = refs.get(`refs/tags/${short}`);
  if (tag !== undefined && !ref.startsWith('refs/heads/')) {
    const peeled = refs.get(`refs/tags/${short}^{}`);
    return peeled !== undefined ? { kind: 'tag', commit: peeled, tagObject: tag } : { kind: 'tag', commit: tag };
  }
  const branch = refs.get(`refs/heads/${short}`);
  if (branch !== undefined && !ref.startsWith('refs/tags/')) return { kind: 'branch', commit: branch };
  return undefined;
}

/**
 * The branches and tags a remote holds, sorted, for the refusal of a ref it does not hold (`main` where it has
 * `master`); undefined when they cannot be listed, which never hides that refusal.
 */
export async function remoteRefNames(
  cwd: string,
  url: string,
  signal?: AbortSignal,
): Promise<{ branches: string[]; tags: string[] } | undefined> {
  let out: string;
  try {
    out = (
      await runGit(cwd, ['-c', 'protocol.version=2', 'ls-remote', '--heads', '--tags', '--end-of-options', url], undefined, signal)
    ).toString('utf8');
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
  const branches = new Set<string>();
  const tags = new Set<string>();
  for (const line of out.split('\n')) {
    const name = line.slice(line.indexOf('\t') + 1);
    if (name.startsWith('refs/heads/')) branches.add(name.slice('refs/heads/'.length));
    else if (name.startsWith('refs/tags/')) tags.add(name.slice('refs/tags/'.length).replace(/\^\{\}$/, ''));
  }
  return { branches: [...branches].sort(), tags: [...tags].sort() };
}

/** Creates the bare repository of a source's cache (nothing when it is one already). */
export async function initBareCache(dir: string, signal?: AbortSignal): Promise<void> {
  await runGit(resolve(dir, '..'), ['init', '--quiet', '--bare', '--end-of-options', dir], undefined, signal);
}

/**
 * Can git open the repository at `dir` and read its list of shallow commits? A cache whose HEAD or `shallow`
 * file was lost or cut short (a crash, a damaged disk) cannot, and no fetch into it succeeds. No network.
 */
export async function isRepository(dir: string): Promise<boolean> {
  try {
    await runGit(dir, ['rev-parse', '--is-shallow-repository']);
    return true;
  } catch {
    return false;
  }
}

/**
 * Does the repository at `dir` hold an object by the id `id`, readable or not? A commit that does not resolve
 * although its object is there is a damaged copy, which no fetch replaces. No network.
 */
export async function holdsObject(dir: string, id: string): Promise<boolean> {
  try {
    await runGit(dir, ['cat-file', '-e', '--end-of-options', id]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Can every file of the folder `path` at `commit` be read whole from the repository at `dir`? One `git archive`
 * of that folder, its output dropped: an object cut short on disk, which git still counts as there (and `rev-list
 * --objects` too), stops it. No network.
 */
export async function readsWhole(dir: string, commit: string, path: string): Promise<boolean> {
  try {
    await runGit(dir, ['archive', '--format=tar', '--end-of-options', `${commit}:${path}`], undefined, undefined, () => undefined);
    return true;
  } catch {
    // A folder the commit does not hold is no damage: its readers say the store is not there.
    return !(await resolves(dir, `${commit}:${path}`));
  }
}

/** Does `name` resolve in the repository at `dir`? */
async function resolves(dir: string, name: string): Promise<boolean> {
  try {
    return (await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', name])).toString('utf8').trim() !== '';
  } catch {
    return false;
  }
}

/**
 * Is `commit` in the repository at `dir`, as a commit (or a tag naming one) whose tree is there too? No network.
 * A tree or a blob is not: a tag may name one, and it has no history to pin.
 */
export async function hasCommit(dir: string, commit: string): Promise<boolean> {
  return (await resolves(dir, `${commit}^{commit}`)) && resolves(dir, `${commit}^{tree}`);
}

/**
 * Does the repository at `dir` hold `commit` as a commit, with every object of its tree? A cache damaged on
 * disk (an object deleted, a copy cut short) may hold the commit but not each file it names; a tag may name
 * a tree, which is no commit. No network.
 */
export async function hasWholeCommit(dir: string, commit: string): Promise<boolean> {
  try {
    await runGit(dir, ['rev-list', '--quiet', '--objects', '--no-walk', '--end-of-options', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * How the store's repository reaches remotes, from its own configuration
 * (`.git/config` and what it includes): an ssh command, URL rewrites, HTTP
 * and credential settings. `ls-remote` runs in that repository and has them;
 * a fetch runs in the cache, a repository of its own, and gets them as
 * command-line configuration, so both reach a source the same way. They go
 * in the fetch's environment, never its arguments: a token in an
 * `http.extraHeader` (as actions/checkout writes) must not show in `ps`.
 */
export async function reachSettings(repo: string): Promise<ConfigPair[]> {
  try {
    return await configMatching(repo, '^(core\\.sshcommand|core\\.gitproxy|url\\..*\\.insteadof|http\\..*|credential\\..*)$', [
      '--local',
      '--includes',
    ]);
  } catch (error) {
    passOn(error);
    throw new GitError(`cannot read the configuration of the repository at ${repo}: ${failure(error)}`, 'failed');
  }
}

/** A quiet fetch over protocol v2 that leaves no tags and no FETCH_HEAD behind: what each fetch of a policy source starts with. */
const FETCH = ['-c', 'protocol.version=2', 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head'];

/**
 * Fetches exactly `commit` from `url` into the bare repository `dir`, one
 * shallow fetch (`--depth 1`), and keeps it under `refs/agents/pins/<commit>`
 * so that git's maintenance never prunes it. Protocol v2 lets a remote serve
 * any commit it holds by id (docs/extends.md). git checks every object it
 * receives against its id; the commit is then looked up by that id.
 */
export async function fetchCommit(
  dir: string,
  url: string,
  commit: string,
  signal?: AbortSignal,
  reach: readonly ConfigPair[] = [],
): Promise<void> {
  try {
    await runGit(
      dir,
      [...FETCH, '--depth', '1', '--end-of-options', url, `+${commit}:refs/agents/pins/${commit}`],
      undefined,
      signal,
      undefined,
      reach,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    // git's own refusal (a source's repository owned by another user, git missing) says what to do: passed on whole.
    passOn(error);
    throw remoteError(`cannot fetch ${commit} from ${url}: ${failure(error)}`);
  }
  if (!(await hasWholeCommit(dir, commit)))
    throw remoteError(
      (await resolves(dir, commit))
        ? `${commit} at ${url} is not a commit (a tag may name a tree or a blob)`
        : `${url} did not send the commit ${commit}`,
    );
}

/** The names at the top of `prefix` at a commit, each with whether it is a folder, for saying what a source holds that is never read. */
export async function topNames(dir: string, commit: string, prefix: string): Promise<{ name: string; folder: boolean }[]> {
  const out = (await runGit(dir, ['ls-tree', '-z', '--end-of-options', `${commit}:${prefix}`])).toString('utf8');
  // "<mode> SP <type> SP <id> TAB <name>"
  return out
    .split('\0')
    .filter((r) => r !== '')
    .map((r) => ({ name: r.slice(r.indexOf('\t') + 1), folder: r.split(' ')[1] === 'tree' }));
}

/**
 * Does the branch `branch` at `url` hold `commit` (its tip or an ancestor)?
 * Fetches the branch's whole history into `scratch`, a bare repository made
 * for this question (the caller removes it): the cache itself is shallow,
 * and a shallow history cannot say what is an ancestor of what.
 */
export async function branchHolds(
  scratch: string,
  url: string,
  branch: string,
  commit: string,
  signal?: AbortSignal,
  reach: readonly ConfigPair[] = [],
): Promise<boolean> {
  await initBareCache(scratch, signal);
  try {
    await runGit(scratch, [...FETCH, '--end-of-options', url, `+refs/heads/${branch}:refs/check`], undefined, signal, undefined, reach);
  } catch (error) {
    if (signal?.aborted) throw error;
    // git's own refusal (a source's repository owned by another user, git missing) says what to do: passed on whole.
    passOn(error);
    throw remoteError(`cannot fetch the branch ${branch} from ${url}: ${failure(error)}`);
  }
  try {
    await runGit(scratch, ['merge-base', '--is-ancestor', '--end-of-options', commit, 'refs/check']);
    return true;
  } catch {
    return false;
  }
}
