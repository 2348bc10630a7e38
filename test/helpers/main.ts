import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import type { RunResult } from './cli.ts';

/** Runs the CLI in this process (no spawn): same parser, same single catch, captured streams. */
export async function runMain(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end();
  const code = await main(args, {
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
    stdin,
    env: { NO_COLOR: '1', CI: 'true', ...options.env },
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}
