import type { Diagnostic } from '../../core/diagnostics.ts';
import type { WaiverScope } from '../../core/waivers.ts';
import type { Guard, Plan, Scope, ScopedInvariant, Severity, Target } from '../../core/model.ts';
import type { NearKind } from '../../core/near-duplicates.ts';
import type { EffectiveEntry } from '../../core/resolve.ts';
import type { ShadowInfo } from '../../core/shadow.ts';
import type { ScopedWaiver } from '../../core/waivers.ts';
import type { ServiceDepsInput } from '../deps.ts';

/** How a caller names a scope: exactly one of these. */
export type ScopeInput = { global: true } | { project: string } | { plan: string } | { action: string };

export interface AddInput {
  scope: ScopeInput | Scope;
  text: string;
  severity?: Severity;
  tags?: string[];
  rationale?: string;
  /** What an agent may not do while it applies (docs/guard.md). */
  guard?: Guard;
  /** Commit the new file with git (`--commit`); default: `commit:` in config.yaml. */
  commit?: boolean;
  /**
   * Create the project even when its name is close to an existing one's
   * (`--new-project`). Without it such a name is taken for a typo and refused.
   */
  newProject?: boolean;
}

/** Every field `add` takes: a library caller's other field is refused, not ignored. */
export const ADD_FIELDS = {
  scope: true,
  text: true,
  severity: true,
  tags: true,
  rationale: true,
  guard: true,
  commit: true,
  newProject: true,
} as const satisfies Record<keyof AddInput, true>;

export interface AddResult {
  invariant: ScopedInvariant;
  /** Absolute path of the new file. */
  file: string;
  /** Copies at lower precedence that the new invariant hides. */
  shadows: ScopedInvariant[];
  /** Copies at higher precedence that hide the new invariant. */
  shadowedBy: ScopedInvariant[];
  /** Texts nearly the same that can meet it in an effective set (a warning, not a refusal). */
  near: NearMatch[];
  /** The problems of the invalid files left unread: a copy there is not in `shadows`, `shadowedBy` nor `near`. */
  incomplete?: Diagnostic[];
  /** Why the policy sources' invariants were not read (a source not pinned or not fetched yet), with the command that reads them. */
  inheritedMissing?: string;
  /** The commit made with `commit`. */
  commit?: string;
  /** The project this add created (its folder did not exist before). */
  createdProject?: string;
}

/**
 * A change to one invariant (`invariant edit`): only the fields given change. A field given as null is left as it is,
 * as one left out (a form's empty field), but `guard`, whose null removes the guard.
 */
export interface EditInput {
  /** The invariant: an id or a unique prefix. */
  id: string;
  text?: string | null;
  severity?: Severity | null;
  /** Replaces every tag (the form); `addTags`/`removeTags` change some. */
  tags?: string[] | null;
  addTags?: string[] | null;
  removeTags?: string[] | null;
  /** The new rationale; "" removes it. */
  rationale?: string | null;
  active?: boolean | null;
  /** The id (or unique prefix) of the copy this one replaces on purpose; "" removes the field. */
  overrides?: string | null;
  /** The lists given replace the guard's (docs/guard.md), an empty one takes its kind out; null removes the guard. */
  guard?: Guard | null;
  commit?: boolean | null;
}

/** An EditInput as `edit` reads it, its null fields left out: only `guard` may still be null. */
export type EditFields = { [K in keyof EditInput]: K extends 'guard' ? EditInput[K] : Exclude<EditInput[K], null> };

/** Every field `edit` takes. */
export const EDIT_FIELDS = {
  id: true,
  text: true,
  severity: true,
  tags: true,
  addTags: true,
  removeTags: true,
  rationale: true,
  active: true,
  overrides: true,
  guard: true,
  commit: true,
} as const satisfies Record<keyof EditInput, true>;

/** A near-duplicate of an invariant (core/near-duplicates.ts). */
export interface NearMatch {
  invariant: ScopedInvariant;
  kind: NearKind;
}

/** A waiver a write stranded (invariants/stranded.ts): it names the invariant, and waives it nowhere now. */
export interface StrandedWaiver {
  id: string;
  /** The invariant it names. */
  invariant_id: string;
  /** Store-relative path of its file. */
  path: string;
  scope: WaiverScope;
}

export interface EditResult {
  before: ScopedInvariant;
  invariant: ScopedInvariant;
  /** Absolute path of the file. */
  file: string;
  /** The fields that changed; empty when the edit changed nothing (and nothing was written). */
  changed: string[];
  shadows: ScopedInvariant[];
  shadowedBy: ScopedInvariant[];
  near: NearMatch[];
  /** As `AddResult`'s: what the relations were not read from. */
  incomplete?: Diagnostic[];
  inheritedMissing?: string;
  /** The waivers that named it where it applied and waive it nowhere now (docs/plans.md, "Waivers"). */
  strandedWaivers?: StrandedWaiver[];
  commit?: string;
}

export interface MoveResult {
  before: ScopedInvariant;
  invariant: ScopedInvariant;
  /** Absolute path of the new file. */
  file: string;
  shadows: ScopedInvariant[];
  shadowedBy: ScopedInvariant[];
  near: NearMatch[];
  /** As `AddResult`'s: what the relations were not read from. */
  incomplete?: Diagnostic[];
  inheritedMissing?: string;
  /** The project folder the move emptied, kept with a `.gitkeep` because plans target it. */
  keptProject?: KeptProject;
  /** The project the move created (its folder did not exist), as `add` says it. */
  createdProject?: string;
  /** The waivers that named it where it applied and waive it nowhere now (docs/plans.md, "Waivers"). */
  strandedWaivers?: StrandedWaiver[];

  commit?: string;
}

/** What `remove` returns: the invariant removed, as `resolveId` found it. */
export interface RemoveResult {
  id: string;
  /** Store-relative path of the file deleted. */
  path: string;
  scope: Scope;
  /** The project folder the removal emptied, kept with a `.gitkeep` because plans target it. */
  keptProject?: KeptProject;
  /** The commit made with `commit`; none when git had nothing to record (a file never committed, removed). */
  commit?: string;
  /** The waivers that waived it, which waive nothing now. */
  strandedWaivers?: StrandedWaiver[];
}

/** A project whose last invariant went, kept (its `.gitkeep` written) because these plans target it. */
export interface KeptProject {
  project: string;
  /** Store-relative path of the `.gitkeep` written. */
  path: string;
  /** The plans that target it (none listed when a plan file could not be read: it might). */
  plans: string[];
}

export interface ListOptions {
  /** A plan may be named by a unique prefix of its id. */
  scope?: ScopeInput | Scope;
  /** Include inactive invariants. */
  all?: boolean;
  /** A regex on the text, smart case. */
  pattern?: string;
}

/** Every field `list` takes. */
export const LIST_FIELDS = { scope: true, all: true, pattern: true } as const satisfies Record<keyof ListOptions, true>;

export interface ListedInvariant {
  invariant: ScopedInvariant;
  /** Present when the listing holds what is needed to know it. */
  shadow?: ShadowInfo;
}

/**
 * What `list` returns: the invariants listed and, on the array itself, `inheritedMissing` when a listing of every
 * scope left out the policy sources' invariants (a source not pinned or not fetched yet), with the command that reads
 * them, as `add` says it: the listing is short, and a caller that hears no notice still knows.
 */
export type ListResult = ListedInvariant[] & { inheritedMissing?: string };

export interface EffectiveResult {
  target: Target;
  plan?: Plan;
  entries: EffectiveEntry[];
  /**
   * The waivers that cover the target (a plan's own and its project's; a
   * project's own), oldest first, each with whether it holds at the
   * service clock's time (docs/plans.md, "Waivers").
   */
  waivers: WaiverState[];
  /**
   * What the set lacks, said as the service's notice too: a plan whose project has no folder (code
   * `unknown-project`, at the plan file's `project`) resolves without that project's invariants.
   */
  warnings: Diagnostic[];
}

/** A waiver and whether it holds now. */
export type WaiverState = ScopedWaiver & { holds: boolean };

export interface ShowResult {
  invariant: ScopedInvariant;
  /** Human summary of where the invariant applies. */
  appliesTo: string;
  plansTargeting?: string[];
  shadow: ShadowInfo;
  /** The problems of the store's invalid files, left unread: a copy or a plan there is not in `shadow` nor `plansTargeting`. */
  incomplete?: Diagnostic[];
  /** Why the policy sources' invariants are not in `shadow` (a source not pinned or not fetched yet), with the command that reads them. */
  inheritedMissing?: string;
}

/** What the add form checks a text against while it is typed (see `addContext`). */
export interface AddContext {
  scope: Scope;
  /** The scope's own invariants and those it can shadow or be shadowed by. */
  invariants: ScopedInvariant[];
  plans: Map<string, Plan>;
  /** The problems of the invalid files among those read, left unread: a copy or a plan there is not in `invariants` nor `plans`. */
  incomplete?: Diagnostic[];
  /** Why the policy sources' invariants are not in `invariants` (a source not pinned or not fetched yet), with the command that reads them. */
  inheritedMissing?: string;
}

/** The scopes that exist in a store, for pickers. */
export interface ScopeCatalog {
  projects: string[];
  /** `NS/NAME` of each action template folder. */
  actions: string[];
  plans: Plan[];
  /** The problems of the invalid plan.yaml files, whose plans are not in `plans`. */
  incomplete?: Diagnostic[];
}

export interface OpenOptions {
  /** The store folder; found by discovery (docs/store-format.md) when absent. */
  store?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  deps?: ServiceDepsInput;
}
