import { byPosition, caretExcerpt, location } from '../core/diagnostics.ts';
import type { Style } from '../core/style.ts';
import { countLine, plural, type ValidationResult } from './result.ts';

/**
 * For people: `path:line:col  severity  code  message`, a caret excerpt and
 * a hint under each, in file order; the fixes made; one summary line.
 */
export function formatText(r: ValidationResult, s: Style): string {
  const lines: string[] = [];
  for (const f of r.fixes) lines.push(`${f.done ? s.green('fixed') : s.yellow('not fixed')}  ${f.message}`);
  if (r.fixes.length > 0) lines.push('');
  for (const d of byPosition(r.diagnostics)) {
    const sev = d.severity === 'error' ? s.red('error') : d.severity === 'warning' ? s.yellow('warning') : s.cyan('info');
    lines.push(`${location(d, r.displayPrefix)}  ${sev}  ${s.dim(d.code)}  ${d.message}`);
    const excerpt = caretExcerpt(d);
    if (excerpt) lines.push(excerpt.replace(/^/gm, '    '));
    for (const rel of d.related ?? []) lines.push(`    ${s.dim(`${rel.message}: ${location(rel, r.displayPrefix)}`)}`);
    if (d.hint) lines.push(`    ${s.dim(`hint: ${d.hint}`)}`);
  }
  if (r.diagnostics.length > 0) lines.push('');
  const where = `${plural(r.files, 'file')} (${r.source})`;
  if (r.diagnostics.length === 0) lines.push(`${s.green('ok')}  no problems in ${where}`);
  else {
    const verdict = r.ok ? s.green('ok') : s.red('failed');
    const strictNote = r.strict && r.counts.error === 0 && r.counts.warning > 0 ? ' (--strict: warnings fail)' : '';
    lines.push(`${verdict}  ${countLine(r.counts)} in ${where}${strictNote}`);
  }
  return `${lines.join('\n')}\n`;
}
