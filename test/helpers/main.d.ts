import type { RunResult } from './cli.ts';
/** Runs the CLI in this process (no spawn): same parser, same single catch, captured streams. */
export declare function runMain(args: string[], options: {
    cwd: string;
    env?: Record<string, string | undefined>;
}): Promise<RunResult>;
