export declare const G1 = "01M8KJT9G0XNWEM589ZS7FV0VT";
export declare const G2 = "01M8KJW430VF8WCABSB8RTQ8RY";
export declare const P1 = "01M8KJXYP0GVPRF8KRRE9G8474";
export declare const P2 = "01M8KJZS90J6DRJJ8E264B9DFX";
export declare const A1 = "01M8KK1KW0KPRSWWKENT2QZ1QM";
export declare const L1 = "01M8KK3EF09G9ET4TAJAHQWPMN";
export declare const PLAN = "01M8KK5920RS6CGAVDFVYYJ0B4";
/** The seed's merge example as a store: global 2, project myapp 2 (one hides a global copy), an action, a plan. */
export declare function exampleStore(): string;
/** A store of `n` global invariants with distinct texts and increasing ids. */
export declare function bigStore(n: number): string;
/** Waits (bounded) until the frame satisfies `check`. */
export declare function frameMatches(lastFrame: () => string | undefined, check: (frame: string) => void): Promise<string>;
export declare function frameHas(lastFrame: () => string | undefined, ...texts: string[]): Promise<string>;
/** Lets React flush pending effects (two macrotask turns), so the next key reaches the handlers of the frame just seen. */
export declare function settle(): Promise<void>;
