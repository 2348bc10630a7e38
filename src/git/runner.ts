import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, statfsSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { AgentsError, EXIT_CODES, tooManyOpenFiles } from '../core/errors.ts';
import { shellPath } from '../core/shell-word.ts';
import { gitDirFor, looksLikeGitDir, realPath, repoTop } from './location.ts';
import { callerVariables } from './caller-env.ts';
import { runEnv } from './run-environment.ts';

/**
 * The one place git is started from (docs/adr/0046-one-git-runner-one-environment.md). Every git process of the tool gets its environment from
 * {@link gitEnv}: the repository is the one holding the folder git is started
 * in (the store folder or its top), found by git itself, never one named by an
 * inherited variable. A hook in a linked worktree inherits `GIT_DIR`, and a
 * git started in the store folder with it would take that folder for the top
 * of the working tree.
 */

/**
 * Node's child_process, loaded when the first git process starts: most runs start none (store discovery reads git's
 * files; `which` and `list` read the store), and loading it with the socket and stream modules it needs is a part
 * of every start.
 */
const childProcess = () => process.getBuiltinModule('node:child_process');

/** Passed on as they are: who is acting and which configuration applies, as for any git the user runs. */
const PASSED = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CEILING_DIRECTORIES',
  // How to reach a remote over ssh (a deploy key in CI): what a policy source's fetch needs, as any git the user runs.
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_SSH_VARIANT',
]);

/** Editors, pagers and password prompts: git runs without a terminal here. */
const INTERACTIVE = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);

/**
 * The environment of a git process started in `cwd`, from the run's (the process's, see run-environment.ts):
 * every `GIT_*` variable and the editor and pager ones are dropped, except
 * identity and configuration (PASSED), and the caller's index and object
 * folders (CALLERS) when `cwd` is in the repository the caller's environment
 * names (made absolute: git runs in `cwd`, not where we were started).
 * `GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR`, `GIT_PREFIX`, `GIT_NAMESPACE`
 * and the rest never pass: git finds the repository from `cwd`.
 */
export function gitEnv(cwd: string): Record<string, string> {
  const env: Record<string, string> = {};
  const outer = runEnv();
  for (const [k, v] of Object.entries(outer)) {
    if (v === undefined) continue;
    const key = k.toLowerCase().trim();
    if (key.startsWith('git_') ? !PASSED.has(k) : INTERACTIVE.has(key)) continue;
    env[k] = v;
  }
  Object.assign(env, callerVariables(cwd));
  // An abbreviated option is refused rather than guessed (a switch of git's own option parser).
  env.GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS = 'true';
  // git would ask for a user name and password on the terminal (it opens /dev/tty, whatever its stdin): in a commit
  // hook, an agent's shell or under --no-input nobody answers. A credential helper still gives them.
  env.GIT_TERMINAL_PROMPT = '0';
  // A bare repository is never found by searching: a cloned repository can hold one as plain files (its store
  // folder, say), whose config would run programs (core.fsmonitor) in a git started there. Command-line
  // configuration, which git lets set this; the caller's own GIT_CONFIG_* never pass (above).
  env.GIT_CONFIG_COUNT = '2';
  env.GIT_CONFIG_KEY_0 = 'safe.bareRepository';
  env.GIT_CONFIG_VALUE_0 = 'explicit';
  // Under log.showSignature, git log and show write a signed commit's check into the output the tool reads.
  env.GIT_CONFIG_KEY_1 = 'log.showSignature';
  env.GIT_CONFIG_VALUE_1 = 'false';
  if (OWN_BARE.has(resolve(cwd))) env.GIT_DIR = resolve(cwd);
  return env;
}

/** The bare repositories the tool keeps itself (the policy sources' caches under the git folder): named with GIT_DIR. */
const OWN_BARE = new Set<string>();

/**
 * Marks `dir` as a bare repository of the tool's own, which git is then started in by name (GIT_DIR), as
 * safe.bareRepository asks; returns it. Only paths the tool builds under the git folder are marked: nothing
 * of a clone can be there.
 */
export function ownBareRepository(dir: string): string {
  OWN_BARE.add(resolve(dir));
  return dir;
}

/** A configuration key and its value, given to one git process as `-c` would give it. */
export type ConfigPair = readonly [key: string, value: string];

/**
 * A git process in `cwd` with the environment above, all three streams piped. `detached`: in a process group of
 * its own, which a stopped run ends whole (git's own children too, a transport or index-pack). `config` goes in
 * the environment (GIT_CONFIG_KEY_n), where `-c` would put it in the command line, which every user of the
 * machine can read (`ps`): a token in an http header or a credential helper stays the process owner's.
 */
export function spawnGit(
  cwd: string,
  args: readonly string[],
  detached = false,
  config: readonly ConfigPair[] = [],
): ChildProcessWithoutNullStreams {
  const env = gitEnv(cwd);
  let n = Number(env.GIT_CONFIG_COUNT ?? '0');
  for (const [key, value] of config) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  env.GIT_CONFIG_COUNT = String(n);
  const child = childProcess().spawn('git', args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached });
  // No file descriptor left (EMFILE, ENFILE): Node.js then makes none of the pipes, and says why only in an 'error' event
  // on the next tick, which a caller that set up its pipes first never heard: an uncaught crash, after a store write.
  if (!child.stdin || !child.stdout || !child.stderr) {
    child.on('error', () => undefined);
    // Said as the cause it is (exit 2), passed on whole by every caller: as a GitProcessError, a commit's check of the
    // repository read it as "not in a git repository", and said to run `git init`.
    throw tooManyOpenFiles('git could not be started');
  }
  return child;
}

/**
 * git failed to write its own files (a full disk, a read-only folder): the
 * user's to fix (exit 2), not a bug. git words a full disk in many ways, so
 * the file system is asked how much room is left.
 */
function writeRefused(said: string, cwd: string): AgentsError | undefined {
  // "failed to write commit object" ends every failed commit, a refused signature (gpg, ssh) too: the lines before
  // it say the cause, so only they decide.
  const cause = said
    .split('\n')
    .filter((line) => !/^fatal: failed to write commit object/.test(line))
    .join('\n');
  if (
    !/No space left on device|Disk quota exceeded|failed to write|unable to write|could not write|couldn't write|write returned|Read-only file system/.test(
      cause,
    )
  ) {
    return undefined;
  }
  let full = /No space left on device|Disk quota exceeded/.test(said);
  try {
    const s = statfsSync(cwd);
    full ||= Number(s.bavail) * s.bsize < 1 << 20;
  } catch {
    // The message alone decides.
  }
  const last = said.split('\n').at(-1);
  return new AgentsError(`git could not write in ${cwd}${full ? ': the disk is full' : ''} (${last})`, EXIT_CODES.usage, {
    hint: full
      ? 'Nothing was changed. Free some disk space, then run the command again.'
      : 'Nothing was changed. Check that the folder is writable, then run the command again.',
  });
}

/**
 * A folder between `cwd` and the top of its repository that git would take for a bare repository (HEAD,
 * objects/, refs/: one committed as plain files), which safe.bareRepository (above) made git refuse. git's
 * own answer names no way out, or none at all (`git diff` then reads its options as those of --no-index).
 */
function embeddedRepository(cwd: string, top: string | undefined): AgentsError | undefined {
  if (top === undefined || OWN_BARE.has(resolve(cwd))) return undefined;
  // The repository's own git folder (the caches' place) holds HEAD, objects/ and refs/ of course: it is no clone's.
  const own = join(top, '.git');
  if (resolve(cwd) === own || resolve(cwd).startsWith(own + sep)) return undefined;
  for (let d = resolve(cwd); d.startsWith(top + sep); d = dirname(d)) {
    if (!looksLikeGitDir(d)) continue;
    return new AgentsError(`${d} holds a git repository of its own (HEAD, objects/, refs/), not the one at ${top}`, EXIT_CODES.usage, {
      hint: 'Nothing was run in it: a git started there would take its config, which can run programs. Remove HEAD, config, objects/ and refs/ from that folder (they may come from a clone), then run the command again.',
      code: 'embedded-repository',
      detail: { folder: d },
    });
  }
  return undefined;
}

/**
 * A repository git refuses to work in because another user owns it and `safe.directory` does not allow it. git
 * says so ("dubious ownership") for most commands, but `git diff` then reads its options as those of --no-index and
 * says only that they are unknown, and a caller would take either for "not a repository" or "no such revision".
 * Asked only once git failed where the working tree or git folder belongs to another user (one more git then).
 */
function unsafeRepository(said: string, cwd: string, top: string | undefined): AgentsError | undefined {
  if (top === undefined) return undefined;
  if (!said.includes('detected dubious ownership')) {
    const uid = process.getuid?.();
    const owner = (path: string | undefined) => (path === undefined ? uid : statSync(path, { throwIfNoEntry: false })?.uid);
    if (uid === undefined || (owner(top) === uid && owner(gitDirFor(top)) === uid)) return undefined;
    const probe = childProcess().spawnSync('git', ['rev-parse', '--git-dir'], {
      cwd,
      env: gitEnv(cwd),
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
    });
    if (!probe.stderr?.includes('detected dubious ownership')) return undefined;
  }
  const refused = refusedRepository(said, top);
  return new AgentsError(
    `git refuses the repository at ${refused}: it is owned by another user, and safe.directory does not allow it`,
    EXIT_CODES.usage,
    {
      // Quoted for the shell: a top with a space (`~/My Projects/app`) would be two words, and git config refuses three.
      hint: `Nothing was run in it. If you trust it, allow it for git: \`git config --global --add safe.directory ${shellPath(refused)}\`, then run the command again.`,
      code: 'unsafe-repository',
      detail: { top: refused },
    },
  );
}

/**
 * The repository git's refusal names: another than the one git ran in when it read from it (a policy source given
 * as a path, whose upload-pack git refuses), which allowing this one would not fix. `top` when git names this one.
 */
function refusedRepository(said: string, top: string): string {
  const named = /detected dubious ownership in repository at '(.+)'$/m.exec(said)?.[1];
  if (named === undefined) return top;
  const real = realPath(named);
  const own = gitDirFor(top);
  return real === realPath(top) || (own !== undefined && real === realPath(own)) ? top : named;
}

/**
 * An object a partial clone (`--filter`) left on its remote, which git fetches when it is read, could not be
 * fetched (no network, the remote gone or refusing): the user's to fix (exit 2), not a bug. Used by every git
 * process that reads objects: this runner and the object reader.
 */
export function promisorUnreachable(said: string): AgentsError | undefined {
  // Said by this git, not relayed from a remote (`remote: fatal: …`): a policy source that is itself a partial clone.
  const line = /^fatal: could not fetch (\S+) from promisor remote/m.exec(said);
  if (line === null) return undefined;
  return new AgentsError(
    `git could not fetch object ${line[1]} from the remote of this partial clone: ${said.split('\n')[0]}`,
    EXIT_CODES.usage,
    {
      hint: 'Nothing was changed. A partial clone fetches the files of other commits from its remote when they are read: reach that remote (`git remote -v`; network, credentials), then run the command again.',
      code: 'promisor-unreachable',
    },
  );
}

/**
 * git could not read the index (a file cut short or overwritten: "index file smaller than expected", "index file
 * corrupt"): the user's to fix (exit 2), not a missing revision or a range to name. The index git read is the
 * caller's GIT_INDEX_FILE where it applies, else the git folder's `index`.
 */
function damagedIndex(said: string, cwd: string): AgentsError | undefined {
  const line = /^fatal: (?:.*: )?index file (?:smaller than expected|corrupt)$/m.exec(said);
  if (line === null) return undefined;
  const gitDir = gitDirFor(cwd);
  const index = callerVariables(cwd).GIT_INDEX_FILE ?? (gitDir === undefined ? undefined : join(gitDir, 'index'));
  return new AgentsError(`git's index${index === undefined ? '' : ` (${index})`} is damaged: ${line[0]}`, EXIT_CODES.usage, {
    hint: `Nothing was changed. Rebuild the index from the last commit (the working tree is kept; what was staged since must be staged again): \`rm ${index === undefined ? '.git/index' : shellPath(index)} && git reset\`, then run the command again.`,
    code: 'index-damaged',
    detail: { index: index ?? null },
  });
}

/**
 * Why git could not be started. No git at all is said as such (exit 2, `git-not-found`), never as "not a git
 * repository", whose remedy (`git init`) needs git too.
 */
export function startFailure(error: Error, cwd: string): Error {
  // spawn says ENOENT for a missing folder to run in as for a missing git: the folder is checked first.
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(cwd))
    return new GitProcessError(`git could not be started: the folder ${cwd} does not exist`, null);
  if ((error as NodeJS.ErrnoException).code === 'ENOENT')
    return new AgentsError('git was not found: it is not installed, or its folder is not on PATH', EXIT_CODES.usage, {
      hint: 'Install git, or add its folder to PATH, then run the command again.',
      code: 'git-not-found',
    });
  return new GitProcessError(`git could not be started: ${error.message}`, null);
}

/** What a git failure is to the user: a refusal of its own (git missing, its files not writable) is passed on whole. */
export function passOn(error: unknown): void {
  if (error instanceof AgentsError) throw error;
}

/** A git process that exited with a failure; the message is what git wrote to stderr. */
export class GitProcessError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = 'GitProcessError';
  }
}

/**
 * Runs one git process in `cwd` (stdin: `input`, if any) and resolves with
 * its whole stdout; rejects with a GitProcessError when git fails (or an
 * AgentsError, exit 2, when git could not write its own files). Every git
 * process of the tool goes through here (docs/adr/0400-one-git-client.md).
 * With `signal`, git runs in a process group of its own, which an abort ends
 * (SIGTERM to the group) before the promise rejects with the abort's reason:
 * a stopped run leaves no git behind that writes after it has exited.
 * With `onStdout`, stdout goes to it chunk by chunk as it comes, and the
 * promise resolves with an empty buffer: for an output too large to hold.
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  input?: Buffer | string,
  signal?: AbortSignal,
  onStdout?: (chunk: Buffer) => void,
  /** Configuration for this process alone, as `-c` (see spawnGit). */
  config: readonly ConfigPair[] = [],
  /** What git wrote to stderr when it succeeded: its warnings, which are else dropped. */
  onWarnings?: (said: string) => void,
): Promise<Buffer> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolveRun, reject) => {
    const child = spawnGit(cwd, args, signal !== undefined, config);
    const onAbort = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Gone already.
      }
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('close', () => signal?.removeEventListener('abort', onAbort));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', onStdout ?? ((chunk: Buffer) => out.push(chunk)));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(startFailure(error, cwd)));
    child.on('close', (code) => {
      if (code === 0) {
        if (onWarnings !== undefined && err.length > 0) onWarnings(Buffer.concat(err).toString('utf8'));
        return resolveRun(Buffer.concat(out));
      }
      const said = Buffer.concat(err).toString('utf8').trim();
      // Found once for both explanations: a probe that fails as an answer (rev-parse --verify, cat-file -e) ends here too.
      const top = repoTop(cwd);
      reject(
        embeddedRepository(cwd, top) ??
          unsafeRepository(said, cwd, top) ??
          promisorUnreachable(said) ??
          damagedIndex(said, cwd) ??
          writeRefused(said, cwd) ??
          new GitProcessError(said || `git ${args[0] ?? ''} exited with code ${code}`, code),
      );
    });
    // git may exit before reading all of stdin (a bad revision): that is reported by its exit code.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/**
 * The same, blocking: for the rare checks that sit under synchronous writers
 * (reading `safe.directory` when a store belongs to someone else). Resolves
 * to undefined when git is missing or fails.
 */
export function runGitSync(cwd: string, args: readonly string[], maxBuffer = 1024 * 1024): string | undefined {
  const r = runGitSyncBounded(cwd, args, maxBuffer, 10_000);
  return typeof r === 'string' ? r : undefined;
}

/**
 * The same, within `timeoutMs`, saying why it has no output: `timeout` (stopped at the bound), `too-large` (more than
 * `maxBuffer` bytes), or `failed` (git exited otherwise than with 0, or is missing).
 */
export function runGitSyncBounded(
  cwd: string,
  args: readonly string[],
  maxBuffer: number,
  timeoutMs: number,
): string | 'timeout' | 'too-large' | 'failed' {
  const r = childProcess().spawnSync('git', args, {
    cwd,
    env: gitEnv(cwd),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    maxBuffer,
  });
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOBUFS') return 'too-large';
  return r.status === 0 ? r.stdout : 'failed';
}

/**
 * The configuration entries whose keys match `pattern` (`git config --get-regexp`, keys as git spells them: section
 * and name in lower case), in the order git reads its files; `options` go before it (`--local`, `--includes`). A key
 * with no value (`autocrlf` alone in its section) is a boolean's true. None when no key matches (git exits 1).
 */
export async function configMatching(cwd: string, pattern: string, options: readonly string[] = []): Promise<ConfigPair[]> {
  let out: string;
  try {
    out = (await runGit(cwd, ['config', ...options, '-z', '--get-regexp', pattern])).toString('utf8');
  } catch (error) {
    if (error instanceof GitProcessError && error.exitCode === 1) return [];
    throw error;
  }
  const pairs: ConfigPair[] = [];
  // Each entry is `key LF value NUL`, or `key NUL` for a key without a value.
  for (const entry of out.split('\0')) {
    if (entry === '') continue;
    const lf = entry.indexOf('\n');
    pairs.push(lf < 0 ? [entry, 'true'] : [entry.slice(0, lf), entry.slice(lf + 1)]);
  }
  return pairs;
}
