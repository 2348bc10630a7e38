import { describe, expect, it } from 'vitest';
import { reconcileTools } from '../../src/mcp/reconcile.ts';
import { newToolContext } from '../../src/mcp/tools.ts';
import { InvariantService } from '../../src/index.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, EXAMPLE_PLAN_SET, exampleStore, records, type EnforcementFile } from '../helpers/plans.ts';

// The run record_reconciliation writes keeps the MCP client's name and version as its model:
// a name the client chose, which no answer of the agent's can change, must not keep it from recording.

const IDS = EXAMPLE_PLAN_SET.map(([id]) => id);
const ANSWER = JSON.stringify({ results: IDS.map((id) => ({ invariant_id: id, enforced: true, response: 'honoured' })) });

describe('record_reconciliation and the client’s name', () => {
  it('a client name that is long or holds control and bidirectional characters is recorded, cut and escaped; the store stays valid', async () => {
    const root = exampleStore();
    const ctx = newToolContext(new InvariantService(root));
    const record = reconcileTools().find((t) => t.name === 'record_reconciliation')!;
    for (const name of [`${'n'.repeat(300)}/1.0`, 'evil\u001b[2J\u202eclient/1.0']) {
      ctx.client = () => name;
      const r = await record.run({ plan: EXAMPLE_PLAN, answer: ANSWER }, ctx);
      expect(r.data).toMatchObject({ enforced: IDS.length, total: IDS.length });
    }
    const models = records<EnforcementFile & { model?: string }>(root, EXAMPLE_PLAN, 'enforcement').map((r) => r.model!);
    expect(models).toHaveLength(2);
    expect([...models[0]!].length).toBe(256);
    expect(models[0]).toMatch(/^mcp:n+…$/);
    expect(models[1]).toBe('mcp:evil\\u001b[2J\\u202eclient/1.0');
    expect((await runAgents(['--store', root, 'validate'])).code).toBe(0);
  });
});
