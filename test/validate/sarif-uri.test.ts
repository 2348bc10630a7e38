import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.ts';
import { sarifLog } from '../../src/validate/format-sarif.ts';
import type { ValidationResult } from '../../src/validate/result.ts';

function result(repoPrefix: string, files: string[]): ValidationResult {
  const diagnostics: Diagnostic[] = files.map((file) => ({
    code: 'schema',
    severity: 'error',
    file,
    line: 1,
    col: 1,
    message: 'missing required key "text"',
  }));
  return {
    store: '/repo/x',
    source: 'working tree',
    files: files.length,
    diagnostics,
    fixes: [],
    strict: false,
    ok: false,
    counts: { error: files.length, warning: 0, info: 0 },
    displayPrefix: repoPrefix,
    repoPrefix,
  };
}

/** Where a SARIF reader resolving the URI against the repository top finds the file. */
function resolved(uri: string): string {
  const url = new URL(uri, 'file:///repo/');
  expect(url.protocol).toBe('file:');
  expect(url.search).toBe('');
  expect(url.hash).toBe('');
  return decodeURIComponent(url.pathname).slice('/repo/'.length);
}

describe('validate --format sarif: artifact URIs', () => {
  it('resolve against the repository top to the file itself, whatever its path holds', () => {
    const prefix = 'a:b dir#x?y%z/.agents/';
    const files = ['global/wé ird,na:me.yaml', 'global/100%.yaml', 'projects/p#1/q?.yaml', 'global/bad\u001b[2Kname.yaml'];
    const log = sarifLog(result(prefix, files), '0.0.0') as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    const uris = log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri);
    expect(uris.map(resolved).sort()).toEqual(files.map((f) => prefix + f).sort());
    // Nothing raw: a control character is percent-encoded, not written.
    for (const uri of uris) expect(uri).toMatch(/^[\x21-\x7e]+$/);
  });

  it('keeps a plain path as it is', () => {
    const log = sarifLog(result('.agents/', ['global/01JDQ6X5Z8W4N3B2C1D0E9F001.yaml']), '0.0.0') as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
      '.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F001.yaml',
    );
  });

  it("places a policy source's finding on the store's config.yaml: code scanning refuses a result with no location", () => {
    const r = result('.agents/', []);
    r.diagnostics = [
      {
        code: 'schema',
        severity: 'error',
        file: 'extends/policy/global/01JDQ6X5Z8W4N3B2C1D0E9F001.yaml',
        source: 'policy',
        line: 3,
        col: 7,
        message: 'severity must be one of "error", "warning", "info"',
      },
    ];
    const log = sarifLog(r, '0.0.0') as {
      runs: { results: { message: { text: string }; locations: { physicalLocation: Record<string, unknown> }[] }[] }[];
    };
    const [only] = log.runs[0]!.results;
    expect(only!.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: '.agents/config.yaml' } } }]);
    expect(only!.message.text).toContain('extends/policy/global/01JDQ6X5Z8W4N3B2C1D0E9F001.yaml');
  });
});
