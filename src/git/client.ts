import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import type { SimpleGit } from 'simple-git';

/**
 * The git environment variables that git itself honours and that users and
 * hooks rely on: identity (GIT_AUTHOR_*, GIT_COMMITTER_*), configuration, and
 * the repository and index a hook was started for (a pre-commit hook of
 * `git commit -a` gets a temporary GIT_INDEX_FILE). simple-git drops ambient
 * GIT_* variables unless they are allowed, so they are passed on explicitly.
 */
const PASSED = [
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
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
] as const;

/** Variables holding paths, which git resolves against the directory it was started in. */
const PATHS = new Set(['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY']);

/**
 * Makes path variables absolute, once: our git runs in the store folder, not
 * where we were started, and must still find the repository and index the
 * caller meant. Same meaning for this process, so changing them is safe.
 */
function absolutePaths(): void {
  for (const k of PATHS) {
    const v = process.env[k];
    if (v !== undefined && v !== '' && !isAbsolute(v)) process.env[k] = resolve(process.cwd(), v);
  }
}

/**
 * A simple-git client for `cwd`, optionally writing `input` to git's stdin.
 * simple-git is loaded on first use: commands that only read revisions
 * (through `runGit`) never load it.
 */
export async function gitClient(cwd: string, input?: Buffer | string): Promise<SimpleGit> {
  absolutePaths();
  const { simpleGit } = await import('simple-git');
  return simpleGit({
    baseDir: cwd,
    allowEnvironment: [...PASSED],
    // GIT_CONFIG_GLOBAL/SYSTEM come from the user's own environment, as for any git they run.
    unsafe: { allowUnsafeConfigPaths: true },
    ...(input !== undefined ? { input: () => input } : {}),
  });
}

/** Variables other than GIT_* that simple-git's environment guard also drops (editors, pagers, askpass). */
const GUARDED = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);

/**
 * The environment git runs with: the caller's, minus the git variables that
 * are not passed on (PASSED) and the editor and pager ones, exactly as the
 * simple-git client leaves it, so both ways of running git see one repository.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const allowed = new Set(PASSED.map((k) => k.toLowerCase()));
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    const key = k.toLowerCase().trim();
    if ((key.startsWith('git_') || GUARDED.has(key)) && !allowed.has(key)) continue;
    env[k] = v;
  }
  env.GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS = 'true';
  return env;
}

/** A git process in `cwd` with the environment above, all three streams piped. */
export function spawnGit(cwd: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  absolutePaths();
  return spawn('git', args, { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** A git process that exited with a failure; the message is what git wrote to stderr. */
export class GitProcessError extends Error {
  constructor(message: string, readonly exitCode: number | null) {
    super(message);
    this.name = 'GitProcessError';
  }
}

/**
 * Runs one git process in `cwd` (stdin: `input`, if any) and resolves with
 * its whole stdout; rejects with a GitProcessError when git fails. For the
 * read paths that start few processes and must start fast: no simple-git
 * (whose module alone costs tens of milliseconds to load) and no task queue.
 */
export function runGit(cwd: string, args: readonly string[], input?: Buffer | string): Promise<Buffer> {
  return new Promise((resolveRun, reject) => {
    const child = spawnGit(cwd, args);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new GitProcessError(`git could not be started: ${error.message}`, null)));
    child.on('close', (code) => {
      if (code === 0) resolveRun(Buffer.concat(out));
      else reject(new GitProcessError(Buffer.concat(err).toString('utf8').trim() || `git ${args[0] ?? ''} exited with code ${code}`, code));
    });
    // git may exit before reading all of stdin (a bad revision): that is reported by its exit code.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
