import { describe, expect, it } from 'vitest';
import { parseEnforcement, parseRecord } from '../../src/core/record-files.ts';
import { YAML_SYNTAX } from '../../src/core/yaml-syntax.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const A = '01M8KK0000000000000000000A';
const B = '01M8KK0000000000000000000B';
const C = '01M8KK0000000000000000000C';
const D = '01M8KK0000000000000000000D';

const decision = (summary: string, extra = '') =>
  `id: ${A}\ntype: invariant_enforced\nparent_id: null\ncreated_at: 2026-11-30T00:00:00Z\nsummary: ${summary}\n${extra}`;
const violation = `id: ${C}\ninvariant_id: ${D}\nviolated_text: t\nseverity: warning\ncreated_at: 2026-11-30T00:00:00Z\n`;

describe('parseRecord: what each kind gives', () => {
  it('a valid violation: its value and no diagnostic', () => {
    expect(parseRecord('violations', 'v.yaml', enc(violation), C, YAML_SYNTAX)).toEqual({
      value: {
        record: 'violations',
        value: { id: C, invariant_id: D, violated_text: 't', severity: 'warning', created_at: '2026-11-30T00:00:00Z' },
      },
      diagnostics: [],
    });
  });
});

describe('parseRecord: hidden characters', () => {
  it('a valid record holding a control character is refused with control-character', () => {
    const r = parseRecord('decisions', 'd.yaml', enc(decision('"a\\eb"')), A, YAML_SYNTAX);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['control-character', 5]]);
    expect(r.diagnostics[0]!.message).toMatch(/^summary holds U\+001B \(ESC/);
  });

  it('a record that fails its schema is reported for that alone, its hidden characters not looked at', () => {
    const r = parseRecord('decisions', 'd.yaml', enc(decision('"a\\eb"', 'extra: 1\n')), A, YAML_SYNTAX);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['schema']);
  });
});

describe('parseEnforcement: records of another decision', () => {
  it("names the first record whose decision_id is not the run's, at that decision_id", () => {
    const text =
      `id: ${B}\ndecision_id: ${A}\ncreated_at: 2026-11-30T00:00:00Z\nactor: command\nrecords:\n` +
      `  - invariant_id: ${C}\n    enforced: true\n    actor_response: ok\n    decision_id: ${A}\n` +
      `  - invariant_id: ${D}\n    enforced: true\n    actor_response: ok\n    decision_id: ${D}\n`;
    const r = parseEnforcement('e.yaml', enc(text), B, YAML_SYNTAX);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => ({ code: d.code, line: d.line, col: d.col, message: d.message, hint: d.hint }))).toEqual([
      {
        code: 'schema',
        line: 13,
        col: 18,
        message: `records.1.decision_id differs from the run's decision_id ${A}`,
        hint: "Every record of a run belongs to the run's decision node.",
      },
    ]);
  });
});
