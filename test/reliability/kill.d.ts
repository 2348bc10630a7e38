export interface KillOutcome {
    /** The process was killed before it finished. */
    killed: boolean;
    /** Exit code when it finished on its own. */
    code: number | null;
    /** Wall time from spawn to exit, in ms. */
    ms: number;
}
/**
 * Spawns the real CLI and sends it SIGKILL after `afterMs` (if it is still
 * running): a crash at a point in its run the test does not choose. The
 * product carries no hook for this.
 */
export declare function runAndKill(args: string[], afterMs: number): Promise<KillOutcome>;
/** A small deterministic generator (mulberry32): the same delays on every run. */
export declare function seeded(seed: number): () => number;
export interface KillCampaign {
    trials: number;
    killed: number;
    /** Killed runs whose effect (`written()` grew) was already on disk. */
    killedAfterWrite: number;
    finished: number;
}
/**
 * Runs `args(i)` and kills it at seeded random points until `kills` runs were
 * killed (or `maxTrials`). Kill times are learnt as the campaign goes: aimed
 * around the moment `written()` grows, where the lock is held and files are
 * written; every third kill falls anywhere in the run.
 */
export declare function killCampaign(options: {
    args: (i: number) => string[];
    written: () => number;
    kills: number;
    maxTrials: number;
    seed: number;
    /** Checks a run that finished on its own. */
    onFinished?: (code: number | null) => void;
}): Promise<KillCampaign>;
