// MCP check_action reads the run's environment (the one main was given), as every other service does, not the
// process's: an agent's AGENTS_PLAN names the plan whose guards decide.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('MCP check_action text', () => {
  it('names a guard that matched but is waived, as guard try does, instead of saying no guard matches', async () => {
    const root = exampleStore();
    const id = '01M939MXZ874EP4S1PCNZAJ4NV';
    writeFileSync(
      join(root, 'global', `${id}.yaml`),
      `id: ${id}\ntext: Agents never touch production credentials\nseverity: error\nguard:\n  write: ["secrets/**"]\ncreated_at: "2026-12-05T14:27:38Z"\n`,
    );
    mkdirSync(join(root, 'plans', EXAMPLE_PLAN, 'waivers'), { recursive: true });
    writeFileSync(
      join(root, 'plans', EXAMPLE_PLAN, 'waivers', '01M939N6G1MF8FETN8JDZSDBC6.yaml'),
      `id: 01M939N6G1MF8FETN8JDZSDBC6\ninvariant_id: ${id}\nreason: rotate keys\nowner: alice\nexpires: "2999-01-10"\ncreated_at: "2026-12-05T14:27:46Z"\n`,
    );
    const ctx = newToolContext(new InvariantService(root), { ...process.env, AGENTS_PLAN: EXAMPLE_PLAN });
    const waived = await CHECK_ACTION.run({ path: 'secrets/a.pem' }, ctx);
    expect(waived.data.decision).toBe('none');
    expect(waived.data.hits).toMatchObject([{ invariant: id, waived: true }]);
    expect(waived.text).toContain(id);
    const none = await CHECK_ACTION.run({ path: 'src/a.ts' }, ctx);
    expect(none.data.hits).toEqual([]);
    expect(none.text).not.toContain(id);
  });
});
