import type { Diagnostic } from '../core/diagnostics.ts';
import { shownPath, sortDiagnostics } from '../core/diagnostics.ts';
import { jsonPieces, STREAM } from '../core/json-stream.ts';
import type { ValidationResult } from './result.ts';

/** One diagnostic of the JSON shape. */
export interface ValidateJsonDiagnostic {
  code: string;
  severity: string;
  file: string;
  path: string;
  line: number;
  col: number;
  message: string;
  hint: string | null;
  related: { file: string; path: string; line: number; col: number; message: string }[];
}

/** The stable JSON shape of `agents validate --format json` (docs/json-output.md). */
export interface ValidateJson {
  version: 1;
  ok: boolean;
  strict: boolean;
  store: string;
  source: string;
  files: number;
  summary: { error: number; warning: number; info: number };
  diagnostics: ValidateJsonDiagnostic[];
  fixes: { file: string; action: string; to: string | null; done: boolean; message: string }[];
}

function diagnosticJson(r: ValidationResult, d: Diagnostic): ValidateJsonDiagnostic {
  return {
    code: d.code,
    severity: d.severity,
    file: d.file,
    path: shownPath(d, r.displayPrefix),
    line: d.line,
    col: d.col,
    message: d.message,
    hint: d.hint ?? null,
    related: (d.related ?? []).map((x) => ({
      file: x.file,
      path: shownPath(x, r.displayPrefix),
      line: x.line,
      col: x.col,
      message: x.message,
    })),
  };
}

/** The document with its diagnostics at `diagnostics` (an array, or STREAM). */
function documentOf(r: ValidationResult, diagnostics: unknown): Omit<ValidateJson, 'diagnostics'> & { diagnostics: unknown } {
  return {
    version: 1,
    ok: r.ok,
    strict: r.strict,
    store: r.store,
    source: r.source,
    files: r.files,
    summary: { ...r.counts },
    diagnostics,
    fixes: r.fixes.map((f) => ({ file: f.file, action: f.action, to: f.to ?? null, done: f.done, message: f.message })),
  };
}

export function validateJson(r: ValidationResult): ValidateJson {
  return documentOf(
    r,
    sortDiagnostics(r.diagnostics).map((d) => diagnosticJson(r, d)),
  ) as ValidateJson;
}

/** The JSON text in pieces, every diagnostic included, each built as it is written (docs/json-output.md). */
export function* jsonOutput(r: ValidationResult): Generator<string> {
  const sorted = sortDiagnostics(r.diagnostics);
  function* items() {
    for (const d of sorted) yield diagnosticJson(r, d);
  }
  const pieces = jsonPieces(documentOf(r, STREAM), items());
  for (const piece of pieces) yield piece;
  yield '\n';
}

export function formatJson(r: ValidationResult): string {
  return [...jsonOutput(r)].join('');
}
