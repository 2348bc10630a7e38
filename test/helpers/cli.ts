import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GIT_ENV } from './git.ts';

export const BIN = fileURLToPath(new URL('../../bin/agents.js', import.meta.url));
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  /** Called with the process as soon as it is started (spawnAsync), to signal it. */
  started?: (child: ChildProcess) => void;
}

function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' };
  delete env.AGENTS_STORE;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs the real `bin/agents.js` (built) synchronously; stdin is not a TTY and CI is set. */
export function agents(args: string[], options: RunOptions = {}): RunResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO,
    env: childEnv(options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Same, without blocking: for racing several processes. */
export function agentsAsync(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return spawnAsync(process.execPath, [BIN, ...args], options);
}

/** Runs `command` without blocking, in the environment `agents` gets; resolves with its exit code and output. */
export function spawnAsync(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPO, env: childEnv(options.env) });
    options.started?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
