export declare const BIN: string;
export declare const REPO: string;
export interface RunResult {
    code: number;
    stdout: string;
    stderr: string;
}
export interface RunOptions {
    cwd?: string;
    env?: Record<string, string | undefined>;
    input?: string;
}
/** Runs the real `bin/agents.js` (built) synchronously; stdin is not a TTY and CI is set. */
export declare function agents(args: string[], options?: RunOptions): RunResult;
/** Same, without blocking: for racing several processes. */
export declare function agentsAsync(args: string[], options?: RunOptions): Promise<RunResult>;
