/** Environment for git in tests: fixed identity and dates, no user or system config, no signing. */
export declare const GIT_ENV: Record<string, string>;
/** Runs git in `cwd` and returns its standard output. */
export declare function git(cwd: string, ...args: string[]): string;
/** Makes `dir` a git repository on branch main with a fixed identity. */
export declare function gitInit(dir: string): void;
/** Stages everything and commits; returns the new commit id. */
export declare function commitAll(dir: string, message: string): string;
