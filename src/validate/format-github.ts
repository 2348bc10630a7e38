import { sortDiagnostics } from '../core/diagnostics.ts';
import { escapeUnsafe, markdownCode, markdownText } from '../core/plain-text.ts';
import { countLine, plural, type ValidationResult } from './result.ts';

/** GitHub shows this many annotations of each kind per step; the rest only in the log. */
export const GITHUB_ANNOTATION_LIMIT = 10;

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/**
 * Escapes the message of a workflow command: control and bidirectional
 * characters made visible (an ESC would colour or hide the log), then
 * GitHub's own escapes, so a newline can never start a second command.
 */
export function escapeData(s: string): string {
  return escapeUnsafe(s, { newlines: true }).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value of a workflow command (one line; also `:` and `,`). */
export function escapeProperty(s: string): string {
  return escapeData(escapeUnsafe(s)).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`),
 * most severe first so the ones GitHub shows are the ones that matter, then a
 * summary line with the full count. Returns the log text and a Markdown step
 * summary.
 */
export function formatGithub(r: ValidationResult): { log: string; stepSummary: string } {
  const lines: string[] = [];
  for (const d of sortDiagnostics(r.diagnostics)) {
    const props = [`file=${escapeProperty(r.repoPrefix + d.file)}`];
    if (d.line > 0) props.push(`line=${d.line}`, `col=${Math.max(1, d.col)}`);
    props.push(`title=${escapeProperty(`agents ${d.code}`)}`);
    const message = d.hint ? `${d.message}\n${d.hint}` : d.message;
    lines.push(`::${COMMAND[d.severity]} ${props.join(',')}::${escapeData(message)}`);
  }
  const n = r.diagnostics.length;
  const shown = (['error', 'warning', 'info'] as const).some((s) => r.counts[s] > GITHUB_ANNOTATION_LIMIT)
    ? ` (GitHub shows at most ${GITHUB_ANNOTATION_LIMIT} annotations of each kind per step; all ${n} are listed above)`
    : '';
  const verdict = r.ok ? 'ok' : 'failed';
  lines.push(`agents validate: ${verdict}: ${countLine(r.counts)} in ${plural(r.files, 'file')} (${r.source})${shown}`);
  const summary = [`### agents validate: ${verdict}`, '', `${countLine(r.counts)} in ${plural(r.files, 'file')} (${r.source}).`, ''];
  if (n > 0) {
    summary.push('| severity | code | location | message |', '| --- | --- | --- | --- |');
    for (const d of sortDiagnostics(r.diagnostics)) {
      const loc = `${r.repoPrefix}${d.file}${d.line > 0 ? `:${d.line}:${d.col}` : ''}`;
      summary.push(`| ${d.severity} | \`${d.code}\` | ${markdownCode(loc)} | ${markdownText(d.message)} |`);
    }
    summary.push('');
  }
  return { log: `${lines.join('\n')}\n`, stepSummary: `${summary.join('\n')}\n` };
}
