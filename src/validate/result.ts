import type { Diagnostic } from '../core/diagnostics.ts';
import type { Severity } from '../core/model.ts';

/** One change `--fix` made (or declined to make, with the reason). */
export interface Fix {
  file: string;
  action: 'add-modeline' | 'rename' | 'add-id' | 'remove-temporary' | 'remove-stale-lock' | 'remove-bad-lock' | 'finish-move';
  /** For a rename: the new store-relative path. */
  to?: string;
  done: boolean;
  message: string;
  /** Set when the file system refused the write (a full disk, no permission): the run must not exit 0. */
  failed?: true;
}

/** What `--fix` is told and asks while it fixes (validate/fix.ts, fix-moves.ts). */
export interface FixOptions {
  /**
   * Whether a process of this host is still running (it may still own its temporary file); with `start`, the start
   * the temporary's name gives its writer, or else `since`, the time it was last written, a later process given its
   * number is not its writer.
   */
  processAlive: (pid: number, since?: number, start?: number) => boolean;
  /** Told after each modeline written (staged), with how many there are in all: for a progress display. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Told of each modeline written (staged), with the file's bytes before (valid only during the call) and
   * its text after: for the cache.
   */
  onModeline?: (file: string, before: Uint8Array, after: string) => void;
  /**
   * Aborted by a stop signal (Ctrl-C): taken every FIXES_BETWEEN_SIGNALS files. The modelines staged so far are
   * discarded, none is put in place, and the abort's reason is thrown; the renames and removals made before it stand.
   */
  signal?: AbortSignal;
  /** Told what the wait for a scope's lock does: a stale lock of a dead process cleared to take it, a wait that lasts. */
  onStale?: (message: string) => void;
  /** Told when a file to rename or give an id changed since the check (another --fix did it): the report is behind. */
  onChanged?: () => void;
  /**
   * Whether a store file is among the PATHS the run was given (absent: all are): a fix that would change a file
   * outside them, a move's copy in another scope, is not made.
   */
  within?: (file: string) => boolean;
}

/** What one `agents validate` run found, ready for a formatter. */
export interface ValidationResult {
  /** Absolute path of the store. */
  store: string;
  /** "working tree" or "index". */
  source: string;
  /** Files checked (in the whole store, or those named; in hook mode, the changed files the source holds). */
  files: number;
  /** In hook mode: the changed files the source no longer holds (deleted), which were not read; absent otherwise. */
  deleted?: number;
  /** Diagnostics reported (already narrowed to the named paths). */
  diagnostics: Diagnostic[];
  fixes: Fix[];
  strict: boolean;
  /** No errors (and, with --strict, no warnings). */
  ok: boolean;
  counts: Record<Severity, number>;
  /** Prefix that turns a store-relative path into one relative to the current directory (".agents/"). */
  displayPrefix: string;
  /** Prefix that turns a store-relative path into one relative to the repository top (for CI annotations and SARIF). */
  repoPrefix: string;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "12 files (index)", the deleted files of hook mode said apart: "0 files (index; 21 files deleted)". */
export function filesLine(r: Pick<ValidationResult, 'files' | 'source' | 'deleted'>): string {
  return `${plural(r.files, 'file')} (${r.source}${r.deleted ? `; ${plural(r.deleted, 'file')} deleted` : ''})`;
}

/** "2 errors, 1 warning, 0 infos". */
export function countLine(counts: Record<Severity, number>): string {
  return `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.info, 'info')}`;
}
