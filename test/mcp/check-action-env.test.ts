// MCP check_action reads the run's environment (the one main was given), as every other service does, not the
// process's: an agent's AGENTS_PLAN names the plan whose guards decide.
import { describe, expect, it } from 'vitest';
import { CHECK_ACTION } from '../../src/mcp/check-action.ts';
import { newToolContext } from '../../src/mcp/tools.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';

describe('MCP check_action', () => {
  it("reads AGENTS_PLAN from the run's environment, not the process's", async () => {
    expect(process.env.AGENTS_PLAN).toBeUndefined();
    const root = exampleStore();
    const ctx = newToolContext(new InvariantService(root), { ...process.env, AGENTS_PLAN: EXAMPLE_PLAN });
    const answer = await CHECK_ACTION.run({ path: 'src/a.ts' }, ctx);
    expect(answer.data.plan).toBe(EXAMPLE_PLAN);
  });
});
