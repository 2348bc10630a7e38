import stringWidth from 'string-width';
import type { Severity } from './model.ts';
import { escapeUnsafe, hideCredentials, maskCredentials } from './plain-text.ts';

/**
 * Stable diagnostic codes. Each is documented in docs/validation.md ("Diagnostic codes");
 * tests assert on codes and positions, never on wording.
 */
export type DiagnosticCode =
  // reading and parsing
  | 'yaml-syntax'
  | 'yaml-multi-document'
  | 'yaml-duplicate-key'
  | 'yaml-unknown-tag'
  | 'yaml-alias-limit'
  | 'yaml-too-deep'
  | 'yaml-too-large'
  | 'merge-conflict'
  | 'file-too-large'
  | 'file-not-utf8'
  | 'file-binary'
  | 'file-empty'
  | 'file-unreadable'
  | 'file-name-not-utf8'
  | 'not-a-file'
  | 'symlink'
  // shape
  | 'schema'
  | 'actor-incomplete'
  | 'id-mismatch'
  | 'id-invalid'
  | 'id-reused'
  | 'source-not-in-plan'
  | 'guard-invalid'
  | 'control-character'
  // layout
  | 'unknown-path'
  | 'bad-name'
  | 'plan-missing'
  | 'temporary-file'
  | 'stale-lock'
  | 'bad-lock'
  // meaning
  | 'duplicate-text'
  | 'shadowed'
  | 'near-duplicate'
  | 'overrides-unknown'
  | 'overrides-text'
  | 'overrides-unmet'
  | 'unknown-action'
  | 'unknown-project'
  | 'unknown-origin'
  | 'unknown-invariant'
  | 'waiver-expired'
  | 'waiver-permanent'
  | 'waiver-not-applicable'
  | 'locked-weakened'
  | 'locked-waived'
  | 'extends-order'
  | 'extends-pin-unlisted'
  | 'schema-outdated'
  | 'modeline-missing'
  // projects' paths (project.yaml)
  | 'project-path-invalid'
  | 'project-paths-overlap'
  | 'project-path-unmatched'
  // guards' write globs (invariants)
  | 'guard-write-folder'
  | 'guard-write-outside-project'
  // guards over a diff (agents guard check)
  | 'guard-violation';

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  /** Store-relative path of the file at fault (or the store itself: ""). */
  file: string;
  /** 1-based; 0 when the diagnostic is about the whole file. */
  line: number;
  col: number;
  message: string;
  /** What to do about it. */
  hint?: string;
  /** The source line at `line`, for a caret excerpt: a window around `col` of a long line (see lineExcerpt). */
  lineText?: string;
  /** Where `lineText` starts in its line (0-based) when its start was cut off: it then begins with `…`. */
  lineTextFrom?: number;
  /** Other places the diagnostic is about (the kept copy of a duplicate, the file that reuses an id). */
  related?: RelatedLocation[];
  /** The policy source whose file `file` is (`extends/<source>/…`): no file of this repository, so never shown under the store's folder. */
  source?: string;
}

export interface RelatedLocation {
  file: string;
  line: number;
  col: number;
  message: string;
  /** As Diagnostic.source. */
  source?: string;
}

/** Where a file of a diagnostic is shown: under the store's folder (`prefix`), unless it is a policy source's. */
export function shownPath(d: Pick<Diagnostic, 'file' | 'source'>, prefix: string): string {
  return d.source !== undefined ? d.file : prefix + d.file;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Most severe first, then by file and position: a stable order for every formatter. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.col - b.col ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/**
 * One diagnostic per code, place and message: two checks, or two readers of one file, may meet the same problem (the
 * layout check and the reader one link; a project folder's reader and the projects' reader one project.yaml). Two
 * problems at one place stay two: a misspelt first key is an unknown key where the key it misses is placed too.
 */
export function uniqueDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  // Only the findings of a file with several can repeat one: no key is made for a file's only finding (on a
  // large store, most files' one finding is a missing modeline).
  const perFile = new Map<string, number>();
  for (const d of list) perFile.set(d.file, (perFile.get(d.file) ?? 0) + 1);
  const seen = new Set<string>();
  return list.filter((d) => {
    if (perFile.get(d.file) === 1) return true;
    const key = `${d.code}\0${d.file}\0${d.line}\0${d.col}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Positions in file order, for reading one file's problems top to bottom. */
export function byPosition(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.col - b.col);
}

export function countBySeverity(list: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of list) counts[d.severity]++;
  return counts;
}

/**
 * A diagnostic with each command its hint names (a code span that starts with `agents `) started by `agents` instead:
 * the run's, with its --store (CliContext.agentsCommand), so that, pasted where the run ran, it reaches the same store.
 * Diagnostics are data made below the command line, and kept in caches that runs naming the store otherwise share:
 * they name a bare `agents`, and are said with the run's where they are shown. A command already given the store keeps
 * it. Made once for the diagnostics of a run: each distinct hint is rewritten once (a store of 100,000 files gives
 * 100,000 diagnostics of a handful of hints), and a diagnostic whose hint names no command is passed on as it is.
 */
export function agentsHints(agents: string): <D extends Pick<Diagnostic, 'hint'>>(d: D) => D {
  if (agents === 'agents') return (d) => d;
  const rewritten = new Map<string, string>();
  return (d) => {
    if (d.hint === undefined || !d.hint.includes('`agents ')) return d;
    let hint = rewritten.get(d.hint);
    if (hint === undefined) {
      hint = d.hint.replace(/`agents (?!--store )/g, () => `\`${agents} `);
      rewritten.set(d.hint, hint);
    }
    return { ...d, hint };
  };
}

/** `file:line:col`, leaving out what is unknown. */
export function location(d: Pick<Diagnostic, 'file' | 'line' | 'col' | 'source'>, prefix = ''): string {
  // A file name may hold anything a file system allows, a newline or an ESC too: it is shown escaped, on one line.
  const file = escapeUnsafe(shownPath(d, prefix));
  if (d.line <= 0) return file;
  return `${file}:${d.line}:${d.col}`;
}

/** A warning a read gives beside its answer, on one line as its notice says it: `warning: file:line:col code: message. hint`. */
export function warningLine(
  d: Pick<Diagnostic, 'code' | 'file' | 'line' | 'col' | 'source' | 'message'> & { hint?: string | null },
): string {
  return `warning: ${location(d)} ${d.code}: ${escapeUnsafe(d.message)}.${d.hint ? ` ${escapeUnsafe(d.hint)}` : ''}`;
}

/** How many characters of a source line a diagnostic keeps for its excerpt. */
const EXCERPT_CHARS = 200;

/**
 * What a diagnostic at column `col` keeps of its source line `line`: all of a
 * short line; of a long one, a window of EXCERPT_CHARS characters around the
 * column, each cut end marked `…`. A file of a megabyte on one line would
 * otherwise be printed, cached and held once for every diagnostic on it.
 */
export function lineExcerpt(raw: string, col: number): Pick<Diagnostic, 'lineText' | 'lineTextFrom'> {
  // A URL's credentials are masked before a window is cut: a cut through one would leave part of it that
  // hideCredentials no longer knows as one. The mask keeps every column where it was.
  const line = maskCredentials(raw);
  if (line.length <= EXCERPT_CHARS) return { lineText: line };
  let from = Math.max(0, Math.min(col - 1 - EXCERPT_CHARS / 4, line.length - EXCERPT_CHARS));
  let to = from + EXCERPT_CHARS;
  // Never half of a surrogate pair at either cut.
  if (from > 0 && isLowSurrogate(line.charCodeAt(from))) from++;
  if (to < line.length && isLowSurrogate(line.charCodeAt(to))) to--;
  const lineText = `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
  return from > 0 ? { lineText, lineTextFrom: from } : { lineText };
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** A two-line caret excerpt under a diagnostic, or "" when no source line is known. */
export function caretExcerpt(d: Diagnostic): string {
  if (d.lineText === undefined || d.line <= 0) return '';
  const raw = d.lineText.replace(/\t/g, ' ');
  // The line is shown escaped, and without a URL's credentials (a policy source's in config.yaml): the caret moves
  // by what the escapes and the hiding before it changed. A window cut from a long line starts at its
  // `lineTextFrom`, after the `…`.
  const from = d.lineTextFrom ?? 0;
  const shown = escapeUnsafe(hideCredentials(raw));
  // The caret is placed by the columns a terminal gives what comes before it: two for a CJK character or an emoji,
  // none for a combining accent.
  const before = stringWidth(escapeUnsafe(hideCredentials(raw.slice(0, Math.max(0, d.col - 1 - from) + (from > 0 ? 1 : 0)))));
  const gutter = String(d.line);
  const pad = ' '.repeat(gutter.length);
  const caretCol = Math.max(1, Math.min(before + 1, stringWidth(shown) + 1));
  return `${gutter} | ${shown}\n${pad} | ${' '.repeat(caretCol - 1)}^`;
}

/** What parsing one file gives: its value when usable, and every diagnostic. */
export interface Parsed<T> {
  /** Present when the file is usable (no error diagnostics). */
  value?: T;
  diagnostics: Diagnostic[];
}

/**
 * What a command that cannot `what` says of the invalid files it found (`at`: where they were read, when not from the
 * working tree): the first one's place, and how many problems in how many files, counted apart.
 */
export function invalidFilesMessage(what: string, errors: readonly Diagnostic[], at?: string): string {
  const first = errors[0]!;
  // A file's name may hold a newline (a source's file, a clone's): shown escaped, as the lines below the message show it.
  const file = escapeUnsafe(first.file);
  const where = first.line > 0 ? `${file}:${first.line}:${first.col}` : file;
  const files = new Set(errors.map((e) => e.file)).size;
  const there = at === undefined ? '' : ` in ${at}`;
  return errors.length === 1
    ? `cannot ${what}: ${where} is invalid${there}`
    : `cannot ${what}: ${errors.length} problems in ${files === 1 ? 'one store file' : `${files} store files`}${there}, first ${where}`;
}
