// What an export would write, refuse and say: the plan its writers, its cache and its callers share.
import type { ExportTargetName } from '../core/model.ts';
import type { FileChange, Refusal } from './export-targets.ts';

/** A file a warning was read from, beyond the exported ones, with its hash then (null: there was none). */
export interface WatchedFile {
  path: string;
  hash: string | null;
}

export interface ExportPlan {
  /** Absolute path of the repository top every path is relative to. */
  top: string;
  targets: ExportTargetName[];
  /** The targets config.yaml lists (export.targets): what `agents export` and `export --check` use without --target. */
  listed: ExportTargetName[];
  changes: FileChange[];
  refused: Refusal[];
  /** Things said on stderr: globs a target cannot express, files over a target's size limit. */
  warnings: string[];
  /**
   * Target files that are links to another file this export writes (`CLAUDE.md` → `AGENTS.md`): left as they are.
   * `empty`: no invariant applies there, so the file it leads to holds no rules of the export (deleted, or its block removed).
   */
  linked: { path: string; to: string; empty?: true }[];
  /** The digest of the inputs read, and the kind of export (targets, project), for the cache; undefined without a cache. */
  digest?: string;
  cacheKey?: string;
  /** Answered from the cache: every file is up to date and was not compared in full. */
  cached?: boolean;
  /** When the first waiver said in the files expires (ms since the epoch): the files differ from then on. */
  until?: number;
  /** For the cache: the warnings a run it answers says again, and the files they were read from beyond the exported ones. */
  replay?: { warnings: string[]; watched: WatchedFile[] };
}
