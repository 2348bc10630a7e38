import { describe, expect, test } from 'vitest';
import { YAML_SYNTAX } from '../../src/core/parse.ts';
import { parseWaiver as parseWaiverWith } from '../../src/core/waiver-file.ts';

// The full parser is passed in, as src/core/parse.ts does for its callers.
const parseWaiver = (file: string, bytes: Uint8Array, id: string) => parseWaiverWith(file, bytes, id, YAML_SYNTAX);

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const INV = '01M8KJXYP0GVPRF8KRRE9G8474';
const FILE = `plans/01M8KK5920RS6CGAVDFVYYJ0B4/waivers/${ID}.yaml`;

function waiver(fields: Record<string, string>): Uint8Array {
  // The id comes last, so that a diagnostic placed at the wrong key is seen.
  const all = {
    invariant_id: INV,
    reason: 'hotfix',
    owner: 'ops',
    expires: '2026-03-01',
    created_at: '2026-01-01T00:00:00Z',
    id: ID,
    ...fields,
  };
  return new TextEncoder().encode(
    Object.entries(all)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`)
      .join(''),
  );
}

describe('parseWaiver', () => {
  test('a valid waiver', () => {
    const parsed = parseWaiver(FILE, waiver({}), ID);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toMatchObject({ id: ID, invariant_id: INV, expires: '2026-03-01' });
  });

  test('an id that differs from the file name: id-mismatch at the id', () => {
    const other = '01M8KK3EF09G9ET4TAJAHQWPMN';
    const parsed = parseWaiver(FILE, waiver({ reason: 'r', id: other }), ID);
    expect(parsed.value).toBeUndefined();
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col, d.message, d.hint])).toEqual([
      ['id-mismatch', 6, 5, `id ${other} differs from the file name ${ID}.yaml`, `Rename the file to ${other}.yaml or correct the id.`],
    ]);
  });

  test('a date that does not exist: a schema error at the expires value, as waiver-expired is', () => {
    const parsed = parseWaiver(FILE, waiver({ expires: '2026-02-30' }), ID);
    expect(parsed.value).toBeUndefined();
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([
      ['schema', 4, 10, 'expires 2026-02-30 is not a real date'],
    ]);
    expect(parsed.diagnostics[0]?.hint).toBe('Give a date that exists (YYYY-MM-DD) or an RFC 3339 date-time.');
  });

  test('a date-time on a day or at an hour that does not exist: a schema error at the expires value', () => {
    for (const expires of ['2027-02-30T10:00:00Z', '2027-03-01T24:00:00Z']) {
      const parsed = parseWaiver(FILE, waiver({ expires }), ID);
      expect(parsed.value).toBeUndefined();
      expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['schema', 4, 10]]);
    }
  });

  test('a date-time RFC 3339 allows but the store does not keep (a lower-case t or z) is said to need them upper case', () => {
    const parsed = parseWaiver(FILE, waiver({ expires: '2027-01-10t10:00:00z' }), ID);
    expect(parsed.value).toBeUndefined();
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['schema', 4, 10]]);
    expect(parsed.diagnostics[0]!.message).toContain('T and Z in upper case');
  });

  test('a schema mismatch and broken YAML give their own diagnostics', () => {
    expect(parseWaiver(FILE, waiver({ owner: '' }), ID).diagnostics.map((d) => d.code)).toEqual(['schema']);
    const broken = parseWaiver(FILE, new TextEncoder().encode('id: [\n'), ID);
    expect(broken.value).toBeUndefined();
    expect(broken.diagnostics[0]?.code).toBe('yaml-syntax');
  });

  test('a reason or owner holding a control, bidirectional or invisible character: control-character, no waiver', () => {
    for (const fields of <Record<string, string>[]>[{ reason: 'ok \u001b[2K hidden' }, { owner: 'ops \u202e' }, { reason: 'a\u200bb' }]) {
      const parsed = parseWaiver(FILE, waiver(fields), ID);
      expect(parsed.value).toBeUndefined();
      expect(parsed.diagnostics.map((d) => [d.code, d.severity])).toEqual([['control-character', 'error']]);
    }
  });
});
