import { describe, expect, it } from 'vitest';
import { assertRunFits, enforcementFile } from '../../src/core/enforcement-file.ts';
import type { EnforcementRun } from '../../src/core/record-types.ts';
import { formatEnforcementFile } from '../../src/core/serialize.ts';

const id = (n: number) => `01M8KM${String(n).padStart(20, '0')}`;
const REL = 'plans/01M8KM00000000000000000000/enforcement/01M8KM00000000000000000001.yaml';

/** A run of `count` records, each answered with `response`. */
function run(count: number, response: string): EnforcementRun {
  return {
    id: id(1),
    decision_id: id(2),
    created_at: '2026-11-30T09:00:00Z',
    actor: 'command',
    set_digest: `sha256:${'a'.repeat(64)}`,
    records: Array.from({ length: count }, (_, n) => ({
      invariant_id: id(n + 10),
      enforced: n % 2 === 0,
      actor_response: response,
      decision_id: id(2),
      digest: `sha256:${'b'.repeat(64)}`,
    })),
  };
}

describe('enforcementFile', () => {
  it('writes a run that fits as formatEnforcementFile does, its responses whole', () => {
    const small = run(20, 'Step 2 runs the test suite.');
    expect(enforcementFile(REL, small)).toEqual({ text: formatEnforcementFile(REL, small), run: small });
  });

  it('refuses, file-too-large, a run that would be over 1 MiB with every response cut to one character, before an actor is asked', () => {
    expect(() => assertRunFits(REL, run(4800, 'ok'))).toThrow(expect.objectContaining({ code: 'file-too-large', exitCode: 2 }));
    expect(() => assertRunFits(REL, run(400, 'x'.repeat(1000)))).not.toThrow();
  });
});
