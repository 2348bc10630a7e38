/** A ULID-shaped id from a short tag: deterministic, so output can be compared exactly. */
export declare function ulid(tag: string): string;
export declare const G1: string;
export declare const G2: string;
export declare const G3: string;
export declare const P1: string;
export declare const P2: string;
export declare const Q1: string;
export declare const X1: string;
export declare const A1: string;
export declare const PLAN: string;
/** A git repository with the store at `.agents/`, and writers that speak store paths. */
export declare class Repo {
    readonly dir: string;
    readonly store: string;
    constructor(dir?: string, init?: boolean);
    write(rel: string, content: string): this;
    inv(folder: string, id: string, text: string, extra?: Record<string, string>): this;
    plan(id: string, project?: string): this;
    rm(rel: string): this;
    commit(message: string): string;
    git(...args: string[]): string;
}
/**
 * The history the review tests share:
 *   c1  base: global G1, G2; project myapp P1; project other Q1; plan XP (myapp) X1; action A1
 *   c2  project myapp adds "Log all changes" (P2, shadows G2); global adds G3
 *   c3  G1 edited (text and severity); G3 removed
 *   c4  P2 removed (G2 comes back into effect)
 *   c5  P1 moved from project myapp to global
 */
export declare function history(dir?: string): {
    repo: Repo;
    c: string[];
};
/** A folder for a describe block's shared repository, removed after the block. */
export declare function suiteDir(): string;
