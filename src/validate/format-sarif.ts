import type { Diagnostic } from '../core/diagnostics.ts';
import { jsonPieces, STREAM } from '../core/json-stream.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { CODE_SUMMARIES } from './codes.ts';
import type { ValidationResult } from './result.ts';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** The store file that names the policy sources (docs/extends.md). */
const EXTENDS_FILE = 'config.yaml';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/**
 * Where a code-scanning reader learns about the tool: the project's page (package.json's `homepage`). Not the npm
 * registry's page, which does not exist while the package is installed from the repository (README, Install).
 */
export const INFORMATION_URI = 'https://github.com/agents-invariants/agents#readme';

/**
 * A path as a relative URI reference: percent-encoded, with `#`, `?` and `:`
 * encoded too, so they cannot start a fragment or a query, or read as a scheme
 * in the first segment (RFC 3986, 4.2), and the reader finds the file itself.
 */
export function relativeUri(path: string): string {
  return encodeURI(path).replace(/[#?:]/g, encodeURIComponent);
}

function region(line: number, col: number): { region?: { startLine: number; startColumn: number } } {
  return line > 0 ? { region: { startLine: line, startColumn: Math.max(1, col) } } : {};
}

/**
 * SARIF 2.1.0, as GitHub code scanning uploads accept it: one run, one rule
 * per diagnostic code, locations relative to the repository top.
 */
export function sarifLog(r: ValidationResult, version: string): Record<string, unknown> {
  return JSON.parse(formatSarif(r, version)) as Record<string, unknown>;
}

/** The log with its results at STREAM, and the results (built one at a time, in their order). */
function sarifParts(r: ValidationResult, version: string): { log: Record<string, unknown>; results: Iterable<unknown> } {
  const codes = [...new Set(r.diagnostics.map((d) => d.code))].sort();
  const index = new Map(codes.map((c, i) => [c, i]));
  const location = (file: string, line: number, col: number) => ({
    physicalLocation: { artifactLocation: { uri: relativeUri(r.repoPrefix + file) }, ...region(line, col) },
  });
  const result = (d: Diagnostic) => ({
    ruleId: d.code,
    ruleIndex: index.get(d.code)!,
    level: LEVEL[d.severity],
    // A policy source's file is no file of this repository: named in the message, and placed on the store's
    // config.yaml, whose `extends` brings it in (code scanning refuses a whole upload holding a result with no location).
    message: {
      text: escapeUnsafe(`${d.source === undefined ? '' : `${d.file}: `}${d.hint ? `${d.message}. ${d.hint}` : d.message}`, {
        newlines: true,
      }),
    },
    locations: [d.source === undefined ? location(d.file, d.line, d.col) : location(EXTENDS_FILE, 0, 0)],
    ...(d.related?.some((x) => x.source === undefined)
      ? {
          relatedLocations: d.related
            .filter((x) => x.source === undefined)
            .map((x, i) => ({
              id: i + 1,
              ...location(x.file, x.line, x.col),
              message: { text: escapeUnsafe(x.message, { newlines: true }) },
            })),
        }
      : {}),
  });
  const sorted = [...r.diagnostics].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
  function* results() {
    for (const d of sorted) yield result(d);
  }
  const firstSeverity = new Map<string, Diagnostic['severity']>();
  for (const d of r.diagnostics) if (!firstSeverity.has(d.code)) firstSeverity.set(d.code, d.severity);
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'agents',
            semanticVersion: version,
            version,
            informationUri: INFORMATION_URI,
            rules: codes.map((c) => ({
              id: c,
              name: c.replace(/(^|-)([a-z0-9])/g, (_m, _d, ch: string) => ch.toUpperCase()),
              shortDescription: { text: CODE_SUMMARIES[c] },
              defaultConfiguration: { level: LEVEL[firstSeverity.get(c)!] },
            })),
          },
        },
        invocations: [{ executionSuccessful: true }],
        results: STREAM,
      },
    ],
  };
  return { log, results: results() };
}

/** The SARIF text in pieces, every result included, each built as it is written (docs/json-output.md). */
export function* sarifOutput(r: ValidationResult, version: string): Generator<string> {
  const { log, results } = sarifParts(r, version);
  yield* jsonPieces(log, results);
  yield '\n';
}

export function formatSarif(r: ValidationResult, version: string): string {
  return [...sarifOutput(r, version)].join('');
}
