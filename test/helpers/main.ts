import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import type { AgentsError } from '../../src/core/errors.ts';
import { REPO, type RunOptions, type RunResult } from './cli.ts';
import { GIT_ENV } from './git.ts';

/** Runs the CLI in this process (no spawn): same parser, same single catch, captured streams. */
export async function runMain(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; columns?: number },
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end();
  const code = await main(args, {
    stdout: { write: (c: string) => (stdout += c), columns: options.columns },
    stderr: { write: (c: string) => (stderr += c) },
    stdin,
    env: { NO_COLOR: '1', CI: 'true', ...options.env },
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}

/**
 * The in-process twin of `agents` (cli.ts): the same options and result (exit
 * code, stdout, stderr), the same environment (the test's, with git's fixed
 * identity, NO_COLOR and CI set and AGENTS_STORE removed), `cwd` defaulting to
 * the repository, `input` on a non-TTY stdin; but `main` runs here, with no
 * process to start. Nothing of the process is changed: `main` takes its cwd,
 * environment and streams from the arguments, and the code below it reads the
 * run's environment, git's variables and `PATH` included (src/git/run-environment.ts;
 * see CONTRIBUTING.md).
 */
export async function runAgents(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env: Record<string, string | undefined> = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' };
  delete env.AGENTS_STORE;
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const code = await main(args, {
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
    stdin,
    env,
    cwd: options.cwd ?? REPO,
  });
  return { code, stdout, stderr };
}

/** The error document a `--format json` run prints on stdout (docs/json-output.md): its stable `code`, exit code and detail. */
export function errorOf(r: RunResult): { code: string; exit_code: number; detail: Record<string, unknown> | null } {
  const doc = JSON.parse(r.stdout) as { ok: false; exit_code: number; error: { code: string; detail: Record<string, unknown> | null } };
  return { code: doc.error.code, exit_code: doc.exit_code, detail: doc.error.detail };
}

/** The error a promise rejects with; a promise that resolves fails the test. */
export async function rejectionOf<E = AgentsError>(p: Promise<unknown>): Promise<E> {
  try {
    await p;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a failure');
}

/**
 * `invariant violation add --plan PLAN --invariant INVARIANT` (and `extra` options) run in this process with `--format
 * json` on the store `root`: the run, and the new violation's id when it was recorded.
 */
export async function violationAdded(
  root: string,
  plan: string,
  invariant: string,
  ...extra: string[]
): Promise<RunResult & { id?: string }> {
  const r = await runAgents([
    '--store',
    root,
    '--format',
    'json',
    'invariant',
    'violation',
    'add',
    '--plan',
    plan,
    '--invariant',
    invariant,
    ...extra,
  ]);
  return r.code === 0 ? { ...r, id: (JSON.parse(r.stdout) as { id: string }).id } : r;
}
