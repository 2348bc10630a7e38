import { SEVERITIES } from '../core/model.ts';
import { location, sortDiagnostics } from '../core/diagnostics.ts';
import { escapeUnsafe, githubMarkdownText, markdownCode } from '../core/plain-text.ts';
import { PerCodeLimit } from './format-text.ts';
import { countLine, filesLine, type ValidationResult } from './result.ts';

/** GitHub shows this many annotations of each kind per step; the rest only in the log. */
export const GITHUB_ANNOTATION_LIMIT = 10;

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/**
 * Escapes the message of a workflow command: control and bidirectional
 * characters made visible (an ESC would colour or hide the log), then
 * GitHub's own escapes, so a newline can never start a second command.
 */
export function escapeData(s: string): string {
  return githubEscapes(escapeUnsafe(s, { newlines: true }));
}

/** GitHub's escapes of a workflow command's data, which it decodes back: `%`, CR and LF. */
function githubEscapes(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Escapes a property value of a workflow command: GitHub's escapes for `%`, CR, LF, `:` and `,`, which it decodes
 * back, so a file name holding them still names its file; the other control characters made visible, as they can
 * be no file's name GitHub would find.
 */
export function escapeProperty(s: string): string {
  return escapeUnsafe(githubEscapes(s).replace(/:/g, '%3A').replace(/,/g, '%2C'));
}

/** Pieces of about this many characters. */
const PIECE = 1 << 16;

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`),
 * most severe first so the ones GitHub shows are the ones that matter (at
 * most LISTED_PER_CODE of a code unless `verbose`; the rest counted), then a
 * summary line with the full count. In pieces.
 */
export function* githubLog(r: ValidationResult, verbose = false): Generator<string> {
  let piece = '';
  let listed = 0;
  const limit = new PerCodeLimit(verbose);
  for (const d of sortDiagnostics(r.diagnostics)) {
    if (!limit.list(d)) continue;
    listed++;
    // A policy source's file is in no file of this repository: the annotation stands on the run, naming it in its message.
    const props = d.source === undefined ? [`file=${escapeProperty(r.repoPrefix + d.file)}`] : [];
    if (d.line > 0 && d.source === undefined) props.push(`line=${d.line}`, `col=${Math.max(1, d.col)}`);
    props.push(`title=${escapeProperty(`agents ${d.code}`)}`);
    const said = d.source === undefined ? d.message : `${location(d)}: ${d.message}`;
    const message = d.hint ? `${said}\n${d.hint}` : said;
    piece += `::${COMMAND[d.severity]} ${props.join(',')}::${escapeData(message)}\n`;
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  for (const line of limit.lines()) piece += `${line}\n`;
  const n = r.diagnostics.length;
  const where = listed === n ? `all ${n} are listed above` : `${listed} of ${n} are listed above; \`--verbose\` lists all`;
  const shown = SEVERITIES.some((s) => r.counts[s] > GITHUB_ANNOTATION_LIMIT)
    ? ` (GitHub shows at most ${GITHUB_ANNOTATION_LIMIT} annotations of each kind per step; ${where})`
    : '';
  const verdict = r.ok ? 'ok' : 'failed';
  yield `${piece}agents validate: ${verdict}: ${countLine(r.counts)} in ${filesLine(r)}${shown}\n`;
}

/** GitHub drops a step summary over this many bytes whole (it shows an error instead). */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/** Room kept below the limit for the lines after the table: the per-code counts and the rows left out. */
const SUMMARY_TAIL = 32 * 1024;

/**
 * The Markdown step summary: the verdict, then a table of the diagnostics
 * (cut short as in the log, and before `limit` bytes, saying how many rows
 * were left out). In pieces.
 */
export function* githubStepSummary(r: ValidationResult, verbose = false, limit = STEP_SUMMARY_LIMIT): Generator<string> {
  const verdict = r.ok ? 'ok' : 'failed';
  let piece = `### agents validate: ${verdict}\n\n${countLine(r.counts)} in ${filesLine(r)}.\n\n`;
  if (r.diagnostics.length > 0) {
    piece += '| severity | code | location | message |\n| --- | --- | --- | --- |\n';
    let bytes = Buffer.byteLength(piece);
    let left = 0;
    const perCode = new PerCodeLimit(verbose);
    for (const d of sortDiagnostics(r.diagnostics)) {
      if (!perCode.list(d)) continue;
      const loc = `${r.repoPrefix}${d.file}${d.line > 0 ? `:${d.line}:${d.col}` : ''}`;
      const row = `| ${d.severity} | \`${d.code}\` | ${markdownCode(loc)} | ${githubMarkdownText(d.message)} |\n`;
      const size = Buffer.byteLength(row);
      if (left > 0 || bytes + size > limit - SUMMARY_TAIL) {
        left++;
        continue;
      }
      bytes += size;
      piece += row;
      if (piece.length >= PIECE) {
        yield piece;
        piece = '';
      }
    }
    piece += '\n';
    for (const line of perCode.lines()) piece += `${line}\n\n`;
    if (left > 0) piece += `… and ${left} more row${left === 1 ? '' : 's'}: a step summary holds at most 1 MiB; the log lists them.\n\n`;
  }
  yield piece;
}

/** The log text and the Markdown step summary, whole (see githubLog, githubStepSummary). */
export function formatGithub(r: ValidationResult, verbose = false): { log: string; stepSummary: string } {
  return { log: [...githubLog(r, verbose)].join(''), stepSummary: [...githubStepSummary(r, verbose)].join('') };
}
