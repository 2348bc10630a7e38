import { sortDiagnostics } from '../core/diagnostics.ts';
import type { ValidationResult } from './result.ts';

/** The stable JSON shape of `agents validate --format json` (docs/json-output.md). */
export interface ValidateJson {
  version: 1;
  ok: boolean;
  strict: boolean;
  store: string;
  source: string;
  files: number;
  summary: { error: number; warning: number; info: number };
  diagnostics: {
    code: string;
    severity: string;
    file: string;
    path: string;
    line: number;
    col: number;
    message: string;
    hint: string | null;
    related: { file: string; path: string; line: number; col: number; message: string }[];
  }[];
  fixes: { file: string; action: string; to: string | null; done: boolean; message: string }[];
}

export function validateJson(r: ValidationResult): ValidateJson {
  return {
    version: 1,
    ok: r.ok,
    strict: r.strict,
    store: r.store,
    source: r.source,
    files: r.files,
    summary: { ...r.counts },
    diagnostics: sortDiagnostics(r.diagnostics).map((d) => ({
      code: d.code,
      severity: d.severity,
      file: d.file,
      path: r.displayPrefix + d.file,
      line: d.line,
      col: d.col,
      message: d.message,
      hint: d.hint ?? null,
      related: (d.related ?? []).map((x) => ({
        file: x.file,
        path: r.displayPrefix + x.file,
        line: x.line,
        col: x.col,
        message: x.message,
      })),
    })),
    fixes: r.fixes.map((f) => ({ file: f.file, action: f.action, to: f.to ?? null, done: f.done, message: f.message })),
  };
}

export function formatJson(r: ValidationResult): string {
  return `${JSON.stringify(validateJson(r), null, 2)}\n`;
}
