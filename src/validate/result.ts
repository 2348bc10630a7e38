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

/** What one `agents validate` run found, ready for a formatter. */
export interface ValidationResult {
  /** Absolute path of the store. */
  store: string;
  /** "working tree" or "index". */
  source: string;
  /** Files checked (in the whole store, or those named). */
  files: number;
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

/** "2 errors, 1 warning, 0 infos". */
export function countLine(counts: Record<Severity, number>): string {
  return `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.info, 'info')}`;
}
