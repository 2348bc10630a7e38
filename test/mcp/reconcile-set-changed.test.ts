import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvariantService, PlanService } from '../../src/index.ts';
import { reconcileTools } from '../../src/mcp/reconcile.ts';
import type { ToolContext } from '../../src/mcp/tool.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

// record_reconciliation of a set that changed while the run was written: ok false, and the answer says why.
describe('MCP record_reconciliation of a set changed meanwhile', () => {
  it('answers set_changed with its counts and says the run is stale, as plan strategize does', async () => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const root = testStore({
      [`global/${id}.yaml`]: invariantYaml(id, 'Never delete production data'),
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    let n = 0;
    const service = new InvariantService(root, {
      clock: () => new Date('2026-11-30T09:00:00Z'),
      newId: () => `01M8KM00000000000000000${String(n++).padStart(3, '0')}`,
      author: async () => 'Jane Doe <jane@example.com>',
    });
    const real = new PlanService(service);
    const { plan } = await real.use({ action: 'local/cov' });
    // The invariant is edited while the agent's answer is taken: after the set was read, before the run is written.
    const plans = Object.assign(Object.create(real) as PlanService, {
      strategize: ((planId, options) =>
        real.strategize(planId, {
          ...options,
          actor: {
            ...options.actor,
            evaluate: async (request) => {
              const file = join(root, `global/${id}.yaml`);
              writeFileSync(file, readFileSync(file, 'utf8').replace('production data', 'any data'));
              return options.actor.evaluate(request);
            },
          },
        })) as PlanService['strategize'],
    });
    const ctx: ToolContext = { service, plans, env: {} };
    const asked = (await real.actorRequest(plan.id, null)).invariants.map((i) => i.id);
    const answer = JSON.stringify({ results: asked.map((i) => ({ invariant_id: i, enforced: true, response: 'ok' })) });
    const r = await reconcileTools()[0]!.run({ plan: plan.id, answer }, ctx);
    expect(r.data).toMatchObject({ enforced: 2, total: 2, ok: false, set_changed: { added: 0, removed: 0, edited: 1 } });
    expect(r.text).toContain(`agents plan strategize ${plan.id}`);
  });
});
