import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.ts';
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
 * Variables that code below the CLI reads from `process.env` rather than from
 * the run's environment (git's and the PATH it is found on, the lock wait, the store-ownership checks): a
 * run in this process cannot set them without changing every other test's
 * world, so a test that needs them spawns the real binary (`agents` of cli.ts).
 */
const PROCESS_ONLY = /^(GIT_|PATH$|AGENTS_LOCK_TIMEOUT_MS$|AGENTS_SAFE_DIRECTORY$|SUDO_UID$)/;

/**
 * The in-process twin of `agents` (cli.ts): the same options and result (exit
 * code, stdout, stderr), the same environment (the test's, with git's fixed
 * identity, NO_COLOR and CI set and AGENTS_STORE removed), `cwd` defaulting to
 * the repository, `input` on a non-TTY stdin; but `main` runs here, with no
 * process to start. Nothing of the process is changed: `main` takes its cwd,
 * environment and streams from the arguments (see CONTRIBUTING.md).
 */
export async function runAgents(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env: Record<string, string | undefined> = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' };
  delete env.AGENTS_STORE;
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (PROCESS_ONLY.test(k))
      throw new Error(`${k} is read from process.env below the CLI: use agents() of test/helpers/cli.ts (a real process) to set it`);
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
