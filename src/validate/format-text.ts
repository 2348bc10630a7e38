import { byPosition, caretExcerpt, type Diagnostic, location } from '../core/diagnostics.ts';
import { type Style, withCommas } from '../core/style.ts';
import { countLine, filesLine, type ValidationResult } from './result.ts';

import { LISTED_PER_CODE } from './limits.ts';

export { LISTED_PER_CODE };

/** Pieces of about this many characters. */
const PIECE = 1 << 16;

/** Decides, in output order, which diagnostics are listed; counts the others per code. */
export class PerCodeLimit {
  private readonly seen = new Map<string, number>();

  constructor(private readonly verbose: boolean) {}

  /** Whether `d` is listed (the first LISTED_PER_CODE of its code, or all with --verbose). */
  list(d: Diagnostic): boolean {
    const n = (this.seen.get(d.code) ?? 0) + 1;
    this.seen.set(d.code, n);
    return this.verbose || n <= LISTED_PER_CODE;
  }

  /** The summary lines of the codes cut short, by code: "… and 99,980 more `modeline-missing`; `--verbose` lists all". */
  lines(): string[] {
    if (this.verbose) return [];
    return [...this.seen]
      .filter(([, n]) => n > LISTED_PER_CODE)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([code, n]) => `… and ${withCommas(n - LISTED_PER_CODE)} more \`${code}\`; \`--verbose\` lists all`);
  }
}

/**
 * For people: `path:line:col  severity  code  message`, a caret excerpt and
 * a hint under each, in file order (at most LISTED_PER_CODE of a code unless
 * `verbose`); the fixes made (as many of each kind); one summary line. In pieces, so that a long
 * report is never one string.
 */
export function* textOutput(r: ValidationResult, s: Style, verbose = false): Generator<string> {
  let piece = '';
  // Fixes too: the first LISTED_PER_CODE of each kind, made or not (`--fix` on 100,000 files lacking their modeline makes 100,000).
  const listedFixes = new Map<string, number>();
  for (const f of r.fixes) {
    const kind = `${f.action}${f.done ? '' : ' not done'}`;
    const n = (listedFixes.get(kind) ?? 0) + 1;
    listedFixes.set(kind, n);
    if (!verbose && n > LISTED_PER_CODE) continue;
    piece += `${f.done ? s.green('fixed') : s.yellow('not fixed')}  ${f.message}\n`;
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  if (!verbose)
    for (const [kind, n] of [...listedFixes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      if (n > LISTED_PER_CODE)
        piece += `${s.dim(`… and ${withCommas(n - LISTED_PER_CODE)} more \`${kind}\` fixes; \`--verbose\` lists all`)}\n`;
  if (r.fixes.length > 0) piece += '\n';
  const limit = new PerCodeLimit(verbose);
  for (const d of byPosition(r.diagnostics)) {
    if (!limit.list(d)) continue;
    const sev = d.severity === 'error' ? s.red('error') : d.severity === 'warning' ? s.yellow('warning') : s.cyan('info');
    piece += `${location(d, r.displayPrefix)}  ${sev}  ${s.dim(d.code)}  ${d.message}\n`;
    const excerpt = caretExcerpt(d);
    if (excerpt) piece += `${excerpt.replace(/^/gm, '    ')}\n`;
    for (const rel of d.related ?? []) piece += `    ${s.dim(`${rel.message}: ${location(rel, r.displayPrefix)}`)}\n`;
    if (d.hint) piece += `    ${s.dim(`hint: ${d.hint}`)}\n`;
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  for (const line of limit.lines()) piece += `${s.dim(line)}\n`;
  if (r.diagnostics.length > 0) piece += '\n';
  const where = filesLine(r);
  if (r.diagnostics.length === 0) piece += `${s.green('ok')}  no problems in ${where}\n`;
  else {
    const verdict = r.ok ? s.green('ok') : s.red('failed');
    const strictNote = r.strict && r.counts.error === 0 && r.counts.warning > 0 ? ' (--strict: warnings fail)' : '';
    piece += `${verdict}  ${countLine(r.counts)} in ${where}${strictNote}\n`;
  }
  yield piece;
}

export function formatText(r: ValidationResult, s: Style, verbose = false): string {
  return [...textOutput(r, s, verbose)].join('');
}
