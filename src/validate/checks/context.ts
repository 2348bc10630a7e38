import type { Diagnostic, DiagnosticCode } from '../../core/diagnostics.ts';
import type { PathKind } from '../../core/layout.ts';
import type { Plan, ScopedInvariant, StoreConfig } from '../../core/model.ts';
import type { ReadJob } from '../../store/read-plan.ts';
import type { TreeEntry, TreeSource } from '../../store/tree-source.ts';
import type { FactsCache } from '../cache.ts';
import type { ContentKind, FileFacts } from '../file-facts.ts';
import type { RecordingSource } from '../recording-source.ts';
import type { InheritedText } from '../inherited-keys.ts';
import type { Located } from './located.ts';

export interface ValidateOptions {
  /**
   * Whether the process that wrote a `.lock` is still running (same host);
   * `undefined` when that cannot be known. Absent: every lock is stale (a lock
   * in the index or a revision was committed by mistake).
   */
  lockHolderAlive?: (pid: number, host: string, taken: number, ns: string | undefined, start: number) => boolean | undefined;
  /**
   * Whether the writer of a temporary (store-relative) may still be writing it, as `--fix` judges it (store/stale-temps.ts):
   * the finding's hint then says what `--fix` does with it. Absent: every temporary is one `--fix` removes.
   */
  temporaryWriter?: (path: string) => 'running' | 'gone' | 'elsewhere';
  /** How long ago a `.lock` (store-relative) was last written, in ms (NaN: gone); absent: every lock is old enough to judge. */
  lockAge?: (path: string) => number;
  /** Facts of files checked in earlier runs (see cache.ts); absent: every file is parsed and checked. */
  cache?: FactsCache;
  /**
   * Whether the findings of the whole-store checks that read nothing but the
   * store's files are kept with the cache and reused while the files and the
   * listing are the same (not for `--fix`, whose report is amended after the
   * checks run).
   */
  memo?: boolean;
  /**
   * The repository's files (relative to its top) that projects' paths are
   * matched against, asked for only when some project.yaml has paths;
   * undefined when they cannot be known (no git repository, a revision).
   */
  repoFiles?: () => Promise<readonly string[] | undefined>;
  /**
   * Whether a path relative to the repository's top is a folder of the working tree: a guard's write glob that names
   * one git lists no file of (an ignored `secrets/`) is warned of too. Absent: only git's list is asked.
   */
  repoFolder?: (path: string) => Promise<boolean>;
  /** Whether git compares the repository's paths without case (`core.ignorecase`), as the guards then match them. */
  repoIgnoresCase?: () => Promise<boolean>;
  /** The store's folder relative to the repository's top (`.agents`, `config/agents`); undefined outside git. */
  storeFolder?: string;
  /** The time waivers are judged at (`waiver-expired`); absent: expiry is not checked. */
  now?: Date;
  /** The invariant ids of a policy source's action template (`SOURCE:NS/NAME`), for promoted origins; absent: the store extends nothing. */
  sourceActionIds?: (ref: string) => Promise<ReadonlySet<string> | null | undefined>;
  /** The inherited invariants' ids with the digests of their text keys, which an `overrides` or a waiver may name; absent: the store extends nothing. */
  inheritedKeys?: () => Promise<ReadonlyMap<string, string>>;
  /** The active inherited invariants, which a text of the store may nearly repeat; absent: the store extends nothing. */
  inheritedTexts?: () => Promise<readonly InheritedText[]>;
  /**
   * A digest of what `inheritedKeys` and `inheritedTexts` answer: the memo of the checks that read them is kept under
   * it beside the listing. Absent while they are given: those checks are not memoized.
   */
  inheritedDigest?: () => Promise<string>;
  /**
   * Threads that check the files no cache answers (`--jobs`, docs/validation.md):
   * 1 is this thread alone; absent, every core when there are enough files.
   */
  jobs?: number;
  /** Told as files are read, then as those the cache does not know are checked (a progress display). */
  onProgress?: (phase: 'read' | 'check', done: number, total: number) => void;
  /**
   * Hook mode (docs/validation.md, "What hook mode checks"): whether a path
   * is one the change touches. The caller keeps only the diagnostics on such
   * a path or naming one as related; checks whose findings can be told from
   * the touched paths alone (layout, near-duplicates, modelines) then look only at what
   * those can take part in. The diagnostics kept are the same as a full
   * run's; others may be left out. The folders of a touched path must be
   * touched too.
   */
  touches?: (path: string) => boolean;
  /** Told as each check of the registry (checks/registry.ts) ends, with what it found: a profile, a test of its codes. */
  onCheck?: (name: string, found: readonly Diagnostic[]) => void;
  /**
   * Told the time (ms) of each step as it ends (`validate --profile`): `list`
   * (the tree's paths), each check of the registry by its name, and `files`
   * (reading the files and the checks of each on its own); `start` is the
   * step's start on the `performance.now()` clock.
   */
  onTime?: (step: string, ms: number, start: number) => void;
}

/** A file validation reads and checks on its own. */
export type ContentJob = ReadJob & { kind: ContentKind };
/** A job whose facts hold what only an invariant's have (a key digest, a near key). */
export type InvariantJob = ContentJob & { kind: Extract<ContentKind, { kind: 'invariant' }> };

/** The invariants whose text key (docs/resolution.md) another invariant shares, in their order, with their keys. */
export interface SharedText {
  invariants: ScopedInvariant[];
  keys: string[];
}

/** What a check that needs only the listing of the tree is given (no file is read yet). */
export interface ListingContext {
  source: RecordingSource;
  entries: readonly TreeEntry[];
  /** Aligned with `entries`: each path's kind. */
  kinds: readonly PathKind[];
  options: ValidateOptions;
}

/** What a check of the files' contents is given: the listing, plus every file's facts and what is shared between checks. */
export interface ContentContext extends ListingContext {
  tree: TreeSource;
  cache: FactsCache;
  /** The files read and checked one by one, and (aligned) their facts. */
  jobs: readonly ContentJob[];
  facts: readonly FileFacts[];
  /** Plans by id. */
  plans: ReadonlyMap<string, Plan>;
  located: Located;
  /** Every diagnostic found so far (the modeline check skips files with errors). */
  found: readonly Diagnostic[];
  /** Ids in use in the store, those of invariant files, and their reuses: one pass over the listing, made by the first check that asks. */
  ids(): { usedIds: ReadonlySet<string>; invariantIds: ReadonlySet<string>; diagnostics: Diagnostic[] };
  /** The invariants sharing a text key, parsed again and located, once. */
  shared(): Promise<SharedText>;
  /**
   * config.yaml, read once and only if a check needs it; undefined when it is broken, whose own diagnostics say so:
   * a check then leaves out what its settings decide, rather than judge it by the defaults the file may not hold.
   */
  storeConfig(): Promise<StoreConfig | undefined>;
}

/** One whole-store check: its name, the diagnostic codes it can emit, and when it runs. */
export type Check =
  | { name: string; codes: readonly DiagnosticCode[]; stage: 'listing'; run: (ctx: ListingContext) => Diagnostic[] | Promise<Diagnostic[]> }
  | {
      name: string;
      codes: readonly DiagnosticCode[];
      stage: 'content';
      /**
       * Reads nothing but the store's files (no clock, no process, no repository outside the store): its findings may
       * be memoized. A function says it of one run (a check that reads policy sources only when the store extends one).
       */
      pure?: boolean | ((ctx: ContentContext) => boolean);
      run: (ctx: ContentContext) => Diagnostic[] | Promise<Diagnostic[]>;
    };
