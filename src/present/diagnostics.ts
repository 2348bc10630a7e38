import { agentsHints, caretExcerpt, type Diagnostic, location } from '../core/diagnostics.ts';
import type { AgentsError } from '../core/errors.ts';
import type { Style } from '../core/style.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { INTEGER, type JsonSchema, nullable, objectOf, STRING } from './schema.ts';

/**
 * The lines a user error is reported with: what, where (each diagnostic with
 * its caret excerpt) and the hint. `main` prints them on stderr; `agents mcp`
 * returns them as a tool's error result, so both say exactly the same. `agents` starts the command it names (the
 * CLI's with its --store, CliContext.agentsCommand), so that, pasted, it reaches the same store: the "more" line's, the diagnostics' and the hint's.
 */
export function errorLines(error: AgentsError, s: Style, agents = 'agents'): string[] {
  // Escaped before the colours go in: the output keeps the CLI's own colour codes, and a file name holding one (\e[31m)
  // would pass as one of them, unescaped.
  const plain = (text: string) => escapeUnsafe(text, { newlines: true });
  const lines = [`${s.red('error:')} ${plain(error.message)}`];
  const shown = error.diagnostics.slice(0, 20);
  const withRun = agentsHints(agents);
  for (const d of shown) {
    lines.push(`  ${location(d)}  ${d.code}  ${plain(d.message)}`);
    const excerpt = caretExcerpt(d);
    if (excerpt) lines.push(excerpt.replace(/^/gm, '    '));
    const { hint } = withRun(d);
    if (hint) lines.push(`    ${s.dim(plain(hint))}`);
  }
  if (error.diagnostics.length > shown.length)
    lines.push(`  … and ${error.diagnostics.length - shown.length} more (run \`${agents} validate\`)`);
  const hint = error.hintFor(agents);
  if (hint) lines.push(`${s.dim('hint:')} ${plain(hint)}`);
  return lines;
}

/**
 * A user error on one line, as a screen's status line says it: the message and the first diagnostic's code (its
 * file:line:col too where the message does not give it), so that a screen that shows no excerpts still says what is
 * wrong where. The message already counts the rest ("3 problems in 2 store files, first …"). Then the hint, when it is
 * one for any surface (a lock to delete): one that names command-line options or commands would mean nothing in a form.
 */
export function errorSummary(error: AgentsError): string {
  const first = error.diagnostics[0];
  const where = first === undefined ? '' : location(first);
  const said =
    first === undefined ? error.message : `${error.message} (${first.code}${error.message.includes(where) ? '' : ` at ${where}`})`;
  return error.hintAnySurface && error.hint !== undefined ? `${said}${said.endsWith('.') ? '' : '.'} ${error.hint}` : said;
}

/**
 * Diagnostics as data (docs/json-output.md): everything but the source line, which the excerpt already showed. `agents`
 * starts the commands their hints name, as errorLines'.
 */
export function diagnosticsJson(
  diagnostics: AgentsError['diagnostics'],
  agents = 'agents',
): Omit<AgentsError['diagnostics'][number], 'lineText' | 'lineTextFrom'>[] {
  const withRun = agentsHints(agents);
  return diagnostics.map(({ lineText: _l, lineTextFrom: _f, ...d }) => withRun(d));
}

/** A warning a read gives beside its answer (a plan whose project is gone): `{code, severity, file, line, col, message, hint}`. */
export function warningsJson(warnings: readonly Diagnostic[]) {
  return warnings.map((d) => ({
    code: d.code,
    severity: d.severity,
    file: d.file,
    line: d.line,
    col: d.col,
    message: d.message,
    hint: d.hint ?? null,
  }));
}

export const WARNING_SCHEMA: JsonSchema = objectOf(
  { code: STRING, severity: STRING, file: STRING, line: INTEGER, col: INTEGER, message: STRING, hint: nullable('string') },
  ['code', 'severity', 'file', 'line', 'col', 'message', 'hint'],
);
