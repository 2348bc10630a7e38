/** A fresh temporary folder, removed when the current test finishes. */
export declare function tempDir(prefix?: string): string;
/** Writes a tree of files: `{ "global/X.yaml": "text", "empty-dir/": null }`. */
export declare function writeTree(root: string, tree: Record<string, string | Buffer | null>): void;
/** A temporary store folder holding `tree`. */
export declare function testStore(tree?: Record<string, string | Buffer | null>): string;
/** The text of an invariant file, as a person would write it. */
export declare function invariantYaml(id: string, text: string, extra?: Record<string, string>): string;
