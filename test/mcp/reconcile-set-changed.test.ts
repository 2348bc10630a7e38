import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentsError } from '../../src/core/errors.ts';
import { InvariantService, PlanService } from '../../src/index.ts';
import { reconcilePlanPrompt, reconcileTools } from '../../src/mcp/reconcile.ts';
import type { ToolContext } from '../../src/mcp/tool.ts';
import { callTool, newToolContext } from '../../src/mcp/tools.ts';
import { rejectionOf } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, records } from '../helpers/plans.ts';
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
    const ctx: ToolContext = { service, plans, env: {}, agents: 'agents' };
    const asked = (await real.actorRequest(plan.id, null)).invariants.map((i) => i.id);
    const answer = JSON.stringify({ results: asked.map((i) => ({ invariant_id: i, enforced: true, response: 'ok' })) });
    const r = await reconcileTools()[0]!.run({ plan: plan.id, answer }, ctx);
    expect(r.data).toMatchObject({ enforced: 2, total: 2, ok: false, set_changed: { added: 0, removed: 0, edited: 1 } });
    expect(r.text).toContain(`agents plan strategize ${plan.id}`);
  });
});

// An answer to the set a reconcile_plan prompt gave, recorded after that set changed: refused, nothing written, the
// changed ids named, whether the client sends the prompt's set_digest back or not (docs/mcp.md, "Prompts").
describe('MCP record_reconciliation of an answer to a set changed since its prompt', () => {
  const GLOBAL = '01M8KJT9G0XNWEM589ZS7FV0VT';
  const ADDED = '01M8KM1111111111111111111A';
  const record = reconcileTools()[0]!;
  // A copy of the example store each, and a server's context: the prompts it gave are kept there.
  let root = '';
  let ctx: ToolContext;
  beforeEach(() => {
    root = exampleStore();
    ctx = newToolContext(new InvariantService(root));
  });
  const answerTo = (text: string) =>
    JSON.stringify({
      results: [...new Set(text.match(/\b01[0-9A-HJKMNP-TV-Z]{24}\b/g))]
        .filter((id) => id !== EXAMPLE_PLAN)
        .map((id) => ({ invariant_id: id, enforced: true, response: 'honoured' })),
    });
  const ask = async () => {
    const prompt = await reconcilePlanPrompt(ctx, { plan: EXAMPLE_PLAN });
    const digest = prompt._meta['agents/set_digest'];
    expect(prompt.messages[0]!.content.text).toContain(`set_digest "${digest}"`);
    return { digest, answer: answerTo(prompt.messages[0]!.content.text) };
  };
  const edit = () => {
    const file = join(root, `global/${GLOBAL}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Never delete production data', 'Never delete any data'));
  };

  it('an invariant edited since: refused with set-changed naming it, with the set_digest or without; asked again, recorded', async () => {
    const { digest, answer } = await ask();
    edit();
    for (const args of [{ set_digest: digest }, {}]) {
      const error = await rejectionOf<AgentsError>(callTool(record, { plan: EXAMPLE_PLAN.slice(0, 8), answer, ...args }, ctx));
      expect(error).toMatchObject({ code: 'set-changed', exitCode: 2 });
      expect(error.detail).toEqual({ plan: EXAMPLE_PLAN, set_digest: digest, added: [], removed: [], edited: [GLOBAL] });
    }
    expect(records(root, EXAMPLE_PLAN, 'enforcement')).toEqual([]);
    const again = await ask();
    const r = await callTool(record, { plan: EXAMPLE_PLAN, answer: again.answer, set_digest: again.digest }, ctx);
    expect(r.data).toMatchObject({ ok: true, set_changed: null });
  });

  it('an invariant added since: named from the answer for a set_digest this server did not give; an answer to the set now is taken', async () => {
    const { digest, answer } = await ask();
    writeFileSync(join(root, `projects/myapp/${ADDED}.yaml`), invariantYaml(ADDED, 'Added while the agent judged'));
    const fresh = newToolContext(new InvariantService(root));
    const error = await rejectionOf<AgentsError>(callTool(record, { plan: EXAMPLE_PLAN, answer, set_digest: digest }, fresh));
    expect(error).toMatchObject({ code: 'set-changed', exitCode: 2 });
    expect(error.detail).toMatchObject({ added: [ADDED], removed: [], edited: null });
    // Without the set_digest, the answer to the prompt's set is the prompt's, as this server kept it.
    const unsent = await rejectionOf<AgentsError>(callTool(record, { plan: EXAMPLE_PLAN, answer }, ctx));
    expect(unsent).toMatchObject({ code: 'set-changed', detail: { added: [ADDED], removed: [], edited: [] } });
    const bad = await rejectionOf<AgentsError>(callTool(record, { plan: EXAMPLE_PLAN, answer, set_digest: 'sha256:abc' }, fresh));
    expect(bad).toMatchObject({ code: 'invalid-value', detail: { option: 'set_digest' } });
    expect(records(root, EXAMPLE_PLAN, 'enforcement')).toEqual([]);
    // A client that sends no set_digest and answers the set as it is now (read again, not from the prompt) records.
    const now = JSON.parse(answer) as { results: { invariant_id: string }[] };
    now.results.push({ ...now.results[0]!, invariant_id: ADDED });
    const r = await callTool(record, { plan: EXAMPLE_PLAN, answer: JSON.stringify(now) }, ctx);
    expect(r.data).toMatchObject({ total: 5, set_changed: null });
  });
});
