import type { Diagnostic, DiagnosticCode } from '../../core/diagnostics.ts';
import type { Severity } from '../../core/model.ts';

/** A finding about a whole file (no position), with what to do about it. */
export function problem(
  code: DiagnosticCode,
  severity: Severity,
  file: string,
  message: string,
  hint: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  // Every finding of these checks comes with a hint (after `extra`: the order of a diagnostic's keys in JSON).
  return { code, severity, file, line: 0, col: 0, message, ...extra, hint };
}
