import type { Diagnostic } from '../core/diagnostics.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { CODE_SUMMARIES } from './codes.ts';
import type { ValidationResult } from './result.ts';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

function region(line: number, col: number): { region?: { startLine: number; startColumn: number } } {
  return line > 0 ? { region: { startLine: line, startColumn: Math.max(1, col) } } : {};
}

/**
 * SARIF 2.1.0, as GitHub code scanning uploads accept it: one run, one rule
 * per diagnostic code, locations relative to the repository top.
 */
export function sarifLog(r: ValidationResult, version: string): Record<string, unknown> {
  const codes = [...new Set(r.diagnostics.map((d) => d.code))].sort();
  const index = new Map(codes.map((c, i) => [c, i]));
  const location = (file: string, line: number, col: number) => ({
    physicalLocation: { artifactLocation: { uri: encodeURI(escapeUnsafe(r.repoPrefix + file)) }, ...region(line, col) },
  });
  const result = (d: Diagnostic) => ({
    ruleId: d.code,
    ruleIndex: index.get(d.code)!,
    level: LEVEL[d.severity],
    message: { text: escapeUnsafe(d.hint ? `${d.message}. ${d.hint}` : d.message, { newlines: true }) },
    locations: [location(d.file, d.line, d.col)],
    ...(d.related?.length
      ? {
          relatedLocations: d.related.map((x, i) => ({
            id: i + 1,
            ...location(x.file, x.line, x.col),
            message: { text: escapeUnsafe(x.message, { newlines: true }) },
          })),
        }
      : {}),
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'agents',
            semanticVersion: version,
            version,
            informationUri: 'https://www.npmjs.com/package/agents-invariants',
            rules: codes.map((c) => ({
              id: c,
              name: c.replace(/(^|-)([a-z0-9])/g, (_m, _d, ch: string) => ch.toUpperCase()),
              shortDescription: { text: CODE_SUMMARIES[c] },
              defaultConfiguration: { level: LEVEL[r.diagnostics.find((d) => d.code === c)!.severity] },
            })),
          },
        },
        invocations: [{ executionSuccessful: true }],
        results: [...r.diagnostics]
          .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col))
          .map(result),
      },
    ],
  };
}

export function formatSarif(r: ValidationResult, version: string): string {
  return `${JSON.stringify(sarifLog(r, version), null, 2)}\n`;
}
