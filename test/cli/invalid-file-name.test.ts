// A store file whose name holds a newline (a clone's, a policy source's) is named on one line by the error that
// stops a command on it, as the problem lines under it name it: never a line of its own that the name makes up.
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

describe('an invalid file whose name holds a newline', () => {
  it("is named on the error's first line, escaped, as below it", async () => {
    const store = testStore({ 'global/x\n::error::forged.yaml': 'id: x\n' });
    const r = await runAgents(['--store', store, 'invariant', 'list', '--global']);
    expect(r.code).toBe(3);
    const [first, second] = r.stderr.split('\n');
    expect(first).toMatch(/global\/x\\n::error::forged\.yaml is invalid$/);
    expect(second).toContain('global/x\\n::error::forged.yaml');
  });
});
