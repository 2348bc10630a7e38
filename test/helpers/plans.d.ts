/** The seed's example plan (targets project myapp). */
export declare const EXAMPLE_PLAN = "01M8KK5920RS6CGAVDFVYYJ0B4";
/** A private copy of `.agents.example/`, so tests never dirty the committed example. */
export declare function exampleStore(): string;
/** Parsed YAML of a store file. */
export declare function readYaml<T = Record<string, unknown>>(root: string, rel: string): T;
/** Record files of one kind under a plan, parsed, in id order. */
export declare function records<T = Record<string, unknown>>(root: string, plan: string, kind: 'decisions' | 'enforcement' | 'violations'): T[];
/** Writes an actor script into the store's actors/ folder and points config.yaml at it. */
export declare function useActor(root: string, script: string, timeoutMs?: number): void;
/** Files under a folder, store-relative, sorted (to prove nothing was written). */
export declare function fileList(root: string): string[];
export interface EnforcementFile {
    id: string;
    decision_id: string;
    actor: string;
    error?: string;
    records: {
        invariant_id: string;
        enforced: boolean;
        actor_response: string;
        decision_id: string;
    }[];
}
export interface DecisionFile {
    id: string;
    type: string;
    parent_id: string | null;
    summary: string;
    enforcement_id: string;
    created_at: string;
}
