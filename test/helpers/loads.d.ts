/** esbuild's record of the built dist/: which source files each output holds, and what it imports. */
export interface DistMeta {
    outputs: Record<string, {
        inputs: Record<string, unknown>;
        imports: {
            path: string;
            kind: string;
            external?: boolean;
        }[];
    }>;
}
export declare function distMeta(): DistMeta;
export interface TracedRun {
    code: number;
    stdout: string;
    stderr: string;
    /** Every module URL the process resolved, in order (dist/ files and node: built-ins). */
    urls: string[];
    /** The dist/ files among them, relative to the repository: `dist/cli.js`, `dist/chunks/…`. */
    dist: string[];
}
/**
 * Runs `node NODE_ARGS…` with test/helpers/trace-loads.mjs preloaded (after
 * `preload`), and returns what it printed and every module it resolved.
 */
export declare function traceLoads(nodeArgs: readonly string[], options?: {
    cwd?: string;
    env?: Record<string, string>;
    preload?: readonly string[];
    input?: string;
}): TracedRun;
