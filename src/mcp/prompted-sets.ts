// The sets the reconcile_plan prompts of one server gave (docs/mcp.md, "Prompts"): record_reconciliation compares the
// answer's set with the set as it is now, and names what changed since by the digests kept here.

/** What a prompt's set was: each invariant's id and digest, as a run's records keep them. */
export interface PromptedSet {
  setDigest: string;
  records: readonly { invariant_id: string; digest: string }[];
}

/** How many prompts' sets are kept: an agent works on a few plans at a time; a set is as large as its prompt. */
const KEPT = 32;

export class PromptedSets {
  /** By plan and set digest, the newest last. */
  readonly #sets = new Map<string, PromptedSet & { plan: string }>();

  remember(plan: string, set: PromptedSet): void {
    const key = `${plan} ${set.setDigest}`;
    this.#sets.delete(key);
    this.#sets.set(key, { plan, ...set });
    if (this.#sets.size > KEPT) this.#sets.delete(this.#sets.keys().next().value!);
  }

  /** The set of a prompt given for `plan` with that digest, if this server gave one and still keeps it. */
  get(plan: string, setDigest: string): PromptedSet | undefined {
    return this.#sets.get(`${plan} ${setDigest}`);
  }

  /** The set of the last prompt given for `plan`: what a call that names no set_digest was answered from. */
  latest(plan: string): PromptedSet | undefined {
    let found: PromptedSet | undefined;
    for (const s of this.#sets.values()) if (s.plan === plan) found = s;
    return found;
  }
}
