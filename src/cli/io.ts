/** The outside world of one CLI run. `main` takes it whole, so tests need no process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made on first use: Node creates the stream (and its handle) when `process.stdin` is first read, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

export type OutputFormat = 'text' | 'json' | 'yaml';

export function canPrompt(io: CliIo, noInput: boolean): boolean {
  if (noInput) return false;
  const ci = io.env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') return false;
  // stdout first: asking stdin makes its stream, which a run whose output is piped never needs.
  return Boolean(io.stdout.isTTY && io.stdin.isTTY);
}

export function useColor(io: CliIo, noColor: boolean): boolean {
  if (noColor) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  return Boolean(io.stdout.isTTY);
}
